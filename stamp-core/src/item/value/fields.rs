//! The helpers the generated `to_item` and `from_item` call around each
//! field's codec ([`super::select`]): the item's capacity, the slot table
//! of `from_item`, an encoded field stored or refused, a decoded field or
//! its error, the type check. Not a public API: re-exported as
//! `stamp::__private::codec`.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::error::Error;
use crate::error::{DecodeError, Refusal};
use crate::item::builder::ItemBuilder;
use crate::model::entity::{AttributeMap, EntitySchema};

/// The item `to_item` fills, with room for `fields` fields and the key,
/// index and type attributes of `schema`; counted for its checks when
/// `check` ([`ItemBuilder`]).
#[inline]
pub fn item(schema: &EntitySchema, fields: usize, check: bool) -> ItemBuilder {
    let keys = schema.added_attribute_count();
    ItemBuilder::with_capacity(fields + keys, check)
}

/// The item a whole-struct serialization made, to finish as `to_item`
/// does (its checks are `check_item`'s, after it is finished).
pub fn serialized_item(item: AttributeMap) -> ItemBuilder {
    ItemBuilder::unchecked(item)
}

/// Stores an encoded field as attribute `name`, leaving out a top-level
/// `NULL` (a `None`), as `to_item` always has.
///
/// # Errors
///
/// [`Refusal::Serialize`] with the encoder's error.
#[inline]
pub fn insert(
    schema: &EntitySchema,
    item: &mut ItemBuilder,
    name: &str,
    value: Result<AttributeValue, serde_dynamo::Error>,
) -> Result<(), Error> {
    match value {
        Ok(AttributeValue::Null(_)) => Ok(()),
        Ok(value) => {
            item.insert(name, value);
            Ok(())
        }
        Err(source) => Err(Error::Refused(Refusal::Serialize {
            entity: schema.type_name,
            source,
        })),
    }
}

/// Stores `value` as attribute `name`, counted with `size` while the item
/// is counted ([`ItemBuilder::insert_sized`]), leaving out a top-level
/// `NULL` (a `None`), as `to_item` always has.
#[inline(always)]
pub(super) fn insert_value(
    item: &mut ItemBuilder,
    name: &str,
    value: AttributeValue,
    size: impl Fn(&AttributeValue) -> Option<usize>,
) {
    if !matches!(value, AttributeValue::Null(_)) {
        item.insert_sized(name, value, size);
    }
}

/// The attributes of `item` that hold the stored fields of `schema`, one
/// slot per name of [`EntitySchema::fields`] in order (`N` of them), after
/// the type check; other attributes are dropped. One pass over the item,
/// each name compared with the fields' names (as serde-derived code reads
/// a map), so no name is hashed; `from_item` then decodes each field from
/// its slot.
///
/// # Errors
///
/// [`check_type`]'s.
#[inline]
pub fn slots<const N: usize>(
    schema: &EntitySchema,
    item: AttributeMap,
) -> Result<[Option<AttributeValue>; N], Error> {
    debug_assert_eq!(schema.fields.len(), N, "one slot per stored field");
    check_type(schema, &item)?;
    let mut slots = [const { None }; N];
    for (name, value) in item {
        if let Some(slot) = schema.fields.iter().position(|field| *field == name) {
            slots[slot] = Some(value);
        }
    }
    Ok(slots)
}

/// A decoded field, or [`DecodeError::Deserialize`].
///
/// # Errors
///
/// [`DecodeError::Deserialize`] with the decoder's error.
#[inline]
pub fn decoded<T>(
    schema: &EntitySchema,
    value: Result<T, serde_dynamo::Error>,
) -> Result<T, Error> {
    value.map_err(|source| {
        Error::Decode(DecodeError::Deserialize {
            entity: schema.type_name,
            source,
        })
    })
}

/// The encoder of an attribute constant or a stamp: the stored form, or
/// `None` when the item would hold no attribute (`NULL`, an empty set,
/// which `check_item` leaves out).
pub fn stored(
    value: Result<AttributeValue, serde_dynamo::Error>,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    Ok(Some(value?).filter(|value| {
        !matches!(value, AttributeValue::Null(_)) && !crate::item::check::is_empty_set(value)
    }))
}

/// A stored value for a decoder (`None` and `NULL` are absent, as a
/// one-field item would read them).
pub fn present(stored: Option<&AttributeValue>) -> Option<AttributeValue> {
    stored
        .filter(|value| !matches!(value, AttributeValue::Null(_)))
        .cloned()
}

/// Refuses an item whose type attribute names another entity (an item
/// without one is accepted).
///
/// # Errors
///
/// [`DecodeError::EntityTypeMismatch`].
pub fn check_type(schema: &EntitySchema, item: &AttributeMap) -> Result<(), Error> {
    match item.get(schema.type_attribute) {
        None => Ok(()),
        Some(AttributeValue::S(found)) if found == schema.type_name => Ok(()),
        Some(other) => Err(Error::Decode(DecodeError::EntityTypeMismatch {
            attribute: schema.type_attribute,
            expected: schema.type_name,
            found: match other {
                AttributeValue::S(found) => found.clone(),
                other => format!("{other:?}"),
            },
        })),
    }
}

/// The attribute value `to_item` stores for the one field (named `v`) of
/// `wrapper`, a struct the derive generates with a field's custom serde
/// serializer: `None` when it stores none (`None`, a skipped value).
///
/// # Errors
///
/// The serializer's error.
pub fn serialized<W: Serialize>(
    wrapper: &W,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    let mut item = crate::item::codec::to_item(wrapper, 0)?;
    Ok(item.remove("v"))
}

/// Stores the value of a [`serialized`] field as attribute `name`, or
/// nothing when it has none.
///
/// # Errors
///
/// [`Refusal::Serialize`] with the serializer's error.
pub fn insert_serialized(
    schema: &EntitySchema,
    item: &mut ItemBuilder,
    name: &str,
    value: Result<Option<AttributeValue>, serde_dynamo::Error>,
) -> Result<(), Error> {
    match value {
        Ok(Some(value)) => {
            item.insert(name, value);
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(source) => Err(Error::Refused(Refusal::Serialize {
            entity: schema.type_name,
            source,
        })),
    }
}

/// Whether `value` is an empty set, which `check_item` leaves out.
pub fn is_empty_set(value: &AttributeValue) -> bool {
    crate::item::check::is_empty_set(value)
}
