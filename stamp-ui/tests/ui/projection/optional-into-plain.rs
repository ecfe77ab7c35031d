use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
struct Order {
    customer_id: String,
    order_id: String,
    total_cents: u64,
    note: Option<String>,
}

/// `note` is optional in `Order`: an item may lack it.
#[derive(stamp::Projection, Deserialize)]
#[stamp(entity = Order)]
struct Note {
    note: String,
}

fn main() {}
