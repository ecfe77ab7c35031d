use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi1(pk = "EMAIL#<email>", sk = "USER", index_name = "by")]
struct User {
    id: String,
    email: String,
}

fn main() {}
