//! [`TransactWrite`]: `TransactWriteItems` over any entities of one table.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsInput,
};
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
    ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};

use super::{Action, Kind, Rendered, UpdateAction, check_actions, failure, split};
use crate::expression::Condition;
use crate::item::size::{MAX_TRANSACTION_BYTES, attribute_value_size, item_size};
use crate::ops::write::{PutMode, render_put};
use crate::request::executor::Call;
use crate::request::span::common_entity;
use crate::{Entity, Error, PrimaryKey, Table};

/// A write transaction on one table, over any entities, built by
/// [`TransactWrite::new`]: all its actions succeed together or none is
/// applied. Nothing is sent until [`send`](Self::send).
///
/// Refused before sending: no action, more than 100 actions, more than
/// 4 MB, two actions on one item, and items that [`check_item`](crate::check_item)
/// refuses.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
///
/// # Example
///
/// ```ignore
/// TransactWrite::new()
///     .create(&order)                                   // fails if it exists
///     .check(Customer::key("c-1")?, Customer::BLOCKED.ne(&true))
///     .delete_if(Cart::key("c-1")?, Cart::ITEMS.size().gt(0))
///     .client_request_token(order.order_id.to_string())
///     .return_old_items_on_failure()
///     .send(&table)
///     .await?;
/// ```
#[derive(Debug, Clone)]
pub struct TransactWrite {
    actions: Vec<Action>,
    error: Option<Error>,
    client_request_token: Option<String>,
    return_old_items: bool,
    /// Whether to ask for `ReturnItemCollectionMetrics = SIZE`: an action
    /// writes an entity with an LSI, or
    /// [`item_collection_metrics`](Self::item_collection_metrics) was called.
    item_collection_metrics: bool,
}

impl Default for TransactWrite {
    fn default() -> Self {
        TransactWrite::new()
    }
}

impl TransactWrite {
    /// An empty write transaction: add actions, then [`send`](Self::send) it
    /// to a table.
    pub fn new() -> Self {
        TransactWrite {
            actions: Vec::new(),
            error: None,
            client_request_token: None,
            return_old_items: false,
            item_collection_metrics: false,
        }
    }

    fn keep_error(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Adds a put rendered as [`Table::put`] renders it: time stamps, the
    /// version check and increment, and the guard of `mode`, AND `condition`.
    fn add_put<E: Entity>(
        mut self,
        entity: &E,
        mode: PutMode,
        condition: Option<&Condition<E>>,
    ) -> Self {
        match render_put(entity, mode, condition) {
            Ok(rendered) => {
                let condition = rendered.condition.map(|expression| Rendered {
                    expression,
                    names: rendered.placeholders.names(),
                    values: rendered.placeholders.values(),
                });
                let size = rendered.size + condition.as_ref().map_or(0, Rendered::values_size);
                self.item_collection_metrics |= E::SCHEMA.has_local_index();
                self.actions.push(Action {
                    entity: E::SCHEMA.type_name,
                    key: crate::item::check::key_of(E::SCHEMA, &rendered.item),
                    size,
                    kind: Kind::Put {
                        item: rendered.item,
                        condition,
                    },
                });
            }
            Err(error) => self.keep_error(error),
        }
        self
    }

    /// Adds a put of `entity`, replacing any item with its primary key
    /// (stamping `updated_at`, and checking and incrementing a
    /// `#[stamp(version)]` as [`Table::put`] does).
    pub fn put<E: Entity>(self, entity: &E) -> Self {
        self.add_put(entity, PutMode::Replace, None)
    }

    /// Adds a put of `entity` that requires `condition` of the item it
    /// replaces.
    pub fn put_if<E: Entity>(self, entity: &E, condition: Condition<E>) -> Self {
        self.add_put(entity, PutMode::Replace, Some(&condition))
    }

    /// Adds a put of `entity` that requires that no item has its primary key
    /// (`attribute_not_exists(<partition key attribute>)`): with a
    /// client-generated id, sending it again is harmless. `created_at` and
    /// `updated_at` are stamped.
    pub fn create<E: Entity>(self, entity: &E) -> Self {
        self.add_put(entity, PutMode::Create, None)
    }

    fn add_keyed<E: Entity>(mut self, key: PrimaryKey<E>, kind: Result<Kind, Error>) -> Self {
        match kind {
            Ok(kind) => {
                let map = key.to_attribute_map();
                let condition_size = match &kind {
                    Kind::Delete {
                        condition: Some(condition),
                    }
                    | Kind::Check { condition } => condition.values_size(),
                    _ => 0,
                };
                self.item_collection_metrics |= E::SCHEMA.has_local_index();
                self.actions.push(Action {
                    entity: E::SCHEMA.type_name,
                    size: item_size(&map) + condition_size,
                    key: map,
                    kind,
                });
            }
            Err(error) => self.keep_error(error),
        }
        self
    }

    /// Adds a delete of the item with primary key `key` (nothing happens to
    /// the table when there is none).
    pub fn delete<E: Entity>(self, key: PrimaryKey<E>) -> Self {
        self.add_keyed(key, Ok(Kind::Delete { condition: None }))
    }

    /// Adds a delete of the item with primary key `key` that requires
    /// `condition` of it.
    pub fn delete_if<E: Entity>(self, key: PrimaryKey<E>, condition: Condition<E>) -> Self {
        let kind = Rendered::of(&condition).map(|condition| Kind::Delete {
            condition: Some(condition),
        });
        self.add_keyed(key, kind)
    }

    /// Adds a condition check: the transaction goes through only if the
    /// item with primary key `key` meets `condition`. Nothing is written to
    /// it.
    pub fn check<E: Entity>(self, key: PrimaryKey<E>, condition: Condition<E>) -> Self {
        let kind = Rendered::of(&condition).map(|condition| Kind::Check { condition });
        self.add_keyed(key, kind)
    }

    /// Adds an update, already rendered.
    ///
    /// **Integration point of the typed update builder:** it renders its
    /// update into an [`UpdateAction`] and passes it here; nothing else of a
    /// transaction depends on how the update was built. Its values are
    /// checked like an item's ([`check_value`](crate::check_value)).
    pub fn update(mut self, update: UpdateAction) -> Self {
        for (placeholder, value) in &update.values {
            if let Err(error) = crate::item::check::check_value(update.entity, placeholder, value) {
                self.keep_error(error);
                return self;
            }
        }
        let size = item_size(&update.key)
            + update
                .values
                .values()
                .map(attribute_value_size)
                .sum::<usize>();
        self.actions.push(Action {
            entity: update.entity,
            key: update.key.clone(),
            size,
            kind: Kind::Update(update),
        });
        self
    }

    /// Asks DynamoDB for the size of the item collections the transaction
    /// writes (`ReturnItemCollectionMetrics = SIZE`), so that
    /// [`Table::warn_item_collection_above_gb`] can warn. A put, create,
    /// delete or check of an entity with a local secondary index asks by
    /// itself; an [`UpdateAction`] does not say its entity's indexes, so a
    /// transaction whose only writes to such an entity are updates calls
    /// this.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
    pub fn item_collection_metrics(mut self) -> Self {
        self.item_collection_metrics = true;
        self
    }

    /// Sets the client request token, 1 to 36 characters: DynamoDB applies
    /// a transaction with the same token and the same actions only once
    /// within 10 minutes, so a retry after a timeout is safe. Without one,
    /// each [`send`](Self::send) makes its own (a UUID), which the SDK's
    /// retries of that send reuse; give your own to make your own retries
    /// (a new `send` of the same transaction) safe too.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#DDB-TransactWriteItems-request-ClientRequestToken>.
    pub fn client_request_token(mut self, token: impl Into<String>) -> Self {
        self.client_request_token = Some(token.into());
        self
    }

    /// Asks DynamoDB to return, for each action whose condition fails, the
    /// item as it was (`ReturnValuesOnConditionCheckFailure = ALL_OLD`), in
    /// [`CancellationReason::old_item`].
    pub fn return_old_items_on_failure(mut self) -> Self {
        self.return_old_items = true;
        self
    }

    /// The number of actions.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether the transaction has no action.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The `TransactItems` [`send`](Self::send) would send to the table
    /// named `table_name`, without a network.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn request(&self, table_name: &str) -> Result<Vec<TransactWriteItem>, Error> {
        self.validate()?;
        Ok(self
            .actions
            .iter()
            .map(|action| self.item(table_name, action))
            .collect())
    }

    fn validate(&self) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        check_actions(
            self.actions
                .iter()
                .map(|action| (action.entity, &action.key)),
        )?;
        if let Some(token) = &self.client_request_token {
            let length = token.chars().count();
            if !(1..=36).contains(&length) {
                return Err(Error::InvalidClientRequestToken {
                    token: token.clone(),
                });
            }
        }
        let size: usize = self.actions.iter().map(|action| action.size).sum();
        if size > MAX_TRANSACTION_BYTES {
            return Err(Error::TransactionTooLarge {
                size,
                limit: MAX_TRANSACTION_BYTES,
            });
        }
        Ok(())
    }

    fn item(&self, table: &str, action: &Action) -> TransactWriteItem {
        let on_failure = self
            .return_old_items
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let builder = TransactWriteItem::builder();
        match &action.kind {
            Kind::Put { item, condition } => {
                let on_failure = condition.as_ref().and(on_failure);
                let (expression, names, values) = split(condition.clone());
                builder.put(
                    Put::builder()
                        .table_name(table)
                        .set_item(Some(item.clone()))
                        .set_condition_expression(expression)
                        .set_expression_attribute_names(names)
                        .set_expression_attribute_values(values)
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table and item are set"),
                )
            }
            Kind::Delete { condition } => {
                let on_failure = condition.as_ref().and(on_failure);
                let (expression, names, values) = split(condition.clone());
                builder.delete(
                    Delete::builder()
                        .table_name(table)
                        .set_key(Some(action.key.clone()))
                        .set_condition_expression(expression)
                        .set_expression_attribute_names(names)
                        .set_expression_attribute_values(values)
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table and key are set"),
                )
            }
            Kind::Check { condition } => builder.condition_check(
                ConditionCheck::builder()
                    .table_name(table)
                    .set_key(Some(action.key.clone()))
                    .condition_expression(condition.expression.clone())
                    .set_expression_attribute_names(condition.names.clone())
                    .set_expression_attribute_values(condition.values.clone())
                    .set_return_values_on_condition_check_failure(on_failure)
                    .build()
                    .expect("table, key and condition are set"),
            ),
            Kind::Update(update) => {
                let on_failure = update.condition_expression.as_ref().and(on_failure);
                builder.update(
                    Update::builder()
                        .table_name(table)
                        .set_key(Some(update.key.clone()))
                        .update_expression(update.update_expression.clone())
                        .set_condition_expression(update.condition_expression.clone())
                        .set_expression_attribute_names(
                            (!update.names.is_empty()).then(|| update.names.clone()),
                        )
                        .set_expression_attribute_values(
                            (!update.values.is_empty()).then(|| update.values.clone()),
                        )
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table, key and update expression are set"),
                )
            }
        }
        .build()
    }

    /// Sends the transaction with `TransactWriteItems`.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of making an item or rendering a
    /// condition, [`Error::EmptyTransaction`],
    /// [`Error::TooManyTransactionActions`],
    /// [`Error::DuplicateTransactionItem`],
    /// [`Error::InvalidClientRequestToken`] and
    /// [`Error::TransactionTooLarge`]. After:
    /// [`Error::TransactionCanceled`] with a reason per action, and
    /// [`Error::DynamoDb`] for other errors.
    pub async fn send(self, table: &Table) -> Result<(), Error> {
        let name = table.name();
        let items = self.request(name)?;
        let entity = common_entity(self.actions.iter().map(|action| action.entity));
        let count = items.len();
        let input = TransactWriteItemsInput::builder()
            .set_transact_items(Some(items))
            // Without a token of the caller's, one of this send: the SDK's
            // retry of an attempt that may have been applied sends the same
            // token, and DynamoDB applies the transaction once.
            .client_request_token(
                self.client_request_token
                    .clone()
                    .unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
            )
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .set_return_item_collection_metrics(
                self.item_collection_metrics
                    .then_some(ReturnItemCollectionMetrics::Size),
            )
            .build()
            .expect("TransactWriteItemsInput has no required fields");
        match table.execute(input, Call::of(entity).items(count)).await {
            Ok(_) => Ok(()),
            Err(error) => Err(failure(
                "TransactWriteItems",
                name,
                error,
                |error| match error {
                    TransactWriteItemsError::TransactionCanceledException(cancelled) => {
                        Some(cancelled.cancellation_reasons())
                    }
                    _ => None,
                },
                self.actions
                    .iter()
                    .map(|action| (action.entity, &action.key)),
            )),
        }
    }
}
