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
    name: String,
}

fn main() {
    // A field that is not an `Option` cannot be removed, nested or not;
    // nor has a `String` any elements.
    let _ = Customer::update("c-1").remove(Customer::ADDRESS.then(Address::CITY));
    let _ = Customer::NAME.at(0);
}
