use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi21 = "EMAIL#<email>"]
struct User {
    id: String,
    email: String,
}

fn main() {}
