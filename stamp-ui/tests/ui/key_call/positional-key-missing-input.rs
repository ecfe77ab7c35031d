//! A key function of fields of different types is positional, in template
//! order: a call missing one shows every input with its type.
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_no>"]
struct Order {
    customer_id: String,
    created_at: DateTime<Utc>,
    order_no: u32,
}

fn main() {
    let _ = Order::key("c-1", &Utc::now());
}
