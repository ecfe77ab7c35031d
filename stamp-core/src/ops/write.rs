//! Single-item writes: [`Put`] (with version and time stamps, or only if
//! absent) and [`Delete`], each with an optional condition; the rendering
//! of a put, shared with transactions, re-keying and migrations.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html>.

use aws_sdk_dynamodb::operation::delete_item::{DeleteItemError, DeleteItemInput};
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemInput};
use aws_sdk_dynamodb::types::{
    AttributeValue, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use chrono::{DateTime, Utc};

use crate::error::Error;
use crate::error::Refusal;
use crate::expression::{Condition, Placeholders};
use crate::model::entity::{AttributeMap, Entity, WriteTime};
use crate::model::typed_key::PrimaryKey;
use crate::request::collection_metrics;
use crate::request::executor::Call;
use crate::request::failure::{Effect, conditional_failure};
use crate::request::table::Table;

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
    pub(crate) item: AttributeMap,
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    pub(crate) expected_version: Option<u64>,
    /// Whether the put requires that no item has its key (a create, a
    /// move, a versioned entity at version 0).
    pub(crate) creates: bool,
    /// The item's size in bytes.
    pub(crate) size: usize,
}

/// Renders a put stamped at `now`: the stamped, checked item with its version incremented,
/// and the condition: `attribute_not_exists(PK)` for a create, a move or a
/// versioned entity at version 0, `version = v` for one at version v (not
/// for a move: its new key holds no item), AND `condition`.
pub(crate) fn render_put_at<E: Entity>(
    entity: &E,
    mode: PutMode,
    condition: Option<&Condition<E>>,
    now: DateTime<Utc>,
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
    let mut item = entity.encode_item_at(
        Some(WriteTime {
            now,
            creating: stamp_created,
        }),
        true,
    )?;
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
        item.insert(attribute, AttributeValue::N((version + 1).to_string()));
        if version > 0 && checks_version {
            conditions.push(placeholders.version_is(attribute, version));
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
    // Checked as `check_item` checks it, counted while it was encoded.
    let (item, size) = item.checked(schema)?;
    Ok(RenderedPut {
        size,
        item,
        condition: (!conditions.is_empty()).then(|| conditions.join(" AND ")),
        placeholders,
        creates: must_be_absent,
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
pub(crate) fn unchanged_condition(schema: &EntitySchema, item: &AttributeMap) -> Placed {
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

/// A write of one entity (`PutItem`), built by [`Put::new`] (replaces any
/// item with its key) or [`Put::create`] (only if no item has its key), and
/// sent by [`send`](Self::send); [`Table::put`] and [`Table::create`] are its
/// shortcuts, and [`TransactWrite::put`](crate::TransactWrite::put) takes
/// it as an action.
///
/// - `#[stamp(updated_at)]` is set to the time of sending (or
///   [`at`](Self::at)), and `created_at` too for a create or a versioned
///   entity at version 0, in the attribute and in the index attributes
///   built from it.
/// - With a `#[stamp(version)]` field at version `v`, the put succeeds
///   only if the stored item has version `v` (or, for `v = 0`, there is no
///   item), and stores `v + 1`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html>.
///
/// # Example
///
/// ```ignore
/// Put::new(&order)
///     .condition(Order::STATUS.eq(&OrderStatus::Pending))
///     .send(&table)
///     .await?;
/// ```
#[must_use = "a Put does nothing until it is sent"]
#[derive(Debug, Clone)]
pub struct Put<'a, E> {
    entity: &'a E,
    create: bool,
    condition: Option<Condition<E>>,
    at: Option<DateTime<Utc>>,
}

impl<'a, E: Entity> Put<'a, E> {
    /// A put of `entity` that replaces any item with its primary key (after
    /// the version check, for a versioned entity).
    pub fn new(entity: &'a E) -> Self {
        Put {
            entity,
            create: false,
            condition: None,
            at: None,
        }
    }

    /// A put of `entity` only if no item has its primary key
    /// (`attribute_not_exists` on the partition key attribute). `created_at`
    /// and `updated_at` are stamped. It fails with [`Error::AlreadyExists`]
    /// when an item is there, whatever its version.
    ///
    /// # Idempotent for one key
    ///
    /// A create is idempotent as far as its primary key is: sending the
    /// same entity again (a client retrying with the id it generated) finds
    /// the item and fails with [`Error::AlreadyExists`], so one item is
    /// stored however often it is sent. When the key holds a value made
    /// anew for each request, a retry is another key and another item: with
    /// `#[sk = "BOOK#<added_at>#<book_id>"]` and `added_at: Utc::now()` set
    /// by the server, two POSTs store two books with one id. (A
    /// `#[stamp(created_at)]` field cannot be in the primary key, for that
    /// reason.) Two ways out:
    ///
    /// - have the client send the value (`added_at` in the request, as it
    ///   sends the id), so that a retry has the same key;
    /// - or write, in the same transaction, a uniqueness item whose key
    ///   holds only what the client sends, such as an entity `BookId` with
    ///   `#[pk = "LIB#<library_id>"] #[sk = "BOOKID#<book_id>"]` (it also
    ///   finds the book by its id):
    ///
    /// ```ignore
    /// match TransactWrite::new().create(&book_id).create(&book).send(&table).await {
    ///     Ok(()) => {}                                     // 201 Created
    ///     Err(Error::TransactionCanceled { reasons, .. })
    ///         if reasons.first().is_some_and(|r| r.code == CancellationCode::ConditionalCheckFailed) => {}
    ///         // 409 Conflict: action 0, the uniqueness item, exists
    ///     Err(error) => return Err(error),
    /// }
    /// ```
    ///
    /// A create in a transaction fails as the transaction does,
    /// [`Error::TransactionCanceled`] with
    /// [`CancellationCode::ConditionalCheckFailed`](crate::CancellationCode::ConditionalCheckFailed)
    /// at the action's index, not [`Error::AlreadyExists`]. The
    /// [README](https://github.com/stamp-rs/stamp#a-web-api-and-a-lambda-consumer)
    /// has the whole example, compiled.
    pub fn create(entity: &'a E) -> Self {
        Put {
            create: true,
            ..Put::new(entity)
        }
    }

    /// Requires `condition` of the stored item (which must exist for most
    /// conditions to hold); given twice, both must hold.
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(earlier) => earlier.and(condition),
            None => condition,
        });
        self
    }

    /// Stamps `created_at`/`updated_at` with `now` instead of the time of
    /// sending: a [`request`](Self::request) and a [`send`](Self::send)
    /// with the same `at` send the same item.
    pub fn at(mut self, now: DateTime<Utc>) -> Self {
        self.at = Some(now);
        self
    }

    /// The item, condition and placeholders this put sends, stamped at
    /// [`at`](Self::at) or else at `now`.
    pub(crate) fn rendered(&self, now: DateTime<Utc>) -> Result<RenderedPut, Error> {
        let mode = if self.create {
            PutMode::Create
        } else {
            PutMode::Replace
        };
        render_put_at(
            self.entity,
            mode,
            self.condition.as_ref(),
            self.at.unwrap_or(now),
        )
    }

    /// The exact `PutItem` request [`send`](Self::send) sends to the table
    /// named `table_name`, without a network (stamped with [`at`](Self::at),
    /// or now).
    ///
    /// It asks `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so that a
    /// failed condition returns the item as stored
    /// ([`Error::stored`]): DynamoDB documents "no additional cost …
    /// No read capacity units are consumed" for it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html#DDB-PutItem-request-ReturnValuesOnConditionCheckFailure>.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn request(&self, table_name: &str) -> Result<PutItemInput, Error> {
        Ok(put_item_input::<E>(table_name, self.rendered(Utc::now())?))
    }

    /// Sends the put.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of [`Entity::to_item`], of the item checks
    /// ([`Refusal::ItemTooLarge`], [`Refusal::InvalidNumber`], …) and of the
    /// condition. After: [`Error::AlreadyExists`] for a create that finds an
    /// item; [`Error::VersionConflict`] when the entity is versioned and the
    /// stored item is not at its version, with the version found: `found:
    /// Some(n)` when an item is there (at version 0 too: a put at version 0
    /// expects no item, and another writer's item is a lost race of
    /// optimistic locking like any other, handled by reloading, so it is
    /// not [`Error::AlreadyExists`], which only a create returns), `found:
    /// None` when there is none at a version above 0;
    /// [`Error::ConditionFailed`] with the stored item, or
    /// [`Error::ItemNotFound`] when there is none, for a failed
    /// [`condition`](Self::condition); [`Error::OutcomeUnknown`] or
    /// [`Error::DynamoDb`]. Each error that found an item holds it as
    /// stored: [`Error::stored`] decodes it.
    ///
    /// An entity with unique values (`#[stamp(unique)]`) is put in one
    /// `TransactWriteItems` with its guard items, after a strongly
    /// consistent read of the item unless it is a create (see
    /// [`TransactWrite::send`](crate::TransactWrite::send)); a value held
    /// by another item is [`Error::UniqueValueTaken`], nothing written.
    pub async fn send(self, table: &Table) -> Result<(), Error> {
        if !E::SCHEMA.unique_values.is_empty() {
            return self.send_with_guards(table).await;
        }
        let rendered = self.rendered(table.now())?;
        let key = ItemKey::of::<E>(&rendered.item);
        let sent = rendered.item.clone();
        let expected_version = rendered.expected_version;
        let input = put_item_input::<E>(table.name(), rendered);
        let failure = match table
            .execute(input, Call::of(E::SCHEMA.type_name).items(1))
            .await
        {
            Ok(_) => return Ok(()),
            Err(failure) => failure,
        };
        let outcome = conditional_failure::<E, _>(
            table,
            &key,
            expected_version,
            failure,
            Effect::Item(&sent),
            |error| match error {
                PutItemError::ConditionalCheckFailedException(failure) => {
                    Some(failure.item.clone())
                }
                _ => None,
            },
        );
        put_outcome(self.create, outcome, expected_version)
    }

    /// [`send`](Self::send) of an entity with unique values: one
    /// `TransactWriteItems` of the put and its guards (see
    /// [`TransactWrite::send`](crate::TransactWrite::send)).
    async fn send_with_guards(mut self, table: &Table) -> Result<(), Error> {
        // Rendered once, at one time, for the transaction and the check of
        // an earlier attempt.
        self.at = Some(self.at.unwrap_or_else(|| table.now()));
        let rendered = self.rendered(table.now())?;
        let key = ItemKey::of::<E>(&rendered.item);
        let expected_version = rendered.expected_version;
        let create = self.create;
        let failure = match TransactWrite::new().put(self).execute(table).await? {
            Ok(()) => return Ok(()),
            Err(failure) => failure,
        };
        let outcome = conditional_failure::<E, _>(
            table,
            &key,
            expected_version,
            failure,
            Effect::Item(&rendered.item),
            |service| crate::ops::transaction::failed_check(service, 0),
        );
        put_outcome(create, outcome, expected_version)
    }
}

/// The result of a put (a create when `create`) from the result of its
/// condition check.
fn put_outcome(
    create: bool,
    outcome: Result<AttributeMap, Error>,
    expected_version: Option<u64>,
) -> Result<(), Error> {
    match outcome {
        Ok(_) => Ok(()),
        // A create promises `AlreadyExists` whenever an item is there,
        // also of a versioned entity (whose stored version would
        // otherwise make it a version conflict).
        Err(Error::ConditionFailed { entity, key, item }) if create => Err(Error::AlreadyExists {
            entity,
            key,
            item: Some(item),
        }),
        Err(Error::VersionConflict {
            entity, key, item, ..
        }) if create => Err(Error::AlreadyExists { entity, key, item }),
        Err(error) => Err(absent_is_version_conflict(error, expected_version)),
    }
}

impl<'a, E: Entity> From<&'a E> for Put<'a, E> {
    /// `Put::new(entity)`.
    fn from(entity: &'a E) -> Self {
        Put::new(entity)
    }
}

/// A versioned write at a version above 0 that finds no item lost a race
/// of optimistic locking (the item was deleted): a version conflict with
/// nothing found, not a missing item.
fn absent_is_version_conflict(error: Error, expected_version: Option<u64>) -> Error {
    match error {
        Error::ItemNotFound { entity, key }
            if expected_version.is_some_and(|version| version > 0) =>
        {
            Error::VersionConflict {
                entity,
                key,
                expected: expected_version.unwrap_or_default(),
                found: None,
                item: None,
            }
        }
        other => other,
    }
}

fn put_item_input<E: Entity>(table_name: &str, rendered: RenderedPut) -> PutItemInput {
    PutItemInput::builder()
        .table_name(table_name)
        .set_item(Some(rendered.item))
        .set_condition_expression(rendered.condition)
        .set_expression_attribute_names(rendered.placeholders.names())
        .set_expression_attribute_values(rendered.placeholders.values())
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .set_return_item_collection_metrics(collection_metrics::requested(E::SCHEMA))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .build()
        .expect("PutItemInput has no required fields")
}

mod delete;

use crate::error::ItemKey;
use crate::model::entity::EntitySchema;
use crate::ops::transaction::TransactWrite;
pub use delete::Delete;
