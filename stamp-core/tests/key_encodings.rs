//! Properties of the key encodings and of template escaping: round trips,
//! order preservation, and that different field tuples give different keys.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use proptest::prelude::*;
use stamp_core::{KeyBuilder, KeyPart, KeyTemplate, Segment};
use uuid::Uuid;

fn encode<T: KeyPart>(value: &T) -> String {
    let mut out = String::new();
    value.encode_key(&mut out).unwrap();
    out
}

fn round_trips<T: KeyPart + PartialEq + std::fmt::Debug>(value: T) -> Result<(), TestCaseError> {
    let encoded = encode(&value);
    prop_assert_eq!(T::decode_key(&encoded).unwrap(), value);
    Ok(())
}

fn keeps_order<T: KeyPart + Ord>(a: T, b: T) -> Result<(), TestCaseError> {
    prop_assert_eq!(encode(&a).as_bytes().cmp(encode(&b).as_bytes()), a.cmp(&b));
    Ok(())
}

/// Seconds from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
fn timestamps() -> impl Strategy<Value = DateTime<Utc>> {
    let first = NaiveDate::from_ymd_opt(0, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp();
    let last = NaiveDate::from_ymd_opt(9999, 12, 31)
        .unwrap()
        .and_hms_opt(23, 59, 59)
        .unwrap()
        .and_utc()
        .timestamp();
    (first..=last, 0u32..1_000_000_000)
        .prop_map(|(seconds, nanos)| Utc.timestamp_opt(seconds, nanos).unwrap())
}

fn dates() -> impl Strategy<Value = NaiveDate> {
    timestamps().prop_map(|time| time.date_naive())
}

macro_rules! integer_properties {
    ($($name:ident: $ty:ty),* $(,)?) => {$(
        mod $name {
            use super::*;
            proptest! {
                #[test]
                fn round_trips_and_keeps_order(a: $ty, b: $ty) {
                    round_trips(a)?;
                    keeps_order(a, b)?;
                    prop_assert_eq!(encode(&a).len(), encode(&b).len());
                }
            }
            #[test]
            fn extremes_keep_order() {
                assert!(encode(&<$ty>::MIN) < encode(&(<$ty>::MIN + 1)));
                assert!(encode(&(<$ty>::MAX - 1)) < encode(&<$ty>::MAX));
                assert_eq!(<$ty>::decode_key(&encode(&<$ty>::MIN)).unwrap(), <$ty>::MIN);
                assert_eq!(<$ty>::decode_key(&encode(&<$ty>::MAX)).unwrap(), <$ty>::MAX);
            }
        }
    )*};
}

integer_properties!(
    u8_key: u8, u16_key: u16, u32_key: u32, u64_key: u64, usize_key: usize,
    i8_key: i8, i16_key: i16, i32_key: i32, i64_key: i64, isize_key: isize,
);

proptest! {
    #[test]
    fn strings_round_trip(value in "\\PC*") {
        round_trips(value)?;
    }

    #[test]
    fn bools_round_trip_and_keep_order(a: bool, b: bool) {
        round_trips(a)?;
        keeps_order(a, b)?;
    }

    #[test]
    fn uuids_round_trip_and_keep_order(a: u128, b: u128) {
        round_trips(Uuid::from_u128(a))?;
        keeps_order(Uuid::from_u128(a), Uuid::from_u128(b))?;
    }

    #[test]
    fn times_round_trip_and_keep_order(a in timestamps(), b in timestamps()) {
        round_trips(a)?;
        keeps_order(a, b)?;
    }

    #[test]
    fn dates_round_trip_and_keep_order(a in dates(), b in dates()) {
        round_trips(a)?;
        keeps_order(a, b)?;
    }

    #[test]
    fn a_time_starts_with_its_date(time in timestamps()) {
        prop_assert!(encode(&time).starts_with(&encode(&time.date_naive())));
    }
}

#[test]
fn exact_encodings() {
    assert_eq!(encode(&42u16), "00042");
    assert_eq!(encode(&0u8), "000");
    assert_eq!(encode(&-1i8), "127");
    assert_eq!(encode(&0i8), "128");
    assert_eq!(encode(&i64::MIN), "00000000000000000000");
    assert_eq!(encode(&-1i64), "09223372036854775807");
    assert_eq!(encode(&0i64), "09223372036854775808");
    assert_eq!(encode(&true), "true");
    assert_eq!(
        encode(&Uuid::from_u128(0x67e5504410b1426f9247bb680e5fe0c8)),
        "67e55044-10b1-426f-9247-bb680e5fe0c8"
    );
    let time: DateTime<Utc> = "2026-06-01T10:00:00.5Z".parse().unwrap();
    assert_eq!(encode(&time), "2026-06-01T10:00:00.500000000Z");
    assert_eq!(
        encode(&NaiveDate::from_ymd_opt(2026, 6, 1).unwrap()),
        "2026-06-01"
    );
}

#[test]
fn a_leap_second_is_second_60_and_sorts_between_its_neighbours() {
    let date = NaiveDate::from_ymd_opt(2016, 12, 31).unwrap();
    let leap = date
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap()
        .and_utc();
    let before = date
        .and_hms_nano_opt(23, 59, 59, 999_999_999)
        .unwrap()
        .and_utc();
    let after: DateTime<Utc> = "2017-01-01T00:00:00Z".parse().unwrap();
    assert_eq!(encode(&leap), "2016-12-31T23:59:60.500000000Z");
    assert_eq!(
        DateTime::<Utc>::decode_key("2016-12-31T23:59:60.500000000Z").unwrap(),
        leap
    );
    assert!(encode(&before) < encode(&leap) && encode(&leap) < encode(&after));
}

#[test]
fn out_of_range_and_malformed_values_are_errors() {
    let year_10000 = NaiveDate::from_ymd_opt(10000, 1, 1).unwrap();
    let mut out = String::new();
    assert_eq!(
        year_10000.encode_key(&mut out).unwrap_err().to_string(),
        "+10000-01-01 is out of the range a key can encode: years 0000 to 9999"
    );
    assert_eq!(
        u8::decode_key("256").unwrap_err().to_string(),
        "`256` is not a valid key encoding of a u8 as 3 decimal digits"
    );
    assert!(u16::decode_key("42").is_err());
    assert!(Uuid::decode_key("67E55044-10B1-426F-9247-BB680E5FE0C8").is_err());
    assert!(DateTime::<Utc>::decode_key("2026-06-01T10:00:00Z").is_err());
    assert!(bool::decode_key("1").is_err());
}

static ORDER_SORT_KEY: KeyTemplate = KeyTemplate {
    source: "ORDER#<category>#<name>",
    segments: &[
        Segment::Literal("ORDER#"),
        Segment::Field("category"),
        Segment::Literal("#"),
        Segment::Field("name"),
    ],
    escaped: "%#",
};

static TRAILING: KeyTemplate = KeyTemplate {
    source: "<a>::<b>#END",
    segments: &[
        Segment::Field("a"),
        Segment::Literal("::"),
        Segment::Field("b"),
        Segment::Literal("#END"),
    ],
    escaped: "%:",
};

fn build(template: &'static KeyTemplate, a: &str, b: &str) -> Result<String, stamp_core::Error> {
    let mut builder = KeyBuilder::new("Test", template, 8);
    let mut values = [a, b].into_iter();
    for segment in template.segments {
        match segment {
            Segment::Literal(text) => builder.literal(text),
            Segment::Field(name) => builder.str_field(name, values.next().unwrap())?,
            Segment::Shard(_) => unreachable!("these templates are not sharded"),
        }
    }
    Ok(builder.finish())
}

fn split(template: &KeyTemplate, key: &str) -> (String, String) {
    let values = template.split("Test", key).unwrap();
    (values[0].to_string(), values[1].to_string())
}

proptest! {
    #[test]
    fn escaped_keys_round_trip(a in "[a-c#%:E]{1,8}", b in "[a-c#%:ND]{1,8}") {
        for template in [&ORDER_SORT_KEY, &TRAILING] {
            let key = build(template, &a, &b).unwrap();
            prop_assert_eq!(split(template, &key), (a.clone(), b.clone()));
        }
    }

    #[test]
    fn different_tuples_give_different_keys(
        a in "[a#%:]{1,4}", b in "[a#%:]{1,4}", c in "[a#%:]{1,4}", d in "[a#%:]{1,4}",
    ) {
        for template in [&ORDER_SORT_KEY, &TRAILING] {
            let same_key = build(template, &a, &b).unwrap() == build(template, &c, &d).unwrap();
            prop_assert_eq!(same_key, (&a, &b) == (&c, &d));
        }
    }
}

#[test]
fn escaping_is_exact_and_keeps_case() {
    assert_eq!(
        build(&ORDER_SORT_KEY, "a#b", "50%").unwrap(),
        "ORDER#a%23b#50%25"
    );
    assert_eq!(
        build(&ORDER_SORT_KEY, "MiXeD", "Case").unwrap(),
        "ORDER#MiXeD#Case"
    );
    assert_eq!(
        build(&TRAILING, "x:y", "z#END").unwrap(),
        "x%3Ay::z#END#END"
    );
    assert_eq!(
        split(&TRAILING, "x%3Ay::z#END#END"),
        ("x:y".to_owned(), "z#END".to_owned())
    );
}

#[test]
fn empty_values_and_mismatched_keys_are_errors() {
    assert_eq!(
        build(&ORDER_SORT_KEY, "", "x").unwrap_err().to_string(),
        "field `category` of entity `Test` is empty, and a key field needs a non-empty value"
    );
    assert_eq!(
        ORDER_SORT_KEY
            .split("Test", "ITEM#a#b")
            .unwrap_err()
            .to_string(),
        "key `ITEM#a#b` does not match the template `ORDER#<category>#<name>` of entity `Test`: expected `ORDER#` at byte 0"
    );
    assert!(ORDER_SORT_KEY.split("Test", "ORDER#a%2#b").is_err());
    assert!(ORDER_SORT_KEY.split("Test", "ORDER#a").is_err());
    assert_eq!(
        ORDER_SORT_KEY.split("Test", "ORDER#a#b").unwrap(),
        vec!["a", "b"]
    );
}
