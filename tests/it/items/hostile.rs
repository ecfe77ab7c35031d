//! Hostile input: arbitrary text and arbitrary attribute maps fed to every
//! decoder that a client or another system can reach (a cursor in a query
//! string, a change-feed checkpoint, a key value, a stored item, a stream
//! record, an export file). Each gives a value or the typed error of its
//! stage, never a panic, and refuses before anything is sent.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use chrono::Utc;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use stamp::AttributeMap;
use stamp::streams::{Checkpoint, Event, changes};
use stamp::{
    Cursor, Entity, Error, Table,
    error::{DecodeError, JobError, KeyError, Refusal},
};
use stamp_examples::{CustomerWithOrders, Order};

use crate::common;

/// Any DynamoDB attribute value, nested up to three levels, with numbers
/// that need not be numbers and strings that need not be key encodings.
fn attribute_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        ".{0,24}".prop_map(AttributeValue::S),
        prop_oneof![".{0,12}", "-?[0-9]{1,40}(\\.[0-9]{0,5})?(e-?[0-9]{1,3})?"]
            .prop_map(AttributeValue::N),
        proptest::collection::vec(any::<u8>(), 0..16)
            .prop_map(|bytes| AttributeValue::B(bytes.into())),
        any::<bool>().prop_map(AttributeValue::Bool),
        Just(AttributeValue::Null(true)),
        proptest::collection::vec(".{0,8}", 0..4).prop_map(AttributeValue::Ss),
        proptest::collection::vec("[0-9]{1,4}", 0..4).prop_map(AttributeValue::Ns),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
            proptest::collection::hash_map(".{0,6}", inner, 0..4).prop_map(AttributeValue::M),
        ]
    })
}

/// An attribute map whose names are mostly the entity's own (its key
/// attributes, its type attribute and its fields), so that decoding gets
/// past the first check, and sometimes anything else.
fn attribute_map() -> impl Strategy<Value = AttributeMap> {
    let name = prop_oneof![
        Just("PK".to_owned()),
        Just("SK".to_owned()),
        Just("Type".to_owned()),
        Just("customer_id".to_owned()),
        Just("order_id".to_owned()),
        Just("created_at".to_owned()),
        Just("status".to_owned()),
        Just("updated_at".to_owned()),
        Just("total_cents".to_owned()),
        Just("line_count".to_owned()),
        ".{0,8}",
    ];
    let typed = prop_oneof![Just(true), Just(false)];
    (
        proptest::collection::hash_map(name, attribute_value(), 0..10),
        typed,
    )
        .prop_map(|(mut map, typed)| {
            if typed {
                map.insert("Type".to_owned(), AttributeValue::S("Order".to_owned()));
            }
            map
        })
}

/// Text as a web client might send it: anything, or something close to a
/// cursor (URL-safe base64, with or without a signature part).
fn cursor_text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,64}",
        "[A-Za-z0-9_-]{0,120}",
        "[A-Za-z0-9_-]{0,80}\\.[A-Za-z0-9_-]{0,50}",
        proptest::collection::vec(any::<u8>(), 0..200)
            .prop_map(|bytes| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)),
        "\\{\"q\":\"[0-9a-f]{0,16}\",\"k\":\\{\"PK\":\".{0,8}\"\\}\\}"
            .prop_map(|json| { base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json) }),
    ]
}

/// An attribute value in DynamoDB JSON, as stream records and export files
/// carry it.
fn dynamodb_json(value: &AttributeValue) -> serde_json::Value {
    use serde_json::json;
    let base64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    match value {
        AttributeValue::S(text) => json!({ "S": text }),
        AttributeValue::N(text) => json!({ "N": text }),
        AttributeValue::B(bytes) => json!({ "B": base64(bytes.as_ref()) }),
        AttributeValue::Bool(flag) => json!({ "BOOL": flag }),
        AttributeValue::Null(_) => json!({ "NULL": true }),
        AttributeValue::Ss(texts) => json!({ "SS": texts }),
        AttributeValue::Ns(texts) => json!({ "NS": texts }),
        AttributeValue::Bs(all) => {
            json!({ "BS": all.iter().map(|bytes| base64(bytes.as_ref())).collect::<Vec<_>>() })
        }
        AttributeValue::L(values) => {
            json!({ "L": values.iter().map(dynamodb_json).collect::<Vec<_>>() })
        }
        AttributeValue::M(map) => json!({ "M": map_json(map) }),
        other => panic!("no DynamoDB JSON for {other:?}"),
    }
}

fn map_json(map: &HashMap<String, AttributeValue>) -> serde_json::Value {
    serde_json::Value::Object(
        map.iter()
            .map(|(name, value)| (name.clone(), dynamodb_json(value)))
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A stored item that is not what `to_item` writes is a decode error:
    /// another entity's type, or a field serde cannot read.
    #[test]
    fn any_attribute_map_decodes_to_an_entity_or_a_decode_error(map in attribute_map()) {
        match Order::from_item(map) {
            Ok(order) => prop_assert_eq!(Order::from_item(order.to_item().unwrap()).unwrap(), order),
            Err(Error::Decode(DecodeError::Deserialize { entity: "Order", .. }))
            | Err(Error::Decode(DecodeError::EntityTypeMismatch { expected: "Order", .. })) => {}
            Err(other) => prop_assert!(false, "not a decode error: {other:?}"),
        }
    }

    /// A key value from outside (a URL, another system) is parsed or is a
    /// key error; what parses builds the same key again.
    #[test]
    fn any_key_text_parses_or_is_a_key_error(text in prop_oneof![".{0,40}", "CUST#.{0,20}", "ORDER#.{0,60}"]) {
        match Order::parse_partition_key(&text) {
            Ok((customer_id,)) => {
                let key = Order::key(&customer_id, &Utc::now(), &uuid::Uuid::nil()).unwrap();
                prop_assert_eq!(key.partition_key(), text.as_str());
            }
            Err(Error::Key(KeyError::KeyMismatch { .. } | KeyError::KeyDecode { .. })) => {}
            Err(other) => prop_assert!(false, "not a key error: {other:?}"),
        }
        match Order::parse_sort_key(&text) {
            Ok(_) => prop_assert!(text.starts_with("ORDER#")),
            Err(Error::Key(KeyError::KeyMismatch { .. } | KeyError::KeyDecode { .. })) => {}
            Err(other) => prop_assert!(false, "not a key error: {other:?}"),
        }
    }

    /// A cursor from a query string is refused before sending unless it is
    /// a cursor of this query.
    #[test]
    fn any_cursor_text_is_refused_before_sending(text in cursor_text()) {
        let result = Order::query("c-1").after(&Cursor::from_text(text)).request("orders");
        prop_assert!(
            matches!(
                result,
                Err(Error::Refused(Refusal::InvalidCursor { .. } | Refusal::CursorMismatch))
            ),
            "{result:?}"
        );
    }

    /// A change-feed checkpoint read back from storage someone else can
    /// write: a checkpoint, or `InvalidCheckpoint`.
    #[test]
    fn any_checkpoint_text_is_a_checkpoint_or_invalid(text in prop_oneof![
        ".{0,80}",
        "\\{\"stream_arn\":\".{0,12}\",\"shards\":\\{\".{0,6}\":\\{.{0,30}\\}\\}\\}",
    ]) {
        match Checkpoint::from_json(&text) {
            Ok(checkpoint) => prop_assert_eq!(Checkpoint::from_json(&checkpoint.to_json()).unwrap(), checkpoint),
            Err(Error::Job(JobError::InvalidCheckpoint { .. })) => {}
            Err(other) => prop_assert!(false, "not InvalidCheckpoint: {other:?}"),
        }
    }

    /// A stream record whose images are anything: a typed change, or the
    /// typed error of that one record.
    #[test]
    fn a_stream_record_with_any_images_is_a_change_or_a_typed_error(
        keys in attribute_map(),
        new_image in attribute_map(),
    ) {
        let path = format!("{}/tests/fixtures/streams/new-and-old-images.json", env!("CARGO_MANIFEST_DIR"));
        let mut event: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let record = &mut event["Records"][0]["dynamodb"];
        record["Keys"] = map_json(&keys);
        record["NewImage"] = map_json(&new_image);
        let event: Event = match serde_json::from_value(event) {
            Ok(event) => event,
            // aws_lambda_events refuses it (a number it cannot hold, …): it never reaches Stamp.
            Err(_) => return Ok(()),
        };
        for change in changes::<CustomerWithOrders>(event) {
            match change {
                Ok(_) => {}
                Err(Error::Job(JobError::InvalidStreamRecord { .. }))
                | Err(Error::Decode(_))
                | Err(Error::Key(_)) => {}
                Err(other) => prop_assert!(false, "not a record error: {other:?}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// An export file of any lines: the files are written, or the export
    /// stops with `ExportFile` naming the line, or with the decode error of
    /// an item that names an entity and cannot be read as it.
    #[test]
    fn an_export_file_of_any_lines_is_exported_or_refused(
        lines in proptest::collection::vec(prop_oneof![
            attribute_map().prop_map(|item| serde_json::json!({ "Item": map_json(&item) }).to_string()),
            ".{0,40}",
        ], 0..6),
    ) {
        let dir = std::env::temp_dir().join(format!("stamp-hostile-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("data.json");
        std::fs::write(&file, lines.join("\n")).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let result = runtime.block_on(
            stamp::export::Export::new(dir.join("out"))
                .entity::<Order>()
                .run_from_files([&file]),
        );
        std::fs::remove_dir_all(&dir).unwrap();
        match result {
            Ok(_) => {}
            Err(Error::Job(JobError::ExportFile { .. })) | Err(Error::Decode(_)) => {}
            Err(other) => prop_assert!(false, "not an export error: {other:?}"),
        }
    }
}

/// A table that signs its cursors refuses any other text before sending.
#[tokio::test]
async fn a_signing_table_refuses_any_unsigned_or_forged_cursor_before_sending() {
    let (client, counter) = common::counting_client();
    let table = Table::new(client, "never-created").with_cursor_key(b"secret".to_vec());
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = cursor_text();
    let texts: Vec<String> = (0..128)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("a cursor text")
                .current()
        })
        .collect();
    for text in texts {
        let result = Order::query("c-1")
            .after(&Cursor::from_text(text.clone()))
            .send(&table)
            .await;
        assert!(
            matches!(
                result,
                Err(Error::Refused(
                    Refusal::InvalidCursor { .. } | Refusal::CursorMismatch
                ))
            ),
            "{text}: {result:?}"
        );
    }
    assert_eq!(
        counter.operations(),
        Vec::<String>::new(),
        "nothing was sent"
    );
}
