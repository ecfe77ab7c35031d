// The partition element takes only `=`, which the search's partition
// argument gives: a condition cannot name it, so `<>` on it does not compile.
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "PRODUCT#<sku>"]
#[sk = "PRODUCT"]
#[vector1(field = embedding, dimensions = 3, distance = cosine, pk = "TENANT#<tenant_id>", filter(price))]
struct Product {
    tenant_id: String,
    sku: String,
    price: u32,
    embedding: Vec<f32>,
}

fn main() {
    let _ = Product::search_similar("t-1", &[1.0, 0.0, 0.0])
        .filter(|f| f.tenant_id.ne(&"t-2".to_owned()));
}
