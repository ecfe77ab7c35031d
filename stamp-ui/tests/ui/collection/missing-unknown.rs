use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
}

#[derive(stamp::Collection)]
enum Partition {
    Customer(Customer),
}

fn main() {}
