use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<>"]
#[sk = "PROFILE"]
struct User {
    id: String,
}

fn main() {}
