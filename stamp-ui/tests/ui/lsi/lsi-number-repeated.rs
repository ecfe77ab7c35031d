use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "TOTAL#<total>")]
#[lsi1(sk = "NOTE#<note>", sk_attribute = "NoteKey")]
struct Order {
    customer_id: String,
    order_id: String,
    total: u32,
    note: String,
}

fn main() {}
