//! [`AttributeCodec`] for the common field types, each mirroring what
//! serde's and serde_dynamo's implementations do (cited per item), but for
//! the stored form of a time, which sorts.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, FixedOffset, NaiveDate, SecondsFormat, Utc};
use serde::de::Error as _;
use uuid::Uuid;

use super::{AttributeCodec, unexpected};
use crate::key::part::KeyPart;

mod collections;

/// A Number's text parsed as `T`, as serde_dynamo's number deserializer
/// does (`str::parse`), with its message: `what` is `an integer` or `a
/// float`.
fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, serde_dynamo::Error>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>().map_err(|error| {
        serde_dynamo::Error::custom(format!("Failed to parse '{text}' as {what}: {error}"))
    })
}

// serde_dynamo writes every integer and float with `to_string()` and reads
// it with `str::parse` of the type serde asks for (`deserialize_u8` for a
// `u8`, …).
macro_rules! numbers {
    ($kind:ident $what:literal: $($ty:ty),* $(,)?) => {$(
        impl AttributeCodec for $ty {
            fn to_attribute(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }

            numbers!(@size $kind);

            fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
                match value {
                    AttributeValue::N(text) => Self::from_set_number(text),
                    other => Err(unexpected("num", &other)),
                }
            }

            fn from_set_number(text: String) -> Result<Self, serde_dynamo::Error> {
                parse_number(&text, $what)
            }
        }
    )*};
    (@size integer) => {
        #[inline]
        fn checked_size(&self, _stored: &AttributeValue) -> Option<usize> {
            Some(integer_size(IntegerSize::magnitude(*self)))
        }
    };
    (@size float) => {
        #[inline]
        fn checked_size(&self, stored: &AttributeValue) -> Option<usize> {
            float_size(f64::from(*self), stored)
        }
    };
}

numbers!(integer "an integer": i8, i16, i32, i64, u8, u16, u32, u64);
numbers!(float "a float": f32, f64);

/// The size of an integer's Number as `check_item` counts it, from the
/// integer rather than its text: every integer of these types is a valid
/// Number (at most 20 digits), whose significant digits are its digits
/// without the trailing zeros (`item::size::number_size_of_digits`).
#[inline]
fn integer_size(magnitude: u64) -> usize {
    if magnitude == 0 {
        return crate::item::size::number_size_of_digits(0);
    }
    let digits = magnitude.ilog10() as usize + 1;
    let mut rest = magnitude;
    let mut trailing = 0;
    while rest.is_multiple_of(10) {
        rest /= 10;
        trailing += 1;
    }
    crate::item::size::number_size_of_digits(digits - trailing)
}

/// The size of a float's Number (`stored`, the float's `to_string()`) as
/// `check_item` counts it. A float of zero or a magnitude from `1e-129` to
/// `1e125`, well inside DynamoDB's range, is a valid Number, which Rust
/// writes without an exponent in at most 17 significant digits: its digits
/// from the first non-zero one to the last, the sign and the point aside.
/// Any other (a NaN, an infinity, a magnitude near or past the range's
/// ends) is read as `check_item` reads it.
#[inline]
fn float_size(value: f64, stored: &AttributeValue) -> Option<usize> {
    let magnitude = value.abs();
    let AttributeValue::N(text) = stored else {
        return crate::item::check::checked_size(stored);
    };
    if !(magnitude == 0.0 || (1e-129..=1e125).contains(&magnitude)) {
        return crate::item::check::checked_size(stored);
    }
    // `[-]digits[.digits]`: the significant digits run from the first
    // non-zero digit to the last, less the point when it is between them.
    let bytes = text.as_bytes();
    let nonzero = |byte: &u8| byte.is_ascii_digit() && *byte != b'0';
    let digits = match (
        bytes.iter().position(nonzero),
        bytes.iter().rposition(nonzero),
    ) {
        (Some(first), Some(last)) => {
            let point = bytes.iter().position(|byte| *byte == b'.');
            last - first + 1 - usize::from(point.is_some_and(|point| first < point && point < last))
        }
        _ => 0,
    };
    Some(crate::item::size::number_size_of_digits(digits))
}

/// The magnitude of an integer, for [`integer_size`].
trait IntegerSize {
    fn magnitude(self) -> u64;
}

macro_rules! integer_sizes {
    ($($ty:ty),* $(,)?) => {$(
        impl IntegerSize for $ty {
            #[inline]
            fn magnitude(self) -> u64 {
                // Lossless: every one of these types fits in 64 bits, and
                // its magnitude too.
                (self as i128).unsigned_abs() as u64
            }
        }
    )*};
}

integer_sizes!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

// serde reads `isize` and `usize` as `i64` and `u64` and converts.
macro_rules! pointer_sized {
    ($($ty:ty => $wide:ty),* $(,)?) => {$(
        impl AttributeCodec for $ty {
            fn to_attribute(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }

            #[inline]
            fn checked_size(&self, _stored: &AttributeValue) -> Option<usize> {
                Some(integer_size(IntegerSize::magnitude(*self)))
            }

            fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
                match value {
                    AttributeValue::N(text) => Self::from_set_number(text),
                    other => Err(unexpected("num", &other)),
                }
            }

            fn from_set_number(text: String) -> Result<Self, serde_dynamo::Error> {
                let wide: $wide = parse_number(&text, "an integer")?;
                <$ty>::try_from(wide).map_err(|_| {
                    serde_dynamo::Error::custom(format!(
                        concat!("invalid value: integer `{}`, expected ", stringify!($ty)),
                        text
                    ))
                })
            }
        }
    )*};
}

pointer_sized!(isize => i64, usize => u64);

/// `S`: serde's `String` reads `S` only (`deserialize_string`), a string
/// set element, and a binary set element that is UTF-8 (`visit_bytes`).
impl AttributeCodec for String {
    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::S(self.clone())
    }

    #[inline]
    fn checked_size(&self, _stored: &AttributeValue) -> Option<usize> {
        Some(self.len())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::S(text) => Ok(text),
            other => Err(unexpected("string", &other)),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        Ok(value)
    }

    fn from_set_binary(value: Vec<u8>) -> Result<Self, serde_dynamo::Error> {
        String::from_utf8(value).map_err(serde_dynamo::Error::custom)
    }
}

/// `S` of exactly one character (serde's `CharVisitor`).
impl AttributeCodec for char {
    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::S(self.to_string())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::S(text) => Self::from_set_string(text)
                .map_err(|_| unexpected("char", &AttributeValue::Null(true))),
            other => Err(unexpected("char", &other)),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        let mut chars = value.chars();
        match (chars.next(), chars.next()) {
            (Some(found), None) => Ok(found),
            _ => Err(serde_dynamo::Error::custom(format!(
                "expected a single character, found `{value}`"
            ))),
        }
    }
}

impl AttributeCodec for bool {
    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::Bool(*self)
    }

    #[inline]
    fn checked_size(&self, _stored: &AttributeValue) -> Option<usize> {
        Some(1)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::Bool(value) => Ok(value),
            other => Err(unexpected("bool", &other)),
        }
    }
}

/// uuid's human-readable form: the hyphenated lower-case text; it reads
/// any text `Uuid::from_str` accepts, and 16 bytes in a binary set.
impl AttributeCodec for Uuid {
    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::S(
            self.hyphenated()
                .encode_lower(&mut Uuid::encode_buffer())
                .to_owned(),
        )
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::S(text) => Self::from_set_string(text),
            other => Err(unexpected("string", &other)),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        value.parse().map_err(uuid_error)
    }

    fn from_set_binary(value: Vec<u8>) -> Result<Self, serde_dynamo::Error> {
        Uuid::from_slice(&value).map_err(uuid_error)
    }
}

/// uuid's message for a value that does not parse.
fn uuid_error(error: uuid::Error) -> serde_dynamo::Error {
    serde_dynamo::Error::custom(format!("UUID parsing failed: {error}"))
}

/// A time or a date in the fixed-width form keys use
/// ([`KeyPart`](crate::KeyPart)), whose text sorts as the values do, or the
/// error of a value outside years 0 to 9999, which has none.
fn sortable<T: KeyPart + std::fmt::Debug>(
    value: &T,
) -> Result<AttributeValue, serde_dynamo::Error> {
    let mut text = String::with_capacity(T::LEN_HINT);
    match value.encode_key(&mut text) {
        Ok(()) => Ok(AttributeValue::S(text)),
        Err(_) => Err(serde_dynamo::Error::custom(format!(
            "{value:?} is outside years 0000 to 9999: no stored form of it sorts \
             among the others', so it is not stored (order comparisons would be wrong)"
        ))),
    }
}

/// RFC 3339 in UTC with nine fractional digits always,
/// `2026-03-01T10:00:00.000000000Z`: the fixed-width form keys use, so the
/// text sorts as the instants do and the server's order comparisons are
/// the times' (chrono's serde form, `SecondsFormat::AutoSi`, writes only
/// the digits a value needs, and `…:00Z` sorts after `…:00.5Z`). It is RFC
/// 3339, so serde reads it back unchanged. A time outside years 0 to 9999
/// is refused by [`try_to_attribute`](AttributeCodec::try_to_attribute)
/// (every write and condition); `to_attribute` gives chrono's form for it.
/// It reads any text `DateTime<FixedOffset>::from_str` accepts (chrono's
/// serde form of older items too), converted to UTC.
impl AttributeCodec for DateTime<Utc> {
    const OWN_FORM: bool = true;

    fn to_attribute(&self) -> AttributeValue {
        self.try_to_attribute().unwrap_or_else(|_| {
            AttributeValue::S(self.to_rfc3339_opts(SecondsFormat::AutoSi, true))
        })
    }

    #[inline]
    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        sortable(self)
    }

    #[inline]
    fn checked_size(&self, stored: &AttributeValue) -> Option<usize> {
        match stored {
            AttributeValue::S(text) => Some(text.len()),
            other => crate::item::check::checked_size(other),
        }
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::S(text) => Self::from_set_string(text),
            other => Err(unexpected("string", &other)),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        // The form `to_attribute` writes first, read by the key decoder
        // (fixed offsets, no parser); then chrono's strict RFC 3339 parser,
        // which reads the serde form of older items with a tenth of the
        // instructions of the relaxed one behind `FromStr`. Every text
        // either accepts the relaxed one reads as the same time (a test
        // holds them to that). Any other text goes through `FromStr`, which
        // is what serde reads.
        if value.len() == 30
            && let Ok(time) = <Self as KeyPart>::decode_key(&value)
        {
            return Ok(time);
        }
        if let Ok(time) = DateTime::parse_from_rfc3339(&value) {
            return Ok(time.with_timezone(&Utc));
        }
        value
            .parse::<DateTime<FixedOffset>>()
            .map(|time| time.with_timezone(&Utc))
            .map_err(serde_dynamo::Error::custom)
    }
}

/// chrono's serde form of a date, `YYYY-MM-DD`, which is also the form
/// keys use and sorts as the dates do; a date outside years 0 to 9999
/// (which chrono writes with a sign and more digits, sorting before year
/// 0) is refused by [`try_to_attribute`](AttributeCodec::try_to_attribute)
/// (every write and condition); `to_attribute` gives chrono's form for it.
impl AttributeCodec for NaiveDate {
    const OWN_FORM: bool = true;

    fn to_attribute(&self) -> AttributeValue {
        self.try_to_attribute()
            .unwrap_or_else(|_| AttributeValue::S(format!("{self:?}")))
    }

    #[inline]
    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        sortable(self)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::S(text) => Self::from_set_string(text),
            other => Err(unexpected("string", &other)),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        value.parse().map_err(serde_dynamo::Error::custom)
    }
}

#[cfg(test)]
mod tests;
