//! An update rendered to DynamoDB's expressions: `SET`, `REMOVE`, `ADD` and
//! `DELETE` clauses, index attributes, and the condition.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

use super::Update;
use super::indexes::rebuild_indexes;
use super::values::{Action, Value};
use crate::error::ItemKey;
use crate::error::Refusal;
use crate::error::{Error, VectorError};
use crate::expression::{Path, Placeholders};
use crate::model::entity::{AttributeMap, Entity};
use crate::model::vector::check_stored_vector;

/// A rendered `UpdateItem`, without the table name.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UpdateRequest {
    /// The primary key.
    pub key: AttributeMap,
    /// The `UpdateExpression`.
    pub update_expression: String,
    /// The `ConditionExpression`; empty for none (an upsert without
    /// conditions).
    pub condition_expression: String,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
}

impl<E: Entity> Update<E> {
    /// The update rendered at time `now`, without a network, and what it
    /// stores when applied.
    ///
    /// # Errors
    ///
    /// A key error; [`Refusal::InvalidUpdate`] (nothing to update, an empty
    /// set, the version set by hand); [`Refusal::MissingExpectedVersion`];
    /// [`Refusal::IncompleteIndexUpdate`]; [`Refusal::InvalidExpressionValue`].
    pub(super) fn render_with_effect(
        &self,
        now: DateTime<Utc>,
    ) -> Result<(UpdateRequest, UpdateEffect), Error> {
        let key = self.key.as_ref().map_err(Clone::clone)?;
        let actions = self.checked_actions(now)?;
        let key_fields: Vec<&str> = if self.upsert {
            self.key_values.keys().map(String::as_str).collect()
        } else {
            Vec::new()
        };
        let (index_sets, index_removes) =
            rebuild_indexes::<E>(&actions, &self.known, key, &key_fields)?;
        let effect =
            UpdateEffect::of::<E>(&actions, &index_sets, &index_removes, self.expected_version);
        let mut placeholders = Placeholders::default();
        let Clauses {
            mut sets,
            mut removes,
            mut adds,
            deletes,
        } = Clauses::of(&actions, &mut placeholders)?;
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
        let condition_expression = self.condition_expression(&mut placeholders, &mut adds)?;
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
        crate::expression::check_expression_length("update", &update_expression)?;
        crate::expression::check_expression_length("condition", &condition_expression)?;
        Ok((
            UpdateRequest {
                key: key.to_attribute_map(),
                update_expression,
                condition_expression,
                names: placeholders.names().unwrap_or_default(),
                values: placeholders.values().unwrap_or_default(),
            },
            effect,
        ))
    }

    /// The actions to render: refused when empty, when one attribute is
    /// changed twice or the version set by hand; `updated_at` stamped;
    /// every value checked as an item's values are.
    fn checked_actions(&self, now: DateTime<Utc>) -> Result<Vec<Action>, Error> {
        let schema = E::SCHEMA;
        let invalid = |reason: crate::error::UpdateReason| {
            Error::Refused(Refusal::InvalidUpdate {
                entity: schema.type_name,
                reason,
            })
        };
        // An upsert with no action of its own still writes the key fields
        // and the type (it creates the item when absent).
        if self.actions.is_empty() && !self.upsert {
            return Err(invalid(crate::error::UpdateReason::ChangesNothing));
        }
        let mut actions = self.actions.clone();
        // DynamoDB refuses two actions on one path, or on a path and a
        // path inside it ("Two document paths overlap").
        for (position, action) in actions.iter().enumerate() {
            if actions[..position]
                .iter()
                .any(|earlier| earlier.path().overlaps(action.path()))
            {
                return Err(invalid(crate::error::UpdateReason::ChangedTwice {
                    attribute: action.attribute(),
                }));
            }
        }
        if let Some(version) = schema.version_attribute
            && actions.iter().any(|action| action.attribute() == version)
        {
            return Err(invalid(crate::error::UpdateReason::SetsVersion {
                attribute: version,
            }));
        }
        if let Some(updated_at) = schema.updated_at_attribute
            && !actions
                .iter()
                .any(|action| action.attribute() == updated_at)
        {
            actions.push(match E::time_stamp_value(updated_at, now)? {
                Some(value) => Action::Set(Path::top(updated_at), Ok(value)),
                None => Action::Remove(Path::top(updated_at)),
            });
        }
        if self.upsert {
            self.upsert_actions(&mut actions, now)?;
        }
        // A path inside an attribute an index reads (a vector, a key
        // attribute of a multi-attribute GSI) would change the index
        // without the checks of the whole value.
        for action in actions.iter().filter(|action| action.path().is_nested()) {
            let attribute = action.attribute();
            let indexed = schema.index_key_field(attribute).is_some()
                || schema.indexes.iter().any(|index| {
                    index
                        .vector()
                        .is_some_and(|vector| vector.attribute == attribute)
                });
            if indexed {
                return Err(invalid(
                    crate::error::UpdateReason::PathIntoIndexAttribute {
                        attribute,
                        path: action.path().to_string(),
                    },
                ));
            }
        }
        // Every value is checked as an item's values are, before sending.
        for action in &actions {
            if let Some(value) = action.value() {
                let value = value.as_ref().map_err(|reason| {
                    Error::Refused(Refusal::InvalidExpressionValue {
                        detail: reason.clone(),
                    })
                })?;
                // A vector of a vector index: its dimensions, finite elements.
                for index in schema.indexes.iter().filter(|index| {
                    index
                        .vector()
                        .is_some_and(|vector| vector.attribute == action.attribute())
                }) {
                    check_stored_vector(index, schema.type_name, Some(value))
                        .map_err(VectorError::into_error)?;
                }
                crate::item::check::check_value(schema.type_name, action.attribute(), value)?;
                // A field of a multi-attribute GSI key is a key attribute:
                // of its type, never empty, within the key length limits.
                if let Some((field, _)) = schema.index_key_field(action.attribute()) {
                    crate::item::check::check_index_key_value(
                        schema,
                        field.attribute,
                        field.attribute_type,
                        value,
                    )?;
                }
            }
        }
        Ok(actions)
    }

    /// The condition: the item exists (not for an upsert), the expected
    /// version (whose `ADD` joins `adds`; an upsert's also admits an absent
    /// item), and the user's condition. Empty when there is none.
    fn condition_expression(
        &self,
        placeholders: &mut Placeholders,
        adds: &mut Vec<String>,
    ) -> Result<String, Error> {
        let schema = E::SCHEMA;
        let mut conditions = Vec::new();
        // An upsert creates the item when it is absent; an update must not.
        if !self.upsert {
            conditions.push(format!(
                "attribute_exists({})",
                placeholders.name(schema.partition_key.name)
            ));
        }
        if let Some(version) = schema.version_attribute {
            let expected =
                self.expected_version
                    .ok_or(Error::Refused(Refusal::MissingExpectedVersion {
                        entity: schema.type_name,
                    }))?;
            if expected >= E::max_version() {
                return Err(Error::Refused(Refusal::VersionOverflow {
                    entity: schema.type_name,
                    version: expected,
                }));
            }
            let check = placeholders.version_is(version, expected);
            conditions.push(if self.upsert {
                format!(
                    "(attribute_not_exists({}) OR {check})",
                    placeholders.name(schema.partition_key.name)
                )
            } else {
                check
            });
            let name = placeholders.name(version);
            adds.push(format!(
                "{name} {}",
                placeholders.add_value(AttributeValue::N("1".to_owned()))
            ));
        }
        if let Some(condition) = &self.condition {
            conditions.push(format!("({})", condition.render(placeholders)?));
        }
        Ok(conditions.join(" AND "))
    }

    /// The update as a transaction action, rendered at its time
    /// ([`Update::at`], or `now`), for `TransactWrite::update`. It keeps the
    /// `attribute_exists` guard (none for an upsert) and the version check.
    ///
    /// # Errors
    ///
    /// The errors of [`Update::request`].
    pub(crate) fn to_action(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<crate::ops::transaction::UpdateAction, Error> {
        let (rendered, _) = self.render_with_effect(self.stamped_at(now))?;
        Ok(crate::ops::transaction::UpdateAction {
            item_key: ItemKey::of::<E>(&rendered.key),
            key: rendered.key,
            update_expression: rendered.update_expression,
            condition_expression: Some(rendered.condition_expression)
                .filter(|condition| !condition.is_empty()),
            names: rendered.names,
            values: rendered.values,
            entity: E::SCHEMA.type_name,
            unique: self.unique_write()?,
        })
    }
}

/// What an update stores when it is applied, as far as the stored item can
/// show it; and whether sending it twice is sending it once.
#[derive(Debug, Clone)]
pub(super) struct UpdateEffect {
    /// The attributes it sets (`Some`) or removes (`None`), with the
    /// version it stores; `None` when an action's result depends on the
    /// stored item (`ADD`, `list_append`, `if_not_exists`, a subtraction,
    /// a set `DELETE`).
    pub(super) attributes: Option<Vec<(&'static str, Option<AttributeValue>)>>,
    /// No `ADD` of a number, subtraction or append: applying it twice
    /// leaves what applying it once leaves.
    pub(super) idempotent: bool,
}

impl UpdateEffect {
    fn of<E: Entity>(
        actions: &[Action],
        index_sets: &[(&'static str, String)],
        index_removes: &[&'static str],
        expected_version: Option<u64>,
    ) -> Self {
        let idempotent = !actions.iter().any(|action| {
            matches!(
                action,
                Action::Add(_, Ok(AttributeValue::N(_)))
                    | Action::Subtract(..)
                    | Action::Append(..)
                    | Action::Prepend(..)
            )
        });
        let mut attributes = Vec::new();
        for action in actions {
            match action {
                // A path below a top-level attribute leaves the rest of
                // it as stored: its result depends on the stored item.
                Action::Set(path, Ok(value)) if !path.is_nested() => {
                    attributes.push((path.top_name(), Some(value.clone())));
                }
                Action::Remove(path) if !path.is_nested() => {
                    attributes.push((path.top_name(), None));
                }
                _ => {
                    return UpdateEffect {
                        attributes: None,
                        idempotent,
                    };
                }
            }
        }
        for (name, text) in index_sets {
            attributes.push((*name, Some(AttributeValue::S(text.clone()))));
        }
        attributes.extend(index_removes.iter().map(|name| (*name, None)));
        if let (Some(version), Some(expected)) = (E::SCHEMA.version_attribute, expected_version) {
            // (A version at its maximum is refused before sending.)
            let next = expected.saturating_add(1);
            attributes.push((version, Some(AttributeValue::N(next.to_string()))));
        }
        UpdateEffect {
            attributes: Some(attributes),
            idempotent,
        }
    }
}

/// The clauses of an update's actions, in placeholders.
struct Clauses {
    sets: Vec<String>,
    removes: Vec<String>,
    adds: Vec<String>,
    deletes: Vec<String>,
}

impl Clauses {
    fn of(actions: &[Action], placeholders: &mut Placeholders) -> Result<Clauses, Error> {
        let value = |placeholders: &mut Placeholders, value: &Value| -> Result<String, Error> {
            let value = value
                .clone()
                .map_err(|detail| Error::Refused(Refusal::InvalidExpressionValue { detail }))?;
            Ok(placeholders.add_value(value))
        };
        let (mut sets, mut removes, mut adds, mut deletes) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for action in actions {
            let name = action.path().render(placeholders)?;
            match action {
                Action::Set(_, v) => sets.push(format!("{name} = {}", value(placeholders, v)?)),
                Action::SetIfNotExists(_, v) => {
                    sets.push(format!(
                        "{name} = if_not_exists({name}, {})",
                        value(placeholders, v)?
                    ));
                }
                Action::Append(_, v) => {
                    let empty = placeholders.add_value(AttributeValue::L(Vec::new()));
                    sets.push(format!(
                        "{name} = list_append(if_not_exists({name}, {empty}), {})",
                        value(placeholders, v)?
                    ));
                }
                Action::Prepend(_, v) => {
                    let values = value(placeholders, v)?;
                    let empty = placeholders.add_value(AttributeValue::L(Vec::new()));
                    sets.push(format!(
                        "{name} = list_append({values}, if_not_exists({name}, {empty}))"
                    ));
                }
                Action::Remove(_) => removes.push(name),
                Action::Add(_, v) => adds.push(format!("{name} {}", value(placeholders, v)?)),
                // From 0 when the attribute is absent, as `ADD` does, so
                // an update and an upsert agree.
                Action::Subtract(_, v) => {
                    let zero = placeholders.add_value(AttributeValue::N("0".to_owned()));
                    sets.push(format!(
                        "{name} = if_not_exists({name}, {zero}) - {}",
                        value(placeholders, v)?
                    ))
                }
                Action::Delete(_, v) => deletes.push(format!("{name} {}", value(placeholders, v)?)),
            }
        }
        Ok(Clauses {
            sets,
            removes,
            adds,
            deletes,
        })
    }
}

/// `None` for an empty map: DynamoDB refuses an empty
/// `ExpressionAttributeNames` or `ExpressionAttributeValues`.
pub(super) fn non_empty<V>(map: HashMap<String, V>) -> Option<HashMap<String, V>> {
    (!map.is_empty()).then_some(map)
}
