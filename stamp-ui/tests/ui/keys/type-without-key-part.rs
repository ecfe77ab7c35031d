use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Region {
    code: String,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "REGION#<region>"]
#[sk = "STORE#<id>"]
struct Store {
    region: Region,
    id: String,
}

fn main() {}
