//! [`Error`]: everything Stamp can report, in DynamoDB's own terms, by
//! stage.
//!
//! The top-level variants are what a caller matches on: what DynamoDB
//! answered about an item (`AlreadyExists`, `ItemNotFound`,
//! `VersionConflict`, `ConditionFailed`, `OutcomeUnknown`), about a
//! transaction or a batch (`TransactionCanceled`, `UnprocessedItems`,
//! `UnprocessedKeys`), or a failed request (`DynamoDb`). Everything found
//! before a request is sent, or after its answer, is one variant per stage
//! wrapping a nested enum, each in its own file: [`DefinitionError`]
//! (`definition.rs`), [`KeyError`] (`key.rs`), [`Refusal`] (`refusal.rs`),
//! [`DecodeError`] (`decode.rs`) and [`JobError`] (`job.rs`). The key of an
//! item is [`ItemKey`] (`item_key.rs`); what became of a failed request is
//! [`RequestOutcome`] (`outcome.rs`); the mapping of SDK errors is in
//! `request/failure.rs`.

use std::sync::Arc;

mod cancellation;
mod client;
mod decode;
mod definition;
mod item_key;
mod job;
mod key;
pub(crate) mod outcome;
mod refusal;
mod stored;
mod vector;

use crate::model::entity::AttributeMap;
pub use cancellation::{CancellationCode, CancellationReason};
pub use decode::DecodeError;
pub use definition::{DefinitionError, GlobalTableError, TableNameReason, TableSettingError};
pub use item_key::ItemKey;
#[cfg(feature = "streams")]
pub use job::CheckpointReason;
#[cfg(feature = "s3")]
pub use job::ExportObjectReason;
pub use job::{
    ExportReason, ImportReason, JobError, MigrationCheckpointReason, StreamRecordReason,
};
pub use key::{KeyError, KeyMismatchReason};
pub use outcome::RequestOutcome;
pub use refusal::{CursorReason, QueryReason, Refusal, UpdateReason};
pub use vector::VectorError;

/// `email = "a@b"` or `(org, handle) = ("acme", "bob")`.
pub(crate) fn unique_text(fields: &[&str], values: &[String]) -> String {
    if let ([field], [value]) = (fields, values) {
        return format!("{field} = {value:?}");
    }
    let values: Vec<String> = values.iter().map(|value| format!("{value:?}")).collect();
    format!("({}) = ({})", fields.join(", "), values.join(", "))
}

/// The error type of every Stamp operation.
///
/// A caller matches on the outcome of a request (the item variants,
/// [`Error::TransactionCanceled`], the `Unprocessed*` batch variants,
/// [`Error::DynamoDb`]), or on the stage that stopped it: [`Error::Definition`],
/// [`Error::Key`] and [`Error::Refused`] are found before any request is
/// sent, [`Error::Decode`] after an answer, [`Error::Job`] in a migration,
/// an export or the change feed. Each stage's enum converts into `Error`
/// (`From`, so `?` works).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The table definition is one DynamoDB would refuse or that would mix
    /// up the items of its entities. Found before any request is sent.
    #[error(transparent)]
    Definition(#[from] DefinitionError),

    /// A key value cannot be built, parsed or sent. Found before any
    /// request is sent.
    #[error(transparent)]
    Key(#[from] KeyError),

    /// Stamp refused to send a request DynamoDB would refuse, or that could
    /// not do what it says. Nothing was sent.
    #[error(transparent)]
    Refused(#[from] Refusal),

    /// An item DynamoDB returned cannot be read as the entity asked for.
    #[error(transparent)]
    Decode(#[from] DecodeError),

    /// A key migration, an export or the change feed cannot start or
    /// stopped.
    #[error(transparent)]
    Job(#[from] JobError),

    /// `create` found an item with the key already there.
    #[error("an item of entity `{entity}` with key {key} already exists")]
    AlreadyExists {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
        /// The item as stored, which the failed condition returned
        /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`); `None` only
        /// when DynamoDB returned none. Decode it with
        /// [`Error::stored`].
        item: Option<Box<AttributeMap>>,
    },

    /// A write that needs an existing item (an update, a conditional write,
    /// the old key of a re-key) found none.
    #[error("there is no item of entity `{entity}` with key {key}")]
    ItemNotFound {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
    },

    /// The stored item's `#[stamp(version)]` is not the one the write
    /// expected: someone else wrote it first (optimistic locking).
    #[error(
        "entity `{entity}` with key {key} is {}, not at the expected version {expected}: it was written meanwhile; read it again",
        match .found { Some(found) => format!("at version {found}"), None => "not stored with a version (absent, or written without one)".to_owned() }
    )]
    VersionConflict {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
        /// The version the write expected.
        expected: u64,
        /// The stored version, when there is a stored item.
        found: Option<u64>,
        /// The item as stored, which the failed condition returned
        /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`); `None` when
        /// there is none (`found` is `None` then too). Decode it with
        /// [`Error::stored`].
        item: Option<Box<AttributeMap>>,
    },

    /// A write's condition expression did not hold for the stored item.
    #[error(
        "the condition of a write of entity `{entity}` with key {key} does not hold for the stored item"
    )]
    ConditionFailed {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
        /// The item as stored, which the failed condition returned
        /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`). Always there:
        /// a condition that fails for want of an item is
        /// [`Error::ItemNotFound`]. Decode it with [`Error::stored`].
        item: Box<AttributeMap>,
    },

    /// A write would give a unique value (`#[stamp(unique)]`,
    /// `#[stamp(unique(a, b))]`) to a second item: its guard item is held
    /// by another item. Nothing was written (the guard and the write are
    /// one `TransactWriteItems`).
    #[error(
        "the unique value {} of entity `{entity}` is taken{}",
        crate::error::unique_text(.fields, .values),
        .owner.as_ref().map(|owner| format!(" by the item {owner}")).unwrap_or_default()
    )]
    UniqueValueTaken {
        /// The entity type name.
        entity: &'static str,
        /// The unique fields, by their names in the struct.
        fields: &'static [&'static str],
        /// Their values as the guard's key holds them (a String as is, a
        /// Number as stored, a Binary in base64, a Boolean `true` or
        /// `false`), one per field, not escaped.
        values: Vec<String>,
        /// The primary key of the item holding the value, read from the
        /// guard; `None` when DynamoDB returned no guard.
        owner: Option<ItemKey>,
    },

    /// A created table did not become `ACTIVE` in time.
    #[error("table `{table}` did not become ACTIVE: {detail}")]
    TableNotActive {
        /// The table name.
        table: String,
        /// What the waiter reported, for people.
        detail: String,
    },

    /// A batch write gave up on some items: their retries (after
    /// `UnprocessedItems` or throttling) ran out, or a request failed with an
    /// error that is not retried. `unprocessed` holds exactly the write
    /// requests *not known to be written*: those DynamoDB returned as
    /// unprocessed or never received, and those of a request that timed out
    /// or lost its answer (which DynamoDB may have applied). Every other
    /// request was written. Puts and deletes can be sent again safely.
    #[error(
        "BatchWriteItem on table `{table}` left {} write requests not known to be written after {attempts} attempts ({written} written){}",
        .unprocessed.len(),
        crate::error::cause_text(.cause)
    )]
    UnprocessedItems {
        /// The table name.
        table: String,
        /// The most requests sent for one group of items, retries included.
        attempts: u32,
        /// How many write requests were written.
        written: usize,
        /// The write requests not known to be written, as `BatchWriteItem`
        /// takes them. After a timeout or a lost answer (see `cause`) the
        /// service may have applied some of them; puts and deletes can be
        /// sent again safely.
        unprocessed: Vec<aws_sdk_dynamodb::types::WriteRequest>,
        /// The error that stopped the batch, when it was not only that
        /// retries ran out.
        cause: Option<Arc<aws_sdk_dynamodb::Error>>,
    },

    /// A batch get gave up on some keys after their retries (after
    /// `UnprocessedKeys` or throttling) ran out, or a request failed with an
    /// error that is not retried. `keys` holds exactly the keys not read;
    /// `items` the items that were read (nothing read is thrown away).
    #[error(
        "BatchGetItem on table `{table}` left {} keys of entity `{entity}` unread after {attempts} attempts ({} items read){}",
        .keys.len(),
        .items.len(),
        crate::error::cause_text(.cause)
    )]
    UnprocessedKeys {
        /// The table name.
        table: String,
        /// The entity type name.
        entity: &'static str,
        /// The most requests sent for one group of keys, retries included.
        attempts: u32,
        /// The primary keys not read, as attribute maps.
        keys: Vec<AttributeMap>,
        /// The items read before the batch gave up, as stored, in the order
        /// of the keys asked for (decode them with `Entity::from_item`).
        /// A key that was read and has no item is in neither list.
        items: Vec<AttributeMap>,
        /// The error that stopped the batch, when it was not only that
        /// retries ran out.
        cause: Option<Arc<aws_sdk_dynamodb::Error>>,
    },

    /// DynamoDB cancelled a transaction (`TransactionCanceledException`):
    /// nothing of it was applied. `reasons` has one entry per action, in
    /// order, with the action's entity, key and reason code.
    #[error("the transaction on table `{table}` was cancelled: {}", crate::error::reasons_text(.reasons))]
    TransactionCanceled {
        /// The table name.
        table: String,
        /// One reason per action, in the order of the actions.
        reasons: Vec<crate::error::CancellationReason>,
    },

    /// DynamoDB Streams or the SDK returned an error for a request
    /// (`DescribeStream`, `GetShardIterator`, `GetRecords`), as
    /// [`Error::DynamoDb`] does for the DynamoDB API.
    #[cfg(feature = "streams")]
    #[error(
        "DynamoDB Streams {operation} on table `{table}` failed{}{}",
        .code.as_deref().map(|code| format!(": {code}")).unwrap_or_default(),
        .message.as_deref().map(|message| format!(": {message}")).unwrap_or_default()
    )]
    DynamoDbStreams {
        /// The operation, such as `GetRecords`.
        operation: &'static str,
        /// The table name.
        table: String,
        /// Whether the service refused the request, or it timed out, or its
        /// answer was lost.
        outcome: RequestOutcome,
        /// The service's error code, such as `ExpiredIteratorException`.
        code: Option<String>,
        /// The service's error message, when it answered with one.
        message: Option<String>,
        /// The SDK's error.
        source: Arc<aws_sdk_dynamodbstreams::Error>,
    },

    /// A conditional write failed its condition on an attempt that the SDK
    /// sent again after an earlier attempt that may have been applied (it
    /// timed out, its answer was lost or unreadable, or it met a server
    /// error), and the stored item does not show whether that earlier
    /// attempt was applied. It is not a plain conflict: the condition may
    /// have failed against this very write. Read the item and decide.
    ///
    /// When the stored item shows that the earlier attempt was applied (a
    /// put whose item is stored as sent; an update whose values, version
    /// and time stamp are stored as sent), the write succeeds instead.
    #[error(
        "DynamoDB {operation} of entity `{entity}` at {key} may have been applied: an earlier attempt got no usable answer, and the SDK's retry then failed the condition; read the item before writing again"
    )]
    OutcomeUnknown {
        /// The operation, such as `UpdateItem`.
        operation: &'static str,
        /// The entity type name.
        entity: &'static str,
        /// The key of the item.
        key: ItemKey,
        /// The stored item as the failed condition returned it
        /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`), `None` when
        /// there is none.
        item: Option<Box<AttributeMap>>,
    },

    /// DynamoDB or the SDK returned an error for a request. The message
    /// gives DynamoDB's error code and message, such as
    /// `ResourceNotFoundException: Requested resource not found`, or says
    /// that the request timed out and may have been applied.
    #[error(
        "DynamoDB {operation} on table `{table}` {}",
        outcome::failure_text(*.outcome, *.status, .code.as_deref(), .message.as_deref(), *.earlier_attempt_may_have_been_applied, .source)
    )]
    DynamoDb {
        /// The operation, such as `PutItem`.
        operation: &'static str,
        /// The table name.
        table: String,
        /// Whether DynamoDB refused the request, or it timed out, or its
        /// answer was lost: see [`RequestOutcome::may_have_been_applied`].
        outcome: RequestOutcome,
        /// The HTTP status of the answer, when one came.
        status: Option<u16>,
        /// DynamoDB's error code, such as `ResourceNotFoundException`
        /// (the exception name of the API reference), when it answered.
        code: Option<String>,
        /// DynamoDB's error message, when it answered with one.
        message: Option<String>,
        /// Whether an attempt before the last may have been applied: the
        /// SDK sent the request again after a timeout, a lost or unreadable
        /// answer or a server error, and `outcome` is the last attempt's.
        /// Then the request may have been applied even when `outcome` is a
        /// refusal (throttling, say): [`Error::may_have_been_applied`]
        /// says so.
        earlier_attempt_may_have_been_applied: bool,
        /// The SDK's error; match on it for service errors such as
        /// `ResourceNotFoundException`.
        source: Arc<aws_sdk_dynamodb::Error>,
    },
}

impl Error {
    /// Whether the write this error reports may have been applied: an
    /// [`Error::DynamoDb`] whose [`RequestOutcome::may_have_been_applied`]
    /// (a timeout, a lost or unreadable answer, a server error) or one of
    /// whose earlier attempts may have been applied, or an
    /// [`Error::OutcomeUnknown`]. Read the item before retrying a write that
    /// is not idempotent.
    pub fn may_have_been_applied(&self) -> bool {
        match self {
            Error::DynamoDb {
                outcome,
                code,
                earlier_attempt_may_have_been_applied,
                ..
            } => {
                *earlier_attempt_may_have_been_applied
                    || outcome.may_have_been_applied(code.as_deref())
            }
            Error::OutcomeUnknown { .. } => true,
            _ => false,
        }
    }
}

/// What would serve a query that [`Refusal::AttributesNotProjected`](crate::Refusal::AttributesNotProjected) refuses.
fn not_projected_advice(type_attribute: Option<&str>, missing: &[String]) -> String {
    match type_attribute {
        Some(type_attribute) => format!(
            "add `.hydrate()` to read the whole items from the table (a `BatchGetItem` of each page's keys), or project the type attribute `{type_attribute}`, by which Stamp scopes every query of an index to its entity: `IndexProjection::Include` with {missing:?} (and what it already includes), or `IndexProjection::All`"
        ),
        None => format!(
            "add `.hydrate()` to read the whole items from the table (a `BatchGetItem` of each page's keys; a filter still reads the index), query a projection of the projected attributes, or add {missing:?} to the index's `IndexProjection::Include`"
        ),
    }
}

/// `: <cause>` when there is one.
fn cause_text(cause: &Option<Arc<aws_sdk_dynamodb::Error>>) -> String {
    cause
        .as_ref()
        .map_or_else(String::new, |cause| format!(": {cause}"))
}

/// The reasons of a cancelled transaction other than `None`.
fn reasons_text(reasons: &[crate::error::CancellationReason]) -> String {
    let failed: Vec<String> = reasons
        .iter()
        .filter(|reason| reason.code != crate::error::CancellationCode::None)
        .map(|reason| {
            format!(
                "action {} ({} {}) {}",
                reason.index, reason.entity, reason.key, reason.code
            )
        })
        .collect();
    if failed.is_empty() {
        "no reason given".to_owned()
    } else {
        failed.join("; ")
    }
}
