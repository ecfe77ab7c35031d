//! Updates beyond the top level (issue 42, point 3): a field of a nested
//! struct through a typed path (`Customer::ADDRESS.then(Address::CITY)`),
//! a list element (`Customer::TAGS.at(2)`), `prepend`, `if_not_exists` at
//! any path, and conditions on nested paths. Every value is encoded as
//! `to_item` encodes it (serde's renames and `with` at every level), so an
//! update stores exactly the put of the updated struct. The expected
//! values come from DynamoDB's documentation of update expressions
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>):
//! `SET list[i]` past the end appends, `REMOVE list[i]` moves the later
//! elements down, `list_append` needs two lists.

use crate::common;
use stamp::AttributeMap;
use stamp::error::{Refusal, UpdateReason};

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use stamp::{Attributes, Error, Item, Table, TableDefinition};

#[derive(Attributes, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Geo {
    lat: f64,
    #[serde(rename = "lng")]
    lon: f64,
}

/// Renamed fields, a `with`, a time in serde's form, an `Option` stored as
/// `NULL` and one left out when `None`, a list and a nested struct.
#[derive(Attributes, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Address {
    street_line: String,
    #[serde(rename = "zip_code")]
    zip: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(with = "chrono::serde::ts_seconds")]
    moved_in: DateTime<Utc>,
    since: DateTime<Utc>,
    lines: Vec<String>,
    geo: Option<Geo>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<id>"]
#[sk = "PROFILE"]
struct Customer {
    id: String,
    address: Address,
    #[serde(rename = "previous")]
    old_address: Option<Address>,
    tags: Vec<String>,
    /// Stored by Stamp's own codec: times in the fixed-width form.
    visits: Vec<DateTime<Utc>>,
    #[serde(default)]
    notes: Option<Vec<String>>,
    history: Vec<Address>,
    grid: Vec<Vec<u32>>,
}

/// A vector index reads `v` whole.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[vector1(field = v, dimensions = 2, distance = dot_product)]
struct Doc {
    id: String,
    v: Vec<f32>,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Customer>()
}

fn at(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, 0).unwrap()
}

fn address(street: &str) -> Address {
    Address {
        street_line: street.to_owned(),
        zip: Some("10115".to_owned()),
        note: None,
        moved_in: at(1_700_000_000),
        since: at(1_600_000_000),
        lines: vec!["floor 2".to_owned()],
        geo: Some(Geo {
            lat: 52.5,
            lon: 13.4,
        }),
    }
}

fn customer() -> Customer {
    Customer {
        id: "c".to_owned(),
        address: address("Main St 1"),
        old_address: None,
        tags: vec!["a".to_owned(), "b".to_owned(), "c".to_owned()],
        visits: vec![at(1_700_000_100)],
        notes: None,
        history: vec![address("Old Rd 9")],
        grid: vec![vec![1, 2]],
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

async fn raw(table: &Table) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(Customer::key("c").unwrap().to_attribute_map()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

/// The item as stored now, and the item a put of `expected` stores (the
/// put is made after reading, at the same key); `expected` decoded back
/// from the stored item is checked too.
async fn stored_and_put(table: &Table, expected: &Customer) -> (AttributeMap, AttributeMap) {
    let updated = raw(table).await;
    let read = table
        .get(&Customer::key("c").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&read, expected);
    table.put(expected).await.unwrap();
    let put = raw(table).await;
    (updated, put)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn map_of(value: &AttributeValue) -> &std::collections::HashMap<String, AttributeValue> {
    value.as_m().unwrap()
}

// The request: typed paths render as placeholders, names by their serde
// names.

#[test]
fn a_nested_path_renders_each_name_as_a_placeholder_by_its_serde_name() {
    let request = Customer::update("c")
        .set(
            Customer::ADDRESS.then(Address::STREET_LINE),
            &"Side St 2".to_owned(),
        )
        .set(Customer::TAGS.at(1), &"x".to_owned())
        .request("t")
        .unwrap();
    assert_eq!(
        request.update_expression(),
        Some("SET #n0.#n1 = :v0, #n2[1] = :v1")
    );
    assert_eq!(
        request.condition_expression(),
        Some("attribute_exists(#n3)")
    );
    let names = request.expression_attribute_names().unwrap();
    assert_eq!(names["#n0"], "address");
    assert_eq!(names["#n1"], "streetLine");
    assert_eq!(names["#n2"], "tags");
    assert_eq!(names["#n3"], "PK");
    let values = request.expression_attribute_values().unwrap();
    assert_eq!(values[":v0"], s("Side St 2"));
    assert_eq!(values[":v1"], s("x"));
}

#[test]
fn nested_values_are_encoded_as_the_struct_stores_its_fields() {
    let request = Customer::update("c")
        // `with = ts_seconds` inside the struct: a Number of seconds.
        .set(
            Customer::ADDRESS.then(Address::MOVED_IN),
            &at(1_700_000_123),
        )
        // A time inside a struct serde stores whole: chrono's serde form.
        .set(Customer::ADDRESS.then(Address::SINCE), &at(1_600_000_000))
        // A struct inside a struct, renamed fields.
        .set(Customer::ADDRESS.then(Address::GEO).then(Geo::LON), &1.5)
        // An element of a list Stamp stores itself: the fixed-width form.
        .set(Customer::VISITS.at(0), &at(1_700_000_100))
        .request("t")
        .unwrap();
    assert_eq!(
        request.update_expression(),
        Some("SET #n0.#n1 = :v0, #n0.#n2 = :v1, #n0.#n3.#n4 = :v2, #n5[0] = :v3")
    );
    let names = request.expression_attribute_names().unwrap();
    assert_eq!(
        [&names["#n1"], &names["#n2"], &names["#n3"], &names["#n4"]],
        ["movedIn", "since", "geo", "lng"]
    );
    let values = request.expression_attribute_values().unwrap();
    assert_eq!(values[":v0"], AttributeValue::N("1700000123".to_owned()));
    assert_eq!(values[":v1"], s("2020-09-13T12:26:40Z"));
    assert_eq!(values[":v2"], AttributeValue::N("1.5".to_owned()));
    assert_eq!(values[":v3"], s("2023-11-14T22:15:00.000000000Z"));
}

#[test]
fn prepend_and_set_if_not_exists_render_as_documented() {
    let request = Customer::update("c")
        .prepend(Customer::TAGS, &strings(&["z"]))
        .set_if_not_exists(
            Customer::ADDRESS.then(Address::NOTE),
            &"ring twice".to_owned(),
        )
        .request("t")
        .unwrap();
    assert_eq!(
        request.update_expression(),
        Some(
            "SET #n0 = list_append(:v0, if_not_exists(#n0, :v1)), #n1.#n2 = if_not_exists(#n1.#n2, :v2)"
        )
    );
    let values = request.expression_attribute_values().unwrap();
    assert_eq!(values[":v0"], AttributeValue::L(vec![s("z")]));
    assert_eq!(values[":v1"], AttributeValue::L(Vec::new()));
    assert_eq!(values[":v2"], s("ring twice"));
}

#[test]
fn an_update_of_only_nested_removes_sends_no_values() {
    let request = Customer::update("c")
        .remove(Customer::TAGS.at(0))
        .remove(Customer::ADDRESS.then(Address::NOTE))
        .request("t")
        .unwrap();
    assert_eq!(request.update_expression(), Some("REMOVE #n0[0], #n1.#n2"));
    assert_eq!(request.expression_attribute_values(), None);
}

#[test]
fn removing_a_nested_field_serde_stores_as_null_sets_null() {
    let request = Customer::update("c")
        .remove(Customer::ADDRESS.then(Address::ZIP))
        .request("t")
        .unwrap();
    assert_eq!(request.update_expression(), Some("SET #n0.#n1 = :v0"));
    assert_eq!(
        request.expression_attribute_values().unwrap()[":v0"],
        AttributeValue::Null(true)
    );
}

#[test]
fn overlapping_paths_are_refused_before_sending() {
    let error = Customer::update("c")
        .set(Customer::ADDRESS, &address("x"))
        .set(
            Customer::ADDRESS.then(Address::STREET_LINE),
            &"y".to_owned(),
        )
        .request("t")
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidUpdate {
                entity: "Customer",
                reason: UpdateReason::ChangedTwice {
                    attribute: "address"
                },
            })
        ),
        "{error:?}"
    );
    // Two elements of one list do not overlap.
    Customer::update("c")
        .set(Customer::TAGS.at(0), &"x".to_owned())
        .remove(Customer::TAGS.at(1))
        .request("t")
        .unwrap();
}

#[test]
fn a_path_into_an_attribute_an_index_reads_is_refused_before_sending() {
    let error = Doc::update("d")
        .set(Doc::V.at(0), &1.0)
        .request("t")
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidUpdate {
                entity: "Doc",
                reason: UpdateReason::PathIntoIndexAttribute { attribute: "v", path },
            }) if path == "v[0]"
        ),
        "{error:?}"
    );
}

#[test]
fn an_element_of_an_element_is_refused_before_sending_and_the_outer_one_is_encoded() {
    let error = Customer::update("c")
        .set(Customer::GRID.at(0).at(1), &5)
        .request("t")
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidExpressionValue { detail })
                if detail == "`grid[0][1]` is an element of a list inside a list element, which Stamp cannot encode; set the outer element whole"
        ),
        "{error:?}"
    );
    let request = Customer::update("c")
        .set(Customer::GRID.at(0), &vec![5, 6])
        .request("t")
        .unwrap();
    assert_eq!(
        request.expression_attribute_values().unwrap()[":v0"],
        AttributeValue::L(vec![
            AttributeValue::N("5".to_owned()),
            AttributeValue::N("6".to_owned())
        ])
    );
    // A condition that takes no value works at any depth.
    Customer::update("c")
        .set(Customer::TAGS.at(0), &"x".to_owned())
        .condition(Customer::GRID.at(0).at(1).exists())
        .request("t")
        .unwrap();
}

// Against the server: the stored item is the put of the updated struct.

#[tokio::test]
async fn each_nested_and_list_verb_stores_the_put_of_the_updated_struct() {
    let table = common::fresh_table("nested-verbs", &definition()).await;
    let mut expected = customer();
    table.put(&expected).await.unwrap();

    Customer::update("c")
        .set(
            Customer::ADDRESS.then(Address::STREET_LINE),
            &"Side St 2".to_owned(),
        )
        .set(
            Customer::ADDRESS.then(Address::MOVED_IN),
            &at(1_700_000_123),
        )
        .set(Customer::ADDRESS.then(Address::GEO).then(Geo::LON), &1.5)
        .set(Customer::TAGS.at(1), &"B".to_owned())
        .set(Customer::VISITS.at(0), &at(1_700_000_200))
        .set(
            Customer::HISTORY.at(0).then(Address::STREET_LINE),
            &"Older Rd 8".to_owned(),
        )
        .send(&table)
        .await
        .unwrap();
    expected.address.street_line = "Side St 2".to_owned();
    expected.address.moved_in = at(1_700_000_123);
    expected.address.geo.as_mut().unwrap().lon = 1.5;
    expected.tags[1] = "B".to_owned();
    expected.visits[0] = at(1_700_000_200);
    expected.history[0].street_line = "Older Rd 8".to_owned();
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    // As DynamoDB's data types say: the `with` field a Number, the renamed
    // field by its serde name, the list's element in the list's form.
    let stored_address = map_of(&updated["address"]);
    assert_eq!(stored_address["streetLine"], s("Side St 2"));
    assert_eq!(
        stored_address["movedIn"],
        AttributeValue::N("1700000123".to_owned())
    );
    assert_eq!(
        map_of(&stored_address["geo"])["lng"],
        AttributeValue::N("1.5".to_owned())
    );
    assert_eq!(
        updated["visits"],
        AttributeValue::L(vec![s("2023-11-14T22:16:40.000000000Z")])
    );

    // `SET list[i]` past the end appends; `REMOVE list[i]` moves the rest
    // down; prepend and append at a nested path.
    Customer::update("c")
        .set(Customer::TAGS.at(10), &"d".to_owned())
        .prepend(Customer::ADDRESS.then(Address::LINES), &strings(&["attn"]))
        .send(&table)
        .await
        .unwrap();
    Customer::update("c")
        .remove(Customer::TAGS.at(0))
        .append(
            Customer::HISTORY.at(0).then(Address::LINES),
            &strings(&["rear"]),
        )
        .send(&table)
        .await
        .unwrap();
    expected.tags = strings(&["B", "c", "d"]);
    expected.address.lines = strings(&["attn", "floor 2"]);
    expected.history[0].lines = strings(&["floor 2", "rear"]);
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    assert_eq!(
        updated["tags"],
        AttributeValue::L(vec![s("B"), s("c"), s("d")])
    );

    // An `Option` field stored as `NULL` when `None`, one left out, and
    // `if_not_exists` on a present and an absent nested field.
    Customer::update("c")
        .remove(Customer::ADDRESS.then(Address::ZIP))
        .set_if_not_exists(
            Customer::ADDRESS.then(Address::NOTE),
            &"ring twice".to_owned(),
        )
        .set_if_not_exists(
            Customer::ADDRESS.then(Address::STREET_LINE),
            &"ignored".to_owned(),
        )
        .send(&table)
        .await
        .unwrap();
    expected.address.zip = None;
    expected.address.note = Some("ring twice".to_owned());
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    let stored_address = map_of(&updated["address"]);
    assert_eq!(stored_address["zip_code"], AttributeValue::Null(true));
    assert_eq!(stored_address["note"], s("ring twice"));
    assert_eq!(stored_address["streetLine"], s("Side St 2"));

    Customer::update("c")
        .remove(Customer::ADDRESS.then(Address::NOTE))
        .remove(Customer::ADDRESS.then(Address::GEO))
        .send(&table)
        .await
        .unwrap();
    expected.address.note = None;
    expected.address.geo = None;
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    let stored_address = map_of(&updated["address"]);
    assert!(!stored_address.contains_key("note"));
    assert_eq!(stored_address["geo"], AttributeValue::Null(true));
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn prepend_onto_an_empty_or_absent_list_stores_the_values() {
    let table = common::fresh_table("nested-prepend", &definition()).await;
    let mut expected = customer();
    expected.tags = Vec::new();
    table.put(&expected).await.unwrap();
    // `notes` is absent (`None`), `tags` an empty list: `list_append`
    // needs a list, which `if_not_exists(path, :empty)` supplies.
    assert!(!raw(&table).await.contains_key("notes"));
    Customer::update("c")
        .prepend(Customer::TAGS, &strings(&["x", "y"]))
        .prepend(Customer::NOTES, &strings(&["first"]))
        .send(&table)
        .await
        .unwrap();
    expected.tags = strings(&["x", "y"]);
    expected.notes = Some(strings(&["first"]));
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    assert_eq!(updated["notes"], AttributeValue::L(vec![s("first")]));
    Customer::update("c")
        .prepend(Customer::NOTES, &strings(&["zeroth"]))
        .send(&table)
        .await
        .unwrap();
    expected.notes = Some(strings(&["zeroth", "first"]));
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_update_of_only_nested_removes_applies() {
    let table = common::fresh_table("nested-removes", &definition()).await;
    let mut expected = customer();
    expected.address.note = Some("n".to_owned());
    table.put(&expected).await.unwrap();
    Customer::update("c")
        .remove(Customer::TAGS.at(1))
        .remove(Customer::ADDRESS.then(Address::NOTE))
        .send(&table)
        .await
        .unwrap();
    expected.tags = strings(&["a", "c"]);
    expected.address.note = None;
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_condition_on_a_nested_path_that_fails_changes_nothing() {
    let table = common::fresh_table("nested-condition", &definition()).await;
    let stored = customer();
    table.put(&stored).await.unwrap();
    let before = raw(&table).await;
    let error = Customer::update("c")
        .set(Customer::TAGS.at(0), &"z".to_owned())
        .condition(
            Customer::ADDRESS
                .then(Address::STREET_LINE)
                .eq(&"Elsewhere 3".to_owned()),
        )
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::ConditionFailed { entity: "Customer", key, item }
            if key == "PK=CUST#c, SK=PROFILE" && **item == before),
        "{error:?}"
    );
    assert_eq!(error.stored::<Customer>().unwrap().unwrap(), stored);
    assert_eq!(raw(&table).await, before);

    // The same conditions hold on the stored values: the update applies.
    Customer::update("c")
        .set(Customer::TAGS.at(0), &"z".to_owned())
        .condition(
            Customer::ADDRESS
                .then(Address::STREET_LINE)
                .eq(&"Main St 1".to_owned())
                .and(
                    Customer::ADDRESS
                        .then(Address::MOVED_IN)
                        .eq(&at(1_700_000_000)),
                )
                .and(Customer::ADDRESS.then(Address::NOTE).not_exists())
                .and(Customer::VISITS.at(0).eq(&at(1_700_000_100)))
                .and(Customer::ADDRESS.then(Address::LINES).size().eq(1)),
        )
        .send(&table)
        .await
        .unwrap();
    let mut expected = stored;
    expected.tags[0] = "z".to_owned();
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_field_of_an_absent_struct_is_refused_by_dynamodb_and_nothing_changes() {
    let table = common::fresh_table("nested-absent", &definition()).await;
    let stored = customer();
    table.put(&stored).await.unwrap();
    let before = raw(&table).await;
    // `previous` is `None`, so absent: DynamoDB refuses a path below it
    // ("The document path provided in the update expression is invalid
    // for update"), a `ValidationException`.
    let error = Customer::update("c")
        .set(
            Customer::OLD_ADDRESS.then(Address::STREET_LINE),
            &"x".to_owned(),
        )
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::DynamoDb { code: Some(code), .. } if code == "ValidationException"),
        "{error:?}"
    );
    assert!(!error.may_have_been_applied());
    assert_eq!(raw(&table).await, before);
    // Set whole, then field by field.
    Customer::update("c")
        .set(Customer::OLD_ADDRESS, &address("Prior Ln 4"))
        .send(&table)
        .await
        .unwrap();
    Customer::update("c")
        .set(
            Customer::OLD_ADDRESS.then(Address::STREET_LINE),
            &"Prior Ln 5".to_owned(),
        )
        .send(&table)
        .await
        .unwrap();
    let mut expected = stored;
    expected.old_address = Some(address("Prior Ln 5"));
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    assert_eq!(map_of(&updated["previous"])["streetLine"], s("Prior Ln 5"));
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_nested_update_in_a_transaction_stores_the_put_of_the_updated_struct() {
    let table = common::fresh_table("nested-transaction", &definition()).await;
    let mut expected = customer();
    table.put(&expected).await.unwrap();
    stamp::TransactWrite::new()
        .update(
            Customer::update("c")
                .set(Customer::TAGS.at(2), &"C".to_owned())
                .prepend(Customer::ADDRESS.then(Address::LINES), &strings(&["attn"]))
                .condition(Customer::ADDRESS.then(Address::ZIP).eq(&"10115".to_owned())),
        )
        .send(&table)
        .await
        .unwrap();
    expected.tags[2] = "C".to_owned();
    expected.address.lines = strings(&["attn", "floor 2"]);
    let (updated, put) = stored_and_put(&table, &expected).await;
    assert_eq!(updated, put);
    table.delete_table().await.unwrap();
}

// The property: a sequence of nested and list updates stores what a put of
// the same changes, made to the struct in Rust, stores.

#[derive(Debug, Clone)]
enum Op {
    Street(String),
    Zip(Option<String>),
    Note(Option<String>),
    NoteIfAbsent(String),
    MovedIn(i64),
    Since(i64),
    Lat(f64),
    SetTag(usize, String),
    RemoveTag(usize),
    PrependTags(Vec<String>),
    AppendLines(Vec<String>),
    SetVisit(usize, i64),
    HistoryStreet(String),
}

fn arbitrary_op() -> impl Strategy<Value = Op> {
    let text = "[a-z #é]{0,6}";
    let seconds = 0i64..4_000_000_000;
    prop_oneof![
        text.prop_map(Op::Street),
        proptest::option::of(text).prop_map(Op::Zip),
        proptest::option::of(text).prop_map(Op::Note),
        text.prop_map(Op::NoteIfAbsent),
        seconds.clone().prop_map(Op::MovedIn),
        seconds.clone().prop_map(Op::Since),
        (-90.0f64..90.0).prop_map(Op::Lat),
        (0usize..6, text).prop_map(|(index, tag)| Op::SetTag(index, tag)),
        (0usize..6).prop_map(Op::RemoveTag),
        proptest::collection::vec(text, 1..3).prop_map(Op::PrependTags),
        proptest::collection::vec(text, 1..3).prop_map(Op::AppendLines),
        (0usize..3, seconds).prop_map(|(index, time)| Op::SetVisit(index, time)),
        text.prop_map(Op::HistoryStreet),
    ]
}

/// The update of `op`, applied to `model` as DynamoDB documents it; `None`
/// when the op does not apply (an element of an empty list, a field of an
/// absent struct).
fn apply(op: &Op, model: &mut Customer) -> Option<stamp::Update<Customer>> {
    let update = Customer::update("c");
    let address = Customer::ADDRESS;
    Some(match op.clone() {
        Op::Street(street) => {
            model.address.street_line = street.clone();
            update.set(address.then(Address::STREET_LINE), &street)
        }
        Op::Zip(zip) => {
            model.address.zip = zip.clone();
            match zip {
                Some(zip) => update.set(address.then(Address::ZIP), &zip),
                None => update.remove(address.then(Address::ZIP)),
            }
        }
        Op::Note(note) => {
            model.address.note = note.clone();
            match note {
                Some(note) => update.set(address.then(Address::NOTE), &note),
                None => update.remove(address.then(Address::NOTE)),
            }
        }
        Op::NoteIfAbsent(note) => {
            if model.address.note.is_none() {
                model.address.note = Some(note.clone());
            }
            update.set_if_not_exists(address.then(Address::NOTE), &note)
        }
        Op::MovedIn(seconds) => {
            model.address.moved_in = at(seconds);
            update.set(address.then(Address::MOVED_IN), &at(seconds))
        }
        Op::Since(seconds) => {
            model.address.since = at(seconds);
            update.set(address.then(Address::SINCE), &at(seconds))
        }
        Op::Lat(lat) => {
            model.address.geo.as_mut()?.lat = lat;
            update.set(address.then(Address::GEO).then(Geo::LAT), &lat)
        }
        Op::SetTag(index, tag) => {
            // Past the end, DynamoDB appends.
            match model.tags.get_mut(index) {
                Some(slot) => *slot = tag.clone(),
                None => model.tags.push(tag.clone()),
            }
            update.set(Customer::TAGS.at(index as u32), &tag)
        }
        Op::RemoveTag(index) => {
            if index >= model.tags.len() {
                return None;
            }
            model.tags.remove(index);
            update.remove(Customer::TAGS.at(index as u32))
        }
        Op::PrependTags(tags) => {
            model.tags.splice(0..0, tags.iter().cloned());
            update.prepend(Customer::TAGS, &tags)
        }
        Op::AppendLines(lines) => {
            model.address.lines.extend(lines.iter().cloned());
            update.append(address.then(Address::LINES), &lines)
        }
        Op::SetVisit(index, seconds) => {
            if index >= model.visits.len() {
                return None;
            }
            model.visits[index] = at(seconds);
            update.set(Customer::VISITS.at(index as u32), &at(seconds))
        }
        Op::HistoryStreet(street) => {
            model.history.first_mut()?.street_line = street.clone();
            update.set(Customer::HISTORY.at(0).then(Address::STREET_LINE), &street)
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any sequence of nested and list updates, each applied to a plain
    /// Rust model as DynamoDB documents it: the stored item equals the put
    /// of the model, attribute for attribute, and reads back as the model.
    #[test]
    fn nested_and_list_updates_store_the_put_of_the_updated_struct(
        ops in proptest::collection::vec(arbitrary_op(), 1..8),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let table = common::fresh_table("nested-as-put", &definition()).await;
            let mut model = customer();
            table.put(&model).await.unwrap();
            for op in &ops {
                if let Some(update) = apply(op, &mut model) {
                    update.send(&table).await.unwrap();
                }
            }
            let updated = raw(&table).await;
            let read = table.get(&Customer::key("c").unwrap()).await.unwrap().unwrap();
            table.put(&model).await.unwrap();
            let put = raw(&table).await;
            table.delete_table().await.unwrap();
            prop_assert_eq!(updated, put);
            prop_assert_eq!(read, model);
            Ok(())
        })?;
    }
}
