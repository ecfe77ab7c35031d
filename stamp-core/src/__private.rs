//! Helpers for the code `#[derive(Item)]` and `#[derive(KeyPart)]` generate.
//! Not a public API: the facade re-exports it as `stamp::__private`.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Error;
use crate::error::{DecodeError, KeyError, Refusal};
pub use crate::item::builder::ItemBuilder;
pub use crate::item::value::select as codec;
pub use crate::key::fill::{
    At, DynKeyPart, KeyArg, SplitKey, build_key, index_key, insert_index_key, key_from_values,
    key_prefix, parse_key, previous_key, primary_key, query, shard_from_values, split_key,
};
pub use crate::key::known::{KeyField, known_optional_part, known_part};
pub use crate::key::part::KeyPart;
use crate::key::part::KeyPartError;
pub use crate::key::template::KeyBuilder;
pub use crate::model::collection::{share_partition, share_vector_index};
use crate::model::entity::{AttributeMap, EntitySchema};
pub use crate::model::multi_attribute::key_part_attribute;
pub use crate::model::statics::{
    F, L, S, SCHEMA, field_attribute, gsi, key_attribute, lsi, template,
};
pub use aws_sdk_dynamodb::types::AttributeValue;
pub use serde;
pub use serde_dynamo;

/// The attribute value `to_item` stores for the one field (named `v`) of
/// `wrapper`, a struct the derive generates with the field's serde
/// attributes: serialized by the same code as a whole item, `None` when
/// the item would hold no attribute (`None`, a skipped value, an empty set,
/// which `check_item` leaves out).
pub fn encode_field<W: Serialize>(
    wrapper: &W,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    let mut item = crate::item::codec::to_item(wrapper, 0)?;
    Ok(item
        .remove("v")
        .filter(|value| !crate::item::check::is_empty_set(value)))
}

/// The encoder of a field of a struct stored inside an item
/// (`#[derive(Attributes)]`): serde_dynamo's form, as `to_item` stores a
/// struct it serializes whole (a time in chrono's serde form, bytes as a
/// list), `NULL` included.
///
/// # Errors
///
/// serde_dynamo's.
pub fn nested_field<T: Serialize>(
    value: &T,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    crate::item::value::json::to_attribute_value(value).map(Some)
}

/// The encoder of a field of a struct stored inside an item with its own
/// serde serializer: the one field (named `v`) of `wrapper`, serialized as
/// serde_dynamo serializes the struct; `None` when serde skips it.
///
/// # Errors
///
/// The serializer's.
pub fn nested_serialized<W: Serialize>(
    wrapper: &W,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    let mut item = crate::item::value::json::to_item(wrapper)?;
    Ok(item.remove("v"))
}

/// Reads the one field (named `v`) of `W` from a stored attribute value:
/// `None` or `NULL` is an absent attribute.
pub fn decode_field<W: DeserializeOwned>(
    stored: Option<&AttributeValue>,
) -> Result<W, serde_dynamo::Error> {
    let item: AttributeMap = stored
        .filter(|value| !matches!(value, AttributeValue::Null(_)))
        .map(|value| ("v".to_owned(), value.clone()))
        .into_iter()
        .collect();
    crate::item::codec::from_item(item)
}

/// Reads a TTL field's value from its stored Number of epoch seconds.
pub fn decode_time_to_live<T>(
    stored: Option<&AttributeValue>,
    from_epoch_seconds: fn(i64) -> Option<T>,
) -> Result<T, serde_dynamo::Error> {
    use serde::de::Error as _;
    match stored {
        Some(AttributeValue::N(seconds)) => seconds
            .parse::<i64>()
            .ok()
            .and_then(from_epoch_seconds)
            .ok_or_else(|| {
                serde_dynamo::Error::custom(format!(
                    "`{seconds}` is not a time to live in epoch seconds"
                ))
            }),
        other => Err(serde_dynamo::Error::custom(format!(
            "a time to live is a Number of epoch seconds, not {other:?}"
        ))),
    }
}

/// Serializes a struct with serde_dynamo and leaves out top-level `NULL`s
/// (`None` fields), which DynamoDB would otherwise store. The item has room
/// for the key, index and type attributes `to_item` adds (see
/// `item::codec`).
pub fn serialize_fields<T: Serialize>(
    schema: &EntitySchema,
    value: &T,
) -> Result<AttributeMap, Error> {
    let keys = schema.added_attribute_count();
    crate::item::codec::to_item(value, keys).map_err(|source| {
        Error::Refused(Refusal::Serialize {
            entity: schema.type_name,
            source,
        })
    })
}

/// Deserializes a struct after checking the item's type attribute.
pub fn deserialize_fields<T: DeserializeOwned>(
    schema: &EntitySchema,
    item: AttributeMap,
) -> Result<T, Error> {
    crate::item::value::select::check_type(schema, &item)?;
    crate::item::codec::from_item(item).map_err(|source| {
        Error::Decode(DecodeError::Deserialize {
            entity: schema.type_name,
            source,
        })
    })
}

/// Inserts the type attribute as a string.
#[inline]
pub fn insert_string(item: &mut ItemBuilder, name: &str, value: String) {
    item.insert(name, AttributeValue::S(value));
}

/// Inserts a key attribute (of the table or an index) as a string.
#[inline]
pub fn insert_key_string(item: &mut ItemBuilder, name: &str, value: String) {
    item.insert_key_string(name, value);
}

/// The error of a field segment that does not decode.
pub fn key_decode_error(
    entity: &'static str,
    field: &'static str,
    key: &str,
    source: KeyPartError,
) -> Error {
    Error::Key(KeyError::KeyDecode {
        entity,
        field,
        key: key.to_owned(),
        source,
    })
}

/// Accepts a decoded key segment of field `field` only in the form its
/// `KeyPart` writes: `encode` (the decoded value's `encode_key`) must give
/// `segment` again. So a key parses only if the builder could have
/// produced it, whatever the implementation's `decode_key` accepts.
pub fn check_canonical(
    entity: &'static str,
    field: &'static str,
    key: &str,
    segment: &str,
    encode: impl FnOnce(&mut String) -> Result<(), KeyPartError>,
) -> Result<(), Error> {
    let mut again = String::with_capacity(segment.len());
    if encode(&mut again).is_ok() && again == segment {
        Ok(())
    } else {
        Err(key_decode_error(
            entity,
            field,
            key,
            KeyPartError::invalid("the encoding its `KeyPart` writes", segment),
        ))
    }
}

/// Decodes segment `segment` of a key value `key` as field `field`:
/// `decode` (the field type's `KeyPart::decode_key`), then
/// [`check_canonical`] with `encode` (its `KeyPart::encode_key`). One
/// function for every parser's fields, so the generated parsers hold one
/// call per field, compiled once per key type rather than once per field.
/// The generated code passes `<T as KeyPart>::decode_key` and
/// `::encode_key` (no trait bound here), so a field type without
/// `KeyPart` gives the one error at the field that every other use gives.
pub fn decode_key_segment<T>(
    entity: &'static str,
    field: &'static str,
    key: &str,
    segment: &str,
    decode: fn(&str) -> Result<T, KeyPartError>,
    encode: fn(&T, &mut String) -> Result<(), KeyPartError>,
) -> Result<T, Error> {
    let value = decode(segment).map_err(|source| key_decode_error(entity, field, key, source))?;
    check_canonical(entity, field, key, segment, |out| encode(&value, out))?;
    Ok(value)
}

/// The example key segment of a field for the catalogue: `T`'s
/// `KeyPart::example` encoded by its `KeyPart::encode_key`, `None` when
/// the type has no example or it encodes to the empty string. The derive
/// spans its use at the field's type.
pub fn key_example<T: KeyPart>(field: &str) -> Option<String> {
    let value = T::example(field)?;
    let mut out = String::new();
    value.encode_key(&mut out).ok()?;
    (!out.is_empty()).then_some(out)
}

/// Adds the stored form of `value` of `attribute` to `known` (the key
/// values an `update(…)` is given), unless it stores none or does not
/// encode.
pub fn know<E, T, K>(known: &mut AttributeMap, attribute: &Attribute<E, T, K>, value: &T) {
    if let Ok(Some(value)) = attribute.stored(value) {
        known.insert(attribute.name().to_owned(), value);
    }
}

/// Stores a TTL field as a Number of epoch seconds (or leaves it out when
/// it is `None`).
/// `epoch_seconds` is the field type's [`TimeToLive::epoch_seconds`](crate::TimeToLive::epoch_seconds).
pub fn store_time_to_live<T>(
    item: &mut ItemBuilder,
    name: &str,
    value: Option<&T>,
    epoch_seconds: fn(&T) -> i64,
) {
    match value {
        Some(value) => {
            item.insert(name, AttributeValue::N(epoch_seconds(value).to_string()));
        }
        None => {
            item.remove(name);
        }
    }
}

/// Turns a stored TTL Number back into what serde reads for the field.
/// `from_epoch_seconds` is the field type's [`TimeToLive::from_epoch_seconds`](crate::TimeToLive::from_epoch_seconds).
pub fn load_time_to_live<T: Serialize>(
    schema: &EntitySchema,
    item: &mut AttributeMap,
    name: &str,
    from_epoch_seconds: fn(i64) -> Option<T>,
) -> Result<(), Error> {
    let Some(AttributeValue::N(seconds)) = item.get(name) else {
        return Ok(());
    };
    let value = seconds
        .parse::<i64>()
        .ok()
        .and_then(from_epoch_seconds)
        .ok_or_else(|| {
            Error::Decode(DecodeError::InvalidTimeToLive {
                entity: schema.type_name,
                attribute: name.to_owned(),
                value: seconds.clone(),
            })
        })?;
    let stored = crate::item::value::json::to_attribute_value(&value).map_err(|source| {
        Error::Refused(Refusal::Serialize {
            entity: schema.type_name,
            source,
        })
    })?;
    item.insert(name.to_owned(), stored);
    Ok(())
}

/// Whether `item`'s type attribute names the entity of `schema`.
pub fn has_type(item: &AttributeMap, schema: &EntitySchema) -> bool {
    matches!(item.get(schema.type_attribute), Some(AttributeValue::S(found)) if found == schema.type_name)
}

/// Decodes the stored value of attribute `attribute` from `values` into `T`.
pub fn decode_value<T: serde::de::DeserializeOwned>(
    schema: &EntitySchema,
    values: &AttributeMap,
    attribute: &str,
) -> Result<T, Error> {
    let value = values
        .get(attribute)
        .cloned()
        .unwrap_or(AttributeValue::Null(true));
    serde_dynamo::from_attribute_value(value).map_err(|source| {
        Error::Decode(DecodeError::Deserialize {
            entity: schema.type_name,
            source,
        })
    })
}

/// Stores `value` as attribute `attribute`, serialized as serde does.
pub fn insert_serialized<T: Serialize>(
    schema: &EntitySchema,
    item: &mut AttributeMap,
    attribute: &str,
    value: &T,
) -> Result<(), Error> {
    let value = crate::item::value::json::to_attribute_value(value).map_err(|source| {
        Error::Refused(Refusal::Serialize {
            entity: schema.type_name,
            source,
        })
    })?;
    item.insert(attribute.to_owned(), value);
    Ok(())
}

/// Stores an encoded field value (from a generated encoder) as attribute
/// `attribute`, or leaves the attribute out when the encoder gives none.
pub fn insert_encoded(
    schema: &EntitySchema,
    item: &mut ItemBuilder,
    attribute: &str,
    value: Result<Option<AttributeValue>, serde_dynamo::Error>,
) -> Result<(), Error> {
    match value {
        Ok(Some(value)) => {
            item.insert(attribute, value);
        }
        Ok(None) => {
            item.remove(attribute);
        }
        Err(source) => {
            return Err(Error::Refused(Refusal::Serialize {
                entity: schema.type_name,
                source,
            }));
        }
    }
    Ok(())
}

/// Stores an encoded value (from a generated encoder) of attribute
/// `attribute`, a key attribute of a multi-attribute index, or leaves the
/// attribute out when the encoder gives none; as [`insert_encoded`], with
/// the key value's checks counted.
///
/// # Errors
///
/// [`Refusal::Serialize`] with the encoder's error.
pub fn insert_index_key_encoded(
    schema: &EntitySchema,
    item: &mut ItemBuilder,
    attribute: &'static str,
    value: Result<Option<AttributeValue>, serde_dynamo::Error>,
) -> Result<(), Error> {
    match value {
        Ok(Some(value)) => item.insert_index_key_value(schema, attribute, value),
        Ok(None) => item.remove(attribute),
        Err(source) => {
            return Err(Error::Refused(Refusal::Serialize {
                entity: schema.type_name,
                source,
            }));
        }
    }
    Ok(())
}

/// The types a `#[stamp(version)]` field may have.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[stamp(version)]` field",
    label = "a version counter is an unsigned integer: use `u64` or `u32`"
)]
pub trait VersionNumber: Copy {
    /// The largest version the type holds, as a `u64`.
    const MAX: u64;

    /// The version as a `u64`.
    fn as_u64(self) -> u64;
}

impl VersionNumber for u64 {
    const MAX: u64 = u64::MAX;

    fn as_u64(self) -> u64 {
        self
    }
}

impl VersionNumber for u32 {
    const MAX: u64 = u32::MAX as u64;

    fn as_u64(self) -> u64 {
        u64::from(self)
    }
}

use crate::error::VectorError;
use crate::expression::Attribute;
use crate::model::entity::Entity;
use crate::model::index::IndexSchema;
use crate::model::multi_attribute::KeyAttributeType;
use crate::model::projection::AlwaysStored;
use crate::model::vector::check_stored_vector;
pub use chrono;

/// `#[derive(Projection)]`: a plain field of type `T` reads an attribute of
/// type `T` that every item stores (a compile error otherwise).
pub const fn projected_present<E, T, K: AlwaysStored>(_attribute: &Attribute<E, T, K>) {}

/// `#[derive(Projection)]`: an `Option<T>` field reads an attribute of type
/// `T`, of any kind.
pub const fn projected_optional<E, T, K>(_attribute: &Attribute<E, T, K>) {}

/// Whether two strings are equal, in a `const` (the attribute names of a
/// projection against the entity's).
pub const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Decodes a projected item of entity `E` into `P` through serde_dynamo.
pub fn decode_projection<E: Entity, P: DeserializeOwned>(item: AttributeMap) -> Result<P, Error> {
    serde_dynamo::from_item(item).map_err(|source| {
        Error::Decode(DecodeError::Deserialize {
            entity: E::SCHEMA.type_name,
            source,
        })
    })
}

/// A value of a multi-attribute key field, encoded by the field's encoder,
/// as a key attribute: of type `expected`, not empty (an empty string or
/// binary is no key value), else [`KeyError::InvalidKeyAttribute`], and within
/// DynamoDB's key attribute length, else [`KeyError::KeyAttributeTooLong`].
pub fn index_key_value(
    schema: &EntitySchema,
    attribute: &'static str,
    expected: KeyAttributeType,
    encoded: Result<Option<AttributeValue>, serde_dynamo::Error>,
) -> Result<AttributeValue, Error> {
    let entity = schema.type_name;
    let value = encoded.map_err(|source| Error::Refused(Refusal::Serialize { entity, source }))?;
    match value {
        Some(value) => {
            crate::item::check::check_index_key_value(schema, attribute, expected, &value)?;
            Ok(value)
        }
        None => Err(Error::Key(KeyError::InvalidKeyAttribute {
            entity,
            attribute,
            found: "nothing (the field's serializer stores no value)".to_owned(),
        })),
    }
}

/// Checks the vector attribute of vector index `index` in `item` (the
/// length, finite elements) and says whether the item has one: only then
/// does `to_item` write the index's partition attribute (an item without
/// its vector is not in the index, a sparse index).
///
/// # Errors
///
/// [`Refusal::Vector`](crate::Refusal::Vector) when the stored vector breaks the index's rules.
pub fn check_vector_attribute(
    schema: &EntitySchema,
    index: &IndexSchema,
    item: &ItemBuilder,
) -> Result<bool, Error> {
    let item = item.item();
    let attribute = index.vector().map_or("", |vector| vector.attribute);
    check_stored_vector(index, schema.type_name, item.get(attribute))
        .map(|vector| vector.is_some())
        .map_err(VectorError::into_error)
}
