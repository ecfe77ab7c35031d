use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi0(sk = "TOTAL#<total>")]
struct Order {
    customer_id: String,
    order_id: String,
    total: u32,
}

fn main() {}
