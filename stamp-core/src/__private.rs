//! Helpers for the code `#[derive(Item)]` and `#[derive(KeyPart)]` generate.
//! Not a public API: the facade re-exports it as `stamp::__private`.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::template::KeyBuilder;
use crate::{EntitySchema, Error, Item, KeyPartError};
pub use serde_dynamo;

/// Serializes a struct with serde_dynamo and leaves out top-level `NULL`s
/// (`None` fields), which DynamoDB would otherwise store.
pub fn serialize_fields<T: Serialize>(schema: &EntitySchema, value: &T) -> Result<Item, Error> {
    let mut item: Item = serde_dynamo::to_item(value).map_err(|source| Error::Serialize {
        entity: schema.type_name,
        source,
    })?;
    item.retain(|_, value| !matches!(value, AttributeValue::Null(_)));
    Ok(item)
}

/// Deserializes a struct after checking the item's type attribute.
pub fn deserialize_fields<T: DeserializeOwned>(
    schema: &EntitySchema,
    item: Item,
) -> Result<T, Error> {
    match item.get(schema.type_attribute) {
        None => {}
        Some(AttributeValue::S(found)) if found == schema.type_name => {}
        Some(other) => {
            return Err(Error::EntityTypeMismatch {
                attribute: schema.type_attribute,
                expected: schema.type_name,
                found: match other {
                    AttributeValue::S(found) => found.clone(),
                    other => format!("{other:?}"),
                },
            });
        }
    }
    serde_dynamo::from_item(item).map_err(|source| Error::Deserialize {
        entity: schema.type_name,
        source,
    })
}

/// Inserts a key or type attribute as a string.
pub fn insert_string(item: &mut Item, name: &str, value: String) {
    item.insert(name.to_owned(), AttributeValue::S(value));
}

/// The error of a field segment that does not decode.
pub fn key_decode_error(
    entity: &'static str,
    field: &'static str,
    key: &str,
    source: KeyPartError,
) -> Error {
    Error::KeyDecode {
        entity,
        field,
        key: key.to_owned(),
        source,
    }
}
