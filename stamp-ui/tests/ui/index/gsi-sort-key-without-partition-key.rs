use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[gsi1(sk = "<email>")]
struct User {
    id: String,
    email: String,
}

fn main() {}
