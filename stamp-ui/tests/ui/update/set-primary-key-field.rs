use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    name: String,
}

fn main() {
    let _ = Customer::update("c-1").set(Customer::CUSTOMER_ID, &"c-2".to_owned());
}
