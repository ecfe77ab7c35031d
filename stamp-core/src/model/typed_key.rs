//! The typed key values of an entity: [`PrimaryKey`] (built by the
//! generated `key(…)`) and [`IndexKey`] (`gsiN_key(…)`, `lsiN_key(…)`).

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::IndexSchema;

/// The primary key (partition key and sort key values) of one item of
/// entity `E`, built by the generated `E::key(…)` or by
/// [`Entity::primary_key`].
pub struct PrimaryKey<E> {
    partition_key: String,
    sort_key: String,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity> PrimaryKey<E> {
    /// A key from already-built attribute values. Generated code calls it;
    /// prefer `E::key(…)`, which encodes and escapes the fields.
    #[doc(hidden)]
    pub fn from_parts(partition_key: String, sort_key: String) -> Self {
        PrimaryKey {
            partition_key,
            sort_key,
            entity: PhantomData,
        }
    }

    /// The partition key and sort key values, without copying.
    pub fn into_parts(self) -> (String, String) {
        (self.partition_key, self.sort_key)
    }

    /// The partition key value, such as `CUST#c-1`.
    pub fn partition_key(&self) -> &str {
        &self.partition_key
    }

    /// The sort key value, such as `ORDER#2026-06-01T10:00:00.000000000Z#…`.
    pub fn sort_key(&self) -> &str {
        &self.sort_key
    }

    /// The key as the attribute map `GetItem`, `DeleteItem` and `UpdateItem`
    /// take: `{PK: S, SK: S}` under the entity's attribute names.
    pub fn to_attribute_map(&self) -> AttributeMap {
        let schema = E::SCHEMA;
        HashMap::from([
            (
                schema.partition_key.name.to_owned(),
                AttributeValue::S(self.partition_key.clone()),
            ),
            (
                schema.sort_key.name.to_owned(),
                AttributeValue::S(self.sort_key.clone()),
            ),
        ])
    }
}

impl<E> Clone for PrimaryKey<E> {
    fn clone(&self) -> Self {
        PrimaryKey {
            partition_key: self.partition_key.clone(),
            sort_key: self.sort_key.clone(),
            entity: PhantomData,
        }
    }
}

impl<E> PartialEq for PrimaryKey<E> {
    fn eq(&self, other: &Self) -> bool {
        self.partition_key == other.partition_key && self.sort_key == other.sort_key
    }
}

impl<E> Eq for PrimaryKey<E> {}

impl<E> fmt::Debug for PrimaryKey<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrimaryKey")
            .field("entity", &std::any::type_name::<E>())
            .field("partition_key", &self.partition_key)
            .field("sort_key", &self.sort_key)
            .finish()
    }
}

/// The key of one item in a GSI of entity `E`, built by the generated
/// `E::gsiN_key(…)`: the index, its partition key value and, when the index
/// has one, its sort key value.
pub struct IndexKey<E> {
    index: &'static IndexSchema,
    partition_key: String,
    sort_key: Option<String>,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity> IndexKey<E> {
    /// A key from already-built attribute values. Generated code calls it.
    #[doc(hidden)]
    pub fn from_parts(
        index: &'static IndexSchema,
        partition_key: String,
        sort_key: Option<String>,
    ) -> Self {
        IndexKey {
            index,
            partition_key,
            sort_key,
            entity: PhantomData,
        }
    }

    /// The partition key and sort key values, without copying.
    pub fn into_parts(self) -> (String, Option<String>) {
        (self.partition_key, self.sort_key)
    }

    /// The index the key belongs to.
    pub fn index(&self) -> &'static IndexSchema {
        self.index
    }

    /// The index partition key value, such as `STATUS#PENDING`.
    pub fn partition_key(&self) -> &str {
        &self.partition_key
    }

    /// The index sort key value, `None` when the index has no sort key.
    pub fn sort_key(&self) -> Option<&str> {
        self.sort_key.as_deref()
    }
}

impl<E> Clone for IndexKey<E> {
    fn clone(&self) -> Self {
        IndexKey {
            index: self.index,
            partition_key: self.partition_key.clone(),
            sort_key: self.sort_key.clone(),
            entity: PhantomData,
        }
    }
}

impl<E> PartialEq for IndexKey<E> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
            && self.partition_key == other.partition_key
            && self.sort_key == other.sort_key
    }
}

impl<E> Eq for IndexKey<E> {}

impl<E> fmt::Debug for IndexKey<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexKey")
            .field("entity", &std::any::type_name::<E>())
            .field("index", &self.index.name)
            .field("partition_key", &self.partition_key)
            .field("sort_key", &self.sort_key)
            .finish()
    }
}
