use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<user_id>"]
#[sk = "PROFILE"]
struct User {
    id: String,
    name: String,
}

fn main() {}
