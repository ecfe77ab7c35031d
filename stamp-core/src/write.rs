//! Single-item writes: put (with version and time stamps), create, delete,
//! conditional variants, and re-keying.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html>.

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeValue, Delete, Put, ReturnValue, ReturnValuesOnConditionCheckFailure,
    TransactWriteItem,
};
use chrono::Utc;
use tracing::Instrument;

use crate::expression::{Condition, Placeholders};
use crate::{Entity, Error, Item, PrimaryKey, Table, WriteTime};

/// `PK=…, SK=…` for error messages.
pub(crate) fn describe_key<E: Entity>(key: &Item) -> String {
    let schema = E::SCHEMA;
    [schema.partition_key.name, schema.sort_key.name]
        .iter()
        .map(|name| match key.get(*name) {
            Some(AttributeValue::S(value)) => format!("{name}={value}"),
            _ => format!("{name}=?"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Turns a failed conditional write into the typed error its old item
/// explains: no item ([`Error::ItemNotFound`]), another version
/// ([`Error::VersionConflict`]) or the condition ([`Error::ConditionFailed`]);
/// other failures into [`Error::DynamoDb`].
pub(crate) fn conditional_failure<E: Entity, O, R>(
    operation: &'static str,
    table: &Table,
    key: &str,
    expected_version: Option<u64>,
    error: SdkError<O, R>,
    conditional_failure: impl Fn(&O) -> Option<Option<Item>>,
) -> Error
where
    aws_sdk_dynamodb::Error: From<SdkError<O, R>>,
    O: aws_sdk_dynamodb::error::ProvideErrorMetadata,
{
    let schema = E::SCHEMA;
    match error.as_service_error().and_then(conditional_failure) {
        Some(old) => {
            let Some(old) = old else {
                return Error::ItemNotFound {
                    entity: schema.type_name,
                    key: key.to_owned(),
                };
            };
            if let (Some(attribute), Some(expected)) = (schema.version_attribute, expected_version)
            {
                let found = match old.get(attribute) {
                    Some(AttributeValue::N(number)) => number.parse::<u64>().ok(),
                    _ => None,
                };
                if found != Some(expected) {
                    return Error::VersionConflict {
                        entity: schema.type_name,
                        key: key.to_owned(),
                        expected,
                        found,
                    };
                }
            }
            Error::ConditionFailed {
                entity: schema.type_name,
                key: key.to_owned(),
                item: Box::new(old),
            }
        }
        None => Error::dynamodb(operation, table.name(), error),
    }
}

fn span(operation: &'static str, table: &Table, entity: &'static str) -> tracing::Span {
    tracing::debug_span!(
        "stamp.request",
        operation,
        table = table.name(),
        entity,
        index = "",
        item_count = 1,
        consumed_capacity = tracing::field::Empty,
    )
}

/// How a put is guarded.
pub(crate) enum PutMode {
    /// Replaces any item (after the version check, for a versioned entity).
    Replace,
    /// Only when there is no item with the key.
    Create,
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
/// and the condition: `attribute_not_exists(PK)` for a create or a
/// versioned entity at version 0, `version = v` for one at version v, AND
/// `condition`.
pub(crate) fn render_put<E: Entity>(
    entity: &E,
    mode: PutMode,
    condition: Option<&Condition<E>>,
) -> Result<RenderedPut, Error> {
    let schema = E::SCHEMA;
    let creating = matches!(mode, PutMode::Create) || entity.version() == Some(0);
    let mut item = entity.to_item_at(Some(WriteTime {
        now: Utc::now(),
        creating,
    }))?;
    let mut placeholders = Placeholders::default();
    let mut conditions = Vec::new();
    let version = schema.version_attribute.zip(entity.version());
    if let Some((attribute, version)) = version {
        if version >= E::max_version() {
            return Err(Error::VersionOverflow {
                entity: schema.type_name,
                version,
            });
        }
        item.insert(
            attribute.to_owned(),
            AttributeValue::N((version + 1).to_string()),
        );
        if version > 0 {
            let name = placeholders.name(attribute);
            conditions.push(format!(
                "{name} = {}",
                placeholders.add_value(AttributeValue::N(version.to_string()))
            ));
        }
    }
    if creating {
        conditions.push(format!(
            "attribute_not_exists({})",
            placeholders.name(schema.partition_key.name)
        ));
    }
    if let Some(condition) = condition {
        conditions.push(format!("({})", condition.render(&mut placeholders)?));
    }
    let size = crate::wire::check_item(schema, &mut item)?;
    Ok(RenderedPut {
        size,
        item,
        condition: (!conditions.is_empty()).then(|| conditions.join(" AND ")),
        placeholders,
        expected_version: version.map(|(_, version)| version),
    })
}

impl Table {
    async fn put_rendered<E: Entity>(
        &self,
        rendered: RenderedPut,
        creating: bool,
    ) -> Result<(), Error> {
        let key = describe_key::<E>(&rendered.item);
        let result = self
            .client()
            .put_item()
            .table_name(self.name())
            .set_item(Some(rendered.item))
            .set_condition_expression(rendered.condition)
            .set_expression_attribute_names(rendered.placeholders.names())
            .set_expression_attribute_values(rendered.placeholders.values())
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .instrument(span("PutItem", self, E::SCHEMA.type_name))
            .await;
        match result {
            Ok(_) => Ok(()),
            Err(error) => Err(
                match conditional_failure::<E, _, _>(
                    "PutItem",
                    self,
                    &key,
                    rendered.expected_version,
                    error,
                    |error| match error {
                        PutItemError::ConditionalCheckFailedException(failure) => {
                            Some(failure.item.clone())
                        }
                        _ => None,
                    },
                ) {
                    Error::ConditionFailed { entity, key, .. } if creating => {
                        Error::AlreadyExists { entity, key }
                    }
                    Error::ItemNotFound { entity, key }
                        if rendered.expected_version.is_some_and(|version| version > 0) =>
                    {
                        Error::VersionConflict {
                            entity,
                            key,
                            expected: rendered.expected_version.unwrap_or_default(),
                            found: None,
                        }
                    }
                    other => other,
                },
            ),
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
    /// checks ([`Error::ItemTooLarge`], [`Error::InvalidNumber`], …). After:
    /// [`Error::VersionConflict`], [`Error::AlreadyExists`] (version 0 and an
    /// item exists) or [`Error::DynamoDb`].
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
    /// As [`put`](Self::put), and [`Error::AlreadyExists`] when the item is
    /// there.
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
        let result = self
            .client()
            .delete_item()
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
            .send()
            .instrument(span("DeleteItem", self, E::SCHEMA.type_name))
            .await;
        match result {
            Ok(output) => output
                .attributes
                .filter(|item| !item.is_empty())
                .map(E::from_item)
                .transpose(),
            Err(error) => Err(conditional_failure::<E, _, _>(
                "DeleteItem",
                self,
                &describe_key::<E>(&key_map),
                None,
                error,
                |error| match error {
                    DeleteItemError::ConditionalCheckFailedException(failure) => {
                        Some(failure.item.clone())
                    }
                    _ => None,
                },
            )),
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

    /// Moves an item to a new primary key in one `TransactWriteItems`: the
    /// item at `old_key` is deleted (it must exist) and `entity` is put at
    /// its own key (which must be free). Keys are immutable in DynamoDB, so
    /// this is how a key changes.
    ///
    /// # Errors
    ///
    /// The item checks of [`put`](Self::put) before sending; then
    /// [`Error::ItemNotFound`] (nothing at `old_key`),
    /// [`Error::AlreadyExists`] (the new key is taken) or
    /// [`Error::DynamoDb`]. Either way nothing is changed.
    pub async fn rekey<E: Entity>(&self, old_key: &PrimaryKey<E>, entity: &E) -> Result<(), Error> {
        let schema = E::SCHEMA;
        let rendered = render_put(entity, PutMode::Create, None)?;
        let new_key = describe_key::<E>(&rendered.item);
        let old_key_map = old_key.to_attribute_map();
        let delete = Delete::builder()
            .table_name(self.name())
            .set_key(Some(old_key_map.clone()))
            .condition_expression("attribute_exists(#pk)")
            .expression_attribute_names("#pk", schema.partition_key.name)
            .build()
            .expect("table, key and condition are set");
        let put = Put::builder()
            .table_name(self.name())
            .set_item(Some(rendered.item))
            .set_condition_expression(rendered.condition)
            .set_expression_attribute_names(rendered.placeholders.names())
            .set_expression_attribute_values(rendered.placeholders.values())
            .build()
            .expect("table and item are set");
        let result = self
            .client()
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .transact_items(TransactWriteItem::builder().put(put).build())
            .send()
            .instrument(span("TransactWriteItems", self, schema.type_name))
            .await;
        match result {
            Ok(_) => Ok(()),
            Err(error) => {
                let reasons: Vec<Option<String>> = error
                    .as_service_error()
                    .and_then(|service| match service {
                        TransactWriteItemsError::TransactionCanceledException(canceled) => Some(
                            canceled
                                .cancellation_reasons()
                                .iter()
                                .map(|reason| reason.code().map(str::to_owned))
                                .collect(),
                        ),
                        _ => None,
                    })
                    .unwrap_or_default();
                let failed = |position: usize| {
                    reasons.get(position).and_then(Option::as_deref)
                        == Some("ConditionalCheckFailed")
                };
                if failed(0) {
                    Err(Error::ItemNotFound {
                        entity: schema.type_name,
                        key: describe_key::<E>(&old_key_map),
                    })
                } else if failed(1) {
                    Err(Error::AlreadyExists {
                        entity: schema.type_name,
                        key: new_key,
                    })
                } else {
                    Err(Error::dynamodb("TransactWriteItems", self.name(), error))
                }
            }
        }
    }
}
