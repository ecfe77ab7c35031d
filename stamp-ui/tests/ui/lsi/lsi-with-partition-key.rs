use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(pk = "STATUS#<status>", sk = "TOTAL#<total>")]
struct Order {
    customer_id: String,
    order_id: String,
    status: String,
    total: u32,
}

fn main() {}
