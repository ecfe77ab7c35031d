use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TENANT#<tenant>"]
#[sk = "USER#<id>"]
#[stamp(previous(pk = "USER#<id>", pk = "U#<id>"))]
struct User {
    tenant: String,
    id: String,
}

fn main() {}
