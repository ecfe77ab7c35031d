use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "PRODUCT#<sku>"]
#[sk = "PRODUCT"]
struct Product {
    sku: String,
}

#[derive(stamp::Collection)]
enum Mixed {
    Customer(Customer),
    Product(Product),
    Unknown(stamp::AttributeMap),
}

fn main() {}
