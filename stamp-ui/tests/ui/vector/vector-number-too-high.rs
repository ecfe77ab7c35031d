use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector6(field = embedding, dimensions = 3, distance = dot_product)]
struct Doc {
    id: String,
    embedding: Vec<f32>,
}

fn main() {}
