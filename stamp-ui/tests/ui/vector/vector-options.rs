use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, distance = manhattan, dimensions = 3)]
#[vector2(field = embedding, distance = cosine)]
#[vector3(field = missing, dimensions = 3, distance = cosine, pk = "T#<tenant>")]
struct Doc {
    id: String,
    embedding: Vec<f32>,
}

fn main() {}
