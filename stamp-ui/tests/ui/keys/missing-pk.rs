use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[sk = "PROFILE"]
struct User {
    id: String,
}

fn main() {}
