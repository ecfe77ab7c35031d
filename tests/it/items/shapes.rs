//! Shapes DynamoDB refuses, refused before sending by `check_item` and by
//! the one-pass check of a put (`ItemBuilder`), which agree: a set with two
//! equal elements ("Input collection contains duplicates"; Numbers equal as
//! numbers, `1` and `1.0`), and a value nested deeper than 32 levels
//! ("Nested attribute depth", service quotas: a leaf inside 31 lists or
//! maps is stored, inside 32 refused).

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use stamp::{AttributeMap, Entity, Error, Item, TableDefinition, error::Refusal};

use crate::common;

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHAPED#<id>"]
#[sk = "SHAPED"]
struct Shaped {
    id: String,
    #[serde(with = "stamp::serde_dynamo::string_set", default)]
    tags: Vec<String>,
    #[serde(with = "stamp::serde_dynamo::number_set", default)]
    weights: Vec<f64>,
    deep: serde_json::Value,
}

fn shaped(tags: &[&str], weights: &[f64], deep: serde_json::Value) -> Shaped {
    Shaped {
        id: "s-1".into(),
        tags: tags.iter().map(|&tag| tag.to_owned()).collect(),
        weights: weights.to_vec(),
        deep,
    }
}

/// A leaf (`1`) inside `levels` maps `{"n": …}`.
fn nested(levels: usize) -> serde_json::Value {
    (0..levels).fold(
        serde_json::json!(1),
        |inner, _| serde_json::json!({ "n": inner }),
    )
}

/// The path of the leaf of [`nested`] under attribute `deep`.
fn leaf_path(levels: usize) -> String {
    format!("deep{}", ".n".repeat(levels))
}

/// A `Shaped` item with `value` as attribute `extra`.
fn item_with(value: AttributeValue) -> AttributeMap {
    let mut item = shaped(&["a"], &[1.0], nested(0)).to_item().unwrap();
    item.insert("extra".to_owned(), value);
    item
}

fn check(value: AttributeValue) -> Result<usize, Error> {
    stamp::item::check_item(Shaped::SCHEMA, &mut item_with(value))
}

fn strings(elements: &[&str]) -> Vec<String> {
    elements.iter().map(|&element| element.to_owned()).collect()
}

#[test]
fn a_set_with_two_equal_elements_is_refused_by_check_item() {
    let duplicate = |attribute: &str, element: &str| {
        Err::<usize, _>(format!(
            "attribute `{attribute}` of entity `Shaped` is a set that holds {element} twice, which DynamoDB refuses; a set's elements are distinct (numbers as numbers: 1 and 1.0 are one)"
        ))
    };
    let text = |result: Result<usize, Error>| result.map_err(|error| error.to_string());
    assert_eq!(
        text(check(AttributeValue::Ss(strings(&["a", "b", "a"])))),
        duplicate("extra", "\"a\"")
    );
    assert_eq!(
        text(check(AttributeValue::Ns(strings(&["1", "1.0"])))),
        duplicate("extra", "1.0")
    );
    assert_eq!(
        text(check(AttributeValue::Ns(strings(&["100", "2", "1E2"])))),
        duplicate("extra", "1E2")
    );
    assert_eq!(
        text(check(AttributeValue::Bs(vec![
            Blob::new(vec![7, 0]),
            Blob::new(vec![7, 0])
        ]))),
        duplicate("extra", "[7, 0]")
    );
    // Inside a map and a list, named by its path.
    let inside = AttributeValue::M(HashMap::from([(
        "sets".to_owned(),
        AttributeValue::L(vec![AttributeValue::Ss(strings(&["x", "x"]))]),
    )]));
    let error = check(inside).unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::DuplicateSetElement { entity: "Shaped", attribute, element })
                if attribute == "extra.sets[0]" && element == "\"x\""
        ),
        "{error:?}"
    );
    // Distinct elements, numbers distinct as numbers, pass.
    assert!(check(AttributeValue::Ns(strings(&["1", "10", "0.1", "-1"]))).is_ok());
    assert!(check(AttributeValue::Ss(strings(&["a", "A", "a "]))).is_ok());
}

#[test]
fn a_value_nested_deeper_than_32_levels_is_refused_by_check_item() {
    let deep = |levels: usize| {
        (0..levels).fold(AttributeValue::N("1".into()), |inner, position| {
            if position % 2 == 0 {
                AttributeValue::M(HashMap::from([("n".to_owned(), inner)]))
            } else {
                AttributeValue::L(vec![inner])
            }
        })
    };
    // A leaf inside 31 maps and lists: 32 levels, stored.
    assert!(check(deep(31)).is_ok());
    // Inside 32: refused, at the first value past the limit.
    let error = check(deep(32)).unwrap_err();
    let Error::Refused(Refusal::NestedTooDeep {
        entity,
        attribute,
        limit,
    }) = &error
    else {
        panic!("expected NestedTooDeep, got {error:?}");
    };
    assert_eq!((*entity, *limit), ("Shaped", 32));
    // The outermost is a list when the depth is even.
    let expected_path = format!("extra{}", "[0].n".repeat(16));
    assert_eq!(attribute, &expected_path);
    assert_eq!(
        error.to_string(),
        format!(
            "attribute `{expected_path}` of entity `Shaped` nests deeper than DynamoDB's 32 levels of lists and maps"
        )
    );
    // An empty map at the 33rd level is past the limit too.
    let empty_at_33 = (0..32).fold(AttributeValue::M(HashMap::new()), |inner, _| {
        AttributeValue::M(HashMap::from([("n".to_owned(), inner)]))
    });
    assert!(matches!(
        check(empty_at_33),
        Err(Error::Refused(Refusal::NestedTooDeep { .. }))
    ));
}

#[tokio::test]
async fn puts_of_shapes_dynamodb_refuses_are_refused_before_sending() {
    let (table, counter) =
        common::fresh_counted_table("items-shapes", &TableDefinition::new().entity::<Shaped>())
            .await;
    // Through the one-pass check of a put (a debug build asserts it agrees
    // with `check_item`): a duplicate string, numbers equal as numbers, a
    // value 33 levels deep.
    let error = table
        .put(&shaped(&["a", "b", "a"], &[], nested(0)))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::DuplicateSetElement { attribute, element, .. }) if attribute == "tags" && element == "\"a\""),
        "{error:?}"
    );
    let error = table
        .put(&shaped(&["a"], &[2.5, 1.0, 2.5], nested(0)))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::DuplicateSetElement { attribute, element, .. }) if attribute == "weights" && element == "2.5"),
        "{error:?}"
    );
    let error = table
        .put(&shaped(&["a"], &[1.0], nested(32)))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::NestedTooDeep { attribute, limit: 32, .. }) if *attribute == leaf_path(32)),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new(), "nothing sent");
    // At the limit, stored and read back.
    let at_limit = shaped(&["b", "a"], &[2.0, 1.5], nested(31));
    table.put(&at_limit).await.unwrap();
    let mut stored = table.get(&Shaped::key("s-1").unwrap()).await.unwrap();
    // A set has no order: compared sorted.
    if let Some(stored) = &mut stored {
        stored.tags.sort();
        stored.weights.sort_by(f64::total_cmp);
    }
    assert_eq!(
        stored,
        Some(Shaped {
            tags: strings(&["a", "b"]),
            weights: vec![1.5, 2.0],
            ..at_limit
        })
    );
}
