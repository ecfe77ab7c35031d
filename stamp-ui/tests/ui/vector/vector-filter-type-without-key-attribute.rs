// An inline filter's stored type is decided as a multi-attribute key
// attribute's (`IndexKeyAttribute`): a struct is stored as a map.
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Point {
    x: i64,
    y: i64,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 3, distance = cosine, filter(at))]
struct Doc {
    id: String,
    at: Point,
    embedding: Vec<f32>,
}

fn main() {}
