use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[stamp(table = "users")]
struct User {
    id: String,
}

fn main() {}
