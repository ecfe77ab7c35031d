use serde::{Deserialize, Serialize};

// An LSI sort key may use an `Option` field (a sparse index); a condition
// on it takes the index's sort-key field types (`u32` here), not a string.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "SHIP#<shipped_on>")]
struct Order {
    customer_id: String,
    order_id: String,
    shipped_on: Option<u32>,
}

fn main() {
    let _ = Order::query_lsi1("c-1").sort_key_eq("not a u32");
}
