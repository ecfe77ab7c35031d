//! Unique values (`#[stamp(unique)]`, `#[stamp(unique(a, b))]`): the guard
//! items that hold them, the conditions that keep them in step with their
//! items, and [`GetUnique`], the lookup of an item by a unique value.
//!
//! **The guard item** (a storage format, as the key encodings are): its
//! partition and sort key attributes are the entity's (`PK`, `SK`), both
//! `UNIQUE#<type name>#<attributes joined by +>#<values joined by #>`, each
//! value escaped as key values are (every character up to `%` as `%XX`,
//! [`KeyTemplate::ESCAPED`](crate::KeyTemplate::ESCAPED)); its type
//! attribute is [`GUARD_TYPE`]; [`OWNER_PK`] and [`OWNER_SK`] hold the
//! owning item's primary key. A value is the stored form of the field: a
//! String as is, a Number as stored, a Binary in base64, a Boolean `true` /
//! `false`; an absent or `NULL` field holds no value (and no guard).
//!
//! **The writes.** Every write of an entity with unique values is one
//! `TransactWriteItems` ([`TransactWrite`](crate::TransactWrite), whose
//! send adds the guard actions): a create puts the guards of its values
//! (`attribute_not_exists`); any other write reads the stored item first
//! (`GetItem`, strongly consistent: 1 read unit per 4 KB), puts the guards
//! of the values it gives, deletes the guards of the values it takes away,
//! and is conditioned on the stored unique attributes still being the ones
//! read (a write in between makes it read again, up to
//! [`MAX_UNIQUE_ATTEMPTS`] times). A guard is put with
//! `attribute_not_exists(PK) OR (OwnerPK = :pk AND OwnerSK = :sk)` and
//! deleted with the same condition: a guard held by another item is never
//! taken or deleted, and a put whose guard is held by another item fails
//! with [`Error::UniqueValueTaken`].

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::error::KeyError;
use crate::error::{Error, ItemKey, Refusal};
use crate::expression::{Attribute, Placeholders};
use crate::model::entity::{AttributeMap, Entity, EntitySchema, UniqueValue};
use crate::ops::write::Placed;
use crate::request::table::Table;

/// The type attribute of a guard item.
pub const GUARD_TYPE: &str = "UniqueValue";
/// The attribute of a guard item holding the owning item's partition key.
pub const OWNER_PK: &str = "OwnerPK";
/// The attribute of a guard item holding the owning item's sort key.
pub const OWNER_SK: &str = "OwnerSK";
/// The literal that begins a guard's key.
pub const GUARD_PREFIX: &str = "UNIQUE#";
/// How many times a write of an entity with unique values is tried when
/// the item it read changed before the write reached it.
pub const MAX_UNIQUE_ATTEMPTS: u32 = 5;

/// One unique value an item holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Guard {
    pub(crate) unique: &'static UniqueValue,
    /// The values, one per field, not escaped.
    pub(crate) values: Vec<String>,
    /// The guard item's key (its partition and sort key).
    pub(crate) key: String,
}

/// The value of `value` as a guard's key holds it, or the DynamoDB type
/// that is not a value.
fn scalar(value: &AttributeValue) -> Result<Option<String>, &'static str> {
    use base64::Engine as _;
    Ok(Some(match value {
        AttributeValue::S(text) => text.clone(),
        AttributeValue::N(number) => number.clone(),
        AttributeValue::B(bytes) => {
            base64::engine::general_purpose::STANDARD.encode(bytes.as_ref())
        }
        AttributeValue::Bool(flag) => flag.to_string(),
        AttributeValue::Null(_) => return Ok(None),
        AttributeValue::L(_) => return Err("L"),
        AttributeValue::M(_) => return Err("M"),
        AttributeValue::Ss(_) => return Err("SS"),
        AttributeValue::Ns(_) => return Err("NS"),
        AttributeValue::Bs(_) => return Err("BS"),
        _ => return Err("value of an unknown type"),
    }))
}

/// The key of the guard of `values` of `unique`.
pub(crate) fn guard_key(schema: &EntitySchema, unique: &UniqueValue, values: &[String]) -> String {
    let mut key = format!(
        "{GUARD_PREFIX}{}#{}",
        schema.type_name,
        unique.attributes.join("+")
    );
    for value in values {
        key.push('#');
        crate::key::template::escape_key_value(&mut key, value);
    }
    key
}

/// The values `item` holds, one guard each.
pub(crate) fn guards(schema: &EntitySchema, item: &AttributeMap) -> Result<Vec<Guard>, Error> {
    let mut guards = Vec::new();
    'unique: for unique in schema.unique_values {
        let mut values = Vec::with_capacity(unique.attributes.len());
        for (field, attribute) in unique.fields.iter().zip(unique.attributes) {
            let Some(value) = item.get(*attribute) else {
                continue 'unique;
            };
            match scalar(value) {
                Ok(Some(value)) => values.push(value),
                Ok(None) => continue 'unique,
                Err(stored) => {
                    return Err(Error::Refused(Refusal::UniqueValueNotScalar {
                        entity: schema.type_name,
                        field,
                        stored,
                    }));
                }
            }
        }
        let key = guard_key(schema, unique, &values);
        if key.len() > crate::limits::MAX_SORT_KEY_BYTES {
            return Err(Error::Key(KeyError::KeyTooLong {
                entity: schema.type_name,
                template: "UNIQUE#<type>#<attributes>#<values>",
                length: key.len(),
                limit: crate::limits::MAX_SORT_KEY_BYTES,
            }));
        }
        guards.push(Guard {
            unique,
            values,
            key,
        });
    }
    Ok(guards)
}

/// The key attributes of the guard with key `key`.
pub(crate) fn guard_key_map(schema: &EntitySchema, key: &str) -> AttributeMap {
    AttributeMap::from([
        (
            schema.partition_key.name.to_owned(),
            AttributeValue::S(key.to_owned()),
        ),
        (
            schema.sort_key.name.to_owned(),
            AttributeValue::S(key.to_owned()),
        ),
    ])
}

/// The guard item with key `key` held by the item with key attributes
/// `owner`.
pub(crate) fn guard_item(schema: &EntitySchema, key: &str, owner: &AttributeMap) -> AttributeMap {
    let mut item = guard_key_map(schema, key);
    item.insert(
        schema.type_attribute.to_owned(),
        AttributeValue::S(GUARD_TYPE.to_owned()),
    );
    for (attribute, name) in [
        (OWNER_PK, schema.partition_key.name),
        (OWNER_SK, schema.sort_key.name),
    ] {
        if let Some(value) = owner.get(name) {
            item.insert(attribute.to_owned(), value.clone());
        }
    }
    item
}

/// The condition of a put or delete of a guard on behalf of the item with
/// key attributes `owner`: no guard, or one the item holds.
pub(crate) fn owner_condition(schema: &EntitySchema, owner: &AttributeMap) -> Placed {
    let mut placeholders = Placeholders::default();
    let partition = placeholders.name(schema.partition_key.name);
    let mut parts = Vec::new();
    for (attribute, name) in [
        (OWNER_PK, schema.partition_key.name),
        (OWNER_SK, schema.sort_key.name),
    ] {
        let value = owner
            .get(name)
            .cloned()
            .unwrap_or(AttributeValue::Null(true));
        let attribute = placeholders.name(attribute);
        let value = placeholders.add_value(value);
        parts.push(format!("{attribute} = {value}"));
    }
    Placed {
        expression: format!(
            "attribute_not_exists({partition}) OR ({})",
            parts.join(" AND ")
        ),
        placeholders,
    }
}

/// The owner of a guard as stored (`OwnerPK`, `OwnerSK`), as the key of an
/// item of `schema`.
pub(crate) fn owner_of(schema: &EntitySchema, guard: &AttributeMap) -> Option<ItemKey> {
    let pk = guard.get(OWNER_PK)?;
    let sk = guard.get(OWNER_SK)?;
    let key = AttributeMap::from([
        (schema.partition_key.name.to_owned(), pk.clone()),
        (schema.sort_key.name.to_owned(), sk.clone()),
    ]);
    Some(ItemKey::of_schema(schema, &key))
}

/// The attributes of every unique value of `schema`, each once.
pub(crate) fn unique_attributes(schema: &EntitySchema) -> Vec<&'static str> {
    let mut attributes: Vec<&'static str> = schema
        .unique_values
        .iter()
        .flat_map(|unique| unique.attributes.iter().copied())
        .collect();
    attributes.sort_unstable();
    attributes.dedup();
    attributes
}

/// The condition that the stored item's unique attributes are those of
/// `stored` (each equal, or absent when `stored` has none), with
/// placeholders `#uq…` and `:uq…` that no other condition of Stamp's uses.
pub(crate) fn unchanged_values(
    schema: &EntitySchema,
    stored: Option<&AttributeMap>,
) -> (
    String,
    std::collections::HashMap<String, String>,
    std::collections::HashMap<String, AttributeValue>,
) {
    let mut names = std::collections::HashMap::new();
    let mut values = std::collections::HashMap::new();
    let mut parts = Vec::new();
    for (position, attribute) in unique_attributes(schema).into_iter().enumerate() {
        let name = format!("#uq{position}");
        names.insert(name.clone(), attribute.to_owned());
        match stored.and_then(|item| item.get(attribute)) {
            Some(value) => {
                let placeholder = format!(":uq{position}");
                values.insert(placeholder.clone(), value.clone());
                parts.push(format!("{name} = {placeholder}"));
            }
            None => parts.push(format!("attribute_not_exists({name})")),
        }
    }
    (parts.join(" AND "), names, values)
}

/// Whether the unique attributes of `now` (the item as a failed condition
/// returned it) differ from those of `read` (the item read before the
/// write).
pub(crate) fn values_changed(
    schema: &EntitySchema,
    read: Option<&AttributeMap>,
    now: Option<&AttributeMap>,
) -> bool {
    unique_attributes(schema).into_iter().any(|attribute| {
        read.and_then(|item| item.get(attribute)) != now.and_then(|item| item.get(attribute))
    })
}

/// What a write does to the unique values of its item.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UniqueWrite {
    /// Creates the item (its condition requires it absent): the item's
    /// values are new, and nothing is read.
    Create(AttributeMap),
    /// Replaces whatever is stored with the item.
    Replace(AttributeMap),
    /// Deletes the item.
    Delete,
    /// Changes some unique attributes: each set, set if absent (an
    /// upsert's write-once field) or removed (`None`).
    Update {
        assignments: Vec<(&'static str, Assign)>,
        /// An upsert creates the item when it is absent.
        upsert: bool,
    },
}

/// What an update does to one unique attribute.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Assign {
    Set(AttributeValue),
    SetIfNotExists(AttributeValue),
    Remove,
}

impl UniqueWrite {
    /// The item after the write, from the item stored before it.
    pub(crate) fn after(&self, stored: Option<&AttributeMap>) -> Option<AttributeMap> {
        match self {
            UniqueWrite::Create(item) | UniqueWrite::Replace(item) => Some(item.clone()),
            UniqueWrite::Delete => None,
            UniqueWrite::Update {
                assignments,
                upsert,
            } => {
                let mut item = match stored {
                    Some(item) => item.clone(),
                    None if *upsert => AttributeMap::new(),
                    None => return None,
                };
                for (attribute, assign) in assignments {
                    match assign {
                        Assign::Set(value) => {
                            item.insert((*attribute).to_owned(), value.clone());
                        }
                        Assign::SetIfNotExists(value) => {
                            item.entry((*attribute).to_owned())
                                .or_insert_with(|| value.clone());
                        }
                        Assign::Remove => {
                            item.remove(*attribute);
                        }
                    }
                }
                Some(item)
            }
        }
    }

    /// Whether the write needs the stored item (all but a create).
    pub(crate) fn reads(&self) -> bool {
        !matches!(self, UniqueWrite::Create(_))
    }
}

/// A lookup of the item of entity `E` holding a unique value, built by
/// [`GetUnique::new`] (or [`Table::get_unique`]) and sent by
/// [`send`](Self::send): a strongly consistent `GetItem` of the value's
/// guard item, then one of the item it names (each 1 read unit per 4 KB).
///
/// The item is returned only when it still holds the value (a write
/// between the two reads may have moved it): otherwise `None`, as when no
/// item holds it.
///
/// # Example
///
/// ```ignore
/// let user: Option<User> = GetUnique::new(User::EMAIL, &email).send(&table).await?;
/// let member = GetUnique::new(Member::ORG, &org).and(Member::HANDLE, &handle).send(&table).await?;
/// ```
#[must_use = "a GetUnique does nothing until it is sent"]
#[derive(Debug, Clone)]
pub struct GetUnique<E> {
    values: Result<Vec<(&'static str, AttributeValue)>, Error>,
    _entity: std::marker::PhantomData<fn() -> E>,
}

impl<E: Entity> GetUnique<E> {
    /// A lookup by the value `value` of the unique field `attribute` (one
    /// of `E`'s generated attribute constants); add the other fields of a
    /// combination with [`and`](Self::and).
    pub fn new<T: Serialize, K>(attribute: Attribute<E, T, K>, value: &T) -> Self {
        GetUnique {
            values: Ok(Vec::new()),
            _entity: std::marker::PhantomData,
        }
        .and(attribute, value)
    }

    /// Adds the value of another field of a `unique(a, b)` combination.
    pub fn and<T: Serialize, K>(mut self, attribute: Attribute<E, T, K>, value: &T) -> Self {
        if let Ok(values) = &mut self.values {
            match attribute.encode(value) {
                Ok(Some(encoded)) => values.push((attribute.name(), encoded)),
                Ok(None) => values.push((attribute.name(), AttributeValue::Null(true))),
                Err(message) => {
                    self.values = Err(Error::Refused(Refusal::InvalidExpressionValue {
                        detail: message,
                    }));
                }
            }
        }
        self
    }

    /// The guard's key, or why there is none: the fields named are not a
    /// unique value of `E`, or a value is not one.
    fn guard(&self) -> Result<Option<Guard>, Error> {
        let values = self.values.as_ref().map_err(Clone::clone)?;
        let schema = E::SCHEMA;
        let mut named: Vec<&str> = values.iter().map(|(name, _)| *name).collect();
        named.sort_unstable();
        let unique = schema.unique_values.iter().find(|unique| {
            let mut attributes = unique.attributes.to_vec();
            attributes.sort_unstable();
            attributes == named
        });
        let Some(unique) = unique else {
            return Err(Error::Refused(Refusal::NotUnique {
                entity: schema.type_name,
                attributes: values.iter().map(|(name, _)| (*name).to_owned()).collect(),
            }));
        };
        let item: AttributeMap = values
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect();
        Ok(guards(schema, &item)?
            .into_iter()
            .find(|guard| std::ptr::eq(guard.unique, unique)))
    }

    /// Sends the lookup: `Ok(None)` when no item holds the value.
    ///
    /// # Errors
    ///
    /// Before sending: [`Refusal::NotUnique`] when the fields named are
    /// not one of `E`'s unique values, [`Refusal::UniqueValueNotScalar`],
    /// [`Refusal::InvalidExpressionValue`]. After: the errors of
    /// [`Entity::from_item`] and [`Error::DynamoDb`].
    pub async fn send(self, table: &Table) -> Result<Option<E>, Error> {
        let schema = E::SCHEMA;
        let Some(guard) = self.guard()? else {
            return Ok(None);
        };
        let Some(stored) = table
            .stored_item(schema.type_name, guard_key_map(schema, &guard.key), true)
            .await?
        else {
            return Ok(None);
        };
        let owner: AttributeMap = [
            (OWNER_PK, schema.partition_key.name),
            (OWNER_SK, schema.sort_key.name),
        ]
        .into_iter()
        .filter_map(|(attribute, name)| Some((name.to_owned(), stored.get(attribute)?.clone())))
        .collect();
        if owner.len() != 2 {
            return Ok(None);
        }
        let Some(item) = table.stored_item(schema.type_name, owner, true).await? else {
            return Ok(None);
        };
        if guards(schema, &item)?.contains(&guard) {
            E::from_item(item).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl Table {
    /// The item of `E` whose unique field `attribute` holds `value`:
    /// `GetUnique::new(attribute, value).send(self)` ([`GetUnique`] for a
    /// combination).
    ///
    /// # Errors
    ///
    /// As [`GetUnique::send`].
    pub async fn get_unique<E: Entity, T: Serialize, K>(
        &self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Result<Option<E>, Error> {
        GetUnique::new(attribute, value).send(self).await
    }
}
