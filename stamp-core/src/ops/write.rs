//! Single-item writes: put (with version and time stamps), create, delete
//! and their conditional variants; the rendering of a put, shared with
//! transactions, re-keying and migrations.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html>.

use crate::Refusal;
use aws_sdk_dynamodb::operation::delete_item::{DeleteItemError, DeleteItemInput};
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemInput};
use aws_sdk_dynamodb::types::{
    AttributeValue, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use chrono::Utc;

use crate::expression::{Condition, Placeholders};
use crate::request::collection_metrics;
use crate::request::executor::Call;
use crate::request::failure::{Effect, conditional_failure};
use crate::{Entity, Error, Item, PrimaryKey, Table, WriteTime};

/// How a put is guarded.
pub(crate) enum PutMode {
    /// Replaces any item (after the version check, for a versioned entity).
    Replace,
    /// Only when there is no item with the key.
    Create,
    /// The new key of a re-key: only when there is no item with the key,
    /// `created_at` not stamped (the item keeps its own), and the version
    /// (if the entity has one) set to `from_version + 1`.
    Move {
        /// The version of the item being moved.
        from_version: Option<u64>,
    },
}

/// The item, condition and placeholders of a put of `entity`.
pub(crate) struct RenderedPut {
    pub(crate) item: Item,
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    pub(crate) expected_version: Option<u64>,
    /// The item's size in bytes.
    pub(crate) size: usize,
}

/// Renders a put: the stamped, checked item with its version incremented,
/// and the condition: `attribute_not_exists(PK)` for a create, a move or a
/// versioned entity at version 0, `version = v` for one at version v (not
/// for a move: its new key holds no item), AND `condition`.
pub(crate) fn render_put<E: Entity>(
    entity: &E,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<RenderedPut, Error> {
    let schema = E::SCHEMA;
    let (stamp_created, must_be_absent, version) = match mode {
        PutMode::Replace => {
            let creating = entity.version() == Some(0);
            (creating, creating, entity.version())
        }
        PutMode::Create => (true, true, entity.version()),
        PutMode::Move { from_version } => (false, true, from_version),
    };
    let checks_version = !matches!(mode, PutMode::Move { .. });
    let mut item = entity.to_item_at(Some(WriteTime {
        now: Utc::now(),
        creating: stamp_created,
    }))?;
    let mut placeholders = Placeholders::default();
    let mut conditions = Vec::new();
    let version = schema.version_attribute.zip(version);
    if let Some((attribute, version)) = version {
        if version >= E::max_version() {
            return Err(Error::Refused(Refusal::VersionOverflow {
                entity: schema.type_name,
                version,
            }));
        }
        item.insert(
            attribute.to_owned(),
            AttributeValue::N((version + 1).to_string()),
        );
        if version > 0 && checks_version {
            let name = placeholders.name(attribute);
            conditions.push(format!(
                "{name} = {}",
                placeholders.add_value(AttributeValue::N(version.to_string()))
            ));
        }
    }
    if must_be_absent {
        conditions.push(format!(
            "attribute_not_exists({})",
            placeholders.name(schema.partition_key.name)
        ));
    }
    if let Some(condition) = condition {
        conditions.push(format!("({})", condition.render(&mut placeholders)?));
    }
    let size = crate::item::check::check_item(schema, &mut item)?;
    Ok(RenderedPut {
        size,
        item,
        condition: (!conditions.is_empty()).then(|| conditions.join(" AND ")),
        placeholders,
        expected_version: version
            .filter(|_| checks_version)
            .map(|(_, version)| version),
    })
}

/// A condition expression with its placeholders.
#[derive(Clone)]
pub(crate) struct Placed {
    pub(crate) expression: String,
    pub(crate) placeholders: Placeholders,
}

/// The condition that the stored item is still `item`: each of its
/// attributes equal, and every other attribute the entity writes (fields,
/// index attributes, TTL) absent. Key migrations and [`Table::rekey`] guard
/// the delete of the old key with it. The caller checks its length against
/// DynamoDB's 4 KB ([`crate::expression::MAX_EXPRESSION_BYTES`]).
pub(crate) fn unchanged_condition(schema: &crate::EntitySchema, item: &Item) -> Placed {
    let mut placeholders = Placeholders::default();
    let mut names: Vec<&String> = item.keys().collect();
    names.sort();
    let mut parts = Vec::with_capacity(names.len());
    for name in names {
        let name_placeholder = placeholders.name(name);
        let value = placeholders.add_value(item[name].clone());
        parts.push(format!("{name_placeholder} = {value}"));
    }
    let mut absent: Vec<&str> = schema
        .field_attributes
        .iter()
        .map(|field| field.attribute)
        .chain(schema.index_key_attributes())
        .chain(schema.ttl_attribute)
        .filter(|name| !item.contains_key(*name))
        .collect();
    absent.sort_unstable();
    absent.dedup();
    for name in absent {
        parts.push(format!("attribute_not_exists({})", placeholders.name(name)));
    }
    Placed {
        expression: parts.join(" AND "),
        placeholders,
    }
}

impl Table {
    async fn put_rendered<E: Entity>(
        &self,
        rendered: RenderedPut,
        creating: bool,
    ) -> Result<(), Error> {
        let key = crate::ItemKey::of::<E>(&rendered.item);
        let sent = rendered.item.clone();
        let input = PutItemInput::builder()
            .table_name(self.name())
            .set_item(Some(rendered.item))
            .set_condition_expression(rendered.condition)
            .set_expression_attribute_names(rendered.placeholders.names())
            .set_expression_attribute_values(rendered.placeholders.values())
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .set_return_item_collection_metrics(collection_metrics::requested(E::SCHEMA))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("PutItemInput has no required fields");
        let failure = match self
            .execute(input, Call::of(E::SCHEMA.type_name).items(1))
            .await
        {
            Ok(_) => return Ok(()),
            Err(failure) => failure,
        };
        let outcome = conditional_failure::<E, _>(
            "PutItem",
            self,
            &key,
            rendered.expected_version,
            failure,
            Effect::Item(&sent),
            |error| match error {
                PutItemError::ConditionalCheckFailedException(failure) => {
                    Some(failure.item.clone())
                }
                _ => None,
            },
        );
        match outcome {
            Ok(_) => Ok(()),
            // `create` promises `AlreadyExists` whenever an item is there,
            // also of a versioned entity (whose stored version would
            // otherwise make it a version conflict).
            Err(
                Error::ConditionFailed { entity, key, .. }
                | Error::VersionConflict { entity, key, .. },
            ) if creating => Err(Error::AlreadyExists { entity, key }),
            Err(Error::ItemNotFound { entity, key })
                if rendered.expected_version.is_some_and(|version| version > 0) =>
            {
                Err(Error::VersionConflict {
                    entity,
                    key,
                    expected: rendered.expected_version.unwrap_or_default(),
                    found: None,
                })
            }
            Err(other) => Err(other),
        }
    }

    /// Writes `entity` with `PutItem`, replacing any item with its key.
    ///
    /// - `#[stamp(updated_at)]` is set to now (and `created_at` too when the
    ///   entity's version is 0), in the attribute and in the index
    ///   attributes built from it.
    /// - With a `#[stamp(version)]` field at version `v`, the put succeeds
    ///   only if the stored item has version `v` (or, for `v = 0`, there is
    ///   no item), and stores `v + 1`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html>.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of [`Entity::to_item`] and of the item
    /// checks ([`Refusal::ItemTooLarge`](crate::Refusal::ItemTooLarge), [`Refusal::InvalidNumber`](crate::Refusal::InvalidNumber), …). After:
    /// [`Error::VersionConflict`] when the entity is versioned and the
    /// stored item is not at its version, with the version found: `found:
    /// Some(n)` when an item is there (at version 0 too: a put at version
    /// 0 expects no item, and another writer's item is a lost race of
    /// optimistic locking like any other, handled by reloading, so it is
    /// not [`Error::AlreadyExists`], which only [`create`](Self::create)
    /// returns), `found: None` when there is none at a version above 0;
    /// or [`Error::DynamoDb`].
    pub async fn put<E: Entity>(&self, entity: &E) -> Result<(), Error> {
        let rendered = render_put(entity, PutMode::Replace, None)?;
        self.put_rendered::<E>(rendered, false).await
    }

    /// [`put`](Self::put) only if `condition` holds for the stored item
    /// (which must exist for most conditions to hold).
    ///
    /// # Errors
    ///
    /// As [`put`](Self::put), and [`Error::ConditionFailed`] with the stored
    /// item, or [`Error::ItemNotFound`] when there is none.
    pub async fn put_if<E: Entity>(
        &self,
        entity: &E,
        condition: Condition<E>,
    ) -> Result<(), Error> {
        let rendered = render_put(entity, PutMode::Replace, Some(&condition))?;
        self.put_rendered::<E>(rendered, false).await
    }

    /// Writes `entity` only if no item has its key
    /// (`attribute_not_exists` on the partition key): an idempotent create.
    /// `created_at` and `updated_at` are stamped.
    ///
    /// # Errors
    ///
    /// As [`put`](Self::put), and [`Error::AlreadyExists`] when an item
    /// with the key is there, whatever its version (a versioned entity
    /// too: create's promise is "only if absent").
    pub async fn create<E: Entity>(&self, entity: &E) -> Result<(), Error> {
        let rendered = render_put(entity, PutMode::Create, None)?;
        self.put_rendered::<E>(rendered, true).await
    }

    async fn delete_item<E: Entity>(
        &self,
        key: &PrimaryKey<E>,
        condition: Option<&Condition<E>>,
        return_old: bool,
    ) -> Result<Option<E>, Error> {
        let mut placeholders = Placeholders::default();
        let condition = condition
            .map(|condition| condition.render(&mut placeholders))
            .transpose()?;
        let key_map = key.to_attribute_map();
        let input = DeleteItemInput::builder()
            .table_name(self.name())
            .set_key(Some(key_map.clone()))
            .set_condition_expression(condition)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .return_values(if return_old {
                ReturnValue::AllOld
            } else {
                ReturnValue::None
            })
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .set_return_item_collection_metrics(collection_metrics::requested(E::SCHEMA))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("DeleteItemInput has no required fields");
        match self
            .execute(input, Call::of(E::SCHEMA.type_name).items(1))
            .await
        {
            Ok(output) => output
                .attributes
                .filter(|item| !item.is_empty())
                .map(E::from_item)
                .transpose(),
            Err(failure) => conditional_failure::<E, _>(
                "DeleteItem",
                self,
                &crate::ItemKey::of::<E>(&key_map),
                None,
                failure,
                Effect::Unknown,
                |error| match error {
                    DeleteItemError::ConditionalCheckFailedException(failure) => {
                        Some(failure.item.clone())
                    }
                    _ => None,
                },
            )
            .map(|_| None),
        }
    }

    /// Deletes the item with `key`, if there is one.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html>.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`].
    pub async fn delete<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<(), Error> {
        self.delete_item(key, None, false).await.map(|_| ())
    }

    /// Deletes the item with `key` and returns it as it was (`ReturnValues =
    /// ALL_OLD`); `Ok(None)` when there was none.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`], and the errors of [`Entity::from_item`].
    pub async fn delete_returning_old<E: Entity>(
        &self,
        key: &PrimaryKey<E>,
    ) -> Result<Option<E>, Error> {
        self.delete_item(key, None, true).await
    }

    /// Deletes the item with `key` only if `condition` holds.
    ///
    /// # Errors
    ///
    /// [`Error::ConditionFailed`] with the stored item, [`Error::ItemNotFound`]
    /// when there is none, [`Error::DynamoDb`].
    pub async fn delete_if<E: Entity>(
        &self,
        key: &PrimaryKey<E>,
        condition: Condition<E>,
    ) -> Result<(), Error> {
        self.delete_item(key, Some(&condition), false)
            .await
            .map(|_| ())
    }
}
