use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
enum User {
    Active { id: String },
}

fn main() {}
