//! The direct codec: a field value straight to the SDK's [`AttributeValue`]
//! and back, without serde's data model, storing what `serde_dynamo`
//! stores but for times, which are stored in a form that sorts.
//!
//! `#[derive(Item)]` converts each field through [`AttributeCodec`] when
//! the field's type implements it, and through `serde_dynamo` otherwise
//! (nested structs, enums, your own types, and any field whose serde
//! attributes change how it is stored: `with`, `serialize_with`,
//! `deserialize_with`, `flatten`, …). The choice is made by the compiler
//! for each field type, so a type alias or a re-export changes nothing.
//!
//! Implemented for `String`, `bool`, `char`, the integers up to 64 bits,
//! `f32`, `f64`, `uuid::Uuid`, `chrono::DateTime<Utc>`,
//! `chrono::NaiveDate`, and `Option`, `Vec`, `HashSet`, `BTreeSet`,
//! `HashMap<String, _>` and `BTreeMap<String, _>` of those. Each encodes as
//! `serde_dynamo::to_attribute_value` does (a `DateTime<Utc>` excepted:
//! nine fractional digits always, the form its key encoding has, so that
//! the server's order comparisons are the times'; see [`crate::Ordered`])
//! and decodes as `serde_dynamo::from_attribute_value` does, including what it accepts
//! (a `Vec<String>` reads a string set `SS`, an integer reads only a
//! Number whose text `str::parse` accepts) and what it refuses; the
//! property tests in `tests/it/items/codec.rs` hold every type to that.
//!
//! The stored forms (see [DynamoDB's data
//! types](https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html)):
//!
//! | Rust | stored |
//! |---|---|
//! | `String`, `char` | `S`, the text (an empty string stays `S("")`) |
//! | integers, `f32`, `f64` | `N`, Rust's `Display` text (`-9223372036854775808`, `0.1`, `1e300`, `NaN`; a NaN or an infinity is refused by `check_item` before a write) |
//! | `bool` | `BOOL` |
//! | `Uuid` | `S`, hyphenated lower case |
//! | `DateTime<Utc>` | `S`, RFC 3339 in UTC with nine fractional digits always, `2026-03-01T10:00:00.000000000Z` (the form keys use, whose text sorts as the instants do; chrono's serde form, `…T10:00:00Z`, `…T10:00:00.500Z`, does not, and reads back too); a time outside years 0 to 9999 is refused before a write or a comparison |
//! | `NaiveDate` | `S`, `YYYY-MM-DD` (chrono's serde form, which is also the key form and sorts); a date outside years 0 to 9999 is refused before a write or a comparison |
//! | `Option<T>` | `None` is `NULL` (left out of a stored item at the top level), `Some` is `T`'s form |
//! | `Vec<T>`, sets | `L` of the elements (a set in iteration order); reads `L`, `SS`, `NS` or `BS` |
//! | maps with `String` keys | `M` |
//! | `serde_json::Value` | `NULL`, `BOOL`, `N`, `S`, `L`, `M` (numbers as `N` also under serde_json's `arbitrary_precision`, see [`json`]) |
//!
//! Byte strings (`Vec<u8>`, `[u8; N]`, `bytes::Bytes`) are not stored as
//! the list above but as binary `B`, chosen before this codec
//! ([`binary`]); see the facade's "Stored forms".

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::Error as _;

pub mod binary;
mod fields;
mod impls;
pub mod json;
pub mod select;

/// A type whose stored form `#[derive(Item)]` writes and reads directly.
///
/// An implementation must store exactly what `serde_dynamo` stores for the
/// type's `Serialize` (Stamp's own `DateTime<Utc>` and `NaiveDate` store
/// the fixed-width form that sorts, which their `Deserialize` reads back)
/// and read exactly what its `Deserialize` reads, so that items written
/// either way read the same. Implement it for your own
/// type only with that guarantee (and test it against
/// `serde_dynamo::to_attribute_value` / `from_attribute_value`); without an
/// implementation, the derive goes through serde, which is always right.
pub trait AttributeCodec: Sized {
    /// The attribute value `serde_dynamo::to_attribute_value(self)` gives,
    /// but for the types whose stored form is Stamp's own (a
    /// `DateTime<Utc>`, see the table above).
    fn to_attribute(&self) -> AttributeValue;

    /// Reads the value from `value`, as `serde_dynamo::from_attribute_value`
    /// does.
    ///
    /// # Errors
    ///
    /// A `serde_dynamo::Error` when `value` has another type, or its text
    /// does not parse (a Number too large for the integer type, a string
    /// that is not a UUID or an RFC 3339 time).
    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error>;

    /// Whether the stored form is Stamp's own rather than serde_dynamo's:
    /// `true` for `DateTime<Utc>` and `NaiveDate` (and the collections of
    /// them), whose stored form sorts as the values do and which a value
    /// without such a form refuses ([`try_to_attribute`](Self::try_to_attribute)).
    /// A struct stored whole by serde has such a field stored again in this
    /// form.
    #[doc(hidden)]
    const OWN_FORM: bool = false;

    /// The stored form, or the error of a value that has none (a time or
    /// a date outside years 0 to 9999, whose text would not sort among the
    /// others'). What every write, update and condition stores.
    ///
    /// # Errors
    ///
    /// A `serde_dynamo::Error` saying why the value has no stored form.
    #[doc(hidden)]
    #[inline]
    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        Ok(self.to_attribute())
    }

    /// The value of a field whose attribute is absent from the item: serde's
    /// `missing field` error, `None` for an `Option`.
    ///
    /// # Errors
    ///
    /// `missing field `…`` unless the type has a value for "absent".
    fn from_missing(field: &'static str) -> Result<Self, serde_dynamo::Error> {
        Err(serde_dynamo::Error::missing_field(field))
    }

    /// The size in bytes of `stored`, this value's [`to_attribute`](Self::to_attribute),
    /// when `check_item` accepts it, `None` when it does not: what
    /// `check_item` counts for it, found from the value where that is
    /// quicker than reading the text (an integer's digits). A put counts
    /// each field's size with it while encoding.
    #[doc(hidden)]
    #[inline]
    fn checked_size(&self, stored: &AttributeValue) -> Option<usize> {
        crate::item::check::checked_size(stored)
    }

    /// An element of a string set (`SS`), as serde_dynamo reads one.
    #[doc(hidden)]
    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        Err(expected_element("a string", &value))
    }

    /// An element of a number set (`NS`), as serde_dynamo reads one.
    #[doc(hidden)]
    fn from_set_number(value: String) -> Result<Self, serde_dynamo::Error> {
        Err(expected_element("a number", &value))
    }

    /// An element of a binary set (`BS`), as serde_dynamo reads one.
    #[doc(hidden)]
    fn from_set_binary(value: Vec<u8>) -> Result<Self, serde_dynamo::Error> {
        Err(serde_dynamo::Error::custom(format!(
            "a {}-byte binary set element cannot be read as this type",
            value.len()
        )))
    }
}

/// The error of a set element this type does not read.
fn expected_element(kind: &str, value: &str) -> serde_dynamo::Error {
    serde_dynamo::Error::custom(format!(
        "the set element `{value}` ({kind}) cannot be read as this type"
    ))
}

/// The error of an attribute value of the wrong DynamoDB type, in
/// serde_dynamo's words (`Expected string`, `Expected num`, …).
fn unexpected(expected: &str, _found: &AttributeValue) -> serde_dynamo::Error {
    serde_dynamo::Error::custom(format!("Expected {expected}"))
}
