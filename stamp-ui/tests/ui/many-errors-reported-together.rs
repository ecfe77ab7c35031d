use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<user_id>"]
#[sk = "ORDER#<created_at"]
#[gsi1 = "STATUS#<>"]
struct Order {
    id: String,
    created_at: u64,
    status: String,
}

fn main() {}
