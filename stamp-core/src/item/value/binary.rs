//! Byte fields as DynamoDB binary (`B`): `Vec<u8>`, `[u8; N]`,
//! `bytes::Bytes` and `Option`s of them.
//!
//! serde has no byte type of its own: `Vec<u8>` and `[u8; N]` serialize as
//! sequences of numbers, which serde_dynamo stores as a list `L` of `N`
//! (about four bytes of item size per byte, and no binary key). Stamp
//! stores them as `B` instead, the form `#[serde(with = "serde_bytes")]`
//! gives, and reads back `B` and the list form that items written before
//! (or by serde_dynamo) have. The choice is made by the compiler per field
//! type (the first level of `__private::codec`'s selection), so a type
//! alias changes nothing; a field with its own serde codec (`with`,
//! `serialize_with`, `deserialize_with`) is left to it.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::Error as _;

/// A byte string that a field stores as binary (`B`).
pub trait BinaryAttribute: Sized {
    /// The stored form: `B` (`NULL` for a `None`, left out of an item).
    fn to_binary(&self) -> AttributeValue;

    /// Reads the value from `B`, or from a list `L` of Numbers 0 to 255
    /// (the form serde_dynamo stores a `Vec<u8>` in).
    ///
    /// # Errors
    ///
    /// A `serde_dynamo::Error` for another attribute type, a list element
    /// that is not a byte, or (for `[u8; N]`) another length.
    fn from_binary(value: AttributeValue) -> Result<Self, serde_dynamo::Error>;

    /// The value of an absent attribute: `missing field`, `None` for an
    /// `Option`.
    ///
    /// # Errors
    ///
    /// `missing field` unless the type has a value for "absent".
    fn from_missing(field: &'static str) -> Result<Self, serde_dynamo::Error> {
        Err(serde_dynamo::Error::missing_field(field))
    }

    /// The attribute `value` in the form the type's own `Deserialize`
    /// reads through serde_dynamo (for a struct decoded whole by serde): a
    /// list of Numbers for `Vec<u8>` and `[u8; N]`, `B` for `Bytes`.
    #[doc(hidden)]
    fn serde_form(value: AttributeValue) -> AttributeValue {
        to_list(value)
    }
}

/// The bytes of a stored value: `B`, or `L` of Numbers 0 to 255.
fn bytes_of(value: AttributeValue) -> Result<Vec<u8>, serde_dynamo::Error> {
    match value {
        AttributeValue::B(blob) => Ok(blob.into_inner()),
        AttributeValue::L(list) => list
            .into_iter()
            .map(|element| match element {
                AttributeValue::N(text) => text.parse::<u8>().map_err(|_| {
                    serde_dynamo::Error::custom(format!("the list element {text} is not a byte"))
                }),
                _ => Err(serde_dynamo::Error::custom(
                    "a list element of a byte string is not a Number",
                )),
            })
            .collect(),
        _ => Err(serde_dynamo::Error::custom("Expected bytes")),
    }
}

/// `B` as a list of Numbers; anything else as it is.
fn to_list(value: AttributeValue) -> AttributeValue {
    match value {
        AttributeValue::B(blob) => AttributeValue::L(
            blob.into_inner()
                .into_iter()
                .map(|byte| AttributeValue::N(byte.to_string()))
                .collect(),
        ),
        other => other,
    }
}

impl BinaryAttribute for Vec<u8> {
    fn to_binary(&self) -> AttributeValue {
        AttributeValue::B(Blob::new(self.clone()))
    }

    fn from_binary(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        bytes_of(value)
    }
}

impl<const N: usize> BinaryAttribute for [u8; N] {
    fn to_binary(&self) -> AttributeValue {
        AttributeValue::B(Blob::new(self.to_vec()))
    }

    fn from_binary(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        let bytes = bytes_of(value)?;
        let length = bytes.len();
        bytes.try_into().map_err(|_| {
            serde_dynamo::Error::custom(format!("{length} bytes stored, and the field holds {N}"))
        })
    }
}

impl BinaryAttribute for bytes::Bytes {
    fn to_binary(&self) -> AttributeValue {
        AttributeValue::B(Blob::new(self.to_vec()))
    }

    fn from_binary(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        bytes_of(value).map(bytes::Bytes::from)
    }

    fn serde_form(value: AttributeValue) -> AttributeValue {
        match value {
            AttributeValue::L(_) => match bytes_of(value.clone()) {
                Ok(bytes) => AttributeValue::B(Blob::new(bytes)),
                Err(_) => value,
            },
            other => other,
        }
    }
}

impl<T: BinaryAttribute> BinaryAttribute for Option<T> {
    fn to_binary(&self) -> AttributeValue {
        match self {
            Some(value) => value.to_binary(),
            None => AttributeValue::Null(true),
        }
    }

    fn from_binary(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::Null(true) => Ok(None),
            other => T::from_binary(other).map(Some),
        }
    }

    fn from_missing(_field: &'static str) -> Result<Self, serde_dynamo::Error> {
        Ok(None)
    }

    fn serde_form(value: AttributeValue) -> AttributeValue {
        T::serde_form(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_stored_as_binary_and_read_from_binary_and_lists() {
        let stored = bytes::Bytes::from_static(&[0, 1, 255]).to_binary();
        assert_eq!(stored, AttributeValue::B(Blob::new(vec![0, 1, 255])));
        assert_eq!(
            bytes::Bytes::from_binary(stored).unwrap(),
            bytes::Bytes::from_static(&[0, 1, 255])
        );
        let list = AttributeValue::L(vec![
            AttributeValue::N("7".into()),
            AttributeValue::N("255".into()),
        ]);
        assert_eq!(
            bytes::Bytes::from_binary(list.clone()).unwrap(),
            bytes::Bytes::from_static(&[7, 255])
        );
        assert_eq!(<[u8; 2]>::from_binary(list).unwrap(), [7, 255]);
        let error = <[u8; 3]>::from_binary(AttributeValue::B(Blob::new(vec![1]))).unwrap_err();
        assert_eq!(error.to_string(), "1 bytes stored, and the field holds 3");
        let error =
            Vec::<u8>::from_binary(AttributeValue::L(vec![AttributeValue::N("256".into())]))
                .unwrap_err();
        assert_eq!(error.to_string(), "the list element 256 is not a byte");
    }
}
