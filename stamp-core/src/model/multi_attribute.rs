//! Multi-attribute GSI keys (DynamoDB, November 2025): an index keyed by up
//! to four partition-key and four sort-key attributes that are the entity's
//! own fields, stored under their own names with their native types, from
//! `#[gsiN(pk(field, …), sk(field, …))]`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.

use crate::item::value::AttributeCodec;
use crate::model::index::QueryIndex;
use aws_sdk_dynamodb::types::{AttributeValue, ScalarAttributeType};

/// The DynamoDB type of a key attribute: `S`, `N` or `B`, the only types a
/// key attribute may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyAttributeType {
    /// `S`: a string, ordered by its UTF-8 bytes.
    S,
    /// `N`: a number, ordered numerically.
    N,
    /// `B`: binary, ordered by its bytes (unsigned).
    B,
}

impl KeyAttributeType {
    /// The SDK's `ScalarAttributeType`, for `AttributeDefinitions`.
    pub fn to_sdk(self) -> ScalarAttributeType {
        match self {
            KeyAttributeType::S => ScalarAttributeType::S,
            KeyAttributeType::N => ScalarAttributeType::N,
            KeyAttributeType::B => ScalarAttributeType::B,
        }
    }

    /// `"S"`, `"N"` or `"B"`, as CloudFormation's `AttributeType` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyAttributeType::S => "S",
            KeyAttributeType::N => "N",
            KeyAttributeType::B => "B",
        }
    }

    /// Whether `value` is of this type.
    pub fn holds(self, value: &AttributeValue) -> bool {
        matches!(
            (self, value),
            (KeyAttributeType::S, AttributeValue::S(_))
                | (KeyAttributeType::N, AttributeValue::N(_))
                | (KeyAttributeType::B, AttributeValue::B(_))
        )
    }
}

/// One attribute of a multi-attribute GSI key: a field of the entity,
/// stored under its own (serde) attribute name with its native type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexKeyField {
    /// The field name in the struct, without `r#`.
    pub field: &'static str,
    /// The attribute name: serde's name of the field.
    pub attribute: &'static str,
    /// Its type, from [`IndexKeyAttribute::TYPE`].
    pub attribute_type: KeyAttributeType,
    /// Whether the field is an `Option`: an item whose value is `None` has
    /// no such attribute and is left out of the index (a sparse index).
    pub optional: bool,
}

/// A type whose stored form can be an attribute of a multi-attribute GSI
/// key: `S`, `N` or `B`, sorting in the order of its values.
///
/// Implemented for `String` (`S`, UTF-8 byte order, which is code point
/// order), the integers `i8` to `i64`, `u8` to `u64`, `isize` and `usize`
/// (`N`, numeric order, negative numbers included), `uuid::Uuid` (`S`: the
/// lower-case hyphenated text, whose order is the order of the 16 bytes),
/// `chrono::DateTime<Utc>` and `chrono::NaiveDate` (`S`, their fixed-width
/// [`KeyPart`](crate::KeyPart) encodings, the ones key templates use:
/// `2026-03-01T09:00:00.500000000Z` and `2026-03-01`, time and date order
/// for years 0 to 9999, other years refused) and the unit-only enums of
/// `#[derive(KeyPart)]` (`S`, serde's variant name: they sort by name, not
/// by declaration order).
///
/// A field that is such a key attribute is stored, under its own name, as
/// [`to_key_attribute`](Self::to_key_attribute) gives: by `to_item`, by an
/// update that sets it or stamps it (`updated_at`), in conditions on it and
/// in the values of queries. For every type but `DateTime<Utc>` that is
/// the field's serde form (for `NaiveDate`, within years 0 to 9999); a
/// `DateTime<Utc>`'s serde form, RFC 3339 with as many fractional digits as
/// the value needs (`…:00.5Z` sorts before `…:00Z`), becomes nine digits
/// always, which is RFC 3339 too: serde reads it back unchanged.
///
/// Not implemented, on purpose: `bool` (stored as `BOOL`), `f32`/`f64`
/// (`NaN` and infinities have no Number form), `u128`/`i128` (beyond
/// DynamoDB's 38 digits), `Vec<u8>` and collections.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an attribute of a multi-attribute GSI key or an inline filter of a vector index",
    label = "not stored as an S, N or B value that sorts in the order of its values",
    note = "a multi-attribute key attribute is stored with its native type, S, N or B, and the index sorts by it: use String, an integer up to 64 bits, Uuid, DateTime<Utc>, NaiveDate or a `#[derive(KeyPart)]` unit enum, or put the field in a key template (`#[gsiN(pk = \"…\", sk = \"…\")]`), whose encoding sorts"
)]
pub trait IndexKeyAttribute {
    /// The attribute type of its stored form.
    const TYPE: KeyAttributeType;

    /// The stored form of a value: an attribute of type [`TYPE`](Self::TYPE)
    /// whose order is the values' order.
    ///
    /// # Errors
    ///
    /// A `serde_dynamo::Error` when the value has no such form (a date
    /// outside years 0 to 9999).
    fn to_key_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error>;
}

macro_rules! index_key_attribute {
    ($kind:ident: $($ty:ty),*) => {
        $(impl IndexKeyAttribute for $ty {
            const TYPE: KeyAttributeType = KeyAttributeType::$kind;

            fn to_key_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
                Ok(AttributeCodec::to_attribute(self))
            }
        })*
    };
}

index_key_attribute!(S: String, uuid::Uuid);
index_key_attribute!(N: i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! index_key_part {
    ($($ty:ty),*) => {
        $(impl IndexKeyAttribute for $ty {
            const TYPE: KeyAttributeType = KeyAttributeType::S;

            fn to_key_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
                key_part_attribute(self)
            }
        })*
    };
}

index_key_part!(chrono::NaiveDate, chrono::DateTime<chrono::Utc>);

/// The [`KeyPart`](crate::KeyPart) encoding of a value as an `S` attribute:
/// the stored form of a `#[derive(KeyPart)]` enum, a `DateTime<Utc>` or a
/// `NaiveDate` in a multi-attribute key.
#[doc(hidden)]
pub fn key_part_attribute<T: crate::key::part::KeyPart>(
    value: &T,
) -> Result<AttributeValue, serde_dynamo::Error> {
    let mut text = String::with_capacity(T::LEN_HINT);
    value
        .encode_key(&mut text)
        .map_err(<serde_dynamo::Error as serde::ser::Error>::custom)?;
    Ok(AttributeValue::S(text))
}

/// The value type of the next sort-key attribute after every sort-key
/// attribute is given: it has no values, so a range after a complete
/// equality does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSortAttributeLeft {}

/// A leading run of the sort-key attributes of multi-attribute index
/// `I` ([`Gsi<N>`](crate::Gsi)) of entity `E`, given with `=`: `()` (none), `(&A,)`, `(&A, &B)`, …
/// (`&str` for a `String` field), implemented by `#[derive(Item)]`.
///
/// [`Next`](Self::Next) is the value type of the attribute that follows, on
/// which a range condition may go; [`NoSortAttributeLeft`] after the last.
/// A skipped attribute, or a range before the last attribute given, is a
/// type error.
pub trait SortAttributes<E, I: QueryIndex> {
    /// The value type of the next sort-key attribute (`str` for a `String`).
    type Next: ?Sized;

    /// The values of the run, as `to_item` stores them.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`](crate::Refusal::Serialize) or
    /// [`KeyError::InvalidKeyAttribute`](crate::KeyError::InvalidKeyAttribute)
    /// when a value has no key form.
    fn values(&self) -> Result<Vec<AttributeValue>, crate::error::Error>;

    /// A value of the next attribute, as `to_item` stores it.
    ///
    /// # Errors
    ///
    /// As [`values`](Self::values).
    fn next_value(next: &Self::Next) -> Result<AttributeValue, crate::error::Error>;
}

/// A sort-key attribute type that `begins_with` applies to: a string.
pub trait TextSortAttribute {}

impl TextSortAttribute for str {}
