use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[stamp(type_attribute = "PK")]
struct User {
    id: String,
}

fn main() {}
