//! Local secondary indexes (issue 15, parts 2 and 3): `#[lsiN(sk = "…")]`
//! written by `to_item` and rebuilt by updates, queried with typed
//! sort-key conditions, cursors and consistent reads, created with the
//! table, in CloudFormation, `verify`, the catalogue and the capacity
//! table, and the item-collection size metrics every write of such an
//! entity asks for.
//!
//! Expected values follow DynamoDB's documentation: an LSI has the table's
//! partition key and its own sort key, is created only with the table
//! (`LocalSecondaryIndexes` of `CreateTable`), supports strongly
//! consistent reads, and holds only the items that have its sort key
//! attribute (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html>);
//! a write with `ReturnItemCollectionMetrics = SIZE` on a table with an
//! LSI returns `ItemCollectionMetrics` with `SizeEstimateRangeGB`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html>).

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::types::{KeyType, ProjectionType};
use chrono::NaiveDate;
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::AttributeMap;
use stamp::error::{DefinitionError, Refusal};
use stamp::{
    BatchWrite, Entity, Error, Item, Query, Table, TableDefinition, TransactWrite,
    schema::{BaseTable, Gsi, IndexId, IndexProjection, Lsi, QueryIndex, SchemaDifference},
};

use crate::common;

/// An order with two LSIs: by total (dense) and by shipping day (sparse:
/// only shipped orders).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "AMOUNT#<total_cents>")]
#[lsi2(sk = "SHIP#<shipped_on>#<order_id>")]
struct Order {
    customer_id: String,
    order_id: String,
    total_cents: u32,
    shipped_on: Option<NaiveDate>,
    note: String,
}

/// A refund in the same partitions, on the same LSI1, whose LSI1 keys
/// begin with the order's literal prefix (`AMOUNT#`) and extend an order's
/// key: `AMOUNT#<amount>#REFUND`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "REFUND#<refund_id>"]
#[lsi1(sk = "AMOUNT#<amount_cents>#REFUND")]
struct Refund {
    customer_id: String,
    refund_id: String,
    amount_cents: u32,
}

/// An entity without an LSI, on a GSI.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
#[gsi1(pk = "NAME#<name>", sk = "<customer_id>")]
struct Customer {
    customer_id: String,
    name: String,
}

/// Renamed index and attribute.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TENANT#<tenant>"]
#[sk = "DOC#<doc>"]
#[lsi3(sk = "<title>", index_name = "ByTitle", sk_attribute = "TitleKey")]
struct Document {
    tenant: String,
    doc: String,
    title: String,
}

/// The test table: orders and refunds with LSIs, customers with a GSI
/// (also linted by `schema_cfn_lint`).
pub(crate) fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Order>()
        .entity::<Refund>()
        .entity::<Customer>()
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 6, d).unwrap()
}

fn order(customer: &str, id: &str, total: u32, shipped: Option<NaiveDate>) -> Order {
    Order {
        customer_id: customer.to_owned(),
        order_id: id.to_owned(),
        total_cents: total,
        shipped_on: shipped,
        note: format!("note {id}"),
    }
}

fn ids(orders: &[Order]) -> Vec<&str> {
    orders.iter().map(|order| order.order_id.as_str()).collect()
}

// ---------------------------------------------------------------------------
// Items and keys, without a network.

#[test]
fn to_item_writes_the_lsi_sort_keys_and_leaves_a_sparse_one_out() {
    let shipped = order("c-1", "o-1", 500, Some(day(2)));
    let item = shipped.to_item().unwrap();
    let lsi1 = item["LSI1SK"].as_s().unwrap();
    let lsi2 = item["LSI2SK"].as_s().unwrap();
    assert_eq!(Order::parse_lsi1_sort_key(lsi1).unwrap(), (500,));
    assert_eq!(
        Order::parse_lsi2_sort_key(lsi2).unwrap(),
        (day(2), "o-1".to_owned())
    );
    assert!(lsi1.starts_with("AMOUNT#"), "{lsi1}");
    // The partition key is the table's: no other key attribute is written.
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "LSI1SK",
            "LSI2SK",
            "PK",
            "SK",
            "Type",
            "customer_id",
            "note",
            "order_id",
            "shipped_on",
            "total_cents"
        ]
    );

    let open = order("c-1", "o-2", 700, None);
    let item = open.to_item().unwrap();
    assert!(item.contains_key("LSI1SK"));
    assert!(
        !item.contains_key("LSI2SK"),
        "an order without a shipping day is not in LSI2"
    );
    assert!(!item.contains_key("shipped_on"));
}

#[test]
fn lsi_keys_escape_the_delimiter_and_parse_back() {
    let tricky = order("c-1", "o#1", 1, Some(day(3)));
    let item = tricky.to_item().unwrap();
    let key = item["LSI2SK"].as_s().unwrap();
    assert!(key.ends_with("#o%231"), "{key}");
    assert_eq!(
        Order::parse_lsi2_sort_key(key).unwrap(),
        (day(3), "o#1".to_owned())
    );
}

#[test]
fn the_schema_describes_the_local_indexes() {
    let schema = Order::SCHEMA;
    let names: Vec<(u8, &str, &str, &str)> = schema
        .indexes
        .iter()
        .filter(|index| index.is_local())
        .map(|index| {
            let (partition_key, sort_key) = index.templates().unwrap();
            // An LSI's partition key is the table's.
            assert_eq!(partition_key, &schema.partition_key);
            let sort_key = sort_key.unwrap();
            (
                index.number,
                index.name,
                sort_key.name,
                sort_key.template.source,
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            (1, "LSI1", "LSI1SK", "AMOUNT#<total_cents>"),
            (2, "LSI2", "LSI2SK", "SHIP#<shipped_on>#<order_id>")
        ]
    );
    let document = Document::SCHEMA.lsi(3).unwrap();
    assert_eq!(
        (document.name, document.sort_key_name()),
        ("ByTitle", Some("TitleKey"))
    );
    let item = Document {
        tenant: "t".into(),
        doc: "d".into(),
        title: "Plans".into(),
    }
    .to_item()
    .unwrap();
    assert_eq!(item["TitleKey"].as_s().unwrap(), "Plans");
}

#[test]
fn an_lsi_query_names_the_index_and_the_table_partition_key() {
    let request = Order::query_lsi1("c-1")
        .sort_key_ge(&100)
        .consistent_read()
        .request("orders")
        .unwrap();
    assert_eq!(request.index_name(), Some("LSI1"));
    assert_eq!(request.consistent_read(), Some(true));
    let names = request.expression_attribute_names().unwrap();
    let condition = request.key_condition_expression().unwrap();
    let mut attributes: Vec<&str> = names
        .iter()
        .filter(|(placeholder, _)| condition.contains(placeholder.as_str()))
        .map(|(_, name)| name.as_str())
        .collect();
    attributes.sort();
    assert_eq!(attributes, ["LSI1SK", "PK"]);
    // The table's query is unchanged, and allows a consistent read too.
    let table = Order::query("c-1")
        .consistent_read()
        .request("orders")
        .unwrap();
    assert_eq!(table.index_name(), None);
    assert_eq!(table.consistent_read(), Some(true));
}

/// Issue 24, point 1: a query's index is a type, `Query<E>` (the table),
/// `Query<E, Gsi<N>>`, `Query<E, Lsi<N>>`, which names one index of the
/// entity and resolves to it once; an LSI and a GSI of the same number are
/// different indexes.
#[test]
fn the_index_of_a_query_is_a_marker_type() {
    let table: Query<Order> = Order::query("c-1");
    let local: Query<Order, Lsi<2>> = Order::query_lsi2("c-1");
    let global: Query<Customer, Gsi<1>> = Customer::query_gsi1("Ada");
    let names = [
        table
            .request("orders")
            .unwrap()
            .index_name()
            .map(str::to_owned),
        local
            .request("orders")
            .unwrap()
            .index_name()
            .map(str::to_owned),
        global
            .request("orders")
            .unwrap()
            .index_name()
            .map(str::to_owned),
    ];
    assert_eq!(
        names,
        [None, Some("LSI2".to_owned()), Some("GSI1".to_owned())]
    );
    assert_eq!(<BaseTable as QueryIndex>::ID, IndexId::Table);
    assert_eq!(<Lsi<2> as QueryIndex>::ID, IndexId::Lsi(2));
    assert_eq!(
        Order::SCHEMA
            .resolve(<Lsi<2> as QueryIndex>::ID)
            .unwrap()
            .name,
        "LSI2"
    );
    assert!(Order::SCHEMA.resolve(<Gsi<1> as QueryIndex>::ID).is_none());
    assert!(Order::SCHEMA.resolve(IndexId::Table).is_none());
    assert_eq!(
        Customer::SCHEMA.resolve(IndexId::Gsi(1)).unwrap().name,
        "GSI1"
    );
    assert!(Customer::SCHEMA.resolve(IndexId::Lsi(1)).is_none());
}

#[test]
fn a_consistent_read_on_a_gsi_is_still_refused_before_sending() {
    let error = Customer::query_gsi1("Ada")
        .consistent_read()
        .request("orders")
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::ConsistentReadOnIndex { index: "GSI1" })
        ),
        "{error}"
    );
}

// ---------------------------------------------------------------------------
// The schema.

#[test]
fn create_table_has_the_local_secondary_indexes() {
    let input = definition().request("orders").unwrap();
    let lsis = input.local_secondary_indexes();
    /// An index as described: name, key schema, projection type.
    type Described<'a> = (&'a str, Vec<(&'a str, KeyType)>, Option<ProjectionType>);
    let described: Vec<Described> = lsis
        .iter()
        .map(|index| {
            (
                index.index_name(),
                index
                    .key_schema()
                    .iter()
                    .map(|key| (key.attribute_name(), key.key_type().clone()))
                    .collect(),
                index
                    .projection()
                    .and_then(|projection| projection.projection_type().cloned()),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            (
                "LSI1",
                vec![("PK", KeyType::Hash), ("LSI1SK", KeyType::Range)],
                Some(ProjectionType::All)
            ),
            (
                "LSI2",
                vec![("PK", KeyType::Hash), ("LSI2SK", KeyType::Range)],
                Some(ProjectionType::All)
            ),
        ]
    );
    let mut attributes: Vec<&str> = input
        .attribute_definitions()
        .iter()
        .map(|definition| definition.attribute_name())
        .collect();
    attributes.sort();
    assert_eq!(
        attributes,
        ["GSI1PK", "GSI1SK", "LSI1SK", "LSI2SK", "PK", "SK"]
    );
    // The GSI is still a GSI.
    assert_eq!(input.global_secondary_indexes().len(), 1);

    let keys_only = definition()
        .index_projection("LSI2", IndexProjection::KeysOnly)
        .request("orders")
        .unwrap();
    assert_eq!(
        keys_only.local_secondary_indexes()[1]
            .projection()
            .unwrap()
            .projection_type(),
        Some(&ProjectionType::KeysOnly)
    );
}

#[test]
fn cloudformation_has_the_local_secondary_indexes() {
    let template = definition().cloudformation().unwrap().to_json_value();
    let properties = &template["Resources"]["Table"]["Properties"];
    assert_eq!(
        properties["LocalSecondaryIndexes"],
        serde_json::json!([
            {
                "IndexName": "LSI1",
                "KeySchema": [
                    {"AttributeName": "PK", "KeyType": "HASH"},
                    {"AttributeName": "LSI1SK", "KeyType": "RANGE"}
                ],
                "Projection": {"ProjectionType": "ALL"}
            },
            {
                "IndexName": "LSI2",
                "KeySchema": [
                    {"AttributeName": "PK", "KeyType": "HASH"},
                    {"AttributeName": "LSI2SK", "KeyType": "RANGE"}
                ],
                "Projection": {"ProjectionType": "ALL"}
            }
        ])
    );
    let defined: Vec<&str> = properties["AttributeDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|definition| definition["AttributeName"].as_str().unwrap())
        .collect();
    assert!(defined.contains(&"LSI1SK") && defined.contains(&"LSI2SK"));
}

#[test]
fn the_definition_refuses_a_sixth_local_index() {
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "A#<id>"]
    #[sk = "A"]
    #[lsi1(sk = "<a>")]
    #[lsi2(sk = "<b>")]
    #[lsi3(sk = "<c>")]
    #[lsi4(sk = "<d>")]
    #[lsi5(sk = "<e>")]
    struct Five {
        id: String,
        a: String,
        b: String,
        c: String,
        d: String,
        e: String,
    }
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "B#<id>"]
    #[sk = "B"]
    #[lsi1(sk = "<f>", index_name = "LSI6", sk_attribute = "LSI6SK")]
    struct Sixth {
        id: String,
        f: String,
    }
    let error = TableDefinition::new()
        .entity::<Five>()
        .entity::<Sixth>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Definition(DefinitionError::TooManyLocalIndexes {
                count: 6,
                limit: 5,
                ..
            })
        ),
        "{error}"
    );
}

#[test]
fn the_definition_refuses_a_gsi_named_as_an_lsi() {
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "C#<id>"]
    #[sk = "C"]
    #[gsi1(pk = "<g>", index_name = "LSI1")]
    struct SameName {
        id: String,
        g: String,
    }
    let error = TableDefinition::new()
        .entity::<Order>()
        .entity::<SameName>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::DuplicateIndexName { index: "LSI1" })
        ),
        "{error}"
    );
}

#[test]
fn the_definition_refuses_a_field_stored_under_an_lsi_sort_key_attribute() {
    // A field stored under another entity's LSI sort key attribute.
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "D#<id>"]
    #[sk = "D"]
    struct Squatter {
        id: String,
        #[serde(rename = "LSI1SK")]
        value: String,
    }
    let error = TableDefinition::new()
        .entity::<Order>()
        .entity::<Squatter>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Squatter",
                field: "value",
                field_type: "S",
                index_entity: "Order",
                index: "LSI1",
                attribute: "LSI1SK",
                key_type: "S, built from a template",
                ..
            })
        ),
        "{error}"
    );
}

#[test]
fn a_projection_may_name_an_lsi_but_not_an_unknown_index() {
    // A projection may name an LSI; an unknown name is still refused.
    assert!(
        definition()
            .index_projection("LSI1", IndexProjection::KeysOnly)
            .check()
            .is_ok()
    );
    let error = definition()
        .index_projection("LSI9", IndexProjection::KeysOnly)
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::UnknownIndex { .. })
        ),
        "{error}"
    );
}

#[test]
fn the_catalogue_lists_the_lsi_queries_and_draws_the_index() {
    let catalogue = definition()
        .example(&order("c-1", "o-1", 500, Some(day(2))))
        .unwrap()
        .catalogue()
        .unwrap();
    assert!(
        catalogue.contains("| `LSI1` (local) | `PK` | `LSI1SK` | ALL |"),
        "{catalogue}"
    );
    assert!(
        catalogue
            .contains("| `Order::query_lsi1(customer_id)` | `Order` | Query | `LSI1 (local)` |"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("`LSI2 (local)` (sparse: only items with `shipped_on`)"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("### `LSI1` (local): `PK = CUST#<customer_id>`"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("index_LSI1[(\"LSI1 (local)<br>PK / LSI1SK\")]"),
        "{catalogue}"
    );
}

#[test]
fn capacity_counts_a_write_unit_per_lsi_entry() {
    // DynamoDB: a put writes the item to the table and an entry to every
    // LSI that holds it, each rounded up to 1 KB; an item without an LSI's
    // sort key writes nothing there.
    let shipped = definition()
        .example(&order("c-1", "o-1", 500, Some(day(2))))
        .unwrap()
        .capacity()
        .unwrap();
    let put = &shipped[0].put;
    assert_eq!(put.table, 1.0);
    assert_eq!(put.indexes, [("LSI1", 1.0), ("LSI2", 1.0)]);
    assert_eq!(
        shipped[0].update_index_keys.indexes,
        [("LSI1", 2.0), ("LSI2", 2.0)]
    );
    let open = definition()
        .example(&order("c-1", "o-2", 500, None))
        .unwrap()
        .capacity()
        .unwrap();
    assert_eq!(open[0].put.indexes, [("LSI1", 1.0)]);
}

// ---------------------------------------------------------------------------
// On the server.

async fn load(table: &Table, orders: &[Order]) {
    for order in orders {
        table.put(order).await.unwrap();
    }
}

async fn lsi1(table: &Table, customer: &str) -> Vec<Order> {
    Order::query_lsi1(customer)
        .stream(table)
        .try_collect()
        .await
        .unwrap()
}

#[tokio::test]
async fn create_table_and_verify_agree_on_the_local_indexes() {
    let table = common::fresh_table("lsi-verify", &definition()).await;
    assert_eq!(table.verify(&definition()).await.unwrap(), []);
    // A table made without the LSIs (they cannot be added later).
    let plain = TableDefinition::new().entity::<Customer>();
    let other = common::fresh_table("lsi-verify-plain", &plain).await;
    assert_eq!(
        other.verify(&definition()).await.unwrap(),
        [
            SchemaDifference::MissingIndex {
                index: "LSI1".to_owned()
            },
            SchemaDifference::MissingIndex {
                index: "LSI2".to_owned()
            },
        ]
    );
    assert_eq!(
        table.verify(&plain).await.unwrap(),
        [
            SchemaDifference::ExtraIndex {
                index: "LSI1".to_owned()
            },
            SchemaDifference::ExtraIndex {
                index: "LSI2".to_owned()
            },
        ]
    );
}

#[tokio::test]
async fn an_lsi_query_orders_by_the_index_sort_key_with_typed_conditions() {
    let table = common::fresh_table("lsi-query", &definition()).await;
    load(
        &table,
        &[
            order("c-1", "o-1", 900, None),
            order("c-1", "o-2", 100, Some(day(5))),
            order("c-1", "o-3", 500, Some(day(1))),
            order("c-1", "o-4", 300, None),
            order("c-2", "o-5", 200, None),
        ],
    )
    .await;
    assert_eq!(
        ids(&lsi1(&table, "c-1").await),
        ["o-2", "o-4", "o-3", "o-1"]
    );
    let page = Order::query_lsi1("c-1")
        .sort_key_between(&300, &500)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-4", "o-3"]);
    let page = Order::query_lsi1("c-1")
        .sort_key_gt(&300)
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-1", "o-3"]);
    let page = Order::query_lsi1("c-1")
        .sort_key_lt(&300)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-2"]);
    let page = Order::query_lsi1("c-1")
        .sort_key_eq(&500)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-3"]);
    assert_eq!(Order::query_lsi1("c-1").count(&table).await.unwrap(), 4);
}

#[tokio::test]
async fn a_sparse_lsi_holds_only_the_items_with_its_fields() {
    let table = common::fresh_table("lsi-sparse", &definition()).await;
    load(
        &table,
        &[
            order("c-1", "o-1", 900, None),
            order("c-1", "o-2", 100, Some(day(5))),
            order("c-1", "o-3", 500, Some(day(1))),
        ],
    )
    .await;
    let shipped: Vec<Order> = Order::query_lsi2("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids(&shipped), ["o-3", "o-2"]);
    let page = Order::query_lsi2("c-1")
        .sort_key_eq(&day(5))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-2"]);
}

#[tokio::test]
async fn a_value_with_the_delimiter_is_found_by_its_whole_key() {
    let table = common::fresh_table("lsi-delimiter", &definition()).await;
    load(
        &table,
        &[
            order("c-1", "o#1", 100, Some(day(2))),
            order("c-1", "o", 100, Some(day(2))),
            order("c-1", "o#1#x", 100, Some(day(2))),
        ],
    )
    .await;
    let page = Order::query_lsi2("c-1")
        .sort_key_eq((&day(2), "o#1"))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o#1"]);
    let all = Order::query_lsi2("c-1")
        .sort_key_eq(&day(2))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(all.items.len(), 3);
}

#[tokio::test]
async fn a_consistent_lsi_query_reads_a_write_just_made() {
    let table = common::fresh_table("lsi-consistent", &definition()).await;
    table.put(&order("c-1", "o-1", 100, None)).await.unwrap();
    let page = Order::query_lsi1("c-1")
        .consistent_read()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-1"]);
    let page = Order::query("c-1")
        .consistent_read()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-1"]);
    let error = Customer::query_gsi1("Ada")
        .consistent_read()
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::ConsistentReadOnIndex { index: "GSI1" })
        ),
        "{error}"
    );
}

#[tokio::test]
async fn a_cursor_pages_through_an_lsi_query() {
    let table = common::fresh_table("lsi-cursor", &definition()).await;
    let orders: Vec<Order> = (1..=7)
        .map(|n| order("c-1", &format!("o-{n}"), 1000 - n * 100, None))
        .collect();
    load(&table, &orders).await;
    for newest_first in [false, true] {
        let mut seen = Vec::new();
        let mut cursor = None;
        let mut pages = 0;
        loop {
            let mut query = Order::query_lsi1("c-1").limit(2);
            if newest_first {
                query = query.newest_first();
            }
            if let Some(cursor) = &cursor {
                query = query.after(cursor);
            }
            let page = query.send(&table).await.unwrap();
            pages += 1;
            seen.extend(page.items.into_iter().map(|order| order.total_cents));
            match page.cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let mut expected: Vec<u32> = (1..=7).map(|n| 1000 - n * 100).collect();
        expected.sort();
        if newest_first {
            expected.reverse();
        }
        assert_eq!(seen, expected);
        assert!(pages >= 4, "{pages} pages of 2");
    }
    // A cursor of the LSI query is refused by the table query (another
    // fingerprint), before sending.
    let page = Order::query_lsi1("c-1")
        .limit(2)
        .send(&table)
        .await
        .unwrap();
    let error = Order::query("c-1")
        .after(page.cursor.as_ref().unwrap())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::CursorMismatch)),
        "{error}"
    );
}

#[tokio::test]
async fn an_entity_query_returns_only_its_items_when_lsi_prefixes_nest() {
    let table = common::fresh_table("lsi-nested", &definition()).await;
    load(&table, &[order("c-1", "o-1", 500, None)]).await;
    table
        .put(&Refund {
            customer_id: "c-1".into(),
            refund_id: "r-1".into(),
            amount_cents: 500,
        })
        .await
        .unwrap();
    // The refund's LSI1 key extends the order's (`AMOUNT#…500` and
    // `AMOUNT#…500#REFUND`), and both begin with `AMOUNT#`.
    assert_eq!(ids(&lsi1(&table, "c-1").await), ["o-1"]);
    let page = Order::query_lsi1("c-1")
        .sort_key_ge(&500)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-1"]);
    assert_eq!(Order::query_lsi1("c-1").count(&table).await.unwrap(), 1);
    let refunds: Vec<Refund> = Refund::query_lsi1("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].refund_id, "r-1");
}

#[tokio::test]
async fn an_update_moves_the_lsi_sort_key() {
    let table = common::fresh_table("lsi-update", &definition()).await;
    load(
        &table,
        &[
            order("c-1", "o-1", 100, None),
            order("c-1", "o-2", 200, None),
        ],
    )
    .await;
    let above = |table: Table| async move {
        Order::query_lsi1("c-1")
            .sort_key_ge(&500)
            .send(&table)
            .await
            .unwrap()
            .items
    };
    assert!(above(table.clone()).await.is_empty());
    Order::update(OrderKey {
        customer_id: "c-1",
        order_id: "o-1",
    })
    .set(Order::TOTAL_CENTS, &900)
    .send(&table)
    .await
    .unwrap();
    assert_eq!(ids(&above(table.clone()).await), ["o-1"]);
    assert_eq!(ids(&lsi1(&table, "c-1").await), ["o-2", "o-1"]);

    // Setting the sparse index's field puts the item into LSI2; removing it
    // takes it out.
    Order::update(OrderKey {
        customer_id: "c-1",
        order_id: "o-2",
    })
    .set(Order::SHIPPED_ON, &day(9))
    .send(&table)
    .await
    .unwrap();
    let shipped = Order::query_lsi2("c-1").send(&table).await.unwrap();
    assert_eq!(ids(&shipped.items), ["o-2"]);
    Order::update(OrderKey {
        customer_id: "c-1",
        order_id: "o-2",
    })
    .remove(Order::SHIPPED_ON)
    .send(&table)
    .await
    .unwrap();
    assert!(
        Order::query_lsi2("c-1")
            .send(&table)
            .await
            .unwrap()
            .items
            .is_empty()
    );
    let stored = table
        .get(
            &Order::key(OrderKey {
                customer_id: "c-1",
                order_id: "o-2",
            })
            .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(stored.unwrap().shipped_on, None);
}

#[tokio::test]
async fn a_condition_failed_write_on_an_lsi_table_is_typed() {
    let table = common::fresh_table("lsi-condition", &definition()).await;
    let first = order("c-1", "o-1", 100, None);
    table.create(&first).await.unwrap();
    let error = table
        .create(&order("c-1", "o-1", 999, None))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::AlreadyExists { .. }), "{error}");
    // The index still holds the first write only.
    assert_eq!(lsi1(&table, "c-1").await, [first]);
}

// ---------------------------------------------------------------------------
// Item-collection metrics.

/// The JSON bodies of the requests a client sends, by operation.
#[derive(Debug, Clone, Default)]
struct Bodies(Arc<Mutex<Vec<(String, serde_json::Value)>>>);

impl Bodies {
    /// Whether every request of `operation` asked for the item-collection
    /// size, and how many there were.
    fn asked(&self, operation: &str) -> (usize, bool) {
        let bodies = self.0.lock().unwrap();
        let matching: Vec<&serde_json::Value> = bodies
            .iter()
            .filter(|(sent, _)| sent == operation)
            .map(|(_, body)| body)
            .collect();
        (
            matching.len(),
            !matching.is_empty()
                && matching
                    .iter()
                    .all(|body| body["ReturnItemCollectionMetrics"] == "SIZE"),
        )
    }

    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

impl aws_sdk_dynamodb::config::Intercept for Bodies {
    fn name(&self) -> &'static str {
        "Bodies"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        let body = request
            .body()
            .bytes()
            .and_then(|bytes| serde_json::from_slice(bytes).ok())
            .unwrap_or(serde_json::Value::Null);
        self.0.lock().unwrap().push((operation, body));
        Ok(())
    }
}

async fn recorded_table(test: &str) -> (Table, Bodies) {
    let bodies = Bodies::default();
    let config = stamp::local::config(&common::endpoint())
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .interceptor(bodies.clone())
        .build();
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(aws_sdk_dynamodb::Client::from_conf(config), name);
    table.create_table(&definition()).await.unwrap();
    bodies.clear();
    (table, bodies)
}

#[tokio::test]
async fn every_write_of_an_lsi_entity_asks_for_the_item_collection_size() {
    let (table, bodies) = recorded_table("lsi-metrics-asked").await;
    let first = order("c-1", "o-1", 100, None);
    table.put(&first).await.unwrap();
    Order::update(OrderKey {
        customer_id: "c-1",
        order_id: "o-1",
    })
    .set(Order::NOTE, &"changed".to_owned())
    .send(&table)
    .await
    .unwrap();
    table
        .delete(
            &Order::key(OrderKey {
                customer_id: "c-1",
                order_id: "o-1",
            })
            .unwrap(),
        )
        .await
        .unwrap();
    TransactWrite::new()
        .put(&order("c-1", "o-2", 100, None))
        .send(&table)
        .await
        .unwrap();
    BatchWrite::new()
        .put(&order("c-1", "o-3", 100, None))
        .send(&table)
        .await
        .unwrap();
    for operation in [
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "TransactWriteItems",
        "BatchWriteItem",
    ] {
        assert_eq!(bodies.asked(operation), (1, true), "{operation}");
    }

    // An entity without an LSI asks too on a table that knows its
    // definition (`create_table` made it): it grows the same item
    // collections.
    bodies.clear();
    let customer = Customer {
        customer_id: "c-1".into(),
        name: "Ada".into(),
    };
    table.put(&customer).await.unwrap();
    assert_eq!(bodies.asked("PutItem"), (1, true));
    // On a table that does not know it, an entity without an LSI does not
    // ask, alone.
    bodies.clear();
    let table = Table::new(table.client().clone(), table.name());
    table.put(&customer).await.unwrap();
    BatchWrite::new().put(&customer).send(&table).await.unwrap();
    TransactWrite::new()
        .put(&customer)
        .send(&table)
        .await
        .unwrap();
    for operation in ["PutItem", "BatchWriteItem", "TransactWriteItems"] {
        assert_eq!(bodies.asked(operation), (1, false), "{operation}");
    }
    // A transaction of updates only asks when told to.
    bodies.clear();
    TransactWrite::new()
        .update(
            Order::update(OrderKey {
                customer_id: "c-1",
                order_id: "o-2",
            })
            .set(Order::NOTE, &"again".to_owned()),
        )
        .item_collection_metrics()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(bodies.asked("TransactWriteItems"), (1, true));
}

/// A `tracing` subscriber that keeps the events of target
/// `stamp::item_collection`, each as its fields written out.
#[derive(Clone, Default)]
struct Warnings(Arc<Mutex<Vec<String>>>);

struct Fields(String);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write;
        let _ = write!(self.0, "{}={:?} ", field.name(), value);
    }
}

impl tracing::Subscriber for Warnings {
    fn register_callsite(
        &self,
        _metadata: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }

    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        metadata.target() == "stamp::item_collection" || metadata.is_span()
    }

    fn new_span(&self, _span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }

    fn record(&self, _span: &tracing::span::Id, _values: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _span: &tracing::span::Id, _follows: &tracing::span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        if event.metadata().target() != "stamp::item_collection" {
            return;
        }
        let mut fields = Fields(format!("{} ", event.metadata().level()));
        event.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }

    fn enter(&self, _span: &tracing::span::Id) {}

    fn exit(&self, _span: &tracing::span::Id) {}
}

#[tokio::test(flavor = "current_thread")]
async fn a_write_warns_when_the_item_collection_passes_the_threshold() {
    let warnings = Warnings::default();
    let _guard = tracing::subscriber::set_default(warnings.clone());
    let table = common::fresh_table("lsi-warning", &definition()).await;
    // The default threshold, 8 GB, is far above a small collection
    // (DynamoDB estimates it at 0 to 1 GB).
    assert_eq!(
        table.item_collection_warning_gb(),
        stamp::capacity::DEFAULT_ITEM_COLLECTION_WARNING_GB
    );
    table.put(&order("c-1", "o-1", 100, None)).await.unwrap();
    assert!(warnings.0.lock().unwrap().is_empty());

    let table = table.warn_item_collection_above_gb(0.0);
    table.put(&order("c-1", "o-2", 100, None)).await.unwrap();
    BatchWrite::new()
        .put(&order("c-9", "o-3", 100, None))
        .send(&table)
        .await
        .unwrap();
    Order::update(OrderKey {
        customer_id: "c-1",
        order_id: "o-2",
    })
    .set(Order::NOTE, &"changed".to_owned())
    .send(&table)
    .await
    .unwrap();
    let seen = warnings.0.lock().unwrap().clone();
    let server = common::server();
    // Which writes return `ItemCollectionMetrics` depends on the server
    // (docs/design-notes.md, "Servers"): dynoxide for PutItem, BatchWriteItem and
    // UpdateItem, ministack for PutItem and UpdateItem; DynamoDB for all.
    let expected: &[(&str, &str)] = match server.as_str() {
        "ministack" => &[("PutItem", "CUST#c-1"), ("UpdateItem", "CUST#c-1")],
        _ => &[
            ("PutItem", "CUST#c-1"),
            ("BatchWriteItem", "CUST#c-9"),
            ("UpdateItem", "CUST#c-1"),
        ],
    };
    assert_eq!(seen.len(), expected.len(), "{seen:#?}");
    for (warning, (operation, partition)) in seen.iter().zip(expected) {
        assert!(warning.starts_with("WARN "), "{warning}");
        assert!(
            warning.contains(&format!("operation=\"{operation}\"")),
            "{warning}"
        );
        assert!(
            warning.contains(&format!("item_collection=PK = {partition}")),
            "{warning}"
        );
        assert!(warning.contains("threshold_gb=0.0"), "{warning}");
    }
    // Whatever the server: a threshold above every estimate stays silent.
    warnings.0.lock().unwrap().clear();
    let quiet = table.warn_item_collection_above_gb(f64::INFINITY);
    quiet.put(&order("c-1", "o-4", 100, None)).await.unwrap();
    assert!(warnings.0.lock().unwrap().is_empty());
}

#[test]
fn entities_of_the_test_model_convert_back() {
    let refund = Refund {
        customer_id: "c".into(),
        refund_id: "r".into(),
        amount_cents: 5,
    };
    let item: AttributeMap = refund.to_item().unwrap();
    assert!(item["LSI1SK"].as_s().unwrap().ends_with("#REFUND"));
    assert_eq!(Refund::from_item(item).unwrap(), refund);
}

/// The order as an earlier version wrote it: LSI1 keys with another
/// prefix, and no LSI2.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[stamp(type_name = "Order")]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "TOTAL#<total_cents>")]
struct OrderBeforeLsiChange {
    customer_id: String,
    order_id: String,
    total_cents: u32,
    shipped_on: Option<NaiveDate>,
    note: String,
}

#[tokio::test]
async fn a_changed_lsi_template_is_backfilled_by_a_migration() {
    let table = common::fresh_table("lsi-migration", &definition()).await;
    let old: Vec<OrderBeforeLsiChange> = (0..20)
        .map(|n| OrderBeforeLsiChange {
            customer_id: "c-1".into(),
            order_id: format!("o-{n:02}"),
            total_cents: 100 * n,
            shipped_on: (n % 2 == 0).then(|| day(1 + n % 28)),
            note: String::new(),
        })
        .collect();
    BatchWrite::new().put_all(&old).send(&table).await.unwrap();
    // Under the old prefix, the current scope (`AMOUNT#`) finds nothing.
    assert!(lsi1(&table, "c-1").await.is_empty());
    let outcome = stamp::migrate::Migration::<Order>::new()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.progress.migrated, 20);
    assert_eq!(outcome.progress.skipped, 0);
    let by_total = lsi1(&table, "c-1").await;
    assert_eq!(by_total.len(), 20);
    assert!(
        by_total
            .windows(2)
            .all(|pair| pair[0].total_cents < pair[1].total_cents)
    );
    let shipped: Vec<Order> = Order::query_lsi2("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(shipped.len(), 10);
    let again = stamp::migrate::Migration::<Order>::new()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(again.progress.migrated, 0);
    assert_eq!(again.progress.already_current, 20);
}

/// The common LSI: a partition's items by their last update.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BOARD#<board>"]
#[sk = "CARD#<card>"]
#[lsi1(sk = "UPDATED#<updated_at>")]
struct Card {
    board: String,
    card: String,
    title: String,
    #[stamp(updated_at)]
    updated_at: chrono::DateTime<chrono::Utc>,
}

#[tokio::test]
async fn an_lsi_on_updated_at_follows_every_write() {
    let definition = TableDefinition::new().entity::<Card>();
    let table = common::fresh_table("lsi-updated-at", &definition).await;
    for card in ["a", "b", "c"] {
        table
            .put(&Card {
                board: "b-1".into(),
                card: card.into(),
                title: card.into(),
                updated_at: chrono::DateTime::UNIX_EPOCH,
            })
            .await
            .unwrap();
    }
    let newest = |table: Table| async move {
        Card::query_lsi1("b-1")
            .newest_first()
            .send(&table)
            .await
            .unwrap()
            .items
            .into_iter()
            .map(|card| card.card)
            .collect::<Vec<_>>()
    };
    assert_eq!(newest(table.clone()).await, ["c", "b", "a"]);
    // The update stamps `updated_at`, which rebuilds LSI1SK in the request.
    Card::update(CardKey {
        board: "b-1",
        card: "a",
    })
    .set(Card::TITLE, &"renamed".to_owned())
    .send(&table)
    .await
    .unwrap();
    assert_eq!(newest(table.clone()).await, ["a", "c", "b"]);
    let stored = table
        .get(
            &Card::key(CardKey {
                board: "b-1",
                card: "a",
            })
            .unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    let item = stored.to_item().unwrap();
    assert_eq!(
        Card::parse_lsi1_sort_key(item["LSI1SK"].as_s().unwrap()).unwrap(),
        (stored.updated_at,)
    );
}
