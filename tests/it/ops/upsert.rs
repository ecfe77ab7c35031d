//! Upserts (issue 42, point 1): `E::upsert(…)` is one `UpdateItem` without
//! the existence condition, which creates the item when it is absent and
//! updates it otherwise. Expected values follow DynamoDB's documentation of
//! `UpdateItem` ("Edits an existing item's attributes, or adds a new item
//! to the table if it does not already exist"), of `ADD` ("If the existing
//! attribute is a number … and the attribute does not exist, the value is
//! set to the value given") and of `if_not_exists`.

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use stamp::error::Refusal;
use stamp::{AttributeMap, Error, Item, Table, TableDefinition, TransactWrite};

/// Units sold of a product in a day: a counter item, created by its first
/// sale.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SALES#<sku>"]
#[sk = "DAY#<day>"]
struct Sales {
    sku: String,
    day: u32,
    units: u64,
    /// Units returned, counted down from the units' own 0.
    balance: i64,
    /// The first order of the day: written once.
    #[stamp(write_once)]
    first_order: String,
    last_order: Option<String>,
    #[stamp(created_at)]
    first_sale: DateTime<Utc>,
    #[stamp(updated_at)]
    last_sale: DateTime<Utc>,
}

/// A versioned document.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
struct Doc {
    id: String,
    title: String,
    #[stamp(version)]
    version: u64,
}

/// An entry in a sparse GSI (by `label`) and a GSI built from a key field
/// and a required field.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHOP#<shop>"]
#[sk = "ENTRY#<id>"]
#[gsi1(pk = "SHOP#<shop>", sk = "PRICE#<price>")]
#[gsi2(pk = "LABEL#<label>", sk = "<id>")]
struct Entry {
    shop: String,
    id: u32,
    price: u32,
    label: Option<String>,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Sales>()
        .entity::<Doc>()
        .entity::<Entry>()
}

fn time(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, hour, 0, 0).unwrap()
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

async fn raw(table: &Table, key: AttributeMap) -> Option<AttributeMap> {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
}

/// One sale: the counter goes up by `units`, the first order is kept.
fn sale(order: &str, units: u64, at: DateTime<Utc>) -> stamp::Update<Sales> {
    Sales::upsert("SKU-1", &20260601)
        .add(Sales::UNITS, &units)
        .subtract(Sales::BALANCE, &0)
        .set(Sales::FIRST_ORDER, &order.to_owned())
        .set(Sales::LAST_ORDER, &order.to_owned())
        .at(at)
}

#[tokio::test]
async fn a_counter_upserted_on_an_absent_item_starts_from_zero_in_one_request() {
    let (table, counter) = common::fresh_counted_table("upsert-counter", &definition()).await;
    sale("o-1", 2, time(9)).send(&table).await.unwrap();
    assert_eq!(counter.operations(), ["UpdateItem"]);
    let key = Sales::key("SKU-1", &20260601).unwrap();
    let first = table.get(&key).await.unwrap().unwrap();
    assert_eq!(
        first,
        Sales {
            sku: "SKU-1".into(),
            day: 20260601,
            units: 2,
            balance: 0,
            first_order: "o-1".into(),
            last_order: Some("o-1".into()),
            first_sale: time(9),
            last_sale: time(9),
        }
    );
    // Stored as a put stores it: the key fields and the type attribute too.
    let stored = raw(&table, key.to_attribute_map()).await.unwrap();
    assert_eq!(stored.get("Type"), Some(&s("Sales")));
    assert_eq!(stored.get("sku"), Some(&s("SKU-1")));
    assert_eq!(stored.get("day"), Some(&n("20260601")));
    assert_eq!(stored.get("units"), Some(&n("2")));

    counter.reset();
    sale("o-2", 3, time(10)).send(&table).await.unwrap();
    Sales::upsert("SKU-1", &20260601)
        .add(Sales::UNITS, &0)
        .subtract(Sales::BALANCE, &4)
        .set(Sales::FIRST_ORDER, &"o-3".to_owned())
        .at(time(11))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(counter.operations(), ["UpdateItem", "UpdateItem"]);
    let after = table.get(&key).await.unwrap().unwrap();
    // `created_at` and the `write_once` field keep the first sale's values.
    assert_eq!(
        after,
        Sales {
            units: 5,
            balance: -4,
            first_order: "o-1".into(),
            last_order: Some("o-2".into()),
            first_sale: time(9),
            last_sale: time(11),
            ..first
        }
    );
}

#[tokio::test]
async fn the_upsert_request_has_no_existence_condition_and_counts_from_zero() {
    let request = sale("o-1", 2, time(9)).request("t").unwrap();
    let expression = request.update_expression().unwrap();
    let names = request.expression_attribute_names().unwrap();
    let name = |attribute: &str| {
        names
            .iter()
            .find(|(_, value)| value.as_str() == attribute)
            .map(|(placeholder, _)| placeholder.clone())
            .unwrap()
    };
    assert_eq!(request.condition_expression(), None);
    let units = name("units");
    let balance = name("balance");
    let first_order = name("first_order");
    let first_sale = name("first_sale");
    assert!(
        expression.contains(&format!("ADD {units} :")),
        "{expression}"
    );
    assert!(
        expression.contains(&format!("{balance} = if_not_exists({balance}, :")),
        "{expression}"
    );
    assert!(
        expression.contains(&format!("{first_order} = if_not_exists({first_order}, :")),
        "{expression}"
    );
    assert!(
        expression.contains(&format!("{first_sale} = if_not_exists({first_sale}, :")),
        "{expression}"
    );
    // An update keeps its existence condition, and subtracts from 0 too.
    let update = Sales::update("SKU-1", &20260601)
        .subtract(Sales::BALANCE, &1)
        .at(time(9))
        .request("t")
        .unwrap();
    let names = update.expression_attribute_names().unwrap();
    let values = update.expression_attribute_values().unwrap();
    let name = |attribute: &str| {
        names
            .iter()
            .find(|(_, value)| value.as_str() == attribute)
            .map(|(placeholder, _)| placeholder.clone())
            .unwrap()
    };
    let value = |stored: &AttributeValue| {
        values
            .iter()
            .find(|(_, value)| *value == stored)
            .map(|(placeholder, _)| placeholder.clone())
            .unwrap()
    };
    assert_eq!(
        update.condition_expression(),
        Some(format!("attribute_exists({})", name("PK")).as_str())
    );
    let balance = name("balance");
    assert!(
        update.update_expression().unwrap().contains(&format!(
            "{balance} = if_not_exists({balance}, {}) - {}",
            value(&n("0")),
            value(&n("1"))
        )),
        "{:?}",
        update.update_expression()
    );
}

#[tokio::test]
async fn an_update_still_refuses_an_absent_item() {
    let table = common::fresh_table("upsert-update-absent", &definition()).await;
    let error = Sales::update("SKU-1", &20260601)
        .add(Sales::UNITS, &1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::ItemNotFound {
                entity: "Sales",
                ..
            }
        ),
        "{error:?}"
    );
    let key = Sales::key("SKU-1", &20260601).unwrap();
    assert_eq!(raw(&table, key.to_attribute_map()).await, None);
}

#[tokio::test]
async fn an_upsert_that_could_create_an_item_that_does_not_decode_is_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("upsert-incomplete", &definition()).await;
    let error = Sales::upsert("SKU-1", &20260601)
        .add(Sales::UNITS, &1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::IncompleteUpsert { entity: "Sales", missing })
            if missing == &["balance".to_owned(), "first_order".to_owned()]),
        "{error}"
    );
    // `set_if_not_exists` writes a field as well; `delete_from_set` and
    // `remove` would not.
    let error = Doc::upsert("d-1")
        .expect_version(0)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::IncompleteUpsert { entity: "Doc", missing })
            if missing == &["title".to_owned()]),
        "{error}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
    let key = Sales::key("SKU-1", &20260601).unwrap();
    assert_eq!(raw(&table, key.to_attribute_map()).await, None);
}

#[tokio::test]
async fn a_versioned_upsert_creates_at_version_1_and_checks_the_version_on_update() {
    let table = common::fresh_table("upsert-version", &definition()).await;
    let key = Doc::key("d-1").unwrap();
    // An upsert of a versioned entity needs the version it expects.
    let error = Doc::upsert("d-1")
        .set(Doc::TITLE, &"a".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::MissingExpectedVersion { entity: "Doc" })
        ),
        "{error}"
    );
    Doc::upsert("d-1")
        .set(Doc::TITLE, &"a".to_owned())
        .expect_version(0)
        .send(&table)
        .await
        .unwrap();
    let doc = table.get(&key).await.unwrap().unwrap();
    assert_eq!(
        doc,
        Doc {
            id: "d-1".into(),
            title: "a".into(),
            version: 1
        }
    );
    // Expecting 0 (absent) when the item is there: a version conflict.
    let error = Doc::upsert("d-1")
        .set(Doc::TITLE, &"b".to_owned())
        .expect_version(0)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::VersionConflict {
                entity: "Doc",
                expected: 0,
                found: Some(1),
                ..
            }
        ),
        "{error:?}"
    );
    let updated = Doc::upsert("d-1")
        .set(Doc::TITLE, &"b".to_owned())
        .expect_version(1)
        .send_returning_new(&table)
        .await
        .unwrap();
    assert_eq!(updated.version, 2);
    assert_eq!(updated.title, "b");
    // A stale version: refused, nothing changed.
    let error = Doc::upsert("d-1")
        .set(Doc::TITLE, &"c".to_owned())
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::VersionConflict {
                expected: 1,
                found: Some(2),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(table.get(&key).await.unwrap().unwrap(), updated);
}

#[tokio::test]
async fn a_condition_an_absent_item_fails_is_a_condition_failure() {
    let table = common::fresh_table("upsert-condition", &definition()).await;
    let error = sale("o-1", 1, time(9))
        .condition(Sales::UNITS.lt(&100))
        .send(&table)
        .await
        .unwrap_err();
    match error {
        Error::ConditionFailed { entity, item, .. } => {
            assert_eq!(entity, "Sales");
            assert!(item.is_empty(), "{item:?}");
        }
        other => panic!("{other:?}"),
    }
    let key = Sales::key("SKU-1", &20260601).unwrap();
    assert_eq!(raw(&table, key.to_attribute_map()).await, None);
    // Once the item is there, the condition holds.
    sale("o-1", 1, time(9)).send(&table).await.unwrap();
    sale("o-2", 1, time(10))
        .condition(Sales::UNITS.lt(&100))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(table.get(&key).await.unwrap().unwrap().units, 2);
}

#[tokio::test]
async fn upserts_in_a_transaction_create_and_update() {
    let (table, counter) = common::fresh_counted_table("upsert-transaction", &definition()).await;
    TransactWrite::new()
        .update(sale("o-1", 2, time(9)))
        .update(
            Doc::upsert("d-1")
                .set(Doc::TITLE, &"a".to_owned())
                .expect_version(0),
        )
        .send(&table)
        .await
        .unwrap();
    TransactWrite::new()
        .update(sale("o-2", 3, time(10)))
        .update(
            Doc::upsert("d-1")
                .set(Doc::TITLE, &"b".to_owned())
                .expect_version(1),
        )
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        counter.operations(),
        ["TransactWriteItems", "TransactWriteItems"]
    );
    let sales = table
        .get(&Sales::key("SKU-1", &20260601).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((sales.units, sales.first_order.as_str()), (5, "o-1"));
    assert_eq!((sales.first_sale, sales.last_sale), (time(9), time(10)));
    let doc = table.get(&Doc::key("d-1").unwrap()).await.unwrap().unwrap();
    assert_eq!((doc.title.as_str(), doc.version), ("b", 2));
    // A stale version cancels the transaction; nothing is written.
    let error = TransactWrite::new()
        .update(sale("o-3", 1, time(11)))
        .update(
            Doc::upsert("d-1")
                .set(Doc::TITLE, &"c".to_owned())
                .expect_version(1),
        )
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::TransactionCanceled { .. }),
        "{error:?}"
    );
    let sales = table
        .get(&Sales::key("SKU-1", &20260601).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(sales.units, 5);
}

#[tokio::test]
async fn an_upsert_writes_an_index_whole_or_not_at_all() {
    let table = common::fresh_table("upsert-indexes", &definition()).await;
    // A label: the item enters the sparse GSI2, and GSI1 (a key field and
    // the price) is written whole.
    Entry::upsert("s-1", &1)
        .set(Entry::PRICE, &7)
        .set(Entry::LABEL, &"red".to_owned())
        .send(&table)
        .await
        .unwrap();
    let stored = raw(&table, Entry::key("s-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(stored.get("GSI1PK"), Some(&s("SHOP#s-1")));
    assert_eq!(stored.get("GSI1SK"), Some(&s("PRICE#0000000007")));
    assert_eq!(stored.get("GSI2PK"), Some(&s("LABEL#red")));
    assert_eq!(stored.get("GSI2SK"), Some(&s("0000000001")));
    // No label: not in the sparse index.
    Entry::upsert("s-1", &2)
        .set(Entry::PRICE, &8)
        .send(&table)
        .await
        .unwrap();
    let stored = raw(&table, Entry::key("s-1", &2).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(stored.get("GSI1SK"), Some(&s("PRICE#0000000008")));
    assert_eq!(stored.get("GSI2PK"), None);
    assert_eq!(stored.get("GSI2SK"), None);
    // Removing the label takes the item out of the index.
    Entry::upsert("s-1", &1)
        .set(Entry::PRICE, &9)
        .remove(Entry::LABEL)
        .send(&table)
        .await
        .unwrap();
    let stored = raw(&table, Entry::key("s-1", &1).unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(stored.get("label"), None);
    assert_eq!(stored.get("GSI2PK"), None);
    assert_eq!(stored.get("GSI2SK"), None);
    assert_eq!(stored.get("GSI1SK"), Some(&s("PRICE#0000000009")));
}

/// An index whose sort key is stamped by every write, over an `Option`
/// field the upsert does not know: refused, since a stored item may be in
/// the index (its `label` set) and writing the sort key alone would leave
/// it half in; `given_none` states it, and an absent item meets it.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TASK#<id>"]
#[sk = "TASK"]
#[gsi1(pk = "LABEL#<label>", sk = "<updated_at>")]
struct Task {
    id: String,
    label: Option<String>,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
}

#[tokio::test]
async fn an_upsert_that_could_leave_half_an_index_is_refused_before_sending() {
    let definition = TableDefinition::new().entity::<Task>();
    let (table, counter) = common::fresh_counted_table("upsert-half-index", &definition).await;
    let error = Task::upsert("t-1").at(time(9)).send(&table).await;
    // Nothing to change but the stamp: refused as an update is, naming the
    // label the index needs.
    let error = error.unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::IncompleteIndexUpdate { entity: "Task", index: "GSI1", missing })
            if missing == &["label".to_owned()]),
        "{error}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
    Task::upsert("t-1")
        .given_none(Task::LABEL)
        .at(time(9))
        .send(&table)
        .await
        .unwrap();
    let stored = raw(&table, Task::key("t-1").unwrap().to_attribute_map())
        .await
        .unwrap();
    assert_eq!(stored.get("GSI1PK"), None);
    assert_eq!(stored.get("GSI1SK"), None);
    assert_eq!(
        table
            .get(&Task::key("t-1").unwrap())
            .await
            .unwrap()
            .unwrap(),
        Task {
            id: "t-1".into(),
            label: None,
            updated_at: time(9)
        }
    );
}
