use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TENANT#<tenant>"]
#[sk = "USER#<id>"]
#[stamp(previous(pk = "USER#<id>", sk = "NICK#<nickname>"))]
struct User {
    tenant: String,
    id: String,
    nickname: Option<String>,
}

fn main() {}
