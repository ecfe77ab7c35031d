//! Range conditions on a sort-key prefix are exact (issue 12, point 6): a
//! property test against a model. Random string values (spaces, `#`, `%`,
//! `$`, control and non-ASCII characters, values that are prefixes of each
//! other) are stored on the server, queried with random conditions, and the
//! results compared with filtering the same values in Rust.

use crate::common;
use stamp::error::Refusal;

use std::cmp::Ordering;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::{Deserialize, Serialize};
use stamp::{Error, Item, Query, TableDefinition};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CASE#<case>"]
#[sk = "V#<a>#<b>"]
struct Row {
    case: u32,
    a: String,
    b: u8,
}

/// A sort-key prefix: the first field, or both.
#[derive(Debug, Clone)]
enum Key {
    First(String),
    Both(String, u8),
}

#[derive(Debug, Clone)]
enum Condition {
    Gt(Key),
    Ge(Key),
    Lt(Key),
    Le(Key),
    Between(Key, Key),
}

/// The item's fields compared with a prefix on as many fields as it has.
fn compare(row: &(String, u8), key: &Key) -> Ordering {
    match key {
        Key::First(a) => row.0.as_str().cmp(a.as_str()),
        Key::Both(a, b) => (row.0.as_str(), row.1).cmp(&(a.as_str(), *b)),
    }
}

fn holds(condition: &Condition, row: &(String, u8)) -> bool {
    match condition {
        Condition::Gt(key) => compare(row, key).is_gt(),
        Condition::Ge(key) => compare(row, key).is_ge(),
        Condition::Lt(key) => compare(row, key).is_lt(),
        Condition::Le(key) => compare(row, key).is_le(),
        Condition::Between(low, high) => compare(row, low).is_ge() && compare(row, high).is_le(),
    }
}

fn apply(query: Query<Row>, condition: &Condition) -> Query<Row> {
    match condition {
        Condition::Gt(Key::First(a)) => query.sort_key_gt(a.as_str()),
        Condition::Gt(Key::Both(a, b)) => query.sort_key_gt((a.as_str(), b)),
        Condition::Ge(Key::First(a)) => query.sort_key_ge(a.as_str()),
        Condition::Ge(Key::Both(a, b)) => query.sort_key_ge((a.as_str(), b)),
        Condition::Lt(Key::First(a)) => query.sort_key_lt(a.as_str()),
        Condition::Lt(Key::Both(a, b)) => query.sort_key_lt((a.as_str(), b)),
        Condition::Le(Key::First(a)) => query.sort_key_le(a.as_str()),
        Condition::Le(Key::Both(a, b)) => query.sort_key_le((a.as_str(), b)),
        Condition::Between(Key::First(l), Key::First(h)) => {
            query.sort_key_between(l.as_str(), h.as_str())
        }
        Condition::Between(Key::First(l), Key::Both(h, hb)) => {
            query.sort_key_between(l.as_str(), (h.as_str(), hb))
        }
        Condition::Between(Key::Both(l, lb), Key::First(h)) => {
            query.sort_key_between((l.as_str(), lb), h.as_str())
        }
        Condition::Between(Key::Both(l, lb), Key::Both(h, hb)) => {
            query.sort_key_between((l.as_str(), lb), (h.as_str(), hb))
        }
    }
}

/// Short strings over an alphabet that sorts around the delimiter and the
/// escape character, so values are often prefixes of each other.
fn value() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec![
            "a", "b", " ", "#", "%", "$", "!", "\u{1}", "&", "é", "😀", "~",
        ]),
        1..4,
    )
    .prop_map(|parts| parts.concat())
}

fn key() -> impl Strategy<Value = Key> {
    prop_oneof![
        value().prop_map(Key::First),
        (value(), 0u8..3).prop_map(|(a, b)| Key::Both(a, b)),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    prop_oneof![
        key().prop_map(Condition::Gt),
        key().prop_map(Condition::Ge),
        key().prop_map(Condition::Lt),
        key().prop_map(Condition::Le),
        (key(), key()).prop_map(|(low, high)| Condition::Between(low, high)),
    ]
}

#[test]
fn range_conditions_return_exactly_the_values_that_satisfy_them() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let table = runtime.block_on(common::fresh_table(
        "ranges",
        &TableDefinition::new().entity::<Row>(),
    ));
    let case = std::cell::Cell::new(0u32);
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        proptest::collection::btree_set((value(), 0u8..3), 1..10),
        proptest::collection::vec(condition(), 1..5),
    );
    runner
        .run(&strategy, |(rows, conditions)| {
            case.set(case.get() + 1);
            let this = case.get();
            runtime.block_on(async {
                for (a, b) in &rows {
                    table
                        .put(&Row {
                            case: this,
                            a: a.clone(),
                            b: *b,
                        })
                        .await
                        .unwrap();
                }
                for condition in &conditions {
                    // A BTreeSet iterates in (String, u8) order: the values' own order.
                    let expected: Vec<(String, u8)> = rows
                        .iter()
                        .filter(|row| holds(condition, row))
                        .cloned()
                        .collect();
                    let found = apply(Row::query(&this), condition).send(&table).await;
                    match found {
                        Ok(page) => {
                            let found: Vec<(String, u8)> =
                                page.items.into_iter().map(|row| (row.a, row.b)).collect();
                            prop_assert_eq!(&found, &expected, "{:?}", condition);
                            let count = apply(Row::query(&this), condition)
                                .count(&table)
                                .await
                                .unwrap();
                            prop_assert_eq!(count, expected.len() as u64, "{:?}", condition);
                        }
                        // An empty range (low above high) is refused before sending.
                        Err(Error::Refused(Refusal::InvalidSortKeyRange { .. })) => {
                            prop_assert!(expected.is_empty(), "{:?}", condition);
                        }
                        Err(other) => panic!("{condition:?}: {other}"),
                    }
                }
                Ok(())
            })
        })
        .unwrap();
    runtime.block_on(table.delete_table()).unwrap();
}
