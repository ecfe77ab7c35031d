// Two vector indexes of one field with different dimensions: DynamoDB
// requires one number of dimensions per vector attribute, and would refuse
// the CreateTable.
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = embedding, dimensions = 4, distance = cosine)]
#[vector2(field = embedding, dimensions = 8, distance = euclidean)]
struct Doc {
    id: String,
    embedding: Vec<f32>,
}

fn main() {}
