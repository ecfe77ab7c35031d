use serde::{Deserialize, Serialize};

#[derive(stamp::Attributes, Serialize, Deserialize, Clone)]
struct Address {
    city: String,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    address: Address,
    tags: Vec<String>,
}

fn main() {
    let _ = Customer::update("c-1").set(Customer::ADDRESS.then(Address::CITY), &42u32);
    let _ = Customer::update("c-1").set(Customer::TAGS.at(0), &7u8);
}
