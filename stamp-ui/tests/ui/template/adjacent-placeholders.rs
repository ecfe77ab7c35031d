use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "ORDER#<created_at><order_id>"]
struct Order {
    id: String,
    created_at: u64,
    order_id: u64,
}

fn main() {}
