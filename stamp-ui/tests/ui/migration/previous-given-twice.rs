use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TENANT#<tenant>"]
#[sk = "USER#<id>"]
#[stamp(previous(pk = "USER#<id>", sk = "PROFILE"))]
#[stamp(previous(pk = "U#<id>", sk = "PROFILE"))]
struct User {
    tenant: String,
    id: String,
}

fn main() {}
