use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
struct User(String);

fn main() {}
