//! [`Delete`]: a typed `DeleteItem` of one item of an entity.

use super::*;
use crate::error::ItemKey;
use crate::ops::transaction::TransactWrite;

/// A delete of the item with one primary key (`DeleteItem`), built by
/// [`Delete::new`] and sent by [`send`](Self::send) (or
/// [`send_returning_old`](Self::send_returning_old)); [`Table::delete`] is
/// its shortcut, and [`TransactWrite::delete`](crate::TransactWrite::delete)
/// takes it as an action. Deleting a key that holds no item succeeds and
/// changes nothing, unless a condition or an expected version says
/// otherwise.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html>.
///
/// # Example
///
/// ```ignore
/// Delete::new(Order::key("c-1", &created_at, &order_id)?)
///     .expect_version(order.version)
///     .send(&table)
///     .await?;
/// ```
#[must_use = "a Delete does nothing until it is sent"]
#[derive(Debug, Clone)]
pub struct Delete<E> {
    key: PrimaryKey<E>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
}

impl<E: Entity> Delete<E> {
    /// A delete of the item with primary key `key`.
    pub fn new(key: PrimaryKey<E>) -> Self {
        Delete {
            key,
            condition: None,
            expected_version: None,
        }
    }

    /// Requires `condition` of the stored item; given twice, both must
    /// hold.
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(earlier) => earlier.and(condition),
            None => condition,
        });
        self
    }

    /// Deletes only if the stored item is at version `version` of its
    /// `#[stamp(version)]` field (optimistic locking, as a versioned put
    /// checks it). Ignored for an entity without a version field, as
    /// [`Update::expect_version`](crate::Update::expect_version) is.
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// The primary key of the item this delete deletes.
    pub(crate) fn key(&self) -> PrimaryKey<E> {
        self.key.clone()
    }

    /// The key attributes this delete sends.
    pub(crate) fn key_map(&self) -> AttributeMap {
        self.key.to_attribute_map()
    }

    /// The condition of the delete, rendered: the expected version AND the
    /// condition; `None` when there is neither.
    pub(crate) fn placed_condition(&self) -> Result<Option<Placed>, Error> {
        let mut placeholders = Placeholders::default();
        let mut conditions = Vec::new();
        if let (Some(attribute), Some(version)) =
            (E::SCHEMA.version_attribute, self.expected_version)
        {
            conditions.push(placeholders.version_is(attribute, version));
        }
        if let Some(condition) = &self.condition {
            let rendered = condition.render(&mut placeholders)?;
            conditions.push(if conditions.is_empty() {
                rendered
            } else {
                format!("({rendered})")
            });
        }
        Ok((!conditions.is_empty()).then(|| Placed {
            expression: conditions.join(" AND "),
            placeholders,
        }))
    }

    fn input(&self, table_name: &str, return_old: bool) -> Result<DeleteItemInput, Error> {
        let condition = self.placed_condition()?;
        let (expression, placeholders) = match condition {
            Some(placed) => (Some(placed.expression), placed.placeholders),
            None => (None, Placeholders::default()),
        };
        Ok(DeleteItemInput::builder()
            .table_name(table_name)
            .set_key(Some(self.key_map()))
            .set_condition_expression(expression)
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
            .expect("DeleteItemInput has no required fields"))
    }

    /// The exact `DeleteItem` request [`send`](Self::send) sends to the
    /// table named `table_name`, without a network
    /// ([`send_returning_old`](Self::send_returning_old) sends it with
    /// `ReturnValues = ALL_OLD`).
    ///
    /// It asks `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so that a
    /// failed condition returns the item as stored
    /// ([`Error::stored`]): DynamoDB documents "no additional cost …
    /// No read capacity units are consumed" for it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html#DDB-DeleteItem-request-ReturnValuesOnConditionCheckFailure>.
    ///
    /// # Errors
    ///
    /// The errors of the condition, found before sending.
    pub fn request(&self, table_name: &str) -> Result<DeleteItemInput, Error> {
        self.input(table_name, false)
    }

    /// Sends the delete.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of the condition. After:
    /// [`Error::VersionConflict`] when the stored item is not at the
    /// [expected version](Self::expect_version) (`found: None` when there
    /// is no item); [`Error::ConditionFailed`] with the stored item, or
    /// [`Error::ItemNotFound`] when there is none, for a failed
    /// [`condition`](Self::condition); [`Error::OutcomeUnknown`] or
    /// [`Error::DynamoDb`]. Each error that found an item holds it as
    /// stored: [`Error::stored`] decodes it.
    ///
    /// An entity with unique values (`#[stamp(unique)]`) is deleted in one
    /// `TransactWriteItems` with its guard items, after a strongly
    /// consistent read of the item (see
    /// [`TransactWrite::send`](crate::TransactWrite::send)).
    pub async fn send(self, table: &Table) -> Result<(), Error> {
        self.execute(table, false).await.map(|_| ())
    }

    /// Sends the delete and returns the item as it was (`ReturnValues =
    /// ALL_OLD`); `Ok(None)` when there was none.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send), and the errors of [`Entity::from_item`];
    /// [`Refusal::UniqueReturnValues`] for an entity with unique values
    /// (its delete is a transaction with its guards, which returns no
    /// item).
    pub async fn send_returning_old(self, table: &Table) -> Result<Option<E>, Error> {
        self.execute(table, true).await
    }

    async fn execute(&self, table: &Table, return_old: bool) -> Result<Option<E>, Error> {
        if !E::SCHEMA.unique_values.is_empty() {
            return self.execute_with_guards(table, return_old).await;
        }
        let input = self.input(table.name(), return_old)?;
        let key = ItemKey::of::<E>(&self.key_map());
        match table
            .execute(input, Call::of(E::SCHEMA.type_name).items(1))
            .await
        {
            Ok(output) => output
                .attributes
                .filter(|item| !item.is_empty())
                .map(E::from_item)
                .transpose(),
            Err(failure) => conditional_failure::<E, _>(
                table,
                &key,
                self.expected_version,
                failure,
                Effect::Unknown,
                |error| match error {
                    DeleteItemError::ConditionalCheckFailedException(failure) => {
                        Some(failure.item.clone())
                    }
                    _ => None,
                },
            )
            .map(|_| None)
            .map_err(|error| {
                absent_is_version_conflict(
                    error,
                    self.expected_version
                        .filter(|_| E::SCHEMA.version_attribute.is_some()),
                )
            }),
        }
    }
}

impl<E: Entity> Delete<E> {
    /// [`execute`](Self::execute) of an entity with unique values: one
    /// `TransactWriteItems` of the delete and the deletes of its guards
    /// (see [`TransactWrite::send`](crate::TransactWrite::send)), which
    /// returns no item.
    async fn execute_with_guards(
        &self,
        table: &Table,
        return_old: bool,
    ) -> Result<Option<E>, Error> {
        if return_old {
            return Err(Error::Refused(Refusal::UniqueReturnValues {
                entity: E::SCHEMA.type_name,
            }));
        }
        let key = ItemKey::of::<E>(&self.key_map());
        let failure = match TransactWrite::new()
            .delete(Delete {
                key: self.key.clone(),
                condition: self.condition.clone(),
                expected_version: self.expected_version,
            })
            .execute(table)
            .await?
        {
            Ok(()) => return Ok(None),
            Err(failure) => failure,
        };
        conditional_failure::<E, _>(
            table,
            &key,
            self.expected_version,
            failure,
            Effect::Unknown,
            |service| crate::ops::transaction::failed_check(service, 0),
        )
        .map(|_| None)
        .map_err(|error| {
            absent_is_version_conflict(
                error,
                self.expected_version
                    .filter(|_| E::SCHEMA.version_attribute.is_some()),
            )
        })
    }
}

impl<E: Entity> From<PrimaryKey<E>> for Delete<E> {
    /// `Delete::new(key)`.
    fn from(key: PrimaryKey<E>) -> Self {
        Delete::new(key)
    }
}
