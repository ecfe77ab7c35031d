//! `TableSnapshot`: the table, or one partition, as entities.

use aws_sdk_dynamodb::types::AttributeValue;
use stamp::testing::TableSnapshot;

use super::model::*;
use crate::common;

#[tokio::test]
async fn a_snapshot_holds_every_item_as_its_entity_in_key_order() {
    let table = common::fresh_table("kit-snapshot", &definition()).await;
    // Written out of key order: the snapshot sorts by partition, then sort key.
    table.put(&lamp()).await.unwrap();
    table.put(&order("c-1", 2)).await.unwrap();
    table.put(&ada()).await.unwrap();
    table.put(&order("c-1", 1)).await.unwrap();

    let stored = TableSnapshot::<Shop>::read(&table).await.unwrap();
    let expected = TableSnapshot::<Shop>::expected()
        .with(&lamp())
        .with(&ada())
        .with(&order("c-1", 2))
        .with(&order("c-1", 1));
    assert_eq!(stored, expected);
    assert_eq!(
        stored.items().cloned().collect::<Vec<_>>(),
        [
            Shop::Order(order("c-1", 1)),
            Shop::Order(order("c-1", 2)),
            Shop::Customer(ada()),
            Shop::Product(lamp()),
        ]
    );
    assert_eq!(
        stored.keys(),
        [
            ("CUST#c-1".to_owned(), Some("ORDER#0000000001".to_owned())),
            ("CUST#c-1".to_owned(), Some("ORDER#0000000002".to_owned())),
            ("CUST#c-1".to_owned(), Some("PROFILE".to_owned())),
            ("PRODUCT#LAMP".to_owned(), Some("PRODUCT".to_owned())),
        ]
    );
}

#[tokio::test]
async fn a_snapshot_is_drawn_as_a_table() {
    let table = common::fresh_table("kit-drawn", &definition()).await;
    table.put(&ada()).await.unwrap();
    table.put(&order("c-1", 1)).await.unwrap();
    table.put(&lamp()).await.unwrap();
    let stored = TableSnapshot::<Shop>::read(&table).await.unwrap();
    let drawn = format!("{stored:?}");
    assert_eq!(
        drawn,
        format!(
            "table {} (3 items)\n\
             PK           | SK               | Type     | attributes\n\
             -------------+------------------+----------+-----------\n\
             CUST#c-1     | ORDER#0000000001 | Order    | customer_id=\"c-1\", order_no=1, total_cents=100\n\
             CUST#c-1     | PROFILE          | Customer | customer_id=\"c-1\", name=\"Ada\"\n\
             PRODUCT#LAMP | PRODUCT          | Product  | sku=\"LAMP\", stock=3\n",
            table.name()
        )
    );
    assert_eq!(stored.to_string(), drawn);
}

#[tokio::test]
async fn a_difference_shows_in_the_tables_a_failed_assertion_prints() {
    let table = common::fresh_table("kit-differs", &definition()).await;
    table.put(&ada()).await.unwrap();
    table.put(&order("c-1", 1)).await.unwrap();
    let stored = TableSnapshot::<Shop>::read(&table).await.unwrap();
    let mut changed = order("c-1", 1);
    changed.total_cents = 99;
    let expected = TableSnapshot::<Shop>::expected()
        .with(&ada())
        .with(&changed);
    assert_ne!(stored, expected);
    assert_ne!(stored, TableSnapshot::expected().with(&ada()));
    let failure = std::panic::catch_unwind(|| assert_eq!(stored, expected)).unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("  left: table stamp-kit-differs-"),
        "{message}"
    );
    assert!(
        message.contains(
            " right: expected table (2 items)\n\
             PK       | SK               | Type     | attributes\n\
             ---------+------------------+----------+-----------\n\
             CUST#c-1 | ORDER#0000000001 | Order    | customer_id=\"c-1\", order_no=1, total_cents=99\n"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn an_item_of_another_type_is_unknown_with_its_keys() {
    let table = common::fresh_table("kit-unknown", &definition()).await;
    table.put(&ada()).await.unwrap();
    let guard: stamp::AttributeMap = [
        (
            "PK",
            AttributeValue::S("UNIQUE#email#ada@example.com".into()),
        ),
        ("SK", AttributeValue::S("UNIQUE".into())),
        ("Type", AttributeValue::S("Guard".into())),
        ("owner", AttributeValue::Ss(vec!["b".into(), "a".into()])),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect();
    table
        .client()
        .put_item()
        .table_name(table.name())
        .set_item(Some(guard.clone()))
        .send()
        .await
        .unwrap();
    let stored = TableSnapshot::<Shop>::read(&table).await.unwrap();
    assert_eq!(
        stored,
        TableSnapshot::expected()
            .with(&ada())
            .with_item(guard.clone())
    );
    // Read back with the set's elements in order (DynamoDB keeps none).
    let mut sorted = guard;
    sorted.insert(
        "owner".to_owned(),
        AttributeValue::Ss(vec!["a".into(), "b".into()]),
    );
    assert_eq!(
        stored.items().cloned().collect::<Vec<_>>(),
        [Shop::Customer(ada()), Shop::Unknown(sorted)]
    );
    assert!(
        stored.to_string().ends_with(
            "UNIQUE#email#ada@example.com | UNIQUE  | Guard    | owner=<<\"a\", \"b\">>\n"
        ),
        "{stored}"
    );
}

#[tokio::test]
async fn a_partition_snapshot_holds_that_partition_only() {
    let table = common::fresh_table("kit-partition", &definition()).await;
    table.put(&ada()).await.unwrap();
    table.put(&order("c-1", 1)).await.unwrap();
    table.put(&order("c-2", 1)).await.unwrap();
    table.put(&lamp()).await.unwrap();
    let partition = Customer::key("c-1").unwrap();
    let stored =
        TableSnapshot::<CustomerWithOrders>::read_partition(&table, partition.partition_key())
            .await
            .unwrap();
    assert_eq!(
        stored,
        TableSnapshot::expected()
            .with(&ada())
            .with(&order("c-1", 1))
    );
    assert_eq!(stored.len(), 2);
    let empty = TableSnapshot::<CustomerWithOrders>::read_partition(&table, "CUST#nobody")
        .await
        .unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty, TableSnapshot::expected());
}
