use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "TOTAL#<total>", sk_attribute = "SK")]
#[lsi2(sk = "NOTE#<note>")]
struct Order {
    customer_id: String,
    order_id: String,
    total: u32,
    #[serde(rename = "LSI2SK")]
    note: String,
}

fn main() {}
