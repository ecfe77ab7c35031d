use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "COPY#<id>#<id>"]
struct User {
    id: String,
}

fn main() {}
