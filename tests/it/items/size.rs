//! Items on the wire against the local server: DynamoDB's item size and
//! its 400 KB limit, Numbers DynamoDB cannot store, sets, binaries, empty
//! sets and `None`s, and stored Numbers that do not fit their field.

use crate::common;
use stamp::AttributeMap;
use stamp::error::{DecodeError, Refusal};

use stamp::{BatchWrite, TransactWrite};
use std::collections::{BTreeSet, HashMap};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use stamp::limits::MAX_ITEM_SIZE_BYTES;
use stamp::{Entity, Error, Item, Table, TableDefinition, item::item_size};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
struct Document {
    id: String,
    body: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "M#<id>"]
#[sk = "M"]
struct Measure {
    id: String,
    value: f64,
    extra: Vec<f64>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TAGGED#<id>"]
#[sk = "TAGGED"]
#[gsi1(pk = "STATUS#<status>", sk = "<id>")]
struct Tagged {
    id: String,
    status: Option<String>,
    note: Option<String>,
    #[serde(with = "stamp::serde_dynamo::string_set", default)]
    tags: BTreeSet<String>,
    #[serde(with = "stamp::serde_dynamo::number_set", default)]
    scores: BTreeSet<u32>,
    #[serde(with = "stamp::serde_dynamo::binary_set", default)]
    blobs: Vec<ByteBuf>,
    #[serde(with = "serde_bytes")]
    data: Vec<u8>,
    nested: HashMap<String, Inner>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Inner {
    #[serde(with = "stamp::serde_dynamo::string_set", default)]
    labels: BTreeSet<String>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SMALL#<id>"]
#[sk = "SMALL"]
struct Small {
    id: String,
    count: u8,
    delta: i8,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Document>()
        .entity::<Measure>()
        .entity::<Tagged>()
        .entity::<Small>()
}

/// The size of a `Document` with a body of `body` bytes: the attribute
/// names and string values, `Type` included.
fn document_size(id: &str, body: usize) -> usize {
    let pk = format!("DOC#{id}");
    "PK".len()
        + pk.len()
        + "SK".len()
        + "DOC".len()
        + "Type".len()
        + "Document".len()
        + "id".len()
        + id.len()
        + "body".len()
        + body
}

async fn raw_item(table: &Table, pk: &str, sk: &str) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .key("PK", AttributeValue::S(pk.into()))
        .key("SK", AttributeValue::S(sk.into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

#[tokio::test]
async fn item_size_counts_names_and_values_and_refuses_over_400_kb() {
    let (table, counter) = common::fresh_counted_table("size", &definition()).await;

    // 35 bytes of names and values besides the body.
    assert_eq!(document_size("d-1", 0), 35);
    let small = Document {
        id: "d-1".into(),
        body: "héllo".into(),
    };
    assert_eq!(item_size(&small.to_item().unwrap()), 35 + 6);

    // A big item is written and read back, and its stored form has the
    // size Stamp computed (400,000 bytes of body, under DynamoDB's 409,600).
    let big = Document {
        id: "d-2".into(),
        body: "b".repeat(400_000),
    };
    table.put(&big).await.unwrap();
    assert_eq!(
        table.get(&Document::key("d-2").unwrap()).await.unwrap(),
        Some(big)
    );
    assert_eq!(
        item_size(&raw_item(&table, "DOC#d-2", "DOC").await),
        document_size("d-2", 400_000)
    );

    // Exactly 400 KB passes the check; one byte more is refused.
    let limit_body = MAX_ITEM_SIZE_BYTES - document_size("d-3", 0);
    let at_limit = Document {
        id: "d-3".into(),
        body: "x".repeat(limit_body),
    };
    let mut item = at_limit.to_item().unwrap();
    assert_eq!(
        stamp::item::check_item(Document::SCHEMA, &mut item).unwrap(),
        409_600
    );
    counter.reset();
    let over = Document {
        id: "d-3".into(),
        body: "x".repeat(limit_body + 1),
    };
    let result = table.put(&over).await;
    match result {
        Err(Error::Refused(Refusal::ItemTooLarge {
            entity: "Document",
            key,
            size: 409_601,
            limit: 409_600,
        })) => {
            assert_eq!(
                key.to_attribute_map(),
                Document::key("d-3").unwrap().to_attribute_map()
            );
        }
        other => panic!("expected ItemTooLarge, got {other:?}"),
    }
    // Multi-byte characters count as their UTF-8 bytes: 2 bytes each.
    let accents = Document {
        id: "d-3".into(),
        body: "é".repeat(limit_body / 2 + 1),
    };
    assert!(matches!(
        table.put(&accents).await,
        Err(Error::Refused(Refusal::ItemTooLarge { size: 409_601, .. }))
    ));
    let result = BatchWrite::new().put(&over).send(&table).await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::ItemTooLarge { size: 409_601, .. }))
        ),
        "{result:?}"
    );
    let result = TransactWrite::new().put(&over).send(&table).await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::ItemTooLarge { size: 409_601, .. }))
        ),
        "{result:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn numbers_dynamodb_cannot_store_are_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("numbers", &definition()).await;
    let measure = |value: f64, extra: Vec<f64>| Measure {
        id: "m-1".into(),
        value,
        extra,
    };

    for (value, text, reason) in [
        (f64::NAN, "NaN", "not a decimal number"),
        (f64::INFINITY, "inf", "not a decimal number"),
        (f64::NEG_INFINITY, "-inf", "not a decimal number"),
        (
            1e300,
            "1",
            "above 9.9999999999999999999999999999999999999E+125",
        ),
        (
            -1e130,
            "-1",
            "above 9.9999999999999999999999999999999999999E+125",
        ),
        (1e-200, "0.", "below 1E-130"),
    ] {
        let result = table.put(&measure(value, vec![])).await;
        match &result {
            Err(Error::Refused(Refusal::InvalidNumber {
                entity: "Measure",
                attribute,
                value: found,
                reason: why,
            })) => {
                assert_eq!(attribute, "value");
                assert!(found.starts_with(text), "{found}");
                assert!(why.contains(reason), "{why}");
            }
            other => panic!("expected InvalidNumber for {value}, got {other:?}"),
        }
    }
    let result = table.put(&measure(1.0, vec![2.0, f64::NAN])).await;
    assert!(
        matches!(&result, Err(Error::Refused(Refusal::InvalidNumber { attribute, value, .. })) if attribute == "extra[1]" && value == "NaN"),
        "{result:?}"
    );
    let result = BatchWrite::new()
        .put(&measure(f64::NAN, vec![]))
        .send(&table)
        .await;
    assert!(
        matches!(result, Err(Error::Refused(Refusal::InvalidNumber { .. }))),
        "{result:?}"
    );
    let result = TransactWrite::new()
        .put(&measure(f64::INFINITY, vec![]))
        .send(&table)
        .await;
    assert!(
        matches!(result, Err(Error::Refused(Refusal::InvalidNumber { .. }))),
        "{result:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());

    // The extremes DynamoDB stores round-trip.
    let extremes = measure(
        1e125,
        vec![-1e-130, f64::MIN_POSITIVE * 1e180, 0.1 + 0.2, -0.0],
    );
    table.put(&extremes).await.unwrap();
    assert_eq!(
        table.get(&Measure::key("m-1").unwrap()).await.unwrap(),
        Some(extremes)
    );
}

fn tagged(status: Option<&str>, tags: &[&str], scores: &[u32], blobs: &[&[u8]]) -> Tagged {
    Tagged {
        id: "t-1".into(),
        status: status.map(str::to_owned),
        note: None,
        tags: tags.iter().map(|tag| (*tag).to_owned()).collect(),
        scores: scores.iter().copied().collect(),
        blobs: blobs
            .iter()
            .map(|blob| ByteBuf::from(blob.to_vec()))
            .collect(),
        data: vec![0, 1, 2, 255],
        nested: HashMap::new(),
    }
}

#[tokio::test]
async fn sets_binaries_empty_sets_and_nones_reach_dynamodb_as_dynamodb_types() {
    let (table, counter) = common::fresh_counted_table("wire", &definition()).await;

    let full = tagged(Some("OPEN"), &["b", "a"], &[3, 1], &[b"x", b"yz"]);
    table.put(&full).await.unwrap();
    let raw = raw_item(&table, "TAGGED#t-1", "TAGGED").await;
    assert_eq!(
        raw["tags"],
        AttributeValue::Ss(vec!["a".into(), "b".into()])
    );
    let mut scores = raw["scores"].as_ns().unwrap().clone();
    scores.sort();
    assert_eq!(scores, ["1", "3"]);
    let mut blobs = raw["blobs"].as_bs().unwrap().clone();
    blobs.sort_by(|a, b| a.as_ref().cmp(b.as_ref()));
    assert_eq!(blobs, [Blob::new(b"x".to_vec()), Blob::new(b"yz".to_vec())]);
    assert_eq!(
        raw["data"],
        AttributeValue::B(Blob::new(vec![0, 1, 2, 255]))
    );
    assert_eq!(raw["GSI1PK"], AttributeValue::S("STATUS#OPEN".into()));
    assert!(!raw.contains_key("note"), "None is left out: {raw:?}");
    assert_eq!(
        table.get(&Tagged::key("t-1").unwrap()).await.unwrap(),
        Some(full)
    );

    // Empty sets and `None`s are left out, never `SS: []` or `NULL`; the
    // sparse index attributes with them. Read back, they are empty again.
    let empty = tagged(None, &[], &[], &[]);
    table.put(&empty).await.unwrap();
    let raw = raw_item(&table, "TAGGED#t-1", "TAGGED").await;
    let mut names: Vec<&str> = raw.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(names, ["PK", "SK", "Type", "data", "id", "nested"]);
    assert!(raw.values().all(|value| !value.is_null()));
    assert_eq!(
        table.get(&Tagged::key("t-1").unwrap()).await.unwrap(),
        Some(empty)
    );

    // An empty set inside a map cannot be left out: refused, naming it.
    counter.reset();
    let mut nested = tagged(None, &[], &[], &[]);
    nested.nested.insert(
        "inner".into(),
        Inner {
            labels: BTreeSet::new(),
        },
    );
    let result = table.put(&nested).await;
    assert!(
        matches!(&result, Err(Error::Refused(Refusal::EmptySet { entity: "Tagged", attribute })) if attribute == "nested.inner.labels"),
        "{result:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn a_stored_number_that_does_not_fit_the_field_is_an_error_never_a_wrap() {
    let (table, _counter) = common::fresh_counted_table("overflow", &definition()).await;
    let put = |count: &str, delta: &str| {
        table
            .client()
            .put_item()
            .table_name(table.name())
            .item("PK", AttributeValue::S("SMALL#s-1".into()))
            .item("SK", AttributeValue::S("SMALL".into()))
            .item("Type", AttributeValue::S("Small".into()))
            .item("id", AttributeValue::S("s-1".into()))
            .item("count", AttributeValue::N(count.into()))
            .item("delta", AttributeValue::N(delta.into()))
            .send()
    };
    put("255", "-128").await.unwrap();
    let read = table.get(&Small::key("s-1").unwrap()).await.unwrap();
    assert_eq!(
        read,
        Some(Small {
            id: "s-1".into(),
            count: 255,
            delta: -128
        })
    );

    for (count, delta, bad) in [
        ("300", "0", "300"),
        ("256", "0", "256"),
        ("-1", "0", "-1"),
        ("1.5", "0", "1.5"),
        ("1", "-129", "-129"),
    ] {
        put(count, delta).await.unwrap();
        let result = table.get(&Small::key("s-1").unwrap()).await;
        match &result {
            Err(
                error @ Error::Decode(DecodeError::Deserialize {
                    entity: "Small", ..
                }),
            ) => {
                assert!(error.to_string().contains(&format!("'{bad}'")), "{error}");
            }
            other => panic!(
                "expected a Deserialize error for count {count}, delta {delta}, got {other:?}"
            ),
        }
    }
}

/// An entity of every kind of attribute a put counts while encoding: keys
/// from fields that may be empty, a sparse GSI, a stamped time, integers,
/// floats (NaN, out of range), sets (empty), nested values and a body that
/// can pass 400 KB.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "<id>"]
#[sk = "COUNTED#<part>"]
#[gsi1(pk = "<owner>", sk = "AT#<count>")]
struct Counted {
    id: String,
    part: String,
    owner: Option<String>,
    count: i64,
    small: u8,
    score: f64,
    extra: Vec<f64>,
    #[serde(with = "stamp::serde_dynamo::string_set", default)]
    tags: BTreeSet<String>,
    #[serde(with = "stamp::serde_dynamo::number_set", default)]
    scores: BTreeSet<u32>,
    body: String,
    note: Option<String>,
    #[stamp(updated_at)]
    updated_at: chrono::DateTime<chrono::Utc>,
}

mod counted_while_encoding {
    use super::*;
    use proptest::prelude::*;

    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(1e300),
            Just(1e-300),
            Just(0.0),
            proptest::num::f64::NORMAL,
        ]
    }

    prop_compose! {
        fn counted()(
            id in prop_oneof![Just(String::new()), "[a-z#]{1,8}"],
            part in "[ a-z#]{0,6}",
            owner in proptest::option::of(prop_oneof![Just(String::new()), "[a-z]{1,6}"]),
            count in any::<i64>(),
            small in any::<u8>(),
            score in float(),
            extra in proptest::collection::vec(float(), 0..3),
            tags in proptest::collection::btree_set("[a-z]{0,3}", 0..3),
            scores in proptest::collection::btree_set(any::<u32>(), 0..3),
            big in any::<bool>(),
            note in proptest::option::of("[a-z ]{0,5}"),
        ) -> Counted {
            let body = if big { "x".repeat(MAX_ITEM_SIZE_BYTES - 150) } else { "body".to_owned() };
            Counted {
                id, part, owner, count, small, score, extra, tags, scores, body, note,
                updated_at: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
            }
        }
    }

    /// An error's variant: `Refused(InvalidNumber`, `Key(InvalidKeyAttribute`.
    fn kind(error: &Error) -> String {
        let text = format!("{error:?}");
        text.split([' ', '{']).next().unwrap_or_default().to_owned()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

        /// `to_checked_item`, counted while it encodes, answers exactly as
        /// `to_item` then `check_item`: the same item and size, or the same
        /// error.
        #[test]
        fn the_checked_encoding_is_to_item_then_check_item(counted in counted()) {
            let by_the_walk = counted.to_item().and_then(|mut item| {
                stamp::item::check_item(Counted::SCHEMA, &mut item).map(|size| (item, size))
            });
            let by_counting = counted.to_checked_item();
            match (by_counting, by_the_walk) {
                (Ok(counted), Ok(walked)) => prop_assert_eq!(counted, walked),
                // Of two bad values, `check_item` names the first in the
                // map's order, which differs between two maps: the same
                // kind of error, and the same error when there is one.
                (Err(counted), Err(walked)) => prop_assert_eq!(kind(&counted), kind(&walked)),
                (counted, walked) => prop_assert!(false, "{counted:?} against {walked:?}"),
            }
        }
    }

    /// The exact answers for the edges: a clean item's size, an empty set
    /// left out, a NaN and an empty key refused, and an item over 400 KB.
    #[test]
    fn the_checked_encoding_answers_the_edges_exactly() {
        let base = Counted {
            id: "c-1".to_owned(),
            part: "p".to_owned(),
            owner: None,
            count: 1200,
            small: 0,
            score: 0.5,
            extra: vec![],
            tags: BTreeSet::new(),
            scores: BTreeSet::new(),
            body: "body".to_owned(),
            note: None,
            updated_at: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        };
        let (item, size) = base.to_checked_item().unwrap();
        // The empty sets are left out; everything else is counted.
        assert!(!item.contains_key("tags") && !item.contains_key("scores"));
        assert_eq!(size, item_size(&item));
        // DynamoDB's rule: each name's and string's UTF-8 bytes, a Number's
        // significant digits halved, rounded up, plus one, a list 3 bytes.
        // id 2 + 3, part 4 + 1, count 5 + 2 ("1200": 2 digits), small 5 + 2,
        // score 5 + 2, extra 5 + 3, body 4 + 4, updated_at 10 + 30
        // ("2023-11-14T22:13:20.000000000Z"), PK 2 + 3, SK 2 + 9, Type 4 + 7.
        assert_eq!(size, 114);

        let nan = Counted {
            score: f64::NAN,
            ..base.clone()
        };
        let error = nan.to_checked_item().unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::InvalidNumber { attribute, value, .. }) if attribute == "score" && value == "NaN"),
            "{error:?}"
        );

        let empty_owner = Counted {
            owner: Some(String::new()),
            ..base.clone()
        };
        let error = empty_owner.to_checked_item().unwrap_err();
        assert_eq!(
            error.to_string(),
            empty_owner
                .to_item()
                .and_then(|mut item| stamp::item::check_item(Counted::SCHEMA, &mut item))
                .unwrap_err()
                .to_string()
        );

        let big = Counted {
            body: "x".repeat(MAX_ITEM_SIZE_BYTES),
            ..base
        };
        let error = big.to_checked_item().unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::ItemTooLarge { size, limit: MAX_ITEM_SIZE_BYTES, .. }) if *size == MAX_ITEM_SIZE_BYTES + 110),
            "{error:?}"
        );
    }
}
