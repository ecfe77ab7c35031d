//! The server's answer to a typed order comparison, held to Rust's order:
//! for random values of every type whose attributes offer `lt`, `le`,
//! `gt`, `ge` and `between` (`stamp::expression::Ordered`), items are stored and
//! filtered on the server, and the items it returns are exactly those
//! whose values satisfy the comparison by `Ord` (`partial_cmp` for
//! floats). A time with and without a fraction, a date, integers of every
//! width at their edges, floats, strings of multi-byte characters, UUIDs
//! and byte strings. On both servers (`cargo xtask test -- ops::order`).

use std::cmp::Ordering;
use std::fmt::Debug;

use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::{Deserialize, Serialize};
use stamp::{
    Attribute, BatchWrite, Condition, Entity, Item, Query, TableDefinition,
    expression::{Ordered, Required},
};
use uuid::Uuid;

use crate::common;

/// Items per case, each with one random value.
const ROWS: usize = 8;

/// Cases per type: each stores its rows and runs every comparison once.
const CASES: u32 = 32;

/// A comparison and its operands.
#[derive(Debug, Clone)]
enum Compare<T> {
    Lt(T),
    Le(T),
    Gt(T),
    Ge(T),
    Between(T, T),
}

impl<T: PartialOrd + Serialize + Ordered> Compare<T> {
    /// Whether `value` satisfies the comparison, by Rust's order.
    fn holds(&self, value: &T) -> bool {
        let order = |operand: &T| value.partial_cmp(operand);
        match self {
            Compare::Lt(operand) => order(operand) == Some(Ordering::Less),
            Compare::Le(operand) => {
                matches!(order(operand), Some(Ordering::Less | Ordering::Equal))
            }
            Compare::Gt(operand) => order(operand) == Some(Ordering::Greater),
            Compare::Ge(operand) => {
                matches!(order(operand), Some(Ordering::Greater | Ordering::Equal))
            }
            Compare::Between(low, high) => {
                matches!(order(low), Some(Ordering::Greater | Ordering::Equal))
                    && matches!(order(high), Some(Ordering::Less | Ordering::Equal))
            }
        }
    }

    fn condition<E>(&self, attribute: Attribute<E, T, Required>) -> Condition<E> {
        match self {
            Compare::Lt(operand) => attribute.lt(operand),
            Compare::Le(operand) => attribute.le(operand),
            Compare::Gt(operand) => attribute.gt(operand),
            Compare::Ge(operand) => attribute.ge(operand),
            Compare::Between(low, high) => attribute.between(low, high),
        }
    }
}

/// The five comparisons of operands drawn from `values` (so that the
/// edges, equal values, are met) or fresh; `between`'s in order, low
/// first (DynamoDB refuses a `BETWEEN` whose low end is above its high).
fn comparisons<T: PartialOrd + Clone + Debug + 'static>(
    value: BoxedStrategy<T>,
) -> impl Strategy<Value = (Vec<T>, Vec<Compare<T>>)> {
    proptest::collection::vec(value.clone(), ROWS).prop_flat_map(move |values| {
        let operand = prop_oneof![proptest::sample::select(values.clone()), value.clone(),];
        let operands = proptest::collection::vec(operand, 6);
        (Just(values), operands).prop_map(|(values, operands)| {
            let (mut low, mut high) = (operands[4].clone(), operands[5].clone());
            if high < low {
                std::mem::swap(&mut low, &mut high);
            }
            let compares = vec![
                Compare::Lt(operands[0].clone()),
                Compare::Le(operands[1].clone()),
                Compare::Gt(operands[2].clone()),
                Compare::Ge(operands[3].clone()),
                Compare::Between(low, high),
            ];
            (values, compares)
        })
    })
}

/// Stores each case's rows (`row(case, position, value)`) and holds the
/// server's answer to each comparison, in sort-key order (the rows'
/// positions), to Rust's.
fn holds_on_the_server<E, T>(
    test: &str,
    value: BoxedStrategy<T>,
    row: fn(u32, u32, T) -> E,
    attribute: Attribute<E, T, Required>,
    query: fn(&u32) -> Query<E>,
    position: fn(&E) -> u32,
) where
    E: Entity + Debug + Send + Sync + 'static,
    T: PartialOrd + Clone + Debug + Serialize + Ordered + 'static,
{
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let table = runtime.block_on(common::fresh_table(
        test,
        &TableDefinition::new().entity::<E>(),
    ));
    let case = std::cell::Cell::new(0u32);
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&comparisons(value), |(values, compares)| {
            case.set(case.get() + 1);
            let this = case.get();
            runtime.block_on(async {
                let rows: Vec<E> = values
                    .iter()
                    .enumerate()
                    .map(|(at, value)| row(this, at as u32, value.clone()))
                    .collect();
                let output = BatchWrite::new().put_all(&rows).send(&table).await.unwrap();
                prop_assert_eq!(output.written, ROWS);
                for compare in &compares {
                    let expected: Vec<u32> = (0..ROWS as u32)
                        .filter(|at| compare.holds(&values[*at as usize]))
                        .collect();
                    let page = query(&this)
                        .filter(compare.condition(attribute))
                        .send(&table)
                        .await
                        .unwrap();
                    let found: Vec<u32> = page.items.iter().map(position).collect();
                    prop_assert_eq!(found, expected, "{:?} of {:?}", compare, values);
                }
                Ok(())
            })
        })
        .unwrap();
    runtime.block_on(table.delete_table()).unwrap();
}

/// An entity per type, of one compared field, and its test.
macro_rules! ordered_types {
    ($($module:ident: $ty:ty = $strategy:expr;)*) => {$(
        mod $module {
            use super::*;

            #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
            #[pk = "CASE#<case>"]
            #[sk = "ROW#<row>"]
            struct Row {
                case: u32,
                row: u32,
                value: $ty,
            }

            #[test]
            fn range_filters_answer_in_the_values_order() {
                holds_on_the_server(
                    concat!("order-", stringify!($module)),
                    ($strategy).boxed(),
                    |case, row, value| Row { case, row, value },
                    Row::VALUE,
                    Row::query,
                    |row| row.row,
                );
            }
        }
    )*};
}

/// Times of years 0 to 9999 (the range with a stored form), half of them
/// whole seconds (chrono's serde form has no fraction then), a quarter
/// whole milliseconds, the rest any nanosecond.
fn time() -> impl Strategy<Value = DateTime<Utc>> {
    let seconds = -62_167_219_200i64..253_402_300_800; // 0000-01-01 to 9999-12-31
    let nanos = prop_oneof![
        2 => Just(0u32),
        1 => (0u32..1000).prop_map(|millis| millis * 1_000_000),
        1 => 0u32..1_000_000_000,
    ];
    // Near one another too, so that a fraction decides the order.
    let near = (0i64..4, nanos.clone()).prop_map(|(second, nanos)| {
        DateTime::from_timestamp(1_772_359_200 + second, nanos).unwrap()
    });
    prop_oneof![
        (seconds, nanos)
            .prop_map(|(seconds, nanos)| DateTime::from_timestamp(seconds, nanos).unwrap()),
        near,
    ]
}

fn date() -> impl Strategy<Value = NaiveDate> {
    (0i32..=9999, 1u32..=366).prop_filter_map("a day of the year", |(year, day)| {
        NaiveDate::from_yo_opt(year, day)
    })
}

/// Floats DynamoDB's Numbers hold (magnitudes from 1e-120 to 1e120, and
/// zero), both signs.
fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-120i32..120, 1.0f64..10.0, any::<bool>()).prop_map(|(exponent, mantissa, negative)| {
            let value = mantissa * 10f64.powi(exponent);
            if negative { -value } else { value }
        }),
        Just(0.0),
        Just(-0.0),
        (-1000i32..1000).prop_map(|n| f64::from(n) / 8.0),
    ]
}

fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        (-30i32..30, 1.0f32..10.0, any::<bool>()).prop_map(|(exponent, mantissa, negative)| {
            let value = mantissa * 10f32.powi(exponent);
            if negative { -value } else { value }
        }),
        Just(0.0),
        (-1000i16..1000).prop_map(|n| f32::from(n) / 8.0),
    ]
}

/// Non-empty text of one- to four-byte characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c]{1,4}",
        "[aé€😀]{1,4}",
        any::<String>().prop_filter("not empty", |text| !text.is_empty()),
    ]
}

fn uuids() -> impl Strategy<Value = Uuid> {
    prop_oneof![
        any::<u128>().prop_map(Uuid::from_u128),
        (0u8..4, 0u8..=255)
            .prop_map(|(high, low)| Uuid::from_u128((u128::from(high) << 120) | u128::from(low))),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(127), Just(128), Just(255), any::<u8>()],
        1..4,
    )
}

ordered_types! {
    time_utc: DateTime<Utc> = time();
    naive_date: NaiveDate = date();
    int8: i8 = any::<i8>();
    int16: i16 = any::<i16>();
    int32: i32 = any::<i32>();
    int64: i64 = prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX), -3i64..3];
    int_size: isize = any::<isize>();
    uint8: u8 = any::<u8>();
    uint16: u16 = any::<u16>();
    uint32: u32 = any::<u32>();
    uint64: u64 = prop_oneof![any::<u64>(), Just(u64::MAX), 0u64..3];
    uint_size: usize = any::<usize>();
    float32: f32 = f32s();
    float64: f64 = f64s();
    string: String = text();
    character: char = any::<char>();
    uuid_value: Uuid = uuids();
    byte_string: Vec<u8> = bytes();
}
