// A template error elsewhere in a struct with vector indexes: the stub has
// `search_similar` and `search_similar_vectorN` with their real
// parameters, so searches report nothing more than the template error.
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "PRODUCT#<skuu>"]
#[sk = "PRODUCT"]
#[vector1(field = embedding, dimensions = 3, distance = cosine, pk = "TENANT#<tenant_id>", filter(price))]
#[vector2(field = embedding, dimensions = 3, distance = euclidean)]
struct Product {
    sku: String,
    tenant_id: String,
    price: u32,
    embedding: Vec<f32>,
}

fn main() {
    let vector = [0.5f32, 0.25, 1.0];
    let _ = Product::search_similar("t-1", &vector)
        .top_k(5)
        .filter(|f| f.price.lt(&100));
    let _ = Product::search_similar_vector1("t-1", &vector).top_k(3);
    let _ = Product::search_similar_vector2(&vector).top_k(3);
}
