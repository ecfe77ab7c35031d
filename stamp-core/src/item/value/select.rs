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
use super::fields::insert_value;
pub use super::fields::{
    check_type, decoded, insert, insert_serialized, is_empty_set, item, present, serialized,
    serialized_item, slots, stored,
};
use crate::error::Error;
use crate::error::Refusal;
use crate::item::builder::ItemBuilder;
use crate::item::check::checked_size;
use crate::model::entity::{AttributeMap, EntitySchema};

/// A field value to encode.
pub struct Field<'a, T: ?Sized>(pub &'a T);

/// The binary encoding, chosen first, when `T: BinaryAttribute` (byte
/// strings as `B`).
pub trait EncodeBinary {
    /// The stored form of the field value.
    fn __stamp_encode(&self) -> Result<AttributeValue, serde_dynamo::Error>;

    /// The encoder of an attribute constant: [`stored`] of the stored form.
    #[inline(always)]
    fn __stamp_stored(&self) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
        stored(self.__stamp_encode())
    }

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
    /// [`Refusal::Serialize`](crate::Refusal::Serialize) for a value without one (a time outside years
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

    /// The encoder of an attribute constant: [`stored`] of the stored form.
    #[inline(always)]
    fn __stamp_stored(&self) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
        stored(self.__stamp_encode())
    }

    /// Stores the field value as attribute `name` of `item` (`to_item`),
    /// leaving out a top-level `NULL`.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`](crate::Refusal::Serialize) for a value without a stored form (a time or
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

    /// The encoder of an attribute constant: [`stored`] of the stored form.
    #[inline(always)]
    fn __stamp_stored(&self) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
        stored(self.__stamp_encode())
    }

    /// Stores the field value as attribute `name` of `item` (`to_item`),
    /// leaving out a top-level `NULL`.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`](crate::Refusal::Serialize) with serde_dynamo's error.
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

    /// The same, an error as [`decoded`] gives it (`from_item`'s slots).
    #[inline(always)]
    fn __stamp_field(
        &self,
        schema: &EntitySchema,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, Error> {
        decoded(schema, self.__stamp_decode(field, stored))
    }

    /// The field stored as attribute `name` of an update's `values`.
    #[inline]
    fn __stamp_known(
        &self,
        schema: &EntitySchema,
        values: &AttributeMap,
        name: &'static str,
    ) -> Result<T, Error> {
        self.__stamp_field(schema, name, present(values.get(name)))
    }

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

    /// The same, an error as [`decoded`] gives it (`from_item`'s slots).
    #[inline(always)]
    fn __stamp_field(
        &self,
        schema: &EntitySchema,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, Error> {
        decoded(schema, self.__stamp_decode(field, stored))
    }

    /// The field stored as attribute `name` of an update's `values`.
    #[inline]
    fn __stamp_known(
        &self,
        schema: &EntitySchema,
        values: &AttributeMap,
        name: &'static str,
    ) -> Result<T, Error> {
        self.__stamp_field(schema, name, present(values.get(name)))
    }
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

    /// The same, an error as [`decoded`] gives it (`from_item`'s slots).
    #[inline(always)]
    fn __stamp_field(
        &self,
        schema: &EntitySchema,
        field: &'static str,
        stored: Option<AttributeValue>,
    ) -> Result<T, Error> {
        decoded(schema, self.__stamp_decode(field, stored))
    }

    /// The field stored as attribute `name` of an update's `values`.
    #[inline]
    fn __stamp_known(
        &self,
        schema: &EntitySchema,
        values: &AttributeMap,
        name: &'static str,
    ) -> Result<T, Error> {
        self.__stamp_field(schema, name, present(values.get(name)))
    }
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
