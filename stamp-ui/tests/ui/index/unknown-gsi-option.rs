use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi1(pk = "EMAIL#<email>", projection = "ALL")]
struct User {
    id: String,
    email: String,
}

fn main() {}
