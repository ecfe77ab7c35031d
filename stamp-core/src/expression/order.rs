//! [`Ordered`]: the types whose attributes offer order comparisons, because
//! DynamoDB orders their stored form as the values are ordered.

/// A type whose stored form DynamoDB orders as the values are ordered, so
/// that an [`Attribute`](crate::Attribute) of it offers `lt`, `le`, `gt`,
/// `ge` and `between`, in filters and conditions alike, and the server's
/// answer is the values' own order.
///
/// DynamoDB compares Numbers numerically, and Strings and Binary values by
/// their bytes (UTF-8, unsigned), and compares no other type with `<`
/// ([comparison operators](https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Comparators)).
/// Implemented for:
///
/// - the integers up to 64 bits, `f32` and `f64` (`N`, numeric order; a
///   NaN or an infinity is refused before a write);
/// - `String` and `char` (`S`: UTF-8 byte order is code point order, which
///   is `Ord`'s);
/// - `uuid::Uuid` (`S`, lower-case hyphenated hex, in the order of its 16
///   bytes);
/// - `chrono::DateTime<Utc>` and `chrono::NaiveDate` (`S`, in the
///   fixed-width form keys use, `2026-03-01T10:00:00.000000000Z` and
///   `2026-03-01`; a value outside years 0 to 9999 is refused before a
///   write or a comparison);
/// - the byte strings `Vec<u8>`, `[u8; N]` and `bytes::Bytes` (`B`, byte
///   order).
///
/// Not for `bool` (`BOOL` has no order), collections, nested structs, the
/// unit enums of `#[derive(KeyPart)]` (stored by variant name, which is not
/// their declaration order) or `#[derive(KeyPart)]` newtypes (stored as
/// serde writes the inner value: a newtype of a `DateTime<Utc>` has
/// chrono's form, whose text does not sort). Implement it for your own
/// type only when its stored form sorts as its values do.
///
/// A field with a serde codec of its own (`with`, `serialize_with`) is
/// stored as that codec writes it, which Stamp cannot see: its attribute
/// keeps the comparisons of its type, and they are right only when the
/// codec's form sorts as the values do (`chrono::serde::ts_seconds` does,
/// as a Number; a text format with variable widths does not).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no order comparisons: its stored form does not sort as its values do",
    label = "`lt`, `le`, `gt`, `ge` and `between` need a type whose stored form DynamoDB orders as the values",
    note = "DynamoDB orders Numbers numerically and Strings and Binary by their bytes; the types that store such a form are the integers, f32, f64, String, char, Uuid, DateTime<Utc>, NaiveDate and byte strings (`stamp::Ordered`); compare this attribute with `eq` or `ne`, or store the value in a form that sorts and implement `Ordered` for it"
)]
pub trait Ordered {}

macro_rules! ordered {
    ($($ty:ty),* $(,)?) => {$(impl Ordered for $ty {})*};
}

ordered!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);
ordered!(String, char, uuid::Uuid);
ordered!(chrono::DateTime<chrono::Utc>, chrono::NaiveDate);
ordered!(Vec<u8>, bytes::Bytes);

impl<const N: usize> Ordered for [u8; N] {}
