//! Server round trips: put and get through `aws-sdk-dynamodb` against the
//! local server that `cargo xtask test` starts, with the exact attribute map
//! checked by a raw `GetItem`.

use crate::common;
use stamp::AttributeMap;
use stamp::error::KeyError;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use stamp::{Entity, Error, Item, KeyPart, Table, TableDefinition};
use uuid::Uuid;

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum OrderStatus {
    Pending,
    Shipped,
}

/// Its own order entity: an unsharded sparse GSI1 and an optional `note`, for the exact stored map.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
struct Order {
    customer_id: String,
    order_id: Uuid,
    created_at: DateTime<Utc>,
    status: Option<OrderStatus>,
    updated_at: DateTime<Utc>,
    total_cents: u64,
    note: Option<String>,
}

/// Fields named after DynamoDB reserved words, and `r#type` stored as `type`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    name: String,
    size: u32,
    status: String,
    r#type: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Order>()
        .entity::<Customer>()
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn order(status: Option<OrderStatus>) -> Order {
    Order {
        customer_id: "c-1".into(),
        order_id: Uuid::from_u128(0x67e5504410b1426f9247bb680e5fe0c8 + status.is_some() as u128),
        created_at: time("2026-06-01T10:00:00Z"),
        status,
        updated_at: time("2026-06-02T08:30:00.5Z"),
        total_cents: 1250,
        note: None,
    }
}

fn string(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

async fn raw_item<E: Entity>(table: &Table, key: &stamp::PrimaryKey<E>) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(key.to_attribute_map()))
        .send()
        .await
        .unwrap()
        .item
        .expect("the item is stored")
}

#[tokio::test]
async fn put_then_get_returns_equal_structs_with_a_sparse_index() {
    let table = common::fresh_table("round-trip", &definition()).await;
    let pending = order(Some(OrderStatus::Pending));
    let unindexed = order(None);
    table.put(&pending).await.unwrap();
    table.put(&unindexed).await.unwrap();

    assert_eq!(
        table.get(&pending.primary_key().unwrap()).await.unwrap(),
        Some(pending.clone())
    );
    assert_eq!(
        table.get(&unindexed.primary_key().unwrap()).await.unwrap(),
        Some(unindexed.clone())
    );

    let sort_key = |order: &Order| {
        format!(
            "ORDER#2026-06-01T10:00:00.000000000Z#{}",
            order.order_id.hyphenated()
        )
    };
    let common_attributes = |order: &Order| {
        HashMap::from([
            ("PK".to_owned(), string("CUST#c-1")),
            ("SK".to_owned(), string(&sort_key(order))),
            ("Type".to_owned(), string("Order")),
            ("customer_id".to_owned(), string("c-1")),
            ("order_id".to_owned(), string(&order.order_id.to_string())),
            // Times with nine fractional digits always, the form that sorts.
            (
                "created_at".to_owned(),
                string("2026-06-01T10:00:00.000000000Z"),
            ),
            (
                "updated_at".to_owned(),
                string("2026-06-02T08:30:00.500000000Z"),
            ),
            (
                "total_cents".to_owned(),
                AttributeValue::N("1250".to_owned()),
            ),
        ])
    };
    let mut expected = common_attributes(&pending);
    expected.insert("status".to_owned(), string("PENDING"));
    expected.insert("GSI1PK".to_owned(), string("STATUS#PENDING"));
    expected.insert(
        "GSI1SK".to_owned(),
        string("2026-06-02T08:30:00.500000000Z"),
    );
    assert_eq!(
        raw_item(&table, &pending.primary_key().unwrap()).await,
        expected
    );
    // `None` fields and the index attributes of a `None` index field are left out, never `NULL`.
    assert_eq!(
        raw_item(&table, &unindexed.primary_key().unwrap()).await,
        common_attributes(&unindexed)
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn get_of_an_absent_item_is_none() {
    let table = common::fresh_table("absent", &definition()).await;
    let key = Order::key("nobody", &time("2026-06-01T10:00:00Z"), &Uuid::nil()).unwrap();
    assert_eq!(table.get(&key).await.unwrap(), None);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn reserved_words_and_raw_identifiers_round_trip() {
    let table = common::fresh_table("reserved", &definition()).await;
    let customer = Customer {
        customer_id: "Ada#1%".into(),
        name: "Ada Lovelace".into(),
        size: 3,
        status: "ACTIVE".into(),
        r#type: "vip".into(),
    };
    table.put(&customer).await.unwrap();
    let key = Customer::key("Ada#1%").unwrap();
    assert_eq!(key.partition_key(), "CUST#Ada%231%25");
    assert_eq!(table.get(&key).await.unwrap(), Some(customer));
    let stored = raw_item(&table, &key).await;
    assert_eq!(stored["type"], string("vip"));
    assert_eq!(stored["Type"], string("Customer"));
    assert_eq!(stored["name"], string("Ada Lovelace"));
    assert_eq!(stored["size"], AttributeValue::N("3".to_owned()));
    // Keys keep their case: another case is another item.
    assert_eq!(
        table.get(&Customer::key("ada#1%").unwrap()).await.unwrap(),
        None
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_empty_key_value_is_refused_before_anything_is_written() {
    let table = common::fresh_table("empty-key", &definition()).await;
    let mut customer = Customer {
        customer_id: String::new(),
        name: "Nobody".into(),
        size: 0,
        status: "ACTIVE".into(),
        r#type: "none".into(),
    };
    let error = table.put(&customer).await.unwrap_err();
    assert!(matches!(
        error,
        Error::Key(KeyError::EmptyKeyValue {
            entity: "Customer",
            field: "customer_id"
        })
    ));
    let scanned = table
        .client()
        .scan()
        .table_name(table.name())
        .send()
        .await
        .unwrap();
    assert_eq!(scanned.count, 0);
    customer.customer_id = "c-9".into();
    table.put(&customer).await.unwrap();
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn create_table_makes_the_keys_and_the_indexes_of_the_entities() {
    let table = common::fresh_table("schema", &definition()).await;
    let description = table
        .client()
        .describe_table()
        .table_name(table.name())
        .send()
        .await
        .unwrap()
        .table
        .unwrap();
    let keys: Vec<(String, String)> = description
        .key_schema()
        .iter()
        .map(|key| {
            (
                key.attribute_name().to_owned(),
                key.key_type().as_str().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("PK".to_owned(), "HASH".to_owned()),
            ("SK".to_owned(), "RANGE".to_owned())
        ]
    );
    let indexes: Vec<(String, Vec<String>)> = description
        .global_secondary_indexes()
        .iter()
        .map(|index| {
            (
                index.index_name().unwrap().to_owned(),
                index
                    .key_schema()
                    .iter()
                    .map(|key| key.attribute_name().to_owned())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        indexes,
        [(
            "GSI1".to_owned(),
            vec!["GSI1PK".to_owned(), "GSI1SK".to_owned()]
        )]
    );
    table.delete_table().await.unwrap();
}
