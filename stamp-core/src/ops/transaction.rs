//! Transactions: `TransactWriteItems` over any entities of one table (put,
//! create, delete, condition check, update), with typed cancellation
//! reasons, and `TransactGetItems` decoded by position.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html>.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, Get, Put, ReturnConsumedCapacity,
    ReturnValuesOnConditionCheckFailure, TransactGetItem, TransactWriteItem, Update,
};
use tracing::Instrument;

use crate::expression::{Condition, Placeholders};
use crate::item::size::{
    MAX_TRANSACTION_ACTIONS, MAX_TRANSACTION_BYTES, attribute_value_size, item_size,
};
use crate::ops::write::{PutMode, render_put};
use crate::{Entity, Error, Item, PrimaryKey, Table};

/// An update of one item, already rendered to DynamoDB's expressions: the
/// form in which an update joins a transaction through
/// [`TransactWrite::update`].
///
/// The typed update builder produces it; it can also be written by hand.
/// Expressions must use `#name` and `:value` placeholders, with their
/// meanings in `names` and `values`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateAction {
    /// The primary key attributes of the item, such as `{PK: S, SK: S}`.
    pub key: Item,
    /// The update expression, such as `SET #n0 = #n0 + :v0`.
    pub update_expression: String,
    /// The condition the item must meet, if any.
    pub condition_expression: Option<String>,
    /// The `ExpressionAttributeNames`: placeholder to attribute name.
    pub names: HashMap<String, String>,
    /// The `ExpressionAttributeValues`: placeholder to value.
    pub values: HashMap<String, AttributeValue>,
    /// The entity type name of the item, for errors.
    pub entity: &'static str,
}

/// A rendered condition: its expression and placeholders.
#[derive(Debug, Clone)]
struct Rendered {
    expression: String,
    names: Option<HashMap<String, String>>,
    values: Option<HashMap<String, AttributeValue>>,
}

impl Rendered {
    fn of<E>(condition: &Condition<E>) -> Result<Self, Error> {
        let mut placeholders = Placeholders::default();
        let expression = condition.render(&mut placeholders)?;
        Ok(Rendered {
            expression,
            names: placeholders.names(),
            values: placeholders.values(),
        })
    }

    fn values_size(&self) -> usize {
        self.values
            .iter()
            .flatten()
            .map(|(_, value)| attribute_value_size(value))
            .sum()
    }
}

#[derive(Debug, Clone)]
enum Kind {
    Put {
        item: Item,
        condition: Option<Rendered>,
    },
    Delete {
        condition: Option<Rendered>,
    },
    Check {
        condition: Rendered,
    },
    Update(UpdateAction),
}

/// One action of a [`TransactWrite`].
#[derive(Debug, Clone)]
struct Action {
    entity: &'static str,
    key: Item,
    size: usize,
    kind: Kind,
}

/// The reason code DynamoDB gives for one action of a cancelled
/// transaction.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#API_TransactWriteItems_Errors>.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CancellationCode {
    /// `None`: this action did not cause the cancellation.
    None,
    /// `ConditionalCheckFailed`: the action's condition was not met.
    ConditionalCheckFailed,
    /// `ItemCollectionSizeLimitExceeded`: an item collection of a table
    /// with an LSI would exceed 10 GB.
    ItemCollectionSizeLimitExceeded,
    /// `TransactionConflict`: another transaction or request was acting on
    /// the item.
    TransactionConflict,
    /// `ProvisionedThroughputExceeded`: not enough provisioned capacity.
    ProvisionedThroughputExceeded,
    /// `ThrottlingError`: throttled, on-demand table or control plane.
    ThrottlingError,
    /// `ValidationError`: the action is not valid, such as an update of a
    /// key attribute.
    ValidationError,
    /// A code this version does not know, as DynamoDB wrote it.
    Other(String),
}

impl CancellationCode {
    /// The code as DynamoDB spells it, such as `ConditionalCheckFailed`.
    pub fn as_str(&self) -> &str {
        match self {
            CancellationCode::None => "None",
            CancellationCode::ConditionalCheckFailed => "ConditionalCheckFailed",
            CancellationCode::ItemCollectionSizeLimitExceeded => "ItemCollectionSizeLimitExceeded",
            CancellationCode::TransactionConflict => "TransactionConflict",
            CancellationCode::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            CancellationCode::ThrottlingError => "ThrottlingError",
            CancellationCode::ValidationError => "ValidationError",
            CancellationCode::Other(code) => code,
        }
    }

    fn parse(code: Option<&str>) -> Self {
        match code.unwrap_or("None") {
            "None" => CancellationCode::None,
            "ConditionalCheckFailed" => CancellationCode::ConditionalCheckFailed,
            "ItemCollectionSizeLimitExceeded" => CancellationCode::ItemCollectionSizeLimitExceeded,
            "TransactionConflict" => CancellationCode::TransactionConflict,
            "ProvisionedThroughputExceeded" => CancellationCode::ProvisionedThroughputExceeded,
            "ThrottlingError" => CancellationCode::ThrottlingError,
            "ValidationError" => CancellationCode::ValidationError,
            other => CancellationCode::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for CancellationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why one action of a cancelled transaction failed (or `None` when it did
/// not), in [`Error::TransactionCanceled`].
#[derive(Debug, Clone, PartialEq)]
pub struct CancellationReason {
    /// The action's position in the transaction, from 0.
    pub index: usize,
    /// The entity type name of the action.
    pub entity: &'static str,
    /// The primary key attributes of the item the action names.
    pub key: Item,
    /// DynamoDB's reason code.
    pub code: CancellationCode,
    /// DynamoDB's message, when it gives one.
    pub message: Option<String>,
    /// The item as it was, when the condition failed and the transaction
    /// asked for it with
    /// [`return_old_items_on_failure`](TransactWrite::return_old_items_on_failure)
    /// (and the item existed).
    pub old_item: Option<Item>,
}

/// A write transaction on one table, over any entities, built by
/// [`Table::transact_write`]: all its actions succeed together or none is
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
/// table
///     .transact_write()
///     .create(&order)                                   // fails if it exists
///     .check(Customer::key("c-1")?, Customer::BLOCKED.ne(&true))
///     .delete_if(Cart::key("c-1")?, Cart::ITEMS.size().gt(0))
///     .client_request_token(order.order_id.to_string())
///     .return_old_items_on_failure()
///     .send()
///     .await?;
/// ```
#[derive(Debug, Clone)]
pub struct TransactWrite {
    table: Table,
    actions: Vec<Action>,
    error: Option<Error>,
    client_request_token: Option<String>,
    return_old_items: bool,
}

impl Table {
    /// A write transaction on this table: add actions, then
    /// [`send`](TransactWrite::send).
    pub fn transact_write(&self) -> TransactWrite {
        TransactWrite {
            table: self.clone(),
            actions: Vec::new(),
            error: None,
            client_request_token: None,
            return_old_items: false,
        }
    }

    /// A read transaction on this table: add gets, then
    /// [`send`](TransactGet::send).
    pub fn transact_get(&self) -> TransactGet {
        TransactGet {
            table: self.clone(),
            gets: Vec::new(),
        }
    }
}

impl TransactWrite {
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

    /// Sets the client request token, 1 to 36 characters: DynamoDB applies
    /// a transaction with the same token and the same actions only once
    /// within 10 minutes, so a retry after a timeout is safe.
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

    /// The `TransactItems` [`send`](Self::send) would send, without a
    /// network.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn request(&self) -> Result<Vec<TransactWriteItem>, Error> {
        self.validate()?;
        Ok(self
            .actions
            .iter()
            .map(|action| self.item(action))
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

    fn item(&self, action: &Action) -> TransactWriteItem {
        let table = self.table.name();
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
    pub async fn send(self) -> Result<(), Error> {
        let items = self.request()?;
        let table = self.table.name();
        let entity = common_entity(self.actions.iter().map(|action| action.entity));
        let span = transaction_span("TransactWriteItems", table, entity, items.len());
        let result = self
            .table
            .client()
            .transact_write_items()
            .set_transact_items(Some(items))
            .set_client_request_token(self.client_request_token.clone())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .instrument(span.clone())
            .await;
        match result {
            Ok(output) => {
                if let Some(capacity) = output.consumed_capacity {
                    let units: f64 = capacity
                        .iter()
                        .filter_map(|capacity| capacity.capacity_units)
                        .sum();
                    span.record("consumed_capacity", units);
                }
                Ok(())
            }
            Err(SdkError::ServiceError(service))
                if matches!(
                    service.err(),
                    TransactWriteItemsError::TransactionCanceledException(_)
                ) =>
            {
                let TransactWriteItemsError::TransactionCanceledException(cancelled) =
                    service.into_err()
                else {
                    unreachable!("matched above")
                };
                Err(Error::TransactionCanceled {
                    table: table.to_owned(),
                    reasons: reasons(
                        self.actions
                            .iter()
                            .map(|action| (action.entity, &action.key)),
                        cancelled.cancellation_reasons.unwrap_or_default(),
                    ),
                })
            }
            Err(error) => Err(Error::dynamodb("TransactWriteItems", table, error)),
        }
    }
}

/// The checks shared by both kinds of transaction: some action, at most
/// 100, one per item.
fn check_actions<'a>(
    actions: impl ExactSizeIterator<Item = (&'static str, &'a Item)>,
) -> Result<(), Error> {
    let count = actions.len();
    if count == 0 {
        return Err(Error::EmptyTransaction);
    }
    if count > MAX_TRANSACTION_ACTIONS {
        return Err(Error::TooManyTransactionActions {
            count,
            limit: MAX_TRANSACTION_ACTIONS,
        });
    }
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(count);
    for (position, (entity, key)) in actions.enumerate() {
        if let Some(first) = seen.insert(crate::error::key_text(key), position) {
            return Err(Error::DuplicateTransactionItem {
                first,
                second: position,
                entity,
                key: key.clone(),
            });
        }
    }
    Ok(())
}

fn reasons<'a>(
    actions: impl Iterator<Item = (&'static str, &'a Item)>,
    reasons: Vec<aws_sdk_dynamodb::types::CancellationReason>,
) -> Vec<CancellationReason> {
    actions
        .zip(reasons)
        .enumerate()
        .map(|(index, ((entity, key), reason))| CancellationReason {
            index,
            entity,
            key: key.clone(),
            code: CancellationCode::parse(reason.code.as_deref()),
            message: reason.message,
            old_item: reason.item,
        })
        .collect()
}

type Split = (
    Option<String>,
    Option<HashMap<String, String>>,
    Option<HashMap<String, AttributeValue>>,
);

fn split(condition: Option<Rendered>) -> Split {
    match condition {
        Some(rendered) => (Some(rendered.expression), rendered.names, rendered.values),
        None => (None, None, None),
    }
}

fn common_entity(mut entities: impl Iterator<Item = &'static str>) -> &'static str {
    let first = entities.next().unwrap_or("");
    if entities.all(|entity| entity == first) {
        first
    } else {
        "(mixed)"
    }
}

fn transaction_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
    items: usize,
) -> tracing::Span {
    tracing::debug_span!(
        "stamp.request",
        operation,
        table,
        entity,
        index = tracing::field::Empty,
        item_count = items,
        consumed_capacity = tracing::field::Empty,
    )
}

/// The position of one get in a [`TransactGet`], typed by its entity:
/// [`TransactGetOutput::take`] decodes the item there as `E`.
pub struct Slot<E> {
    index: usize,
    entity: PhantomData<fn() -> E>,
}

impl<E> Slot<E> {
    /// The position of the get, from 0.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<E> Clone for Slot<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Slot<E> {}

impl<E> fmt::Debug for Slot<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Slot")
            .field("entity", &std::any::type_name::<E>())
            .field("index", &self.index)
            .finish()
    }
}

/// A read transaction on one table, over any entities, built by
/// [`Table::transact_get`]: the items are read as of one moment. Each
/// [`get`](Self::get) returns the [`Slot`] its item is decoded from.
///
/// Refused before sending: no get, more than 100, and one item twice.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html>.
///
/// # Example
///
/// ```ignore
/// let mut read = table.transact_get();
/// let customer = read.get(&Customer::key("c-1")?);
/// let product = read.get(&Product::key("SKU-1")?);
/// let mut items = read.send().await?;
/// let customer: Option<Customer> = items.take(customer)?;
/// let product: Option<Product> = items.take(product)?;
/// ```
#[derive(Debug, Clone)]
pub struct TransactGet {
    table: Table,
    gets: Vec<(&'static str, Item)>,
}

/// The items of a [`TransactGet`], by position.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactGetOutput {
    items: Vec<Option<Item>>,
}

impl TransactGet {
    /// Adds a get of the item with primary key `key`, and returns the slot
    /// to take it from.
    pub fn get<E: Entity>(&mut self, key: &PrimaryKey<E>) -> Slot<E> {
        self.gets
            .push((E::SCHEMA.type_name, key.to_attribute_map()));
        Slot {
            index: self.gets.len() - 1,
            entity: PhantomData,
        }
    }

    /// The number of gets.
    pub fn len(&self) -> usize {
        self.gets.len()
    }

    /// Whether there is no get.
    pub fn is_empty(&self) -> bool {
        self.gets.is_empty()
    }

    /// Reads the items with `TransactGetItems`.
    ///
    /// # Errors
    ///
    /// Before sending: [`Error::EmptyTransaction`],
    /// [`Error::TooManyTransactionActions`] and
    /// [`Error::DuplicateTransactionItem`]. After:
    /// [`Error::TransactionCanceled`] (such as a conflict with a write in
    /// progress) and [`Error::DynamoDb`].
    pub async fn send(&self) -> Result<TransactGetOutput, Error> {
        check_actions(self.gets.iter().map(|(entity, key)| (*entity, key)))?;
        let table = self.table.name();
        let items: Vec<TransactGetItem> = self
            .gets
            .iter()
            .map(|(_, key)| {
                TransactGetItem::builder()
                    .get(
                        Get::builder()
                            .table_name(table)
                            .set_key(Some(key.clone()))
                            .build()
                            .expect("table and key are set"),
                    )
                    .build()
            })
            .collect();
        let entity = common_entity(self.gets.iter().map(|(entity, _)| *entity));
        let result = self
            .table
            .client()
            .transact_get_items()
            .set_transact_items(Some(items))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .instrument(transaction_span(
                "TransactGetItems",
                table,
                entity,
                self.gets.len(),
            ))
            .await;
        match result {
            Ok(output) => {
                let mut items: Vec<Option<Item>> = output
                    .responses
                    .unwrap_or_default()
                    .into_iter()
                    .map(|response| response.item)
                    .collect();
                items.resize(self.gets.len(), None);
                Ok(TransactGetOutput { items })
            }
            Err(SdkError::ServiceError(service))
                if matches!(
                    service.err(),
                    TransactGetItemsError::TransactionCanceledException(_)
                ) =>
            {
                let TransactGetItemsError::TransactionCanceledException(cancelled) =
                    service.into_err()
                else {
                    unreachable!("matched above")
                };
                Err(Error::TransactionCanceled {
                    table: table.to_owned(),
                    reasons: reasons(
                        self.gets.iter().map(|(entity, key)| (*entity, key)),
                        cancelled.cancellation_reasons.unwrap_or_default(),
                    ),
                })
            }
            Err(error) => Err(Error::dynamodb("TransactGetItems", table, error)),
        }
    }
}

impl TransactGetOutput {
    /// Takes the item of `slot` out, decoded as `E`; `Ok(None)` when there
    /// is no such item (or it was taken already).
    ///
    /// # Errors
    ///
    /// The errors of [`Entity::from_item`].
    pub fn take<E: Entity>(&mut self, slot: Slot<E>) -> Result<Option<E>, Error> {
        self.items
            .get_mut(slot.index)
            .and_then(Option::take)
            .map(E::from_item)
            .transpose()
    }

    /// The raw items, one per get in order, `None` where there is none.
    pub fn into_items(self) -> Vec<Option<Item>> {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(partition: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S(partition.to_owned())),
            ("SK".to_owned(), AttributeValue::S("S".to_owned())),
        ])
    }

    #[test]
    fn action_checks_count_and_duplicates() {
        let none: Vec<(&'static str, &Item)> = Vec::new();
        assert!(matches!(
            check_actions(none.into_iter()),
            Err(Error::EmptyTransaction)
        ));
        let keys: Vec<Item> = (0..101).map(|i| key(&i.to_string())).collect();
        assert!(matches!(
            check_actions(keys.iter().map(|key| ("A", key))),
            Err(Error::TooManyTransactionActions {
                count: 101,
                limit: 100
            })
        ));
        assert!(check_actions(keys[..100].iter().map(|key| ("A", key))).is_ok());
        let twice = [key("1"), key("2"), key("1")];
        let error = check_actions(twice.iter().map(|key| ("A", key))).unwrap_err();
        assert!(
            matches!(&error, Error::DuplicateTransactionItem { first: 0, second: 2, entity: "A", key: found } if *found == key("1")),
            "{error:?}"
        );
    }

    #[test]
    fn codes_parse_and_print_as_dynamodb_spells_them() {
        for code in [
            "None",
            "ConditionalCheckFailed",
            "ItemCollectionSizeLimitExceeded",
            "TransactionConflict",
            "ProvisionedThroughputExceeded",
            "ThrottlingError",
            "ValidationError",
            "SomethingNew",
        ] {
            assert_eq!(CancellationCode::parse(Some(code)).to_string(), code);
        }
        assert_eq!(CancellationCode::parse(None), CancellationCode::None);
        assert_eq!(
            CancellationCode::parse(Some("SomethingNew")),
            CancellationCode::Other("SomethingNew".into())
        );
    }
}
