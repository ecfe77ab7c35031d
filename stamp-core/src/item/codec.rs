//! A struct to an item and back, with serde_dynamo's semantics but without
//! its intermediate map.
//!
//! `serde_dynamo::to_item` builds its own map of its own `AttributeValue`s
//! and then converts it, entry by entry, into a second map of the SDK's;
//! `from_item` does the same the other way. For an item of ~20 attributes,
//! building and hashing that extra map (and growing the final one for the
//! key attributes) was about a third of `to_item` and `from_item`
//! (BENCHMARKS.md). Here the top level of the struct is handled directly
//! (one map, sized for the key attributes too) and every field value still
//! goes through serde_dynamo (`to_attribute_value`, `Deserializer`), so what
//! is stored and read is exactly what serde_dynamo stores and reads.
//!
//! Anything but a plain struct at the top (`#[serde(flatten)]`, which
//! serializes as a map, or a hand-written `Serialize`) falls back to
//! serde_dynamo's whole-item functions.

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::ser::{self, Impossible, Serialize};

use crate::model::entity::AttributeMap;

/// Serializes `value` into an item with room for `extra` more attributes,
/// leaving out top-level `NULL`s (`None` fields).
pub(crate) fn to_item<T: Serialize + ?Sized>(
    value: &T,
    extra: usize,
) -> Result<AttributeMap, serde_dynamo::Error> {
    match value.serialize(ItemSerializer { extra }) {
        Ok(item) => Ok(item),
        Err(SerializeError::Field(error)) => Err(error),
        Err(SerializeError::NotAStruct | SerializeError::Custom) => {
            let mut item: AttributeMap = crate::item::value::json::to_item(value)?;
            item.retain(|_, value| !matches!(value, AttributeValue::Null(_)));
            Ok(item)
        }
    }
}

/// Deserializes `T` from `item`, as `serde_dynamo::from_item` does.
pub(crate) fn from_item<T: DeserializeOwned>(item: AttributeMap) -> Result<T, serde_dynamo::Error> {
    T::deserialize(ItemDeserializer { item })
}

/// Why [`ItemSerializer`] stopped.
#[derive(Debug)]
enum SerializeError {
    /// The value is not a struct: serde_dynamo serializes it whole.
    NotAStruct,
    /// A field failed in serde_dynamo: that is the error.
    Field(serde_dynamo::Error),
    /// The value's own `Serialize` failed: serde_dynamo reproduces it.
    Custom,
}

impl fmt::Display for SerializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SerializeError::NotAStruct => f.write_str("not a struct"),
            SerializeError::Field(error) => error.fmt(f),
            SerializeError::Custom => f.write_str("the value failed to serialize"),
        }
    }
}

impl std::error::Error for SerializeError {}

impl ser::Error for SerializeError {
    fn custom<M: fmt::Display>(_message: M) -> Self {
        SerializeError::Custom
    }
}

/// The top level of an item: accepts a struct only.
struct ItemSerializer {
    extra: usize,
}

/// The fields of the struct, each serialized by serde_dynamo.
struct ItemFields {
    item: AttributeMap,
}

impl ser::SerializeStruct for ItemFields {
    type Ok = AttributeMap;
    type Error = SerializeError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerializeError> {
        let value: AttributeValue =
            crate::item::value::json::to_attribute_value(value).map_err(SerializeError::Field)?;
        if !matches!(value, AttributeValue::Null(_)) {
            self.item.insert(key.to_owned(), value);
        }
        Ok(())
    }

    fn end(self) -> Result<AttributeMap, SerializeError> {
        Ok(self.item)
    }
}

macro_rules! not_a_struct {
    ($($method:ident($($ty:ty),*) -> $ok:ty;)*) => {$(
        fn $method(self, $(_: $ty),*) -> Result<$ok, SerializeError> {
            Err(SerializeError::NotAStruct)
        }
    )*};
}

impl ser::Serializer for ItemSerializer {
    type Ok = AttributeMap;
    type Error = SerializeError;
    type SerializeSeq = Impossible<AttributeMap, SerializeError>;
    type SerializeTuple = Impossible<AttributeMap, SerializeError>;
    type SerializeTupleStruct = Impossible<AttributeMap, SerializeError>;
    type SerializeTupleVariant = Impossible<AttributeMap, SerializeError>;
    type SerializeMap = Impossible<AttributeMap, SerializeError>;
    type SerializeStruct = ItemFields;
    type SerializeStructVariant = Impossible<AttributeMap, SerializeError>;

    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<ItemFields, SerializeError> {
        Ok(ItemFields {
            item: AttributeMap::with_capacity(len + self.extra),
        })
    }

    not_a_struct! {
        serialize_bool(bool) -> AttributeMap;
        serialize_i8(i8) -> AttributeMap;
        serialize_i16(i16) -> AttributeMap;
        serialize_i32(i32) -> AttributeMap;
        serialize_i64(i64) -> AttributeMap;
        serialize_i128(i128) -> AttributeMap;
        serialize_u8(u8) -> AttributeMap;
        serialize_u16(u16) -> AttributeMap;
        serialize_u32(u32) -> AttributeMap;
        serialize_u64(u64) -> AttributeMap;
        serialize_u128(u128) -> AttributeMap;
        serialize_f32(f32) -> AttributeMap;
        serialize_f64(f64) -> AttributeMap;
        serialize_char(char) -> AttributeMap;
        serialize_str(&str) -> AttributeMap;
        serialize_bytes(&[u8]) -> AttributeMap;
        serialize_none() -> AttributeMap;
        serialize_unit() -> AttributeMap;
        serialize_unit_struct(&'static str) -> AttributeMap;
        serialize_unit_variant(&'static str, u32, &'static str) -> AttributeMap;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(
        self,
        _value: &T,
    ) -> Result<AttributeMap, SerializeError> {
        Err(SerializeError::NotAStruct)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<AttributeMap, SerializeError> {
        Err(SerializeError::NotAStruct)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<AttributeMap, SerializeError> {
        Err(SerializeError::NotAStruct)
    }
}

/// The top level of an item: a struct is read field by field, each value
/// by serde_dynamo's `Deserializer`; anything else goes to serde_dynamo
/// whole.
struct ItemDeserializer {
    item: AttributeMap,
}

impl ItemDeserializer {
    fn into_serde_dynamo(self) -> serde_dynamo::Deserializer {
        let item: serde_dynamo::Item = self.item.into();
        serde_dynamo::Deserializer::from_attribute_value(serde_dynamo::AttributeValue::M(
            item.into(),
        ))
    }
}

/// The entries of an item, as serde_dynamo's map access gives them.
struct ItemEntries {
    entries: std::collections::hash_map::IntoIter<String, AttributeValue>,
    value: Option<AttributeValue>,
}

impl<'de> MapAccess<'de> for ItemEntries {
    type Error = serde_dynamo::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, serde_dynamo::Error> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(key.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, serde_dynamo::Error> {
        let value = self
            .value
            .take()
            .expect("serde asks for a value after its key");
        seed.deserialize(serde_dynamo::Deserializer::from_attribute_value(
            value.into(),
        ))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

macro_rules! forward_to_serde_dynamo {
    ($($method:ident($($argument:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($argument: $ty,)* visitor: V) -> Result<V::Value, serde_dynamo::Error> {
            de::Deserializer::$method(self.into_serde_dynamo(), $($argument,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ItemDeserializer {
    type Error = serde_dynamo::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, serde_dynamo::Error> {
        visitor.visit_map(ItemEntries {
            entries: self.item.into_iter(),
            value: None,
        })
    }

    forward_to_serde_dynamo! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    struct Plain {
        name: String,
        #[serde(rename = "n")]
        count: u32,
        ratio: f64,
        missing: Option<u8>,
        present: Option<bool>,
        tags: Vec<String>,
        #[serde(with = "serde_dynamo::string_set")]
        set: Vec<String>,
        nested: BTreeMap<String, i64>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        skipped: Option<String>,
        bytes: Vec<u8>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    struct Flattened {
        id: String,
        #[serde(flatten)]
        rest: HashMap<String, u32>,
    }

    fn plain() -> Plain {
        Plain {
            name: "ada".to_owned(),
            count: 3,
            ratio: 0.5,
            missing: None,
            present: Some(true),
            tags: vec!["a".to_owned(), "b".to_owned()],
            set: vec!["x".to_owned()],
            nested: BTreeMap::from([("k".to_owned(), -4)]),
            skipped: None,
            bytes: vec![1, 2, 3],
        }
    }

    fn serde_dynamo_item<T: Serialize>(value: &T) -> AttributeMap {
        let mut item: AttributeMap = serde_dynamo::to_item(value).unwrap();
        item.retain(|_, value| !matches!(value, AttributeValue::Null(_)));
        item
    }

    #[test]
    fn a_struct_gives_serde_dynamos_item_and_reads_back() {
        let value = plain();
        let item = to_item(&value, 5).unwrap();
        assert_eq!(item, serde_dynamo_item(&value));
        assert!(item.capacity() >= item.len() + 5);
        assert_eq!(from_item::<Plain>(item.clone()).unwrap(), value);
        assert_eq!(serde_dynamo::from_item::<_, Plain>(item).unwrap(), value);
    }

    #[test]
    fn a_flattened_struct_falls_back_to_serde_dynamo() {
        let value = Flattened {
            id: "1".to_owned(),
            rest: HashMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]),
        };
        let item = to_item(&value, 0).unwrap();
        assert_eq!(item, serde_dynamo_item(&value));
        assert_eq!(from_item::<Flattened>(item).unwrap(), value);
    }

    #[test]
    fn errors_are_serde_dynamos() {
        let mut item = to_item(&plain(), 0).unwrap();
        item.insert("n".to_owned(), AttributeValue::S("three".to_owned()));
        let ours = from_item::<Plain>(item.clone()).unwrap_err();
        let theirs = serde_dynamo::from_item::<_, Plain>(item.clone()).unwrap_err();
        assert_eq!(ours.to_string(), theirs.to_string());
        item.insert("n".to_owned(), AttributeValue::N("3".to_owned()));
        item.remove("name");
        let ours = from_item::<Plain>(item.clone()).unwrap_err();
        assert!(ours.to_string().contains("name"), "{ours}");

        // A map key that is not a string is serde_dynamo's error, unchanged.
        #[derive(Serialize)]
        struct BadKey {
            map: HashMap<(u8, u8), u8>,
        }
        let value = BadKey {
            map: HashMap::from([((1, 2), 3)]),
        };
        assert_eq!(
            to_item(&value, 0).unwrap_err().to_string(),
            serde_dynamo::to_item::<_, AttributeMap>(&value)
                .unwrap_err()
                .to_string()
        );
    }

    #[test]
    fn unknown_attributes_are_ignored() {
        let mut item = to_item(&plain(), 3).unwrap();
        item.insert("PK".to_owned(), AttributeValue::S("X#1".to_owned()));
        item.insert(
            "Other".to_owned(),
            AttributeValue::L(vec![AttributeValue::Null(true)]),
        );
        assert_eq!(from_item::<Plain>(item).unwrap(), plain());
    }
}
