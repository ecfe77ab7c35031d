//! How generated code picks a field's codec: [`AttributeCodec`] when the
//! field's type implements it, serde_dynamo otherwise, by method
//! resolution on a concrete type (autoref specialization): the derive
//! emits one method call per field,
//!
//! ```ignore
//! use ::stamp::__private::codec::{EncodeDirect as _, EncodeSerde as _};
//! (&&&::stamp::__private::codec::Field(&self.total)).__stamp_encode()
//! ```
//!
//! and rustc finds `EncodeBinary` (on `&&Field<T>`, whose `&self` is the
//! expression's type) when `T: BinaryAttribute` (byte strings, stored as
//! `B`), else, one dereference later, `EncodeDirect` (on `&Field<T>`) when
//! `T: AttributeCodec`, else `EncodeSerde` (on `Field<T>`). Decoding is chosen the same way
//! (`DecodeBinary`, `DecodeDirect`, `DecodeSerde`), and so is the fix-up
//! after a whole-struct serialization (`StoreBinary`, `StoreDirect`,
//! `StoreAsSerialized`). Not a public API:
//! re-exported as `stamp::__private::codec`.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;
use serde::de::{self, DeserializeOwned, Visitor};

use super::AttributeCodec;
use super::binary::BinaryAttribute;
use crate::item::builder::ItemBuilder;
use crate::item::check::checked_size;
use crate::{AttributeMap, EntitySchema, Error};
use crate::{DecodeError, Refusal};

/// A field value to encode.
pub struct Field<'a, T: ?Sized>(pub &'a T);

/// The binary encoding, chosen first, when `T: BinaryAttribute` (byte
/// strings as `B`).
pub trait EncodeBinary {
    /// The stored form of the field value.
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error>;

    /// Stores the field value as attribute `name` of `item` (`to_item`).
    ///
    /// # Errors
    ///
    /// None: the binary encoding cannot fail.
    fn __stamp_insert(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: BinaryAttribute> EncodeBinary for &&Field<'_, T> {
    #[inline]
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        Ok(self.0.to_binary())
    }

    #[inline(always)]
    fn __stamp_insert(
        &self,
        _schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error> {
        insert_value(item, name, self.0.to_binary(), checked_size);
        Ok(())
    }
}

/// After a whole-struct serialization by serde: a binary field's
/// attribute stored again as `B` (when serde stored it).
pub trait StoreBinary {
    /// Replaces attribute `name` of `item` with the binary form.
    ///
    /// # Errors
    ///
    /// None: the binary form cannot fail.
    fn __stamp_store_own_form(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: BinaryAttribute> StoreBinary for &&Field<'_, T> {
    fn __stamp_store_own_form(
        &self,
        _schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error> {
        if let Some(stored) = item.unchecked_mut().get_mut(name) {
            *stored = self.0.to_binary();
        }
        Ok(())
    }
}

/// After a whole-struct serialization by serde: the attribute of a field
/// whose stored form is Stamp's own ([`AttributeCodec::OWN_FORM`]: a time
/// in the fixed-width form that sorts) stored again in that form (when
/// serde stored it).
pub trait StoreDirect {
    /// Replaces attribute `name` of `item` with the field's own form.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`] for a value without one (a time outside years
    /// 0 to 9999).
    fn __stamp_store_own_form(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: AttributeCodec> StoreDirect for &Field<'_, T> {
    #[inline]
    fn __stamp_store_own_form(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error> {
        if !T::OWN_FORM {
            return Ok(());
        }
        if let Some(stored) = item.unchecked_mut().get_mut(name) {
            *stored = self.0.try_to_attribute().map_err(|source| {
                Error::Refused(Refusal::Serialize {
                    entity: schema.type_name,
                    source,
                })
            })?;
        }
        Ok(())
    }
}

/// No change after a whole-struct serialization, for every type stored as
/// serde stores it.
pub trait StoreAsSerialized {
    /// Leaves the attribute as serde stored it.
    ///
    /// # Errors
    ///
    /// None.
    fn __stamp_store_own_form(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: ?Sized> StoreAsSerialized for Field<'_, T> {
    #[inline]
    fn __stamp_store_own_form(
        &self,
        _schema: &EntitySchema,
        _item: &mut ItemBuilder,
        _name: &str,
    ) -> Result<(), Error> {
        Ok(())
    }
}

/// The direct encoding, chosen when `T: AttributeCodec`.
pub trait EncodeDirect {
    /// The stored form of the field value.
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error>;

    /// Stores the field value as attribute `name` of `item` (`to_item`),
    /// leaving out a top-level `NULL`.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`] for a value without a stored form (a time or
    /// a date outside years 0 to 9999); no other type fails.
    fn __stamp_insert(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: AttributeCodec> EncodeDirect for &Field<'_, T> {
    #[inline]
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        self.0.try_to_attribute()
    }

    // Generic over the field's type, not per field: inlined into
    // `to_item`, the attribute name is a constant and an infallible
    // encoding (every type but a time's or a date's) has no error path
    // (the non-generic `insert` cost 5% of an encoding).
    #[inline(always)]
    fn __stamp_insert(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error> {
        let value = if T::OWN_FORM {
            self.0.try_to_attribute().map_err(|source| {
                Error::Refused(Refusal::Serialize {
                    entity: schema.type_name,
                    source,
                })
            })?
        } else {
            self.0.to_attribute()
        };
        insert_value(item, name, value, |stored| self.0.checked_size(stored));
        Ok(())
    }
}

/// serde_dynamo's encoding, for every other `Serialize` type.
pub trait EncodeSerde {
    /// The stored form of the field value.
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error>;

    /// Stores the field value as attribute `name` of `item` (`to_item`),
    /// leaving out a top-level `NULL`.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`] with serde_dynamo's error.
    fn __stamp_insert(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error>;
}

impl<T: Serialize + ?Sized> EncodeSerde for Field<'_, T> {
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        super::json::to_attribute_value(self.0)
    }

    fn __stamp_insert(
        &self,
        schema: &EntitySchema,
        item: &mut ItemBuilder,
        name: &str,
    ) -> Result<(), Error> {
        insert(schema, item, name, super::json::to_attribute_value(self.0))
    }
}

/// A field type to decode.
pub struct Decode<T>(PhantomData<fn() -> T>);

impl<T> Decode<T> {
    /// The selector of `T`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Decode(PhantomData)
    }
}

/// The binary decoding, chosen first, when `T: BinaryAttribute`.
pub trait DecodeBinary<T> {
    /// The field value from its stored attribute (`None`: absent).
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error>;

    /// The stored attribute `name` of `item` in the form `T`'s own
    /// `Deserialize` reads (before a whole-struct decoding by serde).
    fn __stamp_serde_form(&self, item: &mut AttributeMap, name: &str);
}

impl<T: BinaryAttribute> DecodeBinary<T> for &&Decode<T> {
    #[inline]
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error> {
        match stored {
            Some(value) => T::from_binary(value),
            None => T::from_missing(field),
        }
    }

    fn __stamp_serde_form(&self, item: &mut AttributeMap, name: &str) {
        if let Some(value) = item.remove(name) {
            item.insert(name.to_owned(), T::serde_form(value));
        }
    }
}

/// No change before a whole-struct decoding, for every type that is not
/// binary.
pub trait SerdeFormAsStored {
    /// Leaves the attribute as it is.
    fn __stamp_serde_form(&self, item: &mut AttributeMap, name: &str);
}

impl<T> SerdeFormAsStored for &Decode<T> {
    #[inline]
    fn __stamp_serde_form(&self, _item: &mut AttributeMap, _name: &str) {}
}

/// The direct decoding, chosen when `T: AttributeCodec`.
pub trait DecodeDirect<T> {
    /// The field value from its stored attribute (`None`: absent).
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error>;
}

impl<T: AttributeCodec> DecodeDirect<T> for &Decode<T> {
    #[inline]
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error> {
        match stored {
            Some(value) => T::from_attribute(value),
            None => T::from_missing(field),
        }
    }
}

/// serde_dynamo's decoding, for every other `DeserializeOwned` type.
pub trait DecodeSerde<T> {
    /// The field value from its stored attribute (`None`: absent).
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error>;
}

impl<T: DeserializeOwned> DecodeSerde<T> for Decode<T> {
    fn __stamp_decode(
        &self,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, serde_dynamo::Error> {
        match stored {
            Some(value) => serde_dynamo::from_attribute_value(value),
            None => T::deserialize(Missing(field)),
        }
    }
}

/// What serde-derived code gives a type for an absent field: `None` for
/// anything that asks for an option, else `missing field`.
struct Missing(&'static str);

impl<'de> de::Deserializer<'de> for Missing {
    type Error = serde_dynamo::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

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
fn insert_value(
    item: &mut ItemBuilder,
    name: &str,
    value: AttributeValue,
    size: impl Fn(&AttributeValue) -> Option<usize>,
) {
    if !matches!(value, AttributeValue::Null(_)) {
        item.insert_sized(name, value, size);
    }
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
