use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi1 = "EMAIL#<email>"]
#[gsi1 = "NAME#<name>"]
struct User {
    id: String,
    email: String,
    name: String,
}

fn main() {}
