//! A one-entity service: puts and gets an order.

use serde::{Deserialize, Serialize};
use stamp::aws_sdk_dynamodb::{Client, Config, config::BehaviorVersion};
use stamp::{Item, Table};

/// An order of a customer.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
struct Order {
    customer_id: String,
    order_id: u64,
    total_cents: i64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), stamp::Error> {
    let config = Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(stamp::aws_sdk_dynamodb::config::Region::new("us-east-1"))
        .endpoint_url("http://127.0.0.1:8000")
        .build();
    let table = Table::new(Client::from_conf(config), "service");
    let order = Order { customer_id: "c-1".into(), order_id: 1, total_cents: 500 };
    table.put(&order).await?;
    let read: Option<Order> = table.get(&Order::key("c-1", &1)?).await?;
    println!("{read:?}");
    Ok(())
}
