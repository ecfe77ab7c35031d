// A search's condition names only the index's inline filters: `sku` is not
// one, so it is not a field of the filters the closure gets.
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
        .filter(|f| f.sku.eq(&"A-1".to_owned()));
}
