use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
}

#[derive(stamp::Collection)]
#[stamp(any_partition, index = 1)]
enum Everything {
    Customer(Customer),
    Unknown(stamp::AttributeMap),
}

fn main() {}
