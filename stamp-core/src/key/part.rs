//! [`KeyPart`]: the reversible, order-preserving encoding of one field into a
//! key segment.
//!
//! The encodings are a storage format. Every key Stamp writes is built from
//! them, so changing one is a data migration: old items keep the old bytes.
//! The table of encodings is in the crate documentation.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Timelike, Utc};
use uuid::Uuid;

mod time;

/// A value that can be one segment of a key template such as
/// `ORDER#<created_at>#<order_id>`.
///
/// An implementation must be reversible (`decode_key(encode_key(v)) == v`)
/// and, where the type has a natural order, order-preserving: the byte order
/// of two encoded values equals the order of the values. DynamoDB compares
/// sort keys of type `S` by their UTF-8 bytes, so this is what makes range
/// conditions on a key field mean what they say
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html>).
///
/// The encoded text may contain any character: the template escapes its
/// delimiters afterwards, so an implementation never needs to know them. An
/// empty encoding is refused by the template with
/// [`KeyError::EmptyKeyValue`](crate::KeyError::EmptyKeyValue).
///
/// Implement it by hand, or derive it for unit-only enums and newtypes with
/// `#[derive(stamp::KeyPart)]`.
///
/// # Example
///
/// ```
/// use stamp_core::KeyPart;
///
/// let mut key = String::new();
/// 42u16.encode_key(&mut key).unwrap();
/// assert_eq!(key, "00042");
/// assert_eq!(u16::decode_key("00042").unwrap(), 42);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used in a key template: it does not implement `KeyPart`",
    label = "this field is used in a key template, so its type must implement `stamp::KeyPart`",
    note = "derive it with `#[derive(stamp::KeyPart)]` (unit-only enums and newtypes), or implement `stamp::KeyPart` by hand"
)]
pub trait KeyPart: Sized {
    /// The usual length of an encoding in bytes, used to size a key's buffer
    /// so that building it allocates once. Only a hint.
    const LEN_HINT: usize = 16;

    /// Whether an encoding may contain a character that the derive's
    /// templates escape ([`KeyTemplate::ESCAPED`](crate::KeyTemplate::ESCAPED):
    /// U+0000 to `%`, such as a space or `#`). `true`, the default, has the
    /// key builder check every encoded value; `false` promises that no
    /// encoding ever does, and the builder of a template with that set
    /// writes the value without looking (a template with another set still
    /// checks). The built-in integers, `bool`, `Uuid`, `NaiveDate` and
    /// `DateTime<Utc>` set it to `false` (digits, hex, `-`, `:`, `.`, `T`
    /// and `Z` are all above `%`), and `#[derive(KeyPart)]` does for an
    /// enum whose variant names have none of those characters and for a
    /// newtype over such a type. Debug builds check the promise.
    const NEEDS_ESCAPING: bool = true;

    /// Appends the encoding of `self` to `out`.
    ///
    /// # Errors
    ///
    /// [`KeyPartError::OutOfRange`] when the value has no encoding, such as a
    /// date before year 0 or after year 9999.
    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError>;

    /// Reads a value back from its encoding (already unescaped).
    ///
    /// # Errors
    ///
    /// [`KeyPartError::Invalid`] when `encoded` is not an encoding this
    /// implementation writes.
    fn decode_key(encoded: &str) -> Result<Self, KeyPartError>;

    /// An example value of a key field named `field`, which the
    /// catalogue (`TableDefinition::catalogue`) encodes into its
    /// example keys when no example item is recorded. `None`, the default,
    /// when the type offers none: the catalogue then shows the placeholder
    /// `<field>` rather than a text that may not be a valid encoding.
    ///
    /// Provided: `String` gives `<field>-1`, integers `1`, `bool` `true`,
    /// `Uuid` `00000000-0000-0000-0000-000000000001`, `NaiveDate`
    /// 2026-01-01 and `DateTime<Utc>` 2026-01-01T00:00:00Z;
    /// `#[derive(KeyPart)]` gives an enum's first variant and a newtype's
    /// inner example.
    fn example(field: &str) -> Option<Self> {
        let _ = field;
        None
    }

    // For generated code, named `<T as KeyPart>::…` at the field's type, so
    // an unmet bound is one plain error (a bounded helper adds its own).

    /// The value as a key function's argument (`stamp::__private::KeyArg`).
    #[doc(hidden)]
    #[inline(always)]
    fn __stamp_key_arg(&self) -> crate::key::fill::KeyArg<'_> {
        crate::key::fill::KeyArg::Part(self)
    }

    /// The field at `position` of a split key value (the key parsers).
    ///
    /// # Errors
    ///
    /// `KeyError::KeyDecode` when the segment is not this type's encoding.
    #[doc(hidden)]
    #[inline]
    fn __stamp_parse(
        key: &crate::key::fill::SplitKey<'_>,
        position: usize,
    ) -> Result<Self, crate::error::Error> {
        key.field::<Self>(position)
    }

    /// The example key segment of field `field` (the catalogue).
    #[doc(hidden)]
    fn __stamp_example(field: &str) -> Option<String> {
        crate::__private::key_example::<Self>(field)
    }
}

/// Why a value could not be encoded into, or decoded from, a key segment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyPartError {
    /// The text is not an encoding of the expected type.
    #[error("`{value}` is not a valid key encoding of {expected}")]
    Invalid {
        /// What was expected, such as "a u32 as 10 decimal digits".
        expected: &'static str,
        /// The text that was found.
        value: String,
    },
    /// The value has no key encoding.
    #[error("{value} is out of the range a key can encode: {range}")]
    OutOfRange {
        /// The value, as `Debug` prints it.
        value: String,
        /// The range that can be encoded.
        range: &'static str,
    },
}

impl KeyPartError {
    /// An [`KeyPartError::Invalid`] error for `value`.
    pub fn invalid(expected: &'static str, value: &str) -> Self {
        KeyPartError::Invalid {
            expected,
            value: value.to_owned(),
        }
    }
}

impl KeyPart for String {
    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(self);
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        Ok(encoded.to_owned())
    }

    fn example(field: &str) -> Option<Self> {
        Some(format!("{field}-1"))
    }
}

impl KeyPart for bool {
    const LEN_HINT: usize = 5;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(if *self { "true" } else { "false" });
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        match encoded {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(KeyPartError::invalid(
                "a bool as `true` or `false`",
                encoded,
            )),
        }
    }

    fn example(_field: &str) -> Option<Self> {
        Some(true)
    }
}

/// Parses exactly `width` ASCII digits.
fn parse_digits(encoded: &str, width: usize, expected: &'static str) -> Result<u128, KeyPartError> {
    if encoded.len() != width || !encoded.bytes().all(|b| b.is_ascii_digit()) {
        return Err(KeyPartError::invalid(expected, encoded));
    }
    encoded
        .parse::<u128>()
        .map_err(|_| KeyPartError::invalid(expected, encoded))
}

macro_rules! unsigned_key_part {
    ($($ty:ty => $width:literal),* $(,)?) => {$(
        impl KeyPart for $ty {
            const LEN_HINT: usize = $width;
            const NEEDS_ESCAPING: bool = false;

            fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
                push_padded(out, u64::from(*self), $width);
                Ok(())
            }

            fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
                const EXPECTED: &str = concat!("a ", stringify!($ty), " as ", $width, " decimal digits");
                let value = parse_digits(encoded, $width, EXPECTED)?;
                <$ty>::try_from(value).map_err(|_| KeyPartError::invalid(EXPECTED, encoded))
            }

            fn example(_field: &str) -> Option<Self> {
                Some(1)
            }
        }
    )*};
}

macro_rules! signed_key_part {
    ($($ty:ty => $unsigned:ty),* $(,)?) => {$(
        impl KeyPart for $ty {
            const LEN_HINT: usize = <$unsigned>::LEN_HINT;
            const NEEDS_ESCAPING: bool = false;

            fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
                // Flipping the sign bit maps MIN..=MAX onto 0..=unsigned MAX in order.
                let shifted = (*self as $unsigned) ^ (1 << (<$ty>::BITS - 1));
                shifted.encode_key(out)
            }

            fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
                let shifted = <$unsigned>::decode_key(encoded).map_err(|_| {
                    KeyPartError::invalid(
                        concat!("a ", stringify!($ty), " shifted onto ", stringify!($unsigned), ", as fixed-width decimal digits"),
                        encoded,
                    )
                })?;
                Ok((shifted ^ (1 << (<$ty>::BITS - 1))) as $ty)
            }

            fn example(_field: &str) -> Option<Self> {
                Some(1)
            }
        }
    )*};
}

// No `u128`/`i128`: a key field is also stored as an ordinary attribute, a
// DynamoDB Number holds 38 significant digits (`u128::MAX` has 39), and
// serde_dynamo cannot serialize 128-bit integers, so such an item could
// never be stored. Leaving them out makes the template a compile error
// (`KeyPart` is not implemented); a 128-bit id is a `Uuid` or a newtype
// with its own `KeyPart` and serde form.
unsigned_key_part!(u8 => 3, u16 => 5, u32 => 10, u64 => 20);
signed_key_part!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

impl KeyPart for usize {
    const LEN_HINT: usize = 20;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        (*self as u64).encode_key(out)
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        let value = u64::decode_key(encoded)?;
        usize::try_from(value)
            .map_err(|_| KeyPartError::invalid("a usize as 20 decimal digits", encoded))
    }

    fn example(_field: &str) -> Option<Self> {
        Some(1)
    }
}

impl KeyPart for isize {
    const LEN_HINT: usize = 20;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        (*self as i64).encode_key(out)
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        let value = i64::decode_key(encoded)?;
        isize::try_from(value)
            .map_err(|_| KeyPartError::invalid("an isize as a shifted i64", encoded))
    }

    fn example(_field: &str) -> Option<Self> {
        Some(1)
    }
}

impl KeyPart for Uuid {
    const LEN_HINT: usize = 36;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        let mut buffer = Uuid::encode_buffer();
        out.push_str(self.hyphenated().encode_lower(&mut buffer));
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        const EXPECTED: &str = "a UUID in lowercase hyphenated form";
        let value =
            Uuid::try_parse(encoded).map_err(|_| KeyPartError::invalid(EXPECTED, encoded))?;
        let mut buffer = Uuid::encode_buffer();
        if value.hyphenated().encode_lower(&mut buffer) != encoded {
            return Err(KeyPartError::invalid(EXPECTED, encoded));
        }
        Ok(value)
    }

    fn example(_field: &str) -> Option<Self> {
        Some(Uuid::from_u128(1))
    }
}

/// Writes the last `digits.len()` decimal digits of `value` into `digits`,
/// zero-padded: `write!(out, "{value:0width$}")` without the formatting
/// machinery (which was most of the cost of building a key with a time).
fn fill_digits(digits: &mut [u8], mut value: u64) {
    for digit in digits.iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// Appends `value` in decimal, zero-padded to `width` digits (at most 20,
/// the digits of `u64::MAX`), in one push.
fn push_padded(out: &mut String, value: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut position = digits.len();
    let mut rest = value;
    while rest > 0 {
        position -= 1;
        digits[position] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    let start = position.min(digits.len() - width.min(digits.len()));
    push_ascii(out, &digits[start..]);
}

/// Appends ASCII text built in a buffer, in one push (a `push` per byte
/// checks the capacity and encodes a `char` each time).
fn push_ascii(out: &mut String, ascii: &[u8]) {
    debug_assert!(ascii.is_ascii());
    out.push_str(std::str::from_utf8(ascii).expect("digits and separators are ASCII"));
}
