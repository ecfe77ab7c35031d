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

// A table-wide change type: its members are in different partitions, so
// it is not a collection a query reads.
#[derive(stamp::Collection)]
#[stamp(any_partition)]
enum Everything {
    Customer(Customer),
    Product(Product),
    Unknown(stamp::AttributeMap),
}

fn main() {
    let _ = Customer::query("c-1").collection::<Everything>();
}
