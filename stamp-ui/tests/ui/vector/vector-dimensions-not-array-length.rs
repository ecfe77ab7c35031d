use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 4, distance = euclidean)]
struct Doc {
    id: String,
    embedding: [f32; 3],
}

fn main() {}
