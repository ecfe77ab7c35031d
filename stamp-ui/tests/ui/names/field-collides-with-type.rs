use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
struct User {
    id: String,
    r#type: String,
}

fn main() {}
