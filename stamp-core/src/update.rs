//! [`Update`]: a typed `UpdateItem` for one item of an entity.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemInput};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};
use chrono::{DateTime, Utc};
use serde::Serialize;
use tracing::Instrument;

use crate::expression::{Attribute, Condition, Optional, Placeholders, Settable};
use crate::write::{conditional_failure, describe_key};
use crate::{Entity, Error, Item, PrimaryKey, Table};

type Value = Result<AttributeValue, String>;

fn to_value<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_dynamo::to_attribute_value(value).map_err(|error| error.to_string())
}

#[derive(Debug, Clone)]
enum Action {
    Set(&'static str, Value),
    SetIfNotExists(&'static str, Value),
    Remove(&'static str),
    Add(&'static str, Value),
    Subtract(&'static str, Value),
    Append(&'static str, Value),
    Delete(&'static str, Value),
}

impl Action {
    fn attribute(&self) -> &'static str {
        match self {
            Action::Set(name, _)
            | Action::SetIfNotExists(name, _)
            | Action::Remove(name)
            | Action::Add(name, _)
            | Action::Subtract(name, _)
            | Action::Append(name, _)
            | Action::Delete(name, _) => name,
        }
    }
}

/// Numbers, which `ADD` increments (or decrements, with a negative value).
pub trait Number: Serialize {}

macro_rules! numbers {
    ($($ty:ty),*) => {$(impl Number for $ty {})*};
}

numbers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

/// Sets of strings or numbers, stored as DynamoDB `SS` / `NS`, which `ADD`
/// and `DELETE` change element by element.
pub trait Set {
    /// The set as an `SS` or `NS` value; `None` when it is empty (DynamoDB
    /// refuses empty sets).
    fn to_set_value(&self) -> Option<AttributeValue>;
}

macro_rules! string_sets {
    ($($set:ident),*) => {$(
        impl Set for std::collections::$set<String> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ss(self.iter().cloned().collect()))
            }
        }
    )*};
}

macro_rules! number_sets {
    ($($ty:ty),*) => {$(
        impl Set for std::collections::HashSet<$ty> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ns(self.iter().map(ToString::to_string).collect()))
            }
        }
        impl Set for std::collections::BTreeSet<$ty> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ns(self.iter().map(ToString::to_string).collect()))
            }
        }
    )*};
}

string_sets!(HashSet, BTreeSet);
number_sets!(u8, u16, u32, u64, i8, i16, i32, i64);

fn set_value(set: &impl Set) -> Value {
    set.to_set_value()
        .ok_or_else(|| "an empty set (DynamoDB refuses empty sets)".to_owned())
}

/// An `UpdateItem` of one item of entity `E`, built by the generated
/// `E::update(…)` (or [`Update::new`]) and sent by [`send`](Self::send),
/// [`send_returning_new`](Self::send_returning_new) or
/// [`send_returning_old`](Self::send_returning_old).
///
/// - Fields are named by the generated attribute constants. Fields of the
///   primary key have kind [`PrimaryKeyField`](crate::PrimaryKeyField), and
///   setting one does not compile.
/// - Index attributes follow their fields in the same request: changing a
///   field of a GSI template rewrites the attributes built from it, and
///   removing an `Option` field of an index removes that index's attributes
///   (the item leaves the sparse index). A template attribute can only be
///   rebuilt from values this update sets, so every field it uses must be
///   set too (and all fields of the index when an `Option` field becomes
///   `Some`); [`Error::IncompleteIndexUpdate`] otherwise, before sending.
/// - `#[stamp(updated_at)]` is set to the current time.
/// - `#[stamp(version)]`: [`expect_version`](Self::expect_version) is
///   required; the update checks it and adds 1.
/// - The item must exist (`attribute_exists` on the partition key):
///   DynamoDB would otherwise create a partial item.
pub struct Update<E> {
    key: Result<PrimaryKey<E>, Error>,
    actions: Vec<Action>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
}

/// A rendered `UpdateItem`, without the table name.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateRequest {
    /// The primary key.
    pub key: Item,
    /// The `UpdateExpression`.
    pub update_expression: String,
    /// The `ConditionExpression`.
    pub condition_expression: String,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
}

impl<E: Entity> Update<E> {
    /// An update of the item with key `key` (as `E::key(…)` returns it).
    pub fn new(key: Result<PrimaryKey<E>, Error>) -> Self {
        Update {
            key,
            actions: Vec::new(),
            condition: None,
            expected_version: None,
        }
    }

    /// `SET attribute = value`.
    pub fn set<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        self.actions
            .push(Action::Set(attribute.name(), to_value(value)));
        self
    }

    /// `SET attribute = if_not_exists(attribute, value)`: sets it only when
    /// the item does not have it yet.
    pub fn set_if_not_exists<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        self.actions
            .push(Action::SetIfNotExists(attribute.name(), to_value(value)));
        self
    }

    /// `REMOVE attribute`: the field becomes `None`.
    pub fn remove<T>(mut self, attribute: Attribute<E, T, Optional>) -> Self {
        self.actions.push(Action::Remove(attribute.name()));
        self
    }

    /// `ADD attribute value` on a number: adds `value` (negative to
    /// subtract); an absent attribute counts as 0.
    pub fn add<T: Number, K: Settable>(mut self, attribute: Attribute<E, T, K>, value: &T) -> Self {
        self.actions
            .push(Action::Add(attribute.name(), to_value(value)));
        self
    }

    /// `SET attribute = attribute - value` on a number the item has, such as
    /// a stock decremented by a quantity (guard it with a condition such as
    /// `Product::STOCK.ge(&quantity)` so it cannot go below zero).
    pub fn subtract<T: Number, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        self.actions
            .push(Action::Subtract(attribute.name(), to_value(value)));
        self
    }

    /// `ADD attribute elements` on a set stored as `SS`/`NS`.
    pub fn add_to_set<T: Set, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        self.actions
            .push(Action::Add(attribute.name(), set_value(elements)));
        self
    }

    /// `DELETE attribute elements`: removes elements from a set.
    pub fn delete_from_set<T: Set, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        self.actions
            .push(Action::Delete(attribute.name(), set_value(elements)));
        self
    }

    /// `SET attribute = list_append(if_not_exists(attribute, []), values)`:
    /// appends to a list.
    pub fn append<X: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, Vec<X>, K>,
        values: &[X],
    ) -> Self {
        self.actions
            .push(Action::Append(attribute.name(), to_value(values)));
        self
    }

    /// Also requires `condition` (AND).
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(previous) => previous.and(condition),
            None => condition,
        });
        self
    }

    /// The version the stored item must have, for an entity with a
    /// `#[stamp(version)]` field; the update then adds 1 to it.
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// Renders the update at time `now`, without a network.
    ///
    /// # Errors
    ///
    /// A key error; [`Error::InvalidUpdate`] (nothing to update, an empty
    /// set, the version set by hand); [`Error::MissingExpectedVersion`];
    /// [`Error::IncompleteIndexUpdate`]; [`Error::InvalidExpressionValue`].
    pub fn render(&self, now: DateTime<Utc>) -> Result<UpdateRequest, Error> {
        let schema = E::SCHEMA;
        let key = self.key.as_ref().map_err(Clone::clone)?;
        let invalid = |reason: String| Error::InvalidUpdate {
            entity: schema.type_name,
            reason,
        };
        if self.actions.is_empty() {
            return Err(invalid("the update changes nothing".to_owned()));
        }
        let mut actions = self.actions.clone();
        for (position, action) in actions.iter().enumerate() {
            if actions[..position]
                .iter()
                .any(|earlier| earlier.attribute() == action.attribute())
            {
                return Err(invalid(format!(
                    "`{}` is changed twice; DynamoDB takes one action per attribute in an update",
                    action.attribute()
                )));
            }
        }
        if let Some(version) = schema.version_attribute
            && actions.iter().any(|action| action.attribute() == version)
        {
            return Err(invalid(format!(
                "the version `{version}` is counted by Stamp; use `expect_version`"
            )));
        }
        if let Some(updated_at) = schema.updated_at_attribute
            && !actions
                .iter()
                .any(|action| action.attribute() == updated_at)
        {
            actions.push(Action::Set(updated_at, to_value(&now)));
        }
        // The fields this update gives a value, by attribute; NULL for removed ones.
        let mut changed: Item = HashMap::new();
        let mut unknown: Vec<&'static str> = Vec::new();
        for action in &actions {
            match action {
                Action::Set(name, value) => {
                    let value = value
                        .clone()
                        .map_err(|reason| Error::InvalidExpressionValue { reason })?;
                    changed.insert((*name).to_owned(), value);
                }
                Action::Remove(name) => {
                    changed.insert((*name).to_owned(), AttributeValue::Null(true));
                }
                other => unknown.push(other.attribute()),
            }
        }
        let mut index_sets: Vec<(&'static str, String)> = Vec::new();
        let mut index_removes: Vec<&'static str> = Vec::new();
        for index in schema.indexes {
            let attribute_of = |field: &str| {
                schema
                    .field_attributes
                    .iter()
                    .find(|known| known.field == field)
            };
            let parts: Vec<(&'static str, Vec<&'static str>)> =
                std::iter::once(&index.partition_key)
                    .chain(index.sort_key.as_ref())
                    .map(|key| {
                        let fields = key
                            .template
                            .fields()
                            .filter_map(|field| attribute_of(field).map(|known| known.attribute));
                        (key.name, fields.collect())
                    })
                    .collect();
            let all_fields: Vec<&'static str> = parts
                .iter()
                .flat_map(|(_, fields)| fields.iter().copied())
                .collect();
            if let Some(field) = unknown.iter().find(|name| all_fields.contains(name)) {
                return Err(invalid(format!(
                    "`{field}` is in a key template of {}, so it must be set to a value (not added to, appended to or set if absent), for the index attributes to be rebuilt",
                    index.name
                )));
            }
            let touched: Vec<&(&'static str, Vec<&'static str>)> = parts
                .iter()
                .filter(|(_, fields)| fields.iter().any(|field| changed.contains_key(*field)))
                .collect();
            if touched.is_empty() {
                continue;
            }
            let optional = |attribute: &str| {
                schema
                    .field_attributes
                    .iter()
                    .any(|known| known.attribute == attribute && known.optional)
            };
            let removes_index = all_fields.iter().any(|field| {
                optional(field) && matches!(changed.get(*field), Some(AttributeValue::Null(_)))
            });
            if removes_index {
                index_removes.extend(parts.iter().map(|(name, _)| *name));
                continue;
            }
            let enters_index = all_fields
                .iter()
                .any(|field| optional(field) && changed.contains_key(*field));
            let rebuilt: Vec<&(&'static str, Vec<&'static str>)> = if enters_index {
                parts.iter().collect()
            } else {
                touched
            };
            let missing: Vec<&'static str> = rebuilt
                .iter()
                .flat_map(|(_, fields)| fields.iter().copied())
                .filter(|field| !changed.contains_key(*field))
                .collect();
            if !missing.is_empty() {
                return Err(Error::IncompleteIndexUpdate {
                    entity: schema.type_name,
                    index: index.name,
                    missing: missing.into_iter().map(str::to_owned).collect(),
                });
            }
            for (name, _) in rebuilt {
                match E::key_attribute_from_values(name, &changed)? {
                    Some(value) => index_sets.push((name, value)),
                    None => index_removes.extend(parts.iter().map(|(name, _)| *name)),
                }
            }
        }

        let mut placeholders = Placeholders::default();
        let value = |placeholders: &mut Placeholders, value: &Value| -> Result<String, Error> {
            let value = value
                .clone()
                .map_err(|reason| Error::InvalidExpressionValue { reason })?;
            Ok(placeholders.add_value(value))
        };
        let (mut sets, mut removes, mut adds, mut deletes) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for action in &actions {
            let name = placeholders.name(action.attribute());
            match action {
                Action::Set(_, v) => {
                    sets.push(format!("{name} = {}", value(&mut placeholders, v)?))
                }
                Action::SetIfNotExists(_, v) => {
                    sets.push(format!(
                        "{name} = if_not_exists({name}, {})",
                        value(&mut placeholders, v)?
                    ));
                }
                Action::Append(_, v) => {
                    let empty = placeholders.add_value(AttributeValue::L(Vec::new()));
                    sets.push(format!(
                        "{name} = list_append(if_not_exists({name}, {empty}), {})",
                        value(&mut placeholders, v)?
                    ));
                }
                Action::Remove(_) => removes.push(name),
                Action::Add(_, v) => adds.push(format!("{name} {}", value(&mut placeholders, v)?)),
                Action::Subtract(_, v) => sets.push(format!(
                    "{name} = {name} - {}",
                    value(&mut placeholders, v)?
                )),
                Action::Delete(_, v) => {
                    deletes.push(format!("{name} {}", value(&mut placeholders, v)?))
                }
            }
        }
        for (attribute, text) in index_sets {
            let name = placeholders.name(attribute);
            let value = placeholders.add_value(AttributeValue::S(text));
            sets.push(format!("{name} = {value}"));
        }
        for attribute in index_removes {
            let name = placeholders.name(attribute);
            if !removes.contains(&name) {
                removes.push(name);
            }
        }
        let mut conditions = vec![format!(
            "attribute_exists({})",
            placeholders.name(schema.partition_key.name)
        )];
        if let Some(version) = schema.version_attribute {
            let expected = self.expected_version.ok_or(Error::MissingExpectedVersion {
                entity: schema.type_name,
            })?;
            let name = placeholders.name(version);
            conditions.push(format!(
                "{name} = {}",
                placeholders.add_value(AttributeValue::N(expected.to_string()))
            ));
            adds.push(format!(
                "{name} {}",
                placeholders.add_value(AttributeValue::N("1".to_owned()))
            ));
        }
        if let Some(condition) = &self.condition {
            conditions.push(format!("({})", condition.render(&mut placeholders)?));
        }
        let mut clauses = Vec::new();
        for (keyword, parts) in [
            ("SET", sets),
            ("REMOVE", removes),
            ("ADD", adds),
            ("DELETE", deletes),
        ] {
            if !parts.is_empty() {
                clauses.push(format!("{keyword} {}", parts.join(", ")));
            }
        }
        Ok(UpdateRequest {
            key: key.to_attribute_map(),
            update_expression: clauses.join(" "),
            condition_expression: conditions.join(" AND "),
            names: placeholders.names().unwrap_or_default(),
            values: placeholders.values().unwrap_or_default(),
        })
    }

    /// The exact `UpdateItem` request, rendered at time `now`, without a
    /// network.
    ///
    /// # Errors
    ///
    /// The errors of [`render`](Self::render).
    pub fn request(&self, table_name: &str, now: DateTime<Utc>) -> Result<UpdateItemInput, Error> {
        let rendered = self.render(now)?;
        Ok(UpdateItemInput::builder()
            .table_name(table_name)
            .set_key(Some(rendered.key))
            .update_expression(rendered.update_expression)
            .condition_expression(rendered.condition_expression)
            .set_expression_attribute_names(Some(rendered.names))
            .set_expression_attribute_values(Some(rendered.values))
            .build()
            .expect("UpdateItemInput has no required fields"))
    }

    /// The update as a transaction action, rendered now: pass it to
    /// `TransactWrite::update`. It keeps the `attribute_exists` guard and
    /// the version check.
    ///
    /// # Errors
    ///
    /// The errors of [`render`](Self::render).
    pub fn to_action(&self) -> Result<crate::UpdateAction, Error> {
        let rendered = self.render(Utc::now())?;
        Ok(crate::UpdateAction {
            key: rendered.key,
            update_expression: rendered.update_expression,
            condition_expression: Some(rendered.condition_expression),
            names: rendered.names,
            values: rendered.values,
            entity: E::SCHEMA.type_name,
        })
    }

    async fn execute(
        &self,
        table: &Table,
        return_value: ReturnValue,
    ) -> Result<Option<Item>, Error> {
        let rendered = self.render(Utc::now())?;
        let schema = E::SCHEMA;
        let key = rendered.key.clone();
        let span = tracing::debug_span!(
            "stamp.request",
            operation = "UpdateItem",
            table = table.name(),
            entity = schema.type_name,
            index = "",
            item_count = 1,
            consumed_capacity = tracing::field::Empty,
        );
        let result = table
            .client()
            .update_item()
            .table_name(table.name())
            .set_key(Some(rendered.key))
            .update_expression(rendered.update_expression)
            .condition_expression(rendered.condition_expression)
            .set_expression_attribute_names(Some(rendered.names))
            .set_expression_attribute_values(Some(rendered.values))
            .return_values(return_value)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .instrument(span)
            .await;
        match result {
            Ok(output) => Ok(output.attributes),
            Err(error) => Err(conditional_failure::<E, _, _>(
                "UpdateItem",
                table,
                &describe_key::<E>(&key),
                self.expected_version,
                error,
                |error| match error {
                    UpdateItemError::ConditionalCheckFailedException(failure) => {
                        Some(failure.item.clone())
                    }
                    _ => None,
                },
            )),
        }
    }

    /// Sends the update; returns nothing.
    ///
    /// # Errors
    ///
    /// The errors of [`render`](Self::render) before sending; then
    /// [`Error::ItemNotFound`], [`Error::VersionConflict`],
    /// [`Error::ConditionFailed`] or [`Error::DynamoDb`].
    pub async fn send(&self, table: &Table) -> Result<(), Error> {
        self.execute(table, ReturnValue::None).await.map(|_| ())
    }

    /// Sends the update and returns the item as it is after it
    /// (`ReturnValues = ALL_NEW`).
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send), and the errors of [`Entity::from_item`].
    pub async fn send_returning_new(&self, table: &Table) -> Result<E, Error> {
        let item = self
            .execute(table, ReturnValue::AllNew)
            .await?
            .unwrap_or_default();
        E::from_item(item)
    }

    /// Sends the update and returns the item as it was before it
    /// (`ReturnValues = ALL_OLD`).
    ///
    /// # Errors
    ///
    /// As [`send_returning_new`](Self::send_returning_new).
    pub async fn send_returning_old(&self, table: &Table) -> Result<E, Error> {
        let item = self
            .execute(table, ReturnValue::AllOld)
            .await?
            .unwrap_or_default();
        E::from_item(item)
    }
}
