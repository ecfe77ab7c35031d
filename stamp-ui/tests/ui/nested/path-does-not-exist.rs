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
}

fn main() {
    // `Address` has no field `street`.
    let _ = Customer::update("c-1").set(Customer::ADDRESS.then(Address::STREET), &"x".to_owned());
}
