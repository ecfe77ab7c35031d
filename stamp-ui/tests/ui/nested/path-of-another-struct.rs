use serde::{Deserialize, Serialize};

#[derive(stamp::Attributes, Serialize, Deserialize, Clone)]
struct Address {
    city: String,
}

#[derive(stamp::Attributes, Serialize, Deserialize, Clone)]
struct Phone {
    number: String,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    address: Address,
}

fn main() {
    // `number` is a field of `Phone`, not of the `Address` at `address`.
    let _ = Customer::update("c-1").set(Customer::ADDRESS.then(Phone::NUMBER), &"x".to_owned());
}
