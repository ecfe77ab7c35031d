//! The example of `stamp::local::LocalDynamoDb`'s docs, run as a user's test
//! (stamp-core/src/local/example.md holds the same code).

use serde::{Deserialize, Serialize};
use stamp::local::LocalDynamoDb;
use stamp::{Item, TableDefinition};

/// Its own order entity: the same code as the docs' example (stamp-core/src/local/example.md).
#[derive(Item, Serialize, Deserialize, Debug, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_no>"]
struct Order {
    customer_id: String,
    order_no: u32,
    total_cents: u64,
}

#[tokio::test]
async fn orders_come_back_newest_first() -> Result<(), Box<dyn std::error::Error>> {
    // An in-memory DynamoDB on a free port of 127.0.0.1, stopped when dropped.
    let dynamodb = LocalDynamoDb::start().await?;
    let table = dynamodb.table("shop");
    table
        .create_table(&TableDefinition::new().entity::<Order>())
        .await?;
    for order_no in 1..=3 {
        let order = Order {
            customer_id: "c-1".into(),
            order_no,
            total_cents: 100,
        };
        table.put(&order).await?;
    }

    // A page of at most 2 items: `max_items` (`limit` is DynamoDB's `Limit`,
    // the items one request evaluates, not a page size).
    let page = Order::query("c-1")
        .newest_first()
        .max_items(2)
        .send(&table)
        .await?;
    let numbers: Vec<u32> = page.items.iter().map(|order| order.order_no).collect();
    assert_eq!(numbers, [3, 2]);
    Ok(())
}
