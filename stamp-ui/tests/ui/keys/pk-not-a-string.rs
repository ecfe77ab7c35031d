use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk(id)]
#[sk = "PROFILE"]
struct User {
    id: String,
}

fn main() {}
