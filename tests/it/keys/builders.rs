//! Key builders, key parsers and `#[derive(KeyPart)]`, without a server:
//! exact key strings, escaping, case, and the typed errors of bad values.

use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use stamp::AttributeMap;
use stamp::error::KeyError;
use stamp::{Entity, Error, Item, KeyPart};
use stamp_examples::Session;
use uuid::Uuid;

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum OrderStatus {
    Pending,
    InTransit,
    #[serde(rename = "DONE")]
    Delivered,
}

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Sku(String);

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Default)]
#[stamp(rename_all = "kebab-case")]
enum Region {
    #[default]
    EuWest,
    #[stamp(rename = "us")]
    UnitedStates,
}

/// Its own order entity: a GSI1 on a status with renamed variants, for the key builders and parsers.
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
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PRODUCT#<sku>"]
#[sk = "PRODUCT"]
#[gsi2 = "REGION#<region>#<rank>"]
#[stamp(type_name = "Product")]
struct ProductRecord {
    sku: Sku,
    #[serde(skip)]
    region: Region,
    rank: i32,
    day: NaiveDate,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TAG#<category>#<name>"]
#[sk = "TAG"]
struct Tag {
    category: String,
    name: String,
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn order_id() -> Uuid {
    Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap()
}

#[test]
fn the_order_key_is_exact() {
    let key = Order::key("c-1", &time("2026-06-01T10:00:00Z"), &order_id()).unwrap();
    assert_eq!(key.partition_key(), "CUST#c-1");
    assert_eq!(
        key.sort_key(),
        "ORDER#2026-06-01T10:00:00.000000000Z#67e55044-10b1-426f-9247-bb680e5fe0c8"
    );
    let index_key =
        Order::gsi1_key(&OrderStatus::InTransit, &time("2026-06-02T08:30:00.25Z")).unwrap();
    assert_eq!(index_key.index().name, "GSI1");
    assert_eq!(index_key.partition_key(), "STATUS#IN_TRANSIT");
    assert_eq!(index_key.sort_key(), Some("2026-06-02T08:30:00.250000000Z"));
}

#[test]
fn keys_parse_back_into_typed_fields() {
    let created_at = time("2026-06-01T10:00:00.123456789Z");
    let key = Order::key("c-1", &created_at, &order_id()).unwrap();
    assert_eq!(
        Order::parse_partition_key(key.partition_key()).unwrap(),
        ("c-1".to_owned(),)
    );
    assert_eq!(
        Order::parse_sort_key(key.sort_key()).unwrap(),
        (created_at, order_id())
    );
    assert_eq!(
        Order::parse_gsi1_partition_key("STATUS#DONE").unwrap(),
        (OrderStatus::Delivered,)
    );
    assert_eq!(ProductRecord::parse_sort_key("PRODUCT").unwrap(), ());
    assert_eq!(
        ProductRecord::parse_gsi2_partition_key("REGION#us#2147483643").unwrap(),
        (Region::UnitedStates, -5)
    );
}

#[test]
fn malformed_keys_are_typed_errors() {
    match Order::parse_sort_key("ORDER#yesterday#67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap_err()
    {
        Error::Key(KeyError::KeyDecode {
            entity, field, key, ..
        }) => {
            assert_eq!((entity, field), ("Order", "created_at"));
            assert_eq!(key, "ORDER#yesterday#67e55044-10b1-426f-9247-bb680e5fe0c8");
        }
        other => panic!("unexpected error: {other}"),
    }
    assert_eq!(
        Order::parse_partition_key("USER#c-1")
            .unwrap_err()
            .to_string(),
        "key `USER#c-1` does not match the template `CUST#<customer_id>` of entity `Order`: expected `CUST#` at byte 0"
    );
    assert_eq!(
        Order::parse_gsi1_partition_key("STATUS#LOST")
            .unwrap_err()
            .to_string(),
        "field `status` in key `STATUS#LOST` of entity `Order` cannot be decoded: \
         `LOST` is not a valid key encoding of a `OrderStatus`: one of PENDING, IN_TRANSIT, DONE"
    );
}

#[test]
fn a_value_with_the_delimiter_round_trips() {
    let key = Tag::key(TagKey {
        category: "a#b",
        name: "50% off",
    })
    .unwrap();
    // Every character up to `%` is escaped, the space too (so keys sort in
    // the values' order).
    assert_eq!(key.partition_key(), "TAG#a%23b#50%25%20off");
    assert_eq!(
        Tag::parse_partition_key(key.partition_key()).unwrap(),
        ("a#b".to_owned(), "50% off".to_owned())
    );
    // The escaped set is the same in every template, one field or many.
    let key = Order::key("x#y%z", &time("2026-06-01T10:00:00Z"), &order_id()).unwrap();
    assert_eq!(key.partition_key(), "CUST#x%23y%25z");
    assert_eq!(
        Order::parse_partition_key(key.partition_key()).unwrap(),
        ("x#y%z".to_owned(),)
    );
}

#[test]
fn an_empty_key_value_names_the_entity_and_the_field() {
    let error = Order::key("", &time("2026-06-01T10:00:00Z"), &order_id()).unwrap_err();
    assert!(matches!(
        error,
        Error::Key(KeyError::EmptyKeyValue {
            entity: "Order",
            field: "customer_id"
        })
    ));
    assert_eq!(
        error.to_string(),
        "field `customer_id` of entity `Order` is empty, and a key field needs a non-empty value"
    );
    let error = ProductRecord::key(&Sku(String::new())).unwrap_err();
    assert!(matches!(
        error,
        Error::Key(KeyError::EmptyKeyValue {
            entity: "Product",
            field: "sku"
        })
    ));
}

#[test]
fn keys_keep_their_case() {
    let key = Tag::key(TagKey {
        category: "MiXeD",
        name: "CaSe",
    })
    .unwrap();
    assert_eq!(key.partition_key(), "TAG#MiXeD#CaSe");
    assert_ne!(
        Tag::key(TagKey {
            category: "mixed",
            name: "case"
        })
        .unwrap(),
        key
    );
}

#[test]
fn integers_and_dates_in_keys_sort_by_value() {
    let key = |rank| {
        ProductRecord::gsi2_key(&Region::EuWest, &rank)
            .unwrap()
            .partition_key()
            .to_owned()
    };
    assert_eq!(key(-5), "REGION#eu-west#2147483643");
    assert!(key(-10) < key(-5) && key(-5) < key(0) && key(0) < key(7));
}

#[test]
fn to_item_writes_keys_indexes_and_type_and_leaves_out_none() {
    let mut order = Order {
        customer_id: "c-1".into(),
        order_id: order_id(),
        created_at: time("2026-06-01T10:00:00Z"),
        status: None,
        updated_at: time("2026-06-02T00:00:00Z"),
        total_cents: 1250,
    };
    let item: AttributeMap = order.to_item().unwrap();
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "PK",
            "SK",
            "Type",
            "created_at",
            "customer_id",
            "order_id",
            "total_cents",
            "updated_at"
        ]
    );
    order.status = Some(OrderStatus::Pending);
    let item = order.to_item().unwrap();
    assert_eq!(item["GSI1PK"].as_s().unwrap(), "STATUS#PENDING");
    assert_eq!(
        item["GSI1SK"].as_s().unwrap(),
        "2026-06-02T00:00:00.000000000Z"
    );
    assert_eq!(item["Type"].as_s().unwrap(), "Order");
    assert_eq!(Order::from_item(item).unwrap(), order);
}

#[test]
fn from_item_refuses_an_item_of_another_entity() {
    let tag = Tag {
        category: "a".into(),
        name: "b".into(),
    };
    let error = Order::from_item(tag.to_item().unwrap()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the item's `Type` is `Tag`, but entity `Order` was asked for"
    );
}

#[test]
fn the_schema_describes_every_template() {
    let schema = Order::SCHEMA;
    assert_eq!(schema.type_name, "Order");
    assert_eq!(
        (schema.partition_key.name, schema.sort_key.name),
        ("PK", "SK")
    );
    assert_eq!(
        schema.sort_key.template.source,
        "ORDER#<created_at>#<order_id>"
    );
    assert_eq!(schema.sort_key.template.literal_prefix(), "ORDER#");
    assert_eq!(
        schema.sort_key.template.fields().collect::<Vec<_>>(),
        ["created_at", "order_id"]
    );
    assert_eq!(
        schema.sort_key.template.escaped,
        stamp::key::KeyTemplate::ESCAPED
    );
    let index = schema.gsi(1).unwrap();
    assert_eq!((index.name, index.partition_key_name()), ("GSI1", "GSI1PK"));
    assert_eq!(index.sort_key_name(), Some("GSI1SK"));
    assert_eq!(ProductRecord::SCHEMA.type_name, "Product");
    assert_eq!(ProductRecord::SCHEMA.fields, ["sku", "rank", "day"]);
}

#[test]
fn derived_key_parts_encode_by_name_and_by_inner_value() {
    let encode = |part: &dyn Fn(&mut String)| {
        let mut out = String::new();
        part(&mut out);
        out
    };
    assert_eq!(
        encode(&|out| OrderStatus::InTransit.encode_key(out).unwrap()),
        "IN_TRANSIT"
    );
    assert_eq!(
        encode(&|out| OrderStatus::Delivered.encode_key(out).unwrap()),
        "DONE"
    );
    assert_eq!(
        encode(&|out| Region::EuWest.encode_key(out).unwrap()),
        "eu-west"
    );
    assert_eq!(
        encode(&|out| Sku("A-1".into()).encode_key(out).unwrap()),
        "A-1"
    );
    assert_eq!(
        OrderStatus::decode_key("PENDING").unwrap(),
        OrderStatus::Pending
    );
    assert_eq!(Sku::decode_key("A-1").unwrap(), Sku("A-1".into()));
    // The key text matches what serde stores in the attribute.
    assert_eq!(
        serde_json::to_string(&OrderStatus::InTransit).unwrap(),
        "\"IN_TRANSIT\""
    );
}

proptest! {
    #[test]
    fn different_field_tuples_never_give_the_same_key(
        a in "[a#%b]{1,5}", b in "[a#%b]{1,5}", c in "[a#%b]{1,5}", d in "[a#%b]{1,5}",
    ) {
        let first = Tag::key(TagKey { category: &a, name: &b }).unwrap();
        let second = Tag::key(TagKey { category: &c, name: &d }).unwrap();
        prop_assert_eq!(first == second, (&a, &b) == (&c, &d));
        prop_assert_eq!(Tag::parse_partition_key(first.partition_key()).unwrap(), (a, b));
    }

    #[test]
    fn order_keys_round_trip(customer in "\\PC{1,12}", seconds in 0i64..253_402_300_799, nanos in 0u32..1_000_000_000, id: u128) {
        let created_at = DateTime::from_timestamp(seconds, nanos).unwrap();
        let key = Order::key(&customer, &created_at, &Uuid::from_u128(id)).unwrap();
        prop_assert_eq!(Order::parse_partition_key(key.partition_key()).unwrap(), (customer,));
        prop_assert_eq!(Order::parse_sort_key(key.sort_key()).unwrap(), (created_at, Uuid::from_u128(id)));
    }
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "LEASE#<id>"]
#[sk = "LEASE"]
struct Lease {
    id: u32,
    #[stamp(ttl)]
    until: Option<std::time::SystemTime>,
}

#[test]
fn a_ttl_is_stored_as_a_number_of_epoch_seconds() {
    use aws_sdk_dynamodb::types::AttributeValue;

    let session = Session {
        token: "t-1".into(),
        customer_id: "c-1".into(),
        expires_at: time("2026-06-01T10:00:00Z"),
    };
    let item = session.to_item().unwrap();
    assert_eq!(
        item["expires_at"],
        AttributeValue::N("1780308000".to_owned())
    );
    assert_eq!(Session::SCHEMA.ttl_attribute, Some("expires_at"));
    assert_eq!(Session::from_item(item).unwrap(), session);

    let until = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_780_308_000);
    let lease = Lease {
        id: 1,
        until: Some(until),
    };
    let item = lease.to_item().unwrap();
    assert_eq!(item["until"], AttributeValue::N("1780308000".to_owned()));
    assert_eq!(Lease::from_item(item).unwrap(), lease);
    let item = Lease { id: 2, until: None }.to_item().unwrap();
    assert!(!item.contains_key("until"));
    assert_eq!(
        Lease::from_item(item).unwrap(),
        Lease { id: 2, until: None }
    );
}
