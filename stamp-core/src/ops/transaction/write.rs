//! [`TransactWrite`]: `TransactWriteItems` over any entities of one table.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsInput,
};

use super::{Action, Kind, Rendered, failure};
use crate::expression::Condition;
use crate::item::size::{attribute_value_size, item_size};
use crate::ops::unique::UniqueWrite;

mod guards;
mod render;

use crate::error::Error;
use crate::error::ItemKey;
use crate::model::entity::AttributeMap;
use crate::model::entity::Entity;
use crate::model::entity::EntitySchema;
use crate::model::typed_key::PrimaryKey;
use crate::request::table::Table;
use guards::put_unique;

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
///     .delete(Delete::new(Cart::key("c-1")?).condition(Cart::ITEMS.size().gt(0)))
///     .client_request_token(order.order_id.to_string())
///     .send(&table)
///     .await?;
/// ```
#[derive(Debug, Clone)]
pub struct TransactWrite {
    actions: Vec<Action>,
    error: Option<Error>,
    client_request_token: Option<String>,
    /// Whether to ask for `ReturnItemCollectionMetrics = SIZE`: an action
    /// writes an entity with an LSI, or
    /// [`item_collection_metrics`](Self::item_collection_metrics) was called.
    item_collection_metrics: bool,
    /// The time puts and updates without their own `at` are stamped at
    /// ([`at`](Self::at)); the system clock's when each is added if `None`.
    at: Option<chrono::DateTime<chrono::Utc>>,
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
            item_collection_metrics: false,
            at: None,
        }
    }

    /// Stamps the puts and updates added after this call that have no time
    /// of their own (`Put::at`, `Update::at`) with `now` instead of the
    /// system clock's time when each is added (`created_at`, `updated_at`).
    /// [`Table::transact_write`](crate::Table::transact_write) starts a
    /// transaction at the table's clock.
    pub fn at(mut self, now: chrono::DateTime<chrono::Utc>) -> Self {
        self.at = Some(now);
        self
    }

    /// The time an action added now is stamped at, unless it has its own.
    fn stamp_time(&self) -> chrono::DateTime<chrono::Utc> {
        self.at.unwrap_or_else(chrono::Utc::now)
    }

    fn keep_error(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Adds a put (a [`Put`](crate::Put), or an entity: `put(&order)` is
    /// `put(Put::new(&order))`), rendered as [`Put::send`](crate::Put::send)
    /// renders it: time stamps, the version check and increment, a
    /// create's `attribute_not_exists` guard, and its condition. Errors of
    /// rendering are returned by [`request`](Self::request) and
    /// [`send`](Self::send).
    pub fn put<'a, E: Entity + 'a>(
        mut self,
        put: impl Into<crate::ops::write::Put<'a, E>>,
    ) -> Self {
        match put.into().rendered(self.stamp_time()) {
            Ok(rendered) => {
                let condition = rendered.condition.map(|expression| Rendered {
                    expression,
                    names: rendered.placeholders.names(),
                    values: rendered.placeholders.values(),
                });
                let key = crate::item::check::key_of(E::SCHEMA, &rendered.item);
                let unique = put_unique(E::SCHEMA, &rendered.item, rendered.creates);
                let kind = Kind::Put {
                    item: rendered.item,
                    condition,
                };
                self.push(E::SCHEMA, key, rendered.size, kind, unique);
            }
            Err(error) => self.keep_error(error),
        }
        self
    }

    /// Adds one action on the item with key attributes `key` of the entity
    /// of `schema`: `size` is what its item or key adds to the
    /// transaction's 4 MB, to which its condition's values are added here.
    fn push(
        &mut self,
        schema: &'static EntitySchema,
        key: AttributeMap,
        size: usize,
        kind: Kind,
        unique: Option<UniqueWrite>,
    ) {
        let condition_size = match &kind {
            Kind::Put { condition, .. } | Kind::Delete { condition } => {
                condition.as_ref().map_or(0, Rendered::values_size)
            }
            Kind::Check { condition } => condition.values_size(),
            Kind::Update(_) => 0,
        };
        self.item_collection_metrics |= schema.has_local_index();
        self.actions.push(Action {
            entity: schema.type_name,
            item_key: ItemKey::of_schema(schema, &key),
            key,
            size: size + condition_size,
            kind,
            unique: unique
                .filter(|_| !schema.unique_values.is_empty())
                .map(|unique| (schema, unique)),
        });
    }

    /// Adds a put of `entity` that requires that no item has its primary key
    /// (`attribute_not_exists(<partition key attribute>)`). `created_at` and
    /// `updated_at` are stamped. `put(Put::create(entity))`.
    ///
    /// When the item exists, the transaction fails with
    /// [`Error::TransactionCanceled`], whose `reasons` hold
    /// [`CancellationCode::ConditionalCheckFailed`](crate::CancellationCode::ConditionalCheckFailed)
    /// at this action's index (its position among the actions, from 0;
    /// [`CancellationReason::index`](crate::CancellationReason::index)), not
    /// [`Error::AlreadyExists`] as [`Table::create`](crate::Table::create)
    /// does; an HTTP API answers it `409 Conflict`. Idempotent as far as
    /// the key is: see [`Put::create`](crate::Put::create) for a key that
    /// holds a time the server sets, and the uniqueness item that then
    /// makes a create happen once.
    pub fn create<E: Entity>(self, entity: &E) -> Self {
        self.put(crate::ops::write::Put::create(entity))
    }

    fn add_keyed<E: Entity>(
        mut self,
        key: PrimaryKey<E>,
        kind: Result<Kind, Error>,
        unique: Option<UniqueWrite>,
    ) -> Self {
        match kind {
            Ok(kind) => {
                let map = key.to_attribute_map();
                let size = item_size(&map);
                self.push(E::SCHEMA, map, size, kind, unique);
            }
            Err(error) => self.keep_error(error),
        }
        self
    }

    /// Adds a delete (a [`Delete`](crate::Delete), or a key:
    /// `delete(key)` is `delete(Delete::new(key))`) with its condition and
    /// expected version; a delete of a key without an item changes nothing
    /// unless its condition requires one.
    pub fn delete<E: Entity>(self, delete: impl Into<crate::ops::write::Delete<E>>) -> Self {
        let delete = delete.into();
        let kind = delete.placed_condition().map(|condition| Kind::Delete {
            condition: condition.map(Rendered::placed),
        });
        self.add_keyed(delete.key(), kind, Some(UniqueWrite::Delete))
    }

    /// Adds a condition check: the transaction goes through only if the
    /// item with primary key `key` meets `condition`. Nothing is written to
    /// it.
    pub fn check<E: Entity>(self, key: PrimaryKey<E>, condition: Condition<E>) -> Self {
        let kind = Rendered::of(&condition).map(|condition| Kind::Check { condition });
        self.add_keyed(key, kind, None)
    }

    /// Adds an update, rendered as [`Update::send`](crate::Update::send)
    /// renders it (its `attribute_exists` guard, version check and index
    /// rebuild), at [`Update::at`](crate::Update::at) or now. Its values are
    /// checked like an item's ([`check_value`](crate::check_value)); errors
    /// of rendering are returned by [`request`](Self::request) and
    /// [`send`](Self::send).
    pub fn update<E: Entity>(self, update: crate::ops::update::Update<E>) -> Self {
        self.update_ref(&update)
    }

    /// [`update`](Self::update) of a borrowed update.
    pub(crate) fn update_ref<E: Entity>(mut self, update: &crate::ops::update::Update<E>) -> Self {
        let update = match update.to_action(self.stamp_time()) {
            Ok(update) => update,
            Err(error) => {
                self.keep_error(error);
                return self;
            }
        };
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
        let key = update.key.clone();
        let unique = update.unique.clone();
        self.push(E::SCHEMA, key, size, Kind::Update(update), unique);
        self
    }

    /// Asks DynamoDB for the size of the item collections the transaction
    /// writes (`ReturnItemCollectionMetrics = SIZE`), so that
    /// [`Table::warn_item_collection_above_gb`] can warn. An action on an
    /// entity with a local secondary index asks by itself.
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
    /// Retry with a clone of the transaction you built
    /// (`transaction.clone().send(&table)`), not with one built again: the
    /// actions are rendered when they are added, `created_at` and
    /// `updated_at` stamped with the time of that call, so a transaction
    /// built again for an entity with a time stamp holds another time, and
    /// DynamoDB answers the same token with other parameters with
    /// `IdempotentParameterMismatchException` ([`Error::DynamoDb`], nothing
    /// applied). A transaction built again sends the same request only when
    /// every stamped write is given its time ([`Put::at`](crate::Put::at),
    /// [`Update::at`](crate::Update::at)).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#DDB-TransactWriteItems-request-ClientRequestToken>.
    pub fn client_request_token(mut self, token: impl Into<String>) -> Self {
        self.client_request_token = Some(token.into());
        self
    }

    /// Does nothing: every conditional action asks for the item as stored
    /// when its condition fails (`ReturnValuesOnConditionCheckFailure =
    /// ALL_OLD`) without it; see [`request`](Self::request). Kept so that
    /// code calling it still compiles.
    #[deprecated(
        note = "a no-op: every conditional action asks ALL_OLD by default; read it with `CancellationReason::stored`"
    )]
    pub fn return_old_items_on_failure(self) -> Self {
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

    /// The exact `TransactWriteItems` request [`send`](Self::send) sends to
    /// the table named `table_name`, without a network. Without a
    /// [`client_request_token`](Self::client_request_token), each call (and
    /// each send) makes its own token (a UUID); with one, the request is
    /// the one sent.
    ///
    /// Every action with a condition (a create, a versioned put, a put or
    /// delete with a condition, an update, a check) asks
    /// `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so that a
    /// cancellation returns, in that action's reason, the item its condition
    /// was checked against ([`CancellationReason::stored`](crate::CancellationReason::stored));
    /// an action without a condition asks nothing (it has no condition to
    /// fail). For the same parameter of a single write, DynamoDB documents
    /// "no additional cost … No read capacity units are consumed"; the item
    /// an action returns is the one its condition was checked against, so
    /// nothing more is read.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Put.html#DDB-Type-Put-ReturnValuesOnConditionCheckFailure>.
    ///
    /// # Unique values
    ///
    /// The guard actions of unique values (see [`send`](Self::send)) that
    /// are known from the transaction alone are in the request, after the
    /// caller's actions: a create's put of the guard of each value its item
    /// holds (`attribute_not_exists(PK) OR (OwnerPK = :pk AND OwnerSK =
    /// :sk)`). The other writes of entities with unique values (a
    /// replacing put, a delete, an update or upsert that sets or removes a
    /// unique field) are decided at send time: which guards they put and
    /// delete depends on the values stored, which `send` reads first
    /// (a value kept needs nothing, a value changed moves its guard), and
    /// each is then conditioned on the values read being still stored.
    /// The request shows those writes without their guards and without
    /// that condition; when a transaction holds only creates (or no entity
    /// with unique values), the request is the one sent. A create's guard
    /// that another write of the same transaction releases (a delete of
    /// the item holding the value) is sent conditioned on that item
    /// instead.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn request(&self, table_name: &str) -> Result<TransactWriteItemsInput, Error> {
        if self.actions.iter().all(|action| action.unique.is_none()) {
            return self.render(table_name);
        }
        self.validate()?;
        self.with_known_guards()?.render(table_name)
    }

    /// Sends the transaction with `TransactWriteItems`.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of making an item or rendering a
    /// condition, [`Refusal::EmptyTransaction`],
    /// [`Refusal::TooManyTransactionActions`],
    /// [`Refusal::DuplicateTransactionItem`],
    /// [`Refusal::InvalidClientRequestToken`] and
    /// [`Refusal::TransactionTooLarge`]. After:
    /// [`Error::UniqueValueTaken`] when a unique value is held by another
    /// item (see below), [`Error::TransactionCanceled`] with a reason per
    /// action (the caller's actions, at their positions), and
    /// [`Error::DynamoDb`] for other errors.
    ///
    /// # Unique values
    ///
    /// Actions on entities with unique values (`#[stamp(unique)]`,
    /// `#[stamp(unique(a, b))]`) bring their guard items: after the
    /// caller's actions, a put of the guard of each value a write gives its
    /// item (on condition that no other item holds it) and a delete of
    /// each it takes away. A create needs nothing more; every other write
    /// of such an entity (a replacing put, a delete, an update that sets or
    /// removes a unique field) first reads its item with a strongly
    /// consistent `GetItem` and is conditioned on its unique values being
    /// the ones read; when another write changed them in between, the
    /// transaction is read and sent again (up to 5 times). The guard actions count toward the 100 actions and 4 MB.
    /// [`request`](Self::request) holds the guard actions known before
    /// reading (a create's) and says which are decided at send time. See the
    /// design notes' "Unique values".
    pub async fn send(self, table: &Table) -> Result<(), Error> {
        match self.execute(table).await? {
            Ok(()) => Ok(()),
            Err(error) => Err(failure(
                table.name(),
                error,
                |error| match error {
                    TransactWriteItemsError::TransactionCanceledException(cancelled) => {
                        Some(cancelled.cancellation_reasons())
                    }
                    _ => None,
                },
                self.actions
                    .iter()
                    .map(|action| (action.entity, &action.item_key)),
            )),
        }
    }
}
