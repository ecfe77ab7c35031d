use proptest::prelude::*;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};

use super::AttributeCodec;
use crate::item::check::checked_size;

/// A value's own size (what a put counts while encoding) is the size
/// `check_item` counts from its stored form.
fn agrees<T: AttributeCodec>(value: T) {
    let stored = value.to_attribute();
    assert_eq!(
        value.checked_size(&stored),
        checked_size(&stored),
        "{stored:?}"
    );
}

#[test]
fn integer_sizes_at_the_edges_agree_with_check_item() {
    for value in [
        0,
        1,
        9,
        10,
        99,
        100,
        101,
        120,
        1_000_000,
        i64::MAX,
        i64::MIN,
        -1,
        -10,
        -100,
    ] {
        agrees(value);
    }
    for value in [0, 7, 10, 200, 10_000_000_000_000_000_000, u64::MAX] {
        agrees(value);
    }
    for value in [i8::MIN, i8::MAX, 0, -100] {
        agrees(value);
    }
    agrees(u8::MAX);
    agrees(i16::MIN);
    agrees(u16::MAX);
    agrees(i32::MIN);
    agrees(u32::MAX);
    agrees(isize::MIN);
    agrees(usize::MAX);
    agrees(Some(1_000_i64));
    agrees(None::<i64>);
    agrees(String::new());
    agrees("a b#c".to_owned());
    agrees(true);
    agrees(vec!["a".to_owned(), String::new(), "b c".to_owned()]);
    agrees(vec![1_u32, 20, 0]);
    agrees(vec![Some(1.5_f64), None, Some(f64::NAN)]);
    agrees(Vec::<i64>::new());
    for value in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.0,
        -0.0,
        0.1,
        -17.5,
        1200.0,
        1e300,
        1e126,
        1e125,
        9.999_999_999_999_998e125,
        1e-129,
        1e-130,
        1.5e-131,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        0.000_123,
        123_456_789_012_345_680.0,
    ] {
        agrees(value);
        agrees(-value);
    }
    for value in [f32::MAX, f32::MIN_POSITIVE, 1e-45, 0.1, -3.25, f32::NAN] {
        agrees(value);
    }
}

/// Texts near RFC 3339: each of `base`'s forms, and each with one
/// byte changed to one of the bytes the two parsers treat apart.
fn near_rfc3339() -> impl Strategy<Value = String> {
    let seconds = -62_135_596_800i64..253_402_300_799; // years 1 to 9999
    let time = (seconds, 0u32..2_000_000_000, -86_399i32..86_400).prop_filter_map(
        "a valid time",
        |(seconds, nanos, offset)| {
            let nanos = if nanos >= 1_000_000_000 && seconds.rem_euclid(60) != 59 {
                nanos - 1_000_000_000
            } else {
                nanos
            };
            let offset = chrono::FixedOffset::east_opt(offset)?;
            Some(DateTime::from_timestamp(seconds, nanos)?.with_timezone(&offset))
        },
    );
    let form = (time, 0usize..6).prop_map(|(time, form)| match form {
        0 => time.to_rfc3339(),
        1 => time.to_rfc3339_opts(SecondsFormat::Secs, true),
        2 => time.to_rfc3339_opts(SecondsFormat::Nanos, true),
        3 => time.to_rfc3339_opts(SecondsFormat::Millis, false),
        4 => time.format("%Y-%m-%d %H:%M:%S%.f%:z").to_string(),
        // More than nine fractional digits, a lower-case `t` and `z`.
        _ => format!("{}123z", time.format("%Y-%m-%dt%H:%M:%S%.9f")),
    });
    let bytes = prop_oneof![
        Just(b' '),
        Just(b'T'),
        Just(b't'),
        Just(b'Z'),
        Just(b'z'),
        Just(b':'),
        Just(b'-'),
        Just(b'+'),
        Just(b'.'),
        Just(b'0'),
        Just(b'6'),
        Just(b'9'),
    ];
    (
        form,
        proptest::option::of((any::<proptest::sample::Index>(), bytes)),
    )
        .prop_map(|(mut text, change)| {
            if let Some((at, byte)) = change {
                let at = at.index(text.len());
                // The forms are ASCII: any byte is a character boundary.
                text.replace_range(at..=at, &char::from(byte).to_string());
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// The strict RFC 3339 parser the decoder tries first reads every
    /// text it accepts as the time serde's `FromStr` reads.
    #[test]
    fn a_time_reads_as_serde_reads_it(text in near_rfc3339()) {
        let serde = text.parse::<DateTime<FixedOffset>>().map(|time| time.with_timezone(&Utc));
        let ours = DateTime::<Utc>::from_attribute(AttributeValue::S(text.clone()));
        match (ours, serde) {
            (Ok(ours), Ok(serde)) => prop_assert_eq!(ours, serde),
            (Err(_), Err(_)) => {}
            (ours, serde) => prop_assert!(false, "{text:?}: {ours:?} against {serde:?}"),
        }
        if let Ok(strict) = DateTime::parse_from_rfc3339(&text) {
            prop_assert_eq!(Ok(strict), text.parse::<DateTime<FixedOffset>>());
        }
    }
}

proptest! {
    #[test]
    fn integer_sizes_agree_with_check_item(
        signed in any::<i64>(),
        unsigned in any::<u64>(),
        small in any::<i16>(),
        round in 0u32..15,
    ) {
        agrees(signed);
        agrees(unsigned);
        agrees(small);
        // Trailing zeros, which are not significant digits.
        agrees(u64::from(small.unsigned_abs()) * 10u64.pow(round.min(14)));
        agrees(f64::from(small) / 8.0);
    }

    #[test]
    fn float_sizes_agree_with_check_item(
        wide in proptest::num::f64::ANY,
        narrow in proptest::num::f32::ANY,
        exponent in -140i32..140,
        mantissa in 1.0f64..10.0,
    ) {
        agrees(wide);
        agrees(narrow);
        agrees(mantissa * 10f64.powi(exponent));
    }
}
