use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi0 = "EMAIL#<email>"]
struct User {
    id: String,
    email: String,
}

fn main() {}
