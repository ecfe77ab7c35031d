//! [`ItemKey`]: the primary key of one item, as write errors report it.

use crate::model::entity::AttributeMap;
use crate::model::entity::Entity;
use crate::model::entity::EntitySchema;
use std::sync::Arc;

/// The primary key of one item in an error: attribute names and values as
/// stored, so a caller can log, compare or re-read it. `Display` writes
/// `PK=CUST#c-1, SK=ORDER#0000000001`; it also compares equal to that text.
/// (Shared behind an `Arc`, so that `Error` stays small.)
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ItemKey(Arc<[(String, String); 2]>);

impl ItemKey {
    /// The key of entity `E` in the attribute map `item` (an item or a key);
    /// an attribute that is missing is shown as `?`, one that is not a
    /// string in DynamoDB's JSON form.
    pub(crate) fn of<E: Entity>(item: &AttributeMap) -> Self {
        let schema = E::SCHEMA;
        Self::named(item, schema.partition_key.name, schema.sort_key.name)
    }

    /// The key of an item of `schema` in the attribute map `item`, as
    /// [`ItemKey::of`] reads it.
    pub(crate) fn of_schema(schema: &EntitySchema, item: &AttributeMap) -> Self {
        Self::named(item, schema.partition_key.name, schema.sort_key.name)
    }

    /// The key attributes `partition_key` and `sort_key` of the attribute
    /// map `item`, as [`ItemKey::of`] reads them.
    pub(crate) fn named(item: &AttributeMap, partition_key: &str, sort_key: &str) -> Self {
        let pair = |name: &str| {
            let value = match item.get(name) {
                Some(aws_sdk_dynamodb::types::AttributeValue::S(value)) => value.clone(),
                Some(other) => format!("{other:?}"),
                None => "?".to_owned(),
            };
            (name.to_owned(), value)
        };
        ItemKey(Arc::new([pair(partition_key), pair(sort_key)]))
    }

    /// The key in a key map whose entity's schema is not at hand (a stream
    /// record's `Keys` for a change type without members): its first two
    /// attributes in name order (`PK` before `SK`), `?` for a missing one.
    #[cfg(feature = "streams")]
    pub(crate) fn from_key_map(key: &AttributeMap) -> Self {
        let mut names: Vec<&str> = key.keys().map(String::as_str).collect();
        names.sort_unstable();
        match names.as_slice() {
            [] => Self::named(key, "?", "?"),
            [only] => Self::named(key, only, "?"),
            [first, second, ..] => Self::named(key, first, second),
        }
    }

    /// The partition key attribute and its value, such as `("PK", "CUST#c-1")`.
    pub fn partition_key(&self) -> (&str, &str) {
        (&self.0[0].0, &self.0[0].1)
    }

    /// The sort key attribute and its value, such as `("SK", "PROFILE")`.
    pub fn sort_key(&self) -> (&str, &str) {
        (&self.0[1].0, &self.0[1].1)
    }

    /// The key as DynamoDB's attribute map (`Key` of `GetItem`).
    pub fn to_attribute_map(&self) -> AttributeMap {
        self.0
            .iter()
            .map(|(name, value)| {
                (
                    name.clone(),
                    aws_sdk_dynamodb::types::AttributeValue::S(value.clone()),
                )
            })
            .collect()
    }
}

impl std::fmt::Display for ItemKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [(pk, pk_value), (sk, sk_value)] = &*self.0;
        write!(f, "{pk}={pk_value}, {sk}={sk_value}")
    }
}

impl PartialEq<str> for ItemKey {
    fn eq(&self, text: &str) -> bool {
        let [(pk, pk_value), (sk, sk_value)] = &*self.0;
        // `PK=…, SK=…`, compared piece by piece.
        let parts = [pk.as_str(), "=", pk_value, ", ", sk, "=", sk_value];
        let mut rest = text;
        for part in parts {
            match rest.strip_prefix(part) {
                Some(after) => rest = after,
                None => return false,
            }
        }
        rest.is_empty()
    }
}
