//! `Table::rekey` moves an item to a new key without losing a concurrent
//! edit. The expected outcomes come from DynamoDB's documentation of
//! `TransactWriteItems`: the transaction succeeds only when every action's
//! condition holds, otherwise nothing is written and each action has a
//! cancellation reason (`ConditionalCheckFailed` for a false condition,
//! with the item as it is when `ReturnValuesOnConditionCheckFailure` is
//! `ALL_OLD`).
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use crate::common;
use stamp::AttributeMap;
use stamp::error::Refusal;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use stamp::{Entity, Error, Item, Table, TableDefinition};

/// No version: the delete is guarded by "unchanged since it was read".
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[gsi1(pk = "CUSTOMER#<customer_id>", sk = "<updated_at>")]
struct Order {
    customer_id: String,
    order_id: u32,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
    #[stamp(created_at)]
    created_at: DateTime<Utc>,
    total_cents: u64,
    note: Option<String>,
}

/// Versioned: the delete is guarded by the version.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: String,
    balance: i64,
    #[stamp(created_at)]
    created_at: DateTime<Utc>,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
    #[stamp(version)]
    version: u64,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Order>().entity::<Account>()
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn order(order_id: u32) -> Order {
    Order {
        customer_id: "c-1".into(),
        order_id,
        updated_at: time("2020-01-01T00:00:00Z"),
        created_at: time("2020-01-01T00:00:00Z"),
        total_cents: 1000,
        note: Some("leave at the door".into()),
    }
}

fn account(id: &str) -> Account {
    Account {
        id: id.into(),
        balance: 10,
        created_at: time("2020-01-01T00:00:00Z"),
        updated_at: time("2020-01-01T00:00:00Z"),
        version: 0,
    }
}

async fn raw<E: Entity>(table: &Table, entity: &E) -> Option<AttributeMap> {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(entity.primary_key().unwrap().to_attribute_map()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
}

async fn read<E: Entity>(table: &Table, entity: &E) -> Option<E> {
    table.get(&entity.primary_key().unwrap()).await.unwrap()
}

/// So that a stamp taken later is strictly later.
async fn tick() {
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
}

#[tokio::test]
async fn rekey_keeps_created_at_and_stamps_updated_at() {
    let table = common::fresh_table("rekey-times", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    tick().await;
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    table.rekey(&stored, &moved).await.unwrap();
    assert_eq!(read(&table, &stored).await, None, "the old item is gone");
    let at_new_key = read(&table, &moved).await.unwrap();
    assert_eq!(
        at_new_key.created_at, stored.created_at,
        "created_at is kept"
    );
    assert!(
        at_new_key.updated_at > stored.updated_at,
        "updated_at is stamped"
    );
    assert_eq!(
        Order {
            updated_at: stored.updated_at,
            ..at_new_key
        },
        moved
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_does_not_lose_a_concurrent_edit() {
    let (table, counter) = common::fresh_counted_table("rekey-edit", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    // Someone else edits the order between our read and our rekey.
    let edited = Order {
        note: Some("ring twice".into()),
        ..stored.clone()
    };
    table.put(&edited).await.unwrap();
    let before = raw(&table, &stored).await.unwrap();
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    counter.reset();
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert_eq!(counter.operations(), ["GetItem", "TransactWriteItems"]);
    match &error {
        Error::ConditionFailed { key, item, .. } => {
            assert_eq!(key, "PK=CUST#c-1, SK=ORDER#0000000001");
            assert_eq!(**item, before, "the item as it is now");
        }
        other => panic!("expected ConditionFailed, got {other}"),
    }
    assert_eq!(
        raw(&table, &stored).await,
        Some(before),
        "the old item keeps the edit"
    );
    assert_eq!(raw(&table, &moved).await, None, "no new item");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_of_a_deleted_item_is_item_not_found() {
    let table = common::fresh_table("rekey-gone", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    table.delete(&stored.primary_key().unwrap()).await.unwrap();
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert!(
        matches!(&error, Error::ItemNotFound { key, .. } if key == "PK=CUST#c-1, SK=ORDER#0000000001"),
        "{error}"
    );
    assert_eq!(raw(&table, &moved).await, None, "no new item");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_onto_a_taken_key_is_already_exists_and_changes_nothing() {
    let table = common::fresh_table("rekey-taken", &definition()).await;
    table.create(&order(1)).await.unwrap();
    table.create(&order(3)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    let old_before = raw(&table, &order(1)).await.unwrap();
    let taken_before = raw(&table, &order(3)).await.unwrap();
    let taken = Order {
        order_id: 3,
        ..stored.clone()
    };
    let error = table.rekey(&stored, &taken).await.unwrap_err();
    assert!(
        matches!(&error, Error::AlreadyExists { key, .. } if key == "PK=CUST#c-1, SK=ORDER#0000000003"),
        "{error}"
    );
    assert_eq!(raw(&table, &order(1)).await, Some(old_before));
    assert_eq!(raw(&table, &order(3)).await, Some(taken_before));
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_onto_its_own_key_is_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("rekey-same", &definition()).await;
    let error = table.rekey(&order(1), &order(1)).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::DuplicateTransactionItem {
                first: 0,
                second: 1,
                ..
            })
        ),
        "{error}"
    );
    assert!(counter.operations().is_empty(), "nothing sent");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_versioned_entity_rekeys_at_the_next_version() {
    let table = common::fresh_table("rekey-version", &definition()).await;
    table.create(&account("a-1")).await.unwrap();
    let stored = read(&table, &account("a-1")).await.unwrap();
    assert_eq!(stored.version, 1);
    tick().await;
    let moved = Account {
        id: "a-2".into(),
        ..stored.clone()
    };
    table.rekey(&stored, &moved).await.unwrap();
    assert_eq!(read(&table, &stored).await, None, "the old item is gone");
    let at_new_key = read(&table, &moved).await.unwrap();
    assert_eq!(at_new_key.version, 2, "the old version + 1");
    assert_eq!(
        at_new_key.created_at, stored.created_at,
        "created_at is kept"
    );
    assert!(at_new_key.updated_at > stored.updated_at);
    assert_eq!(at_new_key.balance, 10);
    // The moved item goes on with optimistic locking at its new key.
    table
        .put(&Account {
            balance: 20,
            ..at_new_key
        })
        .await
        .unwrap();
    assert_eq!(read(&table, &moved).await.unwrap().version, 3);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_versioned_rekey_from_a_stale_read_is_a_version_conflict() {
    let table = common::fresh_table("rekey-stale", &definition()).await;
    table.create(&account("a-1")).await.unwrap();
    let stored = read(&table, &account("a-1")).await.unwrap();
    table
        .put(&Account {
            balance: 99,
            ..stored.clone()
        })
        .await
        .unwrap();
    let before = raw(&table, &stored).await.unwrap();
    let moved = Account {
        id: "a-2".into(),
        ..stored.clone()
    };
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 1,
                found: Some(2),
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(raw(&table, &stored).await, Some(before), "the edit is kept");
    assert_eq!(raw(&table, &moved).await, None, "no new item");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_versioned_rekey_at_the_last_version_overflows_before_sending() {
    let (table, counter) = common::fresh_counted_table("rekey-overflow", &definition()).await;
    let stored = Account {
        version: u64::MAX,
        ..account("a-1")
    };
    let moved = Account {
        id: "a-2".into(),
        ..stored.clone()
    };
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::VersionOverflow {
                version: u64::MAX,
                ..
            })
        ),
        "{error}"
    );
    assert!(counter.operations().is_empty(), "nothing sent");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_does_not_lose_a_field_set_meanwhile() {
    let table = common::fresh_table("rekey-added", &definition()).await;
    table
        .create(&Order {
            note: None,
            ..order(1)
        })
        .await
        .unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    assert_eq!(stored.note, None);
    // An attribute the read did not have is written meanwhile.
    Order::update("c-1", &1)
        .set(Order::NOTE, &"fragile".to_owned())
        .send(&table)
        .await
        .unwrap();
    let before = raw(&table, &stored).await.unwrap();
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert!(
        matches!(&error, Error::ConditionFailed { item, .. } if **item == before),
        "{error}"
    );
    assert_eq!(raw(&table, &stored).await, Some(before), "the edit is kept");
    assert_eq!(raw(&table, &moved).await, None, "no new item");
    table.delete_table().await.unwrap();
}

/// Another writer adds an attribute the struct does not have.
async fn set_extra(table: &Table, entity: &Order, value: &str) {
    table
        .client()
        .update_item()
        .table_name(table.name())
        .set_key(Some(entity.primary_key().unwrap().to_attribute_map()))
        .update_expression("SET extra = :x")
        .expression_attribute_values(
            ":x",
            aws_sdk_dynamodb::types::AttributeValue::S(value.into()),
        )
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn rekey_keeps_an_attribute_the_struct_does_not_have() {
    let (table, counter) = common::fresh_counted_table("rekey-extra", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    set_extra(&table, &stored, "kept").await;
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    counter.reset();
    table.rekey(&stored, &moved).await.unwrap();
    let operations = counter.operations();
    assert_eq!(raw(&table, &stored).await, None, "the old item is gone");
    let at_new_key = raw(&table, &moved).await.unwrap();
    assert_eq!(
        at_new_key.get("extra"),
        Some(&aws_sdk_dynamodb::types::AttributeValue::S("kept".into())),
        "the attribute is carried to the new key"
    );
    assert_eq!(operations, ["GetItem", "TransactWriteItems"]);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_of_an_item_changed_after_the_read_with_an_extra_attribute_moves_nothing() {
    let table = common::fresh_table("rekey-extra-changed", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let stored = read(&table, &order(1)).await.unwrap();
    set_extra(&table, &stored, "kept").await;
    // A field is changed after the read.
    Order::update("c-1", &1)
        .set(Order::NOTE, &"fragile".to_owned())
        .send(&table)
        .await
        .unwrap();
    let before = raw(&table, &stored).await.unwrap();
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    let error = table.rekey(&stored, &moved).await.unwrap_err();
    assert!(
        matches!(&error, Error::ConditionFailed { item, .. } if **item == before),
        "{error}"
    );
    assert_eq!(
        raw(&table, &stored).await,
        Some(before),
        "the old item is kept"
    );
    assert_eq!(raw(&table, &moved).await, None, "nothing moved");
    table.delete_table().await.unwrap();
}
