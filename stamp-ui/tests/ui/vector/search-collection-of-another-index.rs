use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[gsi1(pk = "TENANT#<tenant>")]
#[vector1(field = embedding, dimensions = 3, distance = cosine, pk = "TENANT#<tenant>")]
struct Doc {
    id: String,
    tenant: String,
    embedding: Vec<f32>,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "NOTE#<id>"]
#[sk = "NOTE"]
#[gsi1(pk = "TENANT#<tenant>")]
struct Note {
    id: String,
    tenant: String,
}

// A collection of GSI1, not of the vector index the search reads.
#[derive(stamp::Collection)]
#[stamp(index = 1)]
enum ByTenant {
    Doc(Doc),
    Note(Note),
    Unknown(stamp::AttributeMap),
}

fn main() {
    let _ = Doc::search_similar("t-1", &[1.0, 0.0, 0.0]).collection::<ByTenant>();
}
