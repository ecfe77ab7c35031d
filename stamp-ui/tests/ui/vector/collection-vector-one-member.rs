use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 3, distance = cosine, pk = "TENANT#<tenant>")]
struct Doc {
    id: String,
    tenant: String,
    embedding: Vec<f32>,
}

// A collection of a vector index only one entity writes: a search of it
// returns that entity already.
#[derive(stamp::Collection)]
#[stamp(vector = 1)]
enum Docs {
    Doc(Doc),
    Unknown(stamp::AttributeMap),
}

fn main() {}
