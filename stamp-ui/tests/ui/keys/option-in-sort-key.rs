use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "ORDER#<order_number>"]
struct Order {
    id: String,
    order_number: Option<u32>,
}

fn main() {}
