//! Single-item writes against the local server: create, delete, typed
//! updates with index rewrites, conditions, versions, time stamps, TTL and
//! re-keying, each read back exactly.

use crate::common;
use stamp::AttributeMap;
use stamp::error::Refusal;

use stamp::{BatchWrite, TransactWrite};
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Condition, Delete, Entity, Error, Item, KeyPart, Put, Table, TableDefinition};
use stamp_examples::Session;

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Pending,
    Shipped,
}

/// Its own order entity: the `updated_at`/`created_at` stamps and optional and list fields.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
struct Order {
    customer_id: String,
    order_id: u32,
    status: Option<Status>,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
    #[stamp(created_at)]
    created_at: DateTime<Utc>,
    total_cents: u64,
    note: Option<String>,
    tags: Vec<String>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: String,
    balance: i64,
    #[stamp(version)]
    version: u64,
}

/// Two plain fields in one GSI template.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ROUTE#<id>"]
#[sk = "ROUTE"]
#[gsi2(pk = "FROM#<origin>#TO#<destination>")]
struct Route {
    id: String,
    origin: String,
    destination: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Order>()
        .entity::<Account>()
        .entity::<Route>()
        .entity::<Session>()
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn order(order_id: u32) -> Order {
    Order {
        customer_id: "c-1".into(),
        order_id,
        status: Some(Status::Pending),
        updated_at: time("2020-01-01T00:00:00Z"),
        created_at: time("2020-01-01T00:00:00Z"),
        total_cents: 1000,
        note: Some("leave at the door".into()),
        tags: vec!["gift".into()],
    }
}

async fn raw(table: &Table, key: AttributeMap) -> Option<AttributeMap> {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(key))
        .send()
        .await
        .unwrap()
        .item
}

#[tokio::test]
async fn create_stamps_times_and_refuses_an_existing_item() {
    let (table, counter) = common::fresh_counted_table("create", &definition()).await;
    let before = Utc::now();
    table.create(&order(1)).await.unwrap();
    let after = Utc::now();
    let stored = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert!(
        before <= stored.created_at && stored.created_at <= after,
        "created_at is stamped"
    );
    assert_eq!(stored.updated_at, stored.created_at);
    assert_eq!(
        Order {
            created_at: order(1).created_at,
            updated_at: order(1).updated_at,
            ..stored.clone()
        },
        order(1)
    );
    let item = raw(&table, Order::key("c-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(
        item["GSI1SK"].as_s().unwrap(),
        &format!("{}", stored.updated_at.format("%Y-%m-%dT%H:%M:%S%.9fZ")),
        "the index attribute is built from the stamped time"
    );

    let mut again = order(1);
    again.total_cents = 1;
    let error = table.create(&again).await.unwrap_err();
    assert!(
        matches!(&error, Error::AlreadyExists { entity: "Order", key, .. } if key == "PK=CUST#c-1, SK=ORDER#0000000001"),
        "{error}"
    );
    assert_eq!(
        table
            .get(&Order::key("c-1", &1).unwrap())
            .await
            .unwrap()
            .unwrap(),
        stored,
        "unchanged"
    );
    assert_eq!(counter.count("PutItem"), 2);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn delete_can_return_the_old_item() {
    let table = common::fresh_table("delete", &definition()).await;
    table.put(&order(1)).await.unwrap();
    let stored = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    let old = Delete::new(Order::key("c-1", &1).unwrap())
        .send_returning_old(&table)
        .await
        .unwrap();
    assert_eq!(old, Some(stored));
    assert_eq!(
        table.get(&Order::key("c-1", &1).unwrap()).await.unwrap(),
        None
    );
    assert_eq!(
        Delete::new(Order::key("c-1", &1).unwrap())
            .send_returning_old(&table)
            .await
            .unwrap(),
        None
    );
    table.delete(&Order::key("c-1", &1).unwrap()).await.unwrap();
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn updates_set_remove_add_and_append_and_return_typed_items() {
    let table = common::fresh_table("update", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let old = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    // `updated_at` (GSI1SK) is stamped, so the update states the status
    // (GSI1PK) it leaves alone: both index attributes are written together.
    let new = Order::update("c-1", &1)
        .given(Order::STATUS, &Status::Pending)
        .add(Order::TOTAL_CENTS, &250)
        .remove(Order::NOTE)
        .append(Order::TAGS, &["fragile".to_owned()])
        .send_returning_new(&table)
        .await
        .unwrap();
    assert_eq!(new.total_cents, 1250);
    assert_eq!(new.note, None);
    assert_eq!(new.tags, ["gift", "fragile"]);
    assert!(new.updated_at > old.updated_at, "updated_at is stamped");
    assert_eq!(new.created_at, old.created_at);
    assert_eq!(
        table
            .get(&Order::key("c-1", &1).unwrap())
            .await
            .unwrap()
            .unwrap(),
        new
    );

    let previous = Order::update("c-1", &1)
        .given(Order::STATUS, &Status::Pending)
        .set(Order::TOTAL_CENTS, &99)
        .send_returning_old(&table)
        .await
        .unwrap();
    assert_eq!(previous, new);
    let item = raw(&table, Order::key("c-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(item["total_cents"], AttributeValue::N("99".into()));
    assert!(!item.contains_key("note"), "removed, not NULL");

    let error = Order::update("c-1", &2)
        .given(Order::STATUS, &Status::Pending)
        .set(Order::TOTAL_CENTS, &1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::ItemNotFound {
                entity: "Order",
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(
        table.get(&Order::key("c-1", &2).unwrap()).await.unwrap(),
        None,
        "no partial item was created"
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_update_rewrites_or_removes_the_index_attributes() {
    let table = common::fresh_table("update-index", &definition()).await;
    table.create(&order(1)).await.unwrap();
    Order::update("c-1", &1)
        .set(Order::STATUS, &Status::Shipped)
        .send(&table)
        .await
        .unwrap();
    let stored = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    let item = raw(&table, Order::key("c-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(item["GSI1PK"].as_s().unwrap(), "STATUS#SHIPPED");
    assert_eq!(
        item["GSI1SK"].as_s().unwrap(),
        &format!("{}", stored.updated_at.format("%Y-%m-%dT%H:%M:%S%.9fZ"))
    );
    let shipped: Vec<Order> = Order::query_gsi1(&Status::Shipped)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(shipped, [stored]);
    let pending: Vec<Order> = Order::query_gsi1(&Status::Pending)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert!(pending.is_empty());

    Order::update("c-1", &1)
        .remove(Order::STATUS)
        .send(&table)
        .await
        .unwrap();
    let item = raw(&table, Order::key("c-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    for gone in ["status", "GSI1PK", "GSI1SK"] {
        assert!(!item.contains_key(gone), "{gone} is removed");
    }
    let shipped: Vec<Order> = Order::query_gsi1(&Status::Shipped)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert!(shipped.is_empty(), "the item left the sparse index");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_update_of_one_field_of_a_two_field_template_is_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("update-incomplete", &definition()).await;
    table
        .put(&Route {
            id: "r-1".into(),
            origin: "AMS".into(),
            destination: "LIS".into(),
        })
        .await
        .unwrap();
    counter.reset();
    let error = Route::update("r-1")
        .set(Route::ORIGIN, &"OPO".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::IncompleteIndexUpdate { entity: "Route", index: "GSI2", missing }) if missing == &["destination".to_owned()]),
        "{error}"
    );
    assert!(counter.operations().is_empty());
    Route::update("r-1")
        .set(Route::ORIGIN, &"OPO".to_owned())
        .set(Route::DESTINATION, &"LIS".to_owned())
        .send(&table)
        .await
        .unwrap();
    let item = raw(&table, Route::key("r-1").unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(item["GSI2PK"].as_s().unwrap(), "FROM#OPO#TO#LIS");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn values_with_expression_syntax_have_no_effect() {
    let table = common::fresh_table("injection", &definition()).await;
    table.create(&order(1)).await.unwrap();
    let before = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    let injected = ") OR attribute_exists(PK) OR (".to_owned();
    let error = Order::update("c-1", &1)
        .given(Order::STATUS, &Status::Pending)
        .set(Order::TOTAL_CENTS, &0)
        .condition(Order::NOTE.eq(&injected))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::ConditionFailed {
                entity: "Order",
                ..
            }
        ),
        "{error}"
    );
    let error = Put::new(&order(1))
        .condition(Order::NOTE.eq(&injected))
        .send(&table)
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::ConditionFailed { .. }), "{error}");
    let error = Delete::new(Order::key("c-1", &1).unwrap())
        .condition(Order::NOTE.eq(&injected))
        .send(&table)
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::ConditionFailed { .. }), "{error}");
    // The injected text is stored as a plain value, too.
    Order::update("c-1", &1)
        .given(Order::STATUS, &Status::Pending)
        .set(Order::NOTE, &injected)
        .send(&table)
        .await
        .unwrap();
    let after = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.note.as_deref(), Some(injected.as_str()));
    assert_eq!(after.total_cents, before.total_cents);
    Delete::new(Order::key("c-1", &1).unwrap())
        .condition(
            Order::NOTE
                .eq(&injected)
                .and(Condition::attribute_exists("PK")),
        )
        .send(&table)
        .await
        .unwrap();
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn versions_lock_optimistically() {
    let table = common::fresh_table("versions", &definition()).await;
    let account = Account {
        id: "a-1".into(),
        balance: 10,
        version: 0,
    };
    table.put(&account).await.unwrap();
    let stored = table
        .get(&Account::key("a-1").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version, 1);
    let error = table.put(&account).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 0,
                found: Some(1),
                ..
            }
        ),
        "{error}"
    );

    let error = Account::update("a-1")
        .add(Account::BALANCE, &5)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::MissingExpectedVersion { entity: "Account" })
        ),
        "{error}"
    );
    let updated = Account::update("a-1")
        .add(Account::BALANCE, &5)
        .expect_version(1)
        .send_returning_new(&table)
        .await
        .unwrap();
    assert_eq!(
        updated,
        Account {
            id: "a-1".into(),
            balance: 15,
            version: 2
        }
    );
    let error = Account::update("a-1")
        .add(Account::BALANCE, &5)
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
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
    let error = table.put(&stored).await.unwrap_err();
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
    table.put(&updated).await.unwrap();
    assert_eq!(
        table
            .get(&Account::key("a-1").unwrap())
            .await
            .unwrap()
            .unwrap()
            .version,
        3
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_ttl_is_stored_as_epoch_seconds() {
    // A clock before the session's expiry, so reads return it.
    let table = common::fresh_table("ttl", &definition())
        .await
        .with_clock(|| time("2026-06-01T09:00:00Z"));
    let session = Session {
        token: "t-1".into(),
        customer_id: "c-1".into(),
        expires_at: time("2026-06-01T10:00:00Z"),
    };
    table.put(&session).await.unwrap();
    let item = raw(&table, Session::key("t-1").unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(item["expires_at"], AttributeValue::N("1780308000".into()));
    assert_eq!(
        table.get(&Session::key("t-1").unwrap()).await.unwrap(),
        Some(session)
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn rekey_moves_an_item_in_one_transaction() {
    let (table, counter) = common::fresh_counted_table("rekey", &definition()).await;
    table.create(&order(1)).await.unwrap();
    table.create(&order(3)).await.unwrap();
    let stored = table
        .get(&Order::key("c-1", &1).unwrap())
        .await
        .unwrap()
        .unwrap();
    counter.reset();
    let moved = Order {
        order_id: 2,
        ..stored.clone()
    };
    table.rekey(&stored, &moved).await.unwrap();
    // The stored item is read first (its attributes the entity does not
    // write are carried), then moved in one transaction.
    assert_eq!(counter.operations(), ["GetItem", "TransactWriteItems"]);
    assert_eq!(
        table.get(&Order::key("c-1", &1).unwrap()).await.unwrap(),
        None
    );
    let at_new_key = table
        .get(&Order::key("c-1", &2).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        Order {
            updated_at: stored.updated_at,
            ..at_new_key.clone()
        },
        moved
    );

    let taken = Order {
        order_id: 3,
        ..at_new_key.clone()
    };
    let error = table.rekey(&at_new_key, &taken).await.unwrap_err();
    assert!(matches!(&error, Error::AlreadyExists { .. }), "{error}");
    assert!(
        table
            .get(&Order::key("c-1", &2).unwrap())
            .await
            .unwrap()
            .is_some(),
        "nothing changed"
    );
    let error = table
        .rekey(
            &Order {
                order_id: 9,
                ..moved.clone()
            },
            &Order {
                order_id: 10,
                ..moved
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::ItemNotFound { .. }), "{error}");
    assert_eq!(
        table.get(&Order::key("c-1", &10).unwrap()).await.unwrap(),
        None
    );
    table.delete_table().await.unwrap();
}

#[test]
fn an_update_shows_its_exact_request() {
    let now = time("2026-06-01T10:00:00Z");
    let request = Order::update("c-1", &7)
        .set(Order::STATUS, &Status::Shipped)
        .add(Order::TOTAL_CENTS, &5)
        .at(now)
        .request("shop")
        .unwrap();
    assert_eq!(
        request.update_expression(),
        Some("SET #n0 = :v0, #n2 = :v2, #n3 = :v3, #n4 = :v4 ADD #n1 :v1")
    );
    assert_eq!(
        request.condition_expression(),
        Some("attribute_exists(#n5)")
    );
    let names: HashMap<String, String> = request.expression_attribute_names().unwrap().clone();
    assert_eq!(names["#n0"], "status");
    assert_eq!(names["#n1"], "total_cents");
    assert_eq!(names["#n2"], "updated_at");
    assert_eq!(names["#n3"], "GSI1PK");
    assert_eq!(names["#n4"], "GSI1SK");
    let values = request.expression_attribute_values().unwrap();
    assert_eq!(values[":v3"].as_s().unwrap(), "STATUS#SHIPPED");
    assert_eq!(
        values[":v4"].as_s().unwrap(),
        "2026-06-01T10:00:00.000000000Z"
    );
    let _ = Order::SCHEMA;
}

#[tokio::test]
async fn versioned_entities_are_refused_in_batches_and_checked_in_transactions() {
    let (table, counter) = common::fresh_counted_table("versions-batch", &definition()).await;
    let account = Account {
        id: "a-1".into(),
        balance: 10,
        version: 0,
    };
    let error = BatchWrite::new()
        .put(&account)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::VersionedBatchWrite { entity: "Account" })
        ),
        "{error}"
    );
    assert!(counter.operations().is_empty());

    TransactWrite::new()
        .put(&account)
        .send(&table)
        .await
        .unwrap();
    let stored = table
        .get(&Account::key("a-1").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.version, 1,
        "a transactional put increments the version"
    );
    let error = TransactWrite::new()
        .put(&account)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::TransactionCanceled { .. }),
        "{error}"
    );
    assert_eq!(
        table
            .get(&Account::key("a-1").unwrap())
            .await
            .unwrap()
            .unwrap(),
        stored,
        "unchanged"
    );
    table.delete_table().await.unwrap();
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TAGGED#<id>"]
#[sk = "TAGGED"]
struct Tagged {
    id: String,
    #[serde(with = "stamp::serde_dynamo::string_set", default)]
    tags: std::collections::BTreeSet<String>,
}

#[tokio::test]
async fn sets_are_stored_as_string_sets_and_updated_element_by_element() {
    let table = common::fresh_table("sets", &TableDefinition::new().entity::<Tagged>()).await;
    let set = |items: &[&str]| {
        items
            .iter()
            .map(|item| (*item).to_owned())
            .collect::<std::collections::BTreeSet<String>>()
    };
    table
        .put(&Tagged {
            id: "t".into(),
            tags: set(&["a", "b"]),
        })
        .await
        .unwrap();
    let item = raw(&table, Tagged::key("t").unwrap().to_attribute_map())
        .await
        .unwrap();
    assert!(matches!(&item["tags"], AttributeValue::Ss(values) if values.len() == 2));
    let error = Tagged::update("t")
        .add_to_set(Tagged::TAGS, &set(&["c"]))
        .delete_from_set(Tagged::TAGS, &set(&["a"]))
        .send(&table)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid update of entity `Tagged`: `tags` is changed twice; DynamoDB takes one action per attribute in an update"
    );
    Tagged::update("t")
        .add_to_set(Tagged::TAGS, &set(&["c"]))
        .send(&table)
        .await
        .unwrap();
    Tagged::update("t")
        .delete_from_set(Tagged::TAGS, &set(&["a"]))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        table
            .get(&Tagged::key("t").unwrap())
            .await
            .unwrap()
            .unwrap()
            .tags,
        set(&["b", "c"])
    );
    let error = Tagged::update("t")
        .add_to_set(Tagged::TAGS, &set(&[]))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidExpressionValue { .. })
        ),
        "{error}"
    );
    // An empty set is left out, and reads back empty.
    table
        .put(&Tagged {
            id: "u".into(),
            tags: set(&[]),
        })
        .await
        .unwrap();
    let item = raw(&table, Tagged::key("u").unwrap().to_attribute_map())
        .await
        .unwrap();
    assert!(!item.contains_key("tags"));
    assert_eq!(
        table
            .get(&Tagged::key("u").unwrap())
            .await
            .unwrap()
            .unwrap()
            .tags,
        set(&[])
    );
    table.delete_table().await.unwrap();
}

/// Issue 22, point 16: each error of the documented `# Errors` lists of
/// `Put::send` (with and without a condition), `create` and `Delete::send`
/// with a condition that no other test produced.
/// A versioned put at version 0 over an existing item is a version
/// conflict (optimistic locking: another writer won, `found` tells which
/// version to reload), while `create` promises `AlreadyExists` whenever an
/// item is there, a versioned entity's too.
#[tokio::test]
async fn each_documented_write_error_happens() {
    let table = common::fresh_table("documented-write-errors", &definition()).await;
    let account = Account {
        id: "a-1".into(),
        balance: 10,
        version: 0,
    };
    // `create` of a versioned entity over an existing item.
    table.create(&account).await.unwrap();
    let error = table.create(&account).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::AlreadyExists { entity: "Account", key, .. } if key == "PK=ACCOUNT#a-1, SK=ACCOUNT"
        ),
        "{error:?}"
    );
    // `put` at version 0 over it: a version conflict with the version found.
    let error = table.put(&account).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                entity: "Account",
                expected: 0,
                found: Some(1),
                ..
            }
        ),
        "{error:?}"
    );
    // `put` at a version above 0 with no item: a conflict, nothing found.
    let absent = Account {
        id: "a-2".into(),
        balance: 1,
        version: 4,
    };
    let error = table.put(&absent).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 4,
                found: None,
                ..
            }
        ),
        "{error:?}"
    );
    // A conditional put and delete with no item: `ItemNotFound`.
    let route = Order {
        customer_id: "nobody".into(),
        ..order(77)
    };
    let error = Put::new(&route)
        .condition(Order::NOTE.eq(&"x".to_owned()))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::ItemNotFound { entity: "Order", key } if key == "PK=CUST#nobody, SK=ORDER#0000000077"),
        "{error:?}"
    );
    let error = Delete::new(Order::key("nobody", &77).unwrap())
        .condition(Order::NOTE.eq(&"x".to_owned()))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::ItemNotFound {
                entity: "Order",
                ..
            }
        ),
        "{error:?}"
    );
    table.delete_table().await.unwrap();
}

/// A delete can lock optimistically as a put does: `expect_version(v)` deletes
/// only the item at version `v`; another version is a `VersionConflict` with
/// the version found (and the item stays), no item is one with `found: None`.
#[tokio::test]
async fn a_delete_with_an_expected_version_checks_it() {
    let table = common::fresh_table("versioned-delete", &definition()).await;
    let key = Account::key("a-1").unwrap();
    table
        .put(&Account {
            id: "a-1".into(),
            balance: 10,
            version: 0,
        })
        .await
        .unwrap();
    let error = Delete::new(key.clone())
        .expect_version(7)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                entity: "Account",
                expected: 7,
                found: Some(1),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(table.get(&key).await.unwrap().map(|a| a.version), Some(1));
    let old = Delete::new(key.clone())
        .expect_version(1)
        .send_returning_old(&table)
        .await
        .unwrap();
    assert_eq!(old.map(|a| (a.balance, a.version)), Some((10, 1)));
    assert_eq!(table.get(&key).await.unwrap(), None);
    let error = Delete::new(key.clone())
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                entity: "Account",
                expected: 1,
                found: None,
                ..
            }
        ),
        "{error:?}"
    );
    // In a transaction, the same check.
    table
        .put(&Account {
            id: "a-1".into(),
            balance: 3,
            version: 0,
        })
        .await
        .unwrap();
    let result = TransactWrite::new()
        .delete(Delete::new(key.clone()).expect_version(2))
        .send(&table)
        .await;
    assert!(
        matches!(&result, Err(Error::TransactionCanceled { .. })),
        "{result:?}"
    );
    TransactWrite::new()
        .delete(Delete::new(key.clone()).expect_version(1))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(table.get(&key).await.unwrap(), None);
    table.delete_table().await.unwrap();
}
