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
use crate::request::failure::conditional_failure;
use crate::{Entity, Error, Item, PrimaryKey, Table};

type Value = Result<AttributeValue, String>;

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
    fn value(&self) -> Option<&Value> {
        match self {
            Action::Remove(_) => None,
            Action::Set(_, value)
            | Action::SetIfNotExists(_, value)
            | Action::Add(_, value)
            | Action::Subtract(_, value)
            | Action::Append(_, value)
            | Action::Delete(_, value) => Some(value),
        }
    }

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

/// The encoded value of `value` for an action that needs an attribute
/// value of one of `kinds` (`what` names them in the error).
fn typed_value<E, T: Serialize, K>(
    attribute: &Attribute<E, T, K>,
    value: &T,
    what: &str,
    fits: fn(&AttributeValue) -> bool,
) -> Value {
    match attribute.encode(value)? {
        Some(encoded) if fits(&encoded) => Ok(encoded),
        Some(other) => Err(format!(
            "`{}` is stored as {}, so it takes no {what}",
            attribute.name(),
            describe_type(&other)
        )),
        None => Err(format!(
            "{what} for `{}` is empty (DynamoDB refuses empty sets and has nothing to add)",
            attribute.name()
        )),
    }
}

fn describe_type(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a String (S)",
        AttributeValue::N(_) => "a Number (N)",
        AttributeValue::B(_) => "a Binary (B)",
        AttributeValue::Bool(_) => "a Boolean (BOOL)",
        AttributeValue::L(_) => "a List (L)",
        AttributeValue::M(_) => "a Map (M)",
        AttributeValue::Ss(_) => "a String Set (SS)",
        AttributeValue::Ns(_) => "a Number Set (NS)",
        AttributeValue::Bs(_) => "a Binary Set (BS)",
        _ => "another type",
    }
}

fn is_set(value: &AttributeValue) -> bool {
    matches!(
        value,
        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
    )
}

/// An `UpdateItem` of one item of entity `E`, built by the generated
/// `E::update(…)` (or [`Update::new`]) and sent by [`send`](Self::send),
/// [`send_returning_new`](Self::send_returning_new) or
/// [`send_returning_old`](Self::send_returning_old).
///
/// - Fields are named by the generated attribute constants. Fields of the
///   primary key have kind [`PrimaryKeyField`](crate::PrimaryKeyField), and
///   setting one does not compile.
/// - Every value is encoded as `to_item` encodes its field (serde's `with`,
///   `serialize_with`, set helpers; a TTL as epoch seconds), and checked as
///   a put checks it (NaN, infinities, more than 38 digits) before sending.
///   Setting a value that `to_item` stores as no attribute (an empty set)
///   removes the attribute.
/// - Index attributes follow their fields in the same request: changing a
///   field of a GSI template rewrites the attributes built from it, and
///   removing an `Option` field of an index removes that index's attributes
///   (the item leaves the sparse index). They are rebuilt from the values
///   the update knows: those it sets, the primary-key fields given to
///   `E::update(…)`, and those stated with [`given`](Self::given). An
///   index's two attributes are written together whenever the item may not
///   be in the (sparse) index yet; when a value needed is unknown,
///   [`Error::IncompleteIndexUpdate`], before sending.
/// - `#[stamp(updated_at)]` is set to the current time (and so are the index
///   attributes built from it, which then need the index's other values).
/// - `#[stamp(version)]`: [`expect_version`](Self::expect_version) is
///   required; the update checks it and adds 1.
/// - The item must exist (`attribute_exists` on the partition key):
///   DynamoDB would otherwise create a partial item.
pub struct Update<E> {
    key: Result<PrimaryKey<E>, Error>,
    actions: Vec<Action>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    /// Current values the update knows without changing them (encoded, by
    /// attribute; `NULL` for a known `None`), for rebuilding index attributes.
    known: Item,
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
            known: Item::new(),
        }
    }

    /// Values of the item that the update knows without changing them, by
    /// attribute and encoded as stored: the generated `E::update(…)` passes
    /// the primary-key fields it is given, so that index attributes built
    /// from them can be rebuilt.
    #[doc(hidden)]
    pub fn with_known_values(mut self, values: Item) -> Self {
        self.known.extend(values);
        self
    }

    /// States the current value of a field the update does not change, and
    /// makes the update conditional on it (`attribute = value`): the index
    /// attributes built from it can then be rebuilt. Use it when an update
    /// is refused with [`Error::IncompleteIndexUpdate`] for a field you
    /// know, such as the status of an order whose `updated_at` (in its
    /// GSI sort key) every update stamps.
    pub fn given<T: Serialize, K>(mut self, attribute: Attribute<E, T, K>, value: &T) -> Self {
        if let Ok(Some(encoded)) = attribute.encode(value) {
            self.known.insert(attribute.name().to_owned(), encoded);
        }
        self.condition(attribute.eq(value))
    }

    /// States that an `Option` field the update does not change is `None`
    /// now, and makes the update conditional on it
    /// (`attribute_not_exists(attribute)`): the item is then known to be
    /// outside the sparse indexes built from it.
    pub fn given_none<T: Serialize>(mut self, attribute: Attribute<E, T, Optional>) -> Self {
        self.known
            .insert(attribute.name().to_owned(), AttributeValue::Null(true));
        self.condition(attribute.not_exists())
    }

    /// `SET attribute = value`, with `value` encoded as `to_item` encodes the
    /// field; `REMOVE attribute` when `to_item` would store no attribute
    /// for it (an empty set, a value serde skips).
    pub fn set<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        self.actions.push(match attribute.encode(value) {
            Ok(Some(encoded)) => Action::Set(attribute.name(), Ok(encoded)),
            Ok(None) => Action::Remove(attribute.name()),
            Err(reason) => Action::Set(attribute.name(), Err(reason)),
        });
        self
    }

    /// `SET attribute = if_not_exists(attribute, value)`: sets it only when
    /// the item does not have it yet. A value `to_item` stores as no
    /// attribute (an empty set) changes nothing.
    pub fn set_if_not_exists<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        match attribute.encode(value) {
            Ok(Some(encoded)) => self
                .actions
                .push(Action::SetIfNotExists(attribute.name(), Ok(encoded))),
            Ok(None) => {}
            Err(reason) => self
                .actions
                .push(Action::SetIfNotExists(attribute.name(), Err(reason))),
        }
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
        let value = typed_value(&attribute, value, "number to add", |value| {
            matches!(value, AttributeValue::N(_))
        });
        self.actions.push(Action::Add(attribute.name(), value));
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
        let value = typed_value(&attribute, value, "number to subtract", |value| {
            matches!(value, AttributeValue::N(_))
        });
        self.actions.push(Action::Subtract(attribute.name(), value));
        self
    }

    /// `ADD attribute elements` on a set stored as `SS`/`NS`.
    pub fn add_to_set<T: Set + Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        let elements = typed_value(&attribute, elements, "set of elements", is_set);
        self.actions.push(Action::Add(attribute.name(), elements));
        self
    }

    /// `DELETE attribute elements`: removes elements from a set.
    pub fn delete_from_set<T: Set + Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        let elements = typed_value(&attribute, elements, "set of elements", is_set);
        self.actions
            .push(Action::Delete(attribute.name(), elements));
        self
    }

    /// `SET attribute = list_append(if_not_exists(attribute, []), values)`:
    /// appends to a list. The values are encoded as `to_item` encodes the
    /// field (so they are cloned into a `Vec` first).
    pub fn append<X: Serialize + Clone, K: Settable>(
        mut self,
        attribute: Attribute<E, Vec<X>, K>,
        values: &[X],
    ) -> Self {
        let values = typed_value(&attribute, &values.to_vec(), "list to append", |value| {
            matches!(value, AttributeValue::L(_))
        });
        self.actions.push(Action::Append(attribute.name(), values));
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
            actions.push(match E::time_stamp_value(updated_at, now)? {
                Some(value) => Action::Set(updated_at, Ok(value)),
                None => Action::Remove(updated_at),
            });
        }
        // Every value is checked as an item's values are, before sending.
        for action in &actions {
            if let Some(value) = action.value() {
                let value = value
                    .as_ref()
                    .map_err(|reason| Error::InvalidExpressionValue {
                        reason: reason.clone(),
                    })?;
                crate::item::check::check_value(schema.type_name, action.attribute(), value)?;
            }
        }
        let (index_sets, index_removes) = rebuild_indexes::<E>(&actions, &self.known)?;

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
            if expected >= E::max_version() {
                return Err(Error::VersionOverflow {
                    entity: schema.type_name,
                    version: expected,
                });
            }
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
        let update_expression = clauses.join(" ");
        let condition_expression = conditions.join(" AND ");
        crate::expression::check_expression_length("update", &update_expression)?;
        crate::expression::check_expression_length("condition", &condition_expression)?;
        Ok(UpdateRequest {
            key: key.to_attribute_map(),
            update_expression,
            condition_expression,
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
            .set_expression_attribute_names(non_empty(rendered.names))
            .set_expression_attribute_values(non_empty(rendered.values))
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
            .set_expression_attribute_names(non_empty(rendered.names))
            .set_expression_attribute_values(non_empty(rendered.values))
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
                &crate::ItemKey::of::<E>(&key),
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

/// The index attributes to set (with their values) and to remove.
type IndexChanges = (Vec<(&'static str, String)>, Vec<&'static str>);

/// The index attributes an update writes (`SET`, with their values) and
/// removes, rebuilt from what it knows: the values it sets or removes, and
/// `known` (the primary-key fields of `E::update(…)` and `given` values).
///
/// For each index that the update touches (it changes a field of one of its
/// templates):
///
/// - when a field of the index is `None` after the update, both attributes
///   are removed (the item leaves the sparse index);
/// - for a sparse index (one with an `Option` field), every `Option` field
///   must be known, since otherwise the item may or may not be in the index
///   and writing one attribute could leave it half in;
/// - the attributes built from a changed field are rebuilt, and both of
///   them when an `Option` field is set (the item may be entering the
///   index): every field they use must be known.
fn rebuild_indexes<E: Entity>(
    actions: &[Action],
    known_before: &Item,
) -> Result<IndexChanges, Error> {
    let schema = E::SCHEMA;
    let invalid = |reason: String| Error::InvalidUpdate {
        entity: schema.type_name,
        reason,
    };
    // The fields this update gives a value, by attribute; NULL for removed ones.
    let mut changed: Item = HashMap::new();
    let mut unknown: Vec<&'static str> = Vec::new();
    for action in actions {
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
    let mut known = known_before.clone();
    known.extend(
        changed
            .iter()
            .map(|(name, value)| (name.clone(), value.clone())),
    );
    let attribute_of = |field: &str| {
        schema
            .field_attributes
            .iter()
            .find(|known| known.field == field)
    };
    let optional = |attribute: &str| {
        schema
            .field_attributes
            .iter()
            .any(|known| known.attribute == attribute && known.optional)
    };
    let mut index_sets: Vec<(&'static str, String)> = Vec::new();
    let mut index_removes: Vec<&'static str> = Vec::new();
    for index in schema.indexes {
        let parts: Vec<(&'static str, Vec<&'static str>)> = std::iter::once(&index.partition_key)
            .chain(index.sort_key.as_ref())
            .map(|key| {
                let fields = key
                    .template
                    .fields()
                    .filter_map(|field| attribute_of(field).map(|known| known.attribute));
                (key.name, fields.collect())
            })
            .collect();
        let mut all_fields: Vec<&'static str> = Vec::new();
        for field in parts.iter().flat_map(|(_, fields)| fields.iter().copied()) {
            if !all_fields.contains(&field) {
                all_fields.push(field);
            }
        }
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
        let optional_fields: Vec<&'static str> = all_fields
            .iter()
            .copied()
            .filter(|field| optional(field))
            .collect();
        if optional_fields
            .iter()
            .any(|field| matches!(known.get(*field), Some(AttributeValue::Null(_))))
        {
            index_removes.extend(parts.iter().map(|(name, _)| *name));
            continue;
        }
        let enters_index = optional_fields
            .iter()
            .any(|field| changed.contains_key(*field));
        let rebuilt: Vec<&(&'static str, Vec<&'static str>)> = if enters_index {
            parts.iter().collect()
        } else {
            touched
        };
        let mut missing: Vec<String> = Vec::new();
        for field in optional_fields.iter().copied().chain(
            rebuilt
                .iter()
                .flat_map(|(_, fields)| fields.iter().copied()),
        ) {
            if !known.contains_key(field) && !missing.iter().any(|known| known == field) {
                missing.push(field.to_owned());
            }
        }
        if !missing.is_empty() {
            return Err(Error::IncompleteIndexUpdate {
                entity: schema.type_name,
                index: index.name,
                missing,
            });
        }
        for (name, _) in rebuilt {
            match E::key_attribute_from_values(name, &known)? {
                Some(value) => index_sets.push((name, value)),
                None => index_removes.extend(parts.iter().map(|(name, _)| *name)),
            }
        }
    }
    index_removes.dedup();
    Ok((index_sets, index_removes))
}

/// `None` for an empty map: DynamoDB refuses an empty
/// `ExpressionAttributeNames` or `ExpressionAttributeValues`.
fn non_empty<V>(map: HashMap<String, V>) -> Option<HashMap<String, V>> {
    (!map.is_empty()).then_some(map)
}
