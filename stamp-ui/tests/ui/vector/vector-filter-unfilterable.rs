use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 3, distance = cosine, filter(tags, published))]
struct Doc {
    id: String,
    tags: Vec<String>,
    published: bool,
    embedding: Vec<f32>,
}

fn main() {}
