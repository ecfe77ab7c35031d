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

/// serde would read `totalCents`, which `Order` does not store.
#[derive(stamp::Projection, Deserialize)]
#[serde(rename_all = "camelCase")]
#[stamp(entity = Order)]
struct Total {
    total_cents: u64,
}

fn main() {}
