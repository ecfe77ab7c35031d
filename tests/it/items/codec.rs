//! The direct codec (`stamp::item::AttributeCodec`) against serde_dynamo, the
//! reference: for arbitrary values of every supported type, the encoding is
//! `serde_dynamo::to_attribute_value`'s exactly (a time's, Stamp's own
//! fixed-width form, is one serde reads back as the same time), and for arbitrary attribute
//! values (its own encodings, sets, other types, numbers out of range, text
//! that is almost a UUID or a time) decoding succeeds exactly when
//! serde_dynamo's does, with the same value; an absent attribute reads as
//! a serde-derived struct reads a missing field.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Debug;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use stamp::AttributeMap;
use stamp::{item::AttributeCodec, serde_dynamo};
use uuid::Uuid;

/// A one-field struct, to see what serde-derived code does with an absent
/// attribute.
#[derive(Deserialize)]
struct One<T> {
    #[allow(dead_code)]
    f: T,
}

/// How two decoded values are compared: by their stored form, so that NaN
/// equals NaN (hash collections compare with `==`, since two hash sets with
/// the same elements may iterate in different orders).
fn same_form<T: AttributeCodec>(a: &T, b: &T) -> bool {
    a.to_attribute() == b.to_attribute()
}

/// `==`, for the hash collections.
fn equal<T: PartialEq>(a: &T, b: &T) -> bool {
    a == b
}

/// Encodes `value` both ways, then decodes the encoding both ways.
fn check_value<T>(value: &T, same: fn(&T, &T) -> bool) -> Result<(), TestCaseError>
where
    T: AttributeCodec + Serialize + DeserializeOwned + Debug,
{
    let ours = value.to_attribute();
    if T::OWN_FORM {
        // A time's own form (`times_are_stored_in_the_form_keys_use`):
        // serde reads it back as the same value.
        let read: T = serde_dynamo::from_attribute_value(ours.clone()).unwrap();
        prop_assert!(same(&read, value), "encoding {:?}: {:?}", value, ours);
    } else {
        let theirs: AttributeValue = serde_dynamo::to_attribute_value(value).unwrap();
        prop_assert_eq!(&ours, &theirs, "encoding {:?}", value);
    }
    check_decode::<T>(ours, same)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// A time of years 0 to 9999 is stored in the fixed-width form its key
    /// encoding has (nine fractional digits), a date as `YYYY-MM-DD`, in
    /// every write and condition (`try_to_attribute`); any other is
    /// refused there, and `to_attribute` gives chrono's serde form for it.
    #[test]
    fn times_are_stored_in_the_form_keys_use(time in prop_oneof![time(), four_digit_years()], date in date()) {
        let key = |time: &dyn Fn(&mut String) -> Result<(), stamp::error::KeyPartError>| {
            let mut text = String::new();
            time(&mut text).ok().map(|()| AttributeValue::S(text))
        };
        match key(&|out| stamp::KeyPart::encode_key(&time, out)) {
            Some(form) => {
                prop_assert_eq!(time.try_to_attribute().unwrap(), form.clone());
                prop_assert_eq!(time.to_attribute(), form);
            }
            None => {
                prop_assert!(!(0..=9999).contains(&time.year()));
                let error = time.try_to_attribute().unwrap_err();
                prop_assert_eq!(
                    error.to_string(),
                    format!("{time:?} is outside years 0000 to 9999: no stored form of it sorts among the others', so it is not stored (order comparisons would be wrong)")
                );
                prop_assert_eq!(time.to_attribute(), serde_dynamo::to_attribute_value(time).unwrap());
            }
        }
        match key(&|out| stamp::KeyPart::encode_key(&date, out)) {
            Some(form) => {
                prop_assert_eq!(date.try_to_attribute().unwrap(), form.clone());
                prop_assert_eq!(date.to_attribute(), form);
            }
            None => {
                prop_assert!(date.try_to_attribute().is_err());
                prop_assert_eq!(date.to_attribute(), serde_dynamo::to_attribute_value(date).unwrap());
            }
        }
        prop_assert_eq!(date.to_attribute(), serde_dynamo::to_attribute_value(date).unwrap());
        // A list of them is refused when one is.
        prop_assert_eq!(
            vec![time, time].try_to_attribute().is_err(),
            time.try_to_attribute().is_err()
        );
    }
}

#[test]
fn a_time_is_stored_with_nine_fractional_digits_and_read_in_both_forms() {
    let time = "2026-03-01T10:00:00.5Z".parse::<DateTime<Utc>>().unwrap();
    let stored = AttributeValue::S("2026-03-01T10:00:00.500000000Z".to_owned());
    assert_eq!(time.to_attribute(), stored);
    assert_eq!(DateTime::<Utc>::from_attribute(stored).unwrap(), time);
    // chrono's serde form, which items written before have.
    let old = AttributeValue::S("2026-03-01T10:00:00.500Z".to_owned());
    assert_eq!(DateTime::<Utc>::from_attribute(old).unwrap(), time);
    let max = DateTime::<Utc>::MAX_UTC.try_to_attribute().unwrap_err();
    assert!(
        max.to_string().contains("is outside years 0000 to 9999"),
        "{max}"
    );
}

/// Decodes `stored` both ways: both fail, or both give the same value.
fn check_decode<T>(stored: AttributeValue, same: fn(&T, &T) -> bool) -> Result<(), TestCaseError>
where
    T: AttributeCodec + DeserializeOwned + Debug,
{
    let ours = T::from_attribute(stored.clone());
    let theirs = serde_dynamo::from_attribute_value::<_, T>(stored.clone());
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            prop_assert!(same(a, b), "decoding {:?}: {:?} against {:?}", stored, a, b)
        }
        // The message too, but for set elements (serde's own wording there)
        // and maps of several entries (which error comes first depends on
        // the order a `HashMap` iterates in).
        (Err(a), Err(b)) if !has_set_or_map(&stored) => {
            prop_assert_eq!(a.to_string(), b.to_string(), "decoding {:?}", stored);
        }
        (Err(_), Err(_)) => {}
        _ => prop_assert!(
            false,
            "decoding {:?}: ours {:?}, serde_dynamo {:?}",
            stored,
            ours,
            theirs
        ),
    }
    Ok(())
}

/// Whether `value` holds a set or a map of several entries anywhere.
fn has_set_or_map(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_) => true,
        AttributeValue::L(list) => list.iter().any(has_set_or_map),
        AttributeValue::M(map) => map.len() > 1 || map.values().any(has_set_or_map),
        _ => false,
    }
}

/// An absent attribute: `None` for an `Option`, else an error, as a
/// serde-derived struct reads a missing field.
fn check_missing<T: AttributeCodec + DeserializeOwned + Debug>() {
    let ours = T::from_missing("f");
    let theirs = serde_dynamo::from_item::<_, One<T>>(AttributeMap::new());
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{ours:?}");
    if let (Err(ours), Err(theirs)) = (ours, theirs) {
        assert_eq!(ours.to_string(), theirs.to_string());
    }
}

/// Text that is nearly everything the codecs parse: numbers, UUIDs, times,
/// dates, one character, and anything.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|n| n.to_string()),
        Just("340282366920938463463374607431768211456".to_owned()),
        Just("+7".to_owned()),
        Just(" 7".to_owned()),
        Just("1e400".to_owned()),
        Just("NaN".to_owned()),
        Just("-inf".to_owned()),
        Just(String::new()),
        any::<char>().prop_map(String::from),
        any::<u128>().prop_map(|n| Uuid::from_u128(n).to_string()),
        any::<u128>().prop_map(|n| Uuid::from_u128(n).simple().to_string()),
        any::<u128>().prop_map(|n| Uuid::from_u128(n).braced().to_string()),
        time().prop_map(|t| t.to_rfc3339()),
        time().prop_map(|t| t.format("%Y-%m-%d %H:%M:%S%.f%:z").to_string()),
        date().prop_map(|d| d.to_string()),
        Just("2026-02-30".to_owned()),
        Just("2026-06-01T10:00:00+02:00".to_owned()),
    ]
}

/// A time anywhere in chrono's range, with a nanosecond part that can be a
/// leap second's.
fn time() -> impl Strategy<Value = DateTime<Utc>> {
    let seconds = DateTime::<Utc>::MIN_UTC.timestamp()..=DateTime::<Utc>::MAX_UTC.timestamp();
    prop_oneof![
        (seconds.clone(), 0u32..1_000_000_000),
        (seconds, Just(0u32)),
        (
            (0i64..4_000_000_000).prop_map(|s| s * 60 + 59),
            1_000_000_000u32..2_000_000_000
        ),
        (
            0i64..4_000_000_000,
            prop_oneof![Just(0u32), Just(1_000_000), Just(120_000)]
        ),
    ]
    .prop_filter_map("in range", |(seconds, nanos)| {
        DateTime::from_timestamp(seconds, nanos)
    })
}

/// A date anywhere in chrono's range.
/// Times of years 0 to 9999, with and without a fraction.
fn four_digit_years() -> impl Strategy<Value = DateTime<Utc>> {
    let seconds = -62_167_219_200i64..253_402_300_800;
    (seconds, prop_oneof![Just(0u32), 0u32..1_000_000_000])
        .prop_map(|(seconds, nanos)| DateTime::from_timestamp(seconds, nanos).unwrap())
}

fn date() -> impl Strategy<Value = NaiveDate> {
    let days = NaiveDate::MIN.num_days_from_ce()..=NaiveDate::MAX.num_days_from_ce();
    days.prop_filter_map("in range", NaiveDate::from_num_days_from_ce_opt)
}

/// An arbitrary attribute value, shaped to reach every branch of the
/// decoders: scalars of each type, sets of each kind and nested lists and
/// maps.
fn attribute() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        text().prop_map(AttributeValue::S),
        text().prop_map(AttributeValue::N),
        prop::collection::vec(any::<u8>(), 0..20).prop_map(|b| AttributeValue::B(Blob::new(b))),
        any::<bool>().prop_map(AttributeValue::Bool),
        any::<bool>().prop_map(AttributeValue::Null),
        prop::collection::vec(text(), 0..4).prop_map(AttributeValue::Ss),
        prop::collection::vec(text(), 0..4).prop_map(AttributeValue::Ns),
        prop::collection::vec(
            prop_oneof![
                prop::collection::vec(any::<u8>(), 16),
                prop::collection::vec(any::<u8>(), 0..20),
                text().prop_map(String::into_bytes),
            ],
            0..4
        )
        .prop_map(|b| AttributeValue::Bs(b.into_iter().map(Blob::new).collect())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
            prop::collection::hash_map(text(), inner, 0..4).prop_map(AttributeValue::M),
        ]
    })
}

macro_rules! codec_properties {
    ($($name:ident: $ty:ty = $strategy:expr, $same:expr;)*) => {$(
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

                #[test]
                fn encodes_and_decodes_as_serde_dynamo(value in $strategy) {
                    check_value::<$ty>(&value, $same)?;
                }

                #[test]
                fn decodes_what_serde_dynamo_decodes(stored in attribute()) {
                    check_decode::<$ty>(stored, $same)?;
                }

                #[test]
                fn decodes_its_elements_in_sets_as_serde_dynamo(value in $strategy) {
                    // The value's stored text or bytes as the element of
                    // each kind of set, and inside a list.
                    let stored = value.to_attribute();
                    let wrapped = match &stored {
                        AttributeValue::S(text) | AttributeValue::N(text) => vec![
                            AttributeValue::Ss(vec![text.clone()]),
                            AttributeValue::Ns(vec![text.clone()]),
                            AttributeValue::Bs(vec![Blob::new(text.clone().into_bytes())]),
                        ],
                        _ => vec![],
                    };
                    for set in wrapped.into_iter().chain([AttributeValue::L(vec![stored])]) {
                        check_decode::<Vec<$ty>>(set, |a, b| a.len() == b.len()
                            && a.iter().zip(b).all(|(a, b)| ($same)(a, b)))?;
                    }
                }
            }

            #[test]
            fn an_absent_attribute_reads_as_serde_reads_a_missing_field() {
                check_missing::<$ty>();
            }
        }
    )*};
}

fn i64s() -> impl Strategy<Value = i64> {
    prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX), Just(0)]
}

fn u64s() -> impl Strategy<Value = u64> {
    prop_oneof![any::<u64>(), Just(u64::MAX), Just(0)]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        proptest::num::f64::ANY,
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(-0.0),
        Just(f64::MIN_POSITIVE),
        Just(f64::MAX),
        Just(1e-130),
        Just(0.1),
    ]
}

codec_properties! {
    string: String = any::<String>(), same_form;
    empty_string: String = Just(String::new()), same_form;
    character: char = any::<char>(), same_form;
    boolean: bool = any::<bool>(), same_form;
    int8: i8 = any::<i8>(), same_form;
    int16: i16 = any::<i16>(), same_form;
    int32: i32 = any::<i32>(), same_form;
    int64: i64 = i64s(), same_form;
    int_size: isize = any::<isize>(), same_form;
    uint8: u8 = any::<u8>(), same_form;
    uint16: u16 = any::<u16>(), same_form;
    uint32: u32 = any::<u32>(), same_form;
    uint64: u64 = u64s(), same_form;
    uint_size: usize = any::<usize>(), same_form;
    float32: f32 = proptest::num::f32::ANY, same_form;
    float64: f64 = f64s(), same_form;
    uuid_value: Uuid = any::<u128>().prop_map(Uuid::from_u128), same_form;
    date_time: DateTime<Utc> = time(), same_form;
    naive_date: NaiveDate = date(), same_form;
    option_u32: Option<u32> = any::<Option<u32>>(), same_form;
    option_string: Option<String> = any::<Option<String>>(), same_form;
    option_time: Option<DateTime<Utc>> = proptest::option::of(time()), same_form;
    option_list: Option<Vec<String>> = proptest::option::of(prop::collection::vec(any::<String>(), 0..3)), same_form;
    list_string: Vec<String> = prop::collection::vec(any::<String>(), 0..4), same_form;
    list_empty: Vec<u64> = Just(Vec::<u64>::new()), same_form;
    list_byte: Vec<u8> = prop::collection::vec(any::<u8>(), 0..8), same_form;
    list_float: Vec<f64> = prop::collection::vec(f64s(), 0..4), same_form;
    list_option: Vec<Option<i64>> = prop::collection::vec(proptest::option::of(i64s()), 0..4), same_form;
    list_uuid: Vec<Uuid> = prop::collection::vec(any::<u128>().prop_map(Uuid::from_u128), 0..3), same_form;
    list_list: Vec<Vec<u16>> = prop::collection::vec(prop::collection::vec(any::<u16>(), 0..3), 0..3), same_form;
    hash_set: HashSet<String> = prop::collection::hash_set(any::<String>(), 0..4), equal;
    btree_set: BTreeSet<i32> = prop::collection::btree_set(any::<i32>(), 0..4), same_form;
    hash_map: HashMap<String, u64> = prop::collection::hash_map(any::<String>(), u64s(), 0..4), same_form;
    hash_map_float: HashMap<String, f64> = prop::collection::hash_map(any::<String>(), f64s(), 0..4), same_form;
    btree_map: BTreeMap<String, Vec<bool>> = prop::collection::btree_map(any::<String>(), prop::collection::vec(any::<bool>(), 0..3), 0..4), same_form;
}
