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

// Writes no vector index: it cannot share the documents' one.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TAG#<id>"]
#[sk = "TAG"]
struct Tag {
    id: String,
    tenant: String,
}

#[derive(stamp::Collection)]
#[stamp(vector = 1)]
enum Shelf {
    Doc(Doc),
    Tag(Tag),
    Unknown(stamp::AttributeMap),
}

fn main() {}
