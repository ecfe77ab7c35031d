use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 5000, distance = cosine)]
struct Doc {
    id: String,
    embedding: Vec<f32>,
}

fn main() {}
