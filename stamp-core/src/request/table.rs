//! [`Table`]: a client and a table name, its options, and the entry points
//! with a trait bound: the one-line shortcuts of [`Get`], [`Put`] and
//! [`Delete`], re-keying and the change feed (here so that a bound's
//! compile error names `stamp::Table::put`; see the block's comment). The
//! operations themselves are values in `ops/`, sent to a table; the other
//! entry points live with their work (`schema/table.rs`, `ops/batch`,
//! `ops/transaction`, `schema/import.rs`).

pub(crate) mod known;
mod options;

use std::sync::{Arc, OnceLock};

use crate::error::Error;
#[cfg(feature = "streams")]
use crate::model::collection::Collection;
use crate::model::entity::Entity;
use crate::model::typed_key::PrimaryKey;
use crate::ops::get::Get;
use crate::ops::write::{Delete, Put};
use crate::request::cursor_key::CursorKey;
use crate::request::executor::Call;
use crate::request::table::known::Known;
use crate::request::throttling::ThrottleRetries;
use aws_sdk_dynamodb::Client;

/// One DynamoDB table: an `aws_sdk_dynamodb::Client` plus the table name.
/// Cheap to clone (the client is reference-counted).
///
/// # Example
///
/// ```no_run
/// # async fn run(client: aws_sdk_dynamodb::Client) {
/// let table = stamp_core::Table::new(client, "app");
/// assert_eq!(table.name(), "app");
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Table {
    client: Client,
    /// The item-collection size above which a write logs a warning
    /// ([`warn_item_collection_above_gb`](Self::warn_item_collection_above_gb)).
    /// (Before the name, so that `Debug` still ends with the redacted
    /// cursor key.)
    item_collection_warning_gb: f64,
    /// The GSI projections of the table's definition, when given with
    /// [`with_definition`](Self::with_definition).
    /// What the table knows of its definition: given to
    /// [`with_definition`](Self::with_definition), or remembered by
    /// [`create_table`](Self::create_table) (shared by the clones of the
    /// table it was called on).
    known: Arc<OnceLock<Known>>,
    /// The log of [`with_capacity_log`](Self::with_capacity_log).
    capacity: Option<crate::request::executor::CapacityRecording>,
    /// The caps of [`with_throttle_retries`](Self::with_throttle_retries).
    throttle_retries: ThrottleRetries,
    /// The clock of [`with_clock`](Self::with_clock).
    clock: Clock,
    name: Arc<str>,
    cursor_key: Option<CursorKey>,
}

impl Table {
    /// A handle on table `name` through `client`. Sends nothing.
    pub fn new(client: Client, name: impl Into<String>) -> Self {
        Table {
            client,
            name: Arc::from(name.into()),
            cursor_key: None,
            item_collection_warning_gb:
                crate::request::collection_metrics::DEFAULT_ITEM_COLLECTION_WARNING_GB,
            known: Arc::default(),
            capacity: None,
            throttle_retries: ThrottleRetries::default(),
            clock: Clock(Arc::new(chrono::Utc::now)),
        }
    }

    /// This table, reading the time from `clock` instead of the system
    /// clock (`Utc::now`): what [`now`](Self::now) returns, so the moment
    /// every read judges expiry by and the time every write stamps into
    /// `created_at`/`updated_at` (`#[stamp(created_at)]`,
    /// `#[stamp(updated_at)]`) unless the write was given its own time
    /// (`at(…)`). A TTL (`#[stamp(ttl)]`) at or before this moment has
    /// passed, and reads leave the item out unless asked to include expired
    /// items (`include_expired()` on each read).
    ///
    /// `clock` is any `Fn() -> DateTime<Utc>`: a function, or the reader of
    /// the test kit's settable clock (`stamp::testing::TestClock::reader`),
    /// which the embedded server can share so that its TTL sweeps happen at
    /// the same time (`LocalDynamoDb::start_with_clock`).
    ///
    /// Transactions and batches stamp their items when an action is added,
    /// before they know the table: build them with
    /// [`transact_write`](Self::transact_write) and
    /// [`batch_write`](Self::batch_write) to stamp at this clock.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table) {
    /// use chrono::{DateTime, TimeZone, Utc};
    /// fn fixed() -> DateTime<Utc> {
    ///     Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap()
    /// }
    /// let table = table.with_clock(fixed);
    /// assert_eq!(table.now(), fixed());
    /// # }
    /// ```
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn with_clock(
        mut self,
        clock: impl Fn() -> chrono::DateTime<chrono::Utc> + Send + Sync + 'static,
    ) -> Self {
        self.clock = Clock(Arc::new(clock));
        self
    }

    /// The current time by the table's clock ([`with_clock`](Self::with_clock),
    /// the system clock by default): the moment reads judge expiry by and
    /// writes stamp.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        (self.clock.0)()
    }

    /// This table (its name and every option) through another client: the
    /// test kit's faulty client (`stamp::testing::Faults::table`).
    #[cfg(feature = "local")]
    pub(crate) fn with_client(mut self, client: Client) -> Self {
        self.client = client;
        self
    }

    /// This table, signing the [`Cursor`](crate::Cursor)s of its queries
    /// with `key` (HMAC-SHA256), so that a client cannot forge or change
    /// one: a query given a cursor that is unsigned, changed, or signed with
    /// another key fails with [`Refusal::InvalidCursor`](crate::Refusal::InvalidCursor) before sending. Give
    /// every process serving the same clients the same key, a secret of 32
    /// random bytes or more; changing it invalidates the cursors handed out,
    /// unless the old key stays accepted through
    /// [`with_previous_cursor_keys`](Self::with_previous_cursor_keys) (call
    /// that after this). A signature proves that Stamp produced the cursor,
    /// not who holds it; it does not hide it: a client can still decode the
    /// key of the last item it was shown (see [`Cursor`](crate::Cursor)).
    ///
    /// # Panics
    ///
    /// If `key` is empty, which would sign with no secret.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(client: aws_sdk_dynamodb::Client, secret: Vec<u8>) {
    /// let table = stamp_core::Table::new(client, "app").with_cursor_key(secret);
    /// # }
    /// ```
    pub fn with_cursor_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        let key = key.into();
        assert!(!key.is_empty(), "a cursor key must not be empty");
        self.cursor_key = Some(CursorKey::new(key));
        self
    }

    /// Keeps accepting cursors signed with `previous` keys (the keys used
    /// before the current one of [`with_cursor_key`](Self::with_cursor_key),
    /// which alone signs new cursors): rotate a key by signing with the new
    /// one and keeping the old one here until the cursors it signed have
    /// expired from your clients (a page link lives as long as a user keeps
    /// it; a day is a common choice), then drop it. Each is checked in
    /// constant time; a cursor none of them signed is
    /// [`Refusal::InvalidCursor`](crate::Refusal::InvalidCursor).
    ///
    /// # Panics
    ///
    /// If the table has no [`with_cursor_key`](Self::with_cursor_key) yet,
    /// or a previous key is empty.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(client: aws_sdk_dynamodb::Client, new: Vec<u8>, old: Vec<u8>) {
    /// let table = stamp_core::Table::new(client, "app")
    ///     .with_cursor_key(new)
    ///     .with_previous_cursor_keys([old]);
    /// # }
    /// ```
    pub fn with_previous_cursor_keys(
        mut self,
        previous: impl IntoIterator<Item = impl Into<Vec<u8>>>,
    ) -> Self {
        let previous: Vec<Vec<u8>> = previous.into_iter().map(Into::into).collect();
        assert!(
            previous.iter().all(|key| !key.is_empty()),
            "a cursor key must not be empty"
        );
        let current = self
            .cursor_key
            .take()
            .expect("with_cursor_key comes before with_previous_cursor_keys");
        self.cursor_key = Some(current.with_previous(previous));
        self
    }

    /// The key the table signs cursors with, if any.
    pub(crate) fn cursor_key(&self) -> Option<&CursorKey> {
        self.cursor_key.as_ref()
    }

    /// The SDK client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs `input`: the one place a request of Stamp is sent (see the
    /// module's documentation).
    pub(crate) async fn execute<Op: super::dispatch::Operation>(
        &self,
        input: Op,
        call: Call<'_>,
    ) -> Result<Op::Output, super::executor::Failure<Op::Error>> {
        super::executor::execute(self, input, call).await
    }

    /// Runs `input` and maps a failure to [`crate::Error`] (for the requests
    /// without a conditional failure of their own).
    pub(crate) async fn execute_mapped<Op: super::dispatch::Operation>(
        &self,
        input: Op,
        call: Call<'_>,
    ) -> Result<Op::Output, Error>
    where
        aws_sdk_dynamodb::Error: From<
            aws_sdk_dynamodb::error::SdkError<
                Op::Error,
                aws_sdk_dynamodb::config::http::HttpResponse,
            >,
        >,
    {
        super::executor::execute_mapped(self, input, call).await
    }
}

/// The entry points with a trait bound (`E: Entity`, `C: Collection`) stay
/// in the module that defines [`Table`], although they belong to the
/// operations (`ops/`) and the change feed (`streams/`): rustc names a
/// method of an `impl` outside its type's module by that module's private
/// path in a bound's error (`stamp_core::ops::write::<impl Table>::put`),
/// here by the public one (`stamp::Table::put`; fixture
/// `stamp-ui/tests/ui/table/not-an-entity.rs`). Each is one call of the
/// module that holds its logic; the layer test (`tests/layers.rs`) allows
/// this block alone.
impl Table {
    /// Moves an item to a new primary key: `old` is the item as it was read,
    /// `new` the same item with its key fields changed (and any other change
    /// to make in the same write). Keys are immutable in DynamoDB, so this is
    /// how a key changes: one `TransactWriteItems` with two actions, which
    /// DynamoDB applies both or not at all.
    ///
    /// 0. First a strongly consistent `GetItem` of `old`'s key (one read
    ///    unit per 4 KB) reads the item as stored. Its attributes that the
    ///    entity does not write (added by other code, e.g. `SET extra = :x`)
    ///    are copied unchanged to the new item, and the delete's guard also
    ///    requires each of them to be still equal, so no attribute is lost.
    ///
    /// 1. The delete of `old`'s key is guarded so that a concurrent write is
    ///    never lost: for a `#[stamp(version)]` entity at version `v > 0`,
    ///    by `version = v`; otherwise by "unchanged since it was read",
    ///    every attribute of `old.to_item()` equal and every other attribute
    ///    the entity writes (fields, index attributes, TTL) absent. An item
    ///    whose stored form is not what `to_item` writes (attributes written
    ///    by other code with another encoding) therefore fails the guard:
    ///    the safe direction.
    /// 2. The put of `new`'s key is guarded by `attribute_not_exists` on the
    ///    partition key. `updated_at` is stamped with the time of the write;
    ///    `created_at` is not: the stored value is `new`'s, which is `old`'s
    ///    when `new` is built from it (`E { id, ..old.clone() }`). A
    ///    versioned entity stores `old`'s version + 1 (`new`'s version field
    ///    is ignored), so the moved item goes on with optimistic locking.
    ///
    /// Both actions ask `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so
    /// a failed guard is explained by the item as it is.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
    ///
    /// # Errors
    ///
    /// Before sending:
    /// [`Refusal::DuplicateTransactionItem`](crate::Refusal::DuplicateTransactionItem)
    /// when `new` has `old`'s key,
    /// [`Refusal::VersionOverflow`](crate::Refusal::VersionOverflow) when
    /// `old` is at the version type's maximum,
    /// [`Refusal::ExpressionTooLong`](crate::Refusal::ExpressionTooLong) when
    /// the unchanged condition is longer than DynamoDB's 4 KB, and the item checks of
    /// [`put`](Self::put). After, from the transaction's cancellation
    /// reasons, the old key's first: [`Error::ItemNotFound`] (`old` was
    /// deleted meanwhile; also from the `GetItem`, then nothing else is sent), [`Error::VersionConflict`] (versioned: written
    /// meanwhile, with the version found) or [`Error::ConditionFailed`]
    /// (changed meanwhile, with the item as it is); then
    /// [`Error::AlreadyExists`] (the new key is taken); else
    /// [`Error::DynamoDb`]. Whatever the error, nothing was changed.
    pub async fn rekey<E: Entity>(&self, old: &E, new: &E) -> Result<(), Error> {
        crate::ops::rekey::rekey(self, old, new).await
    }

    /// The table's change feed: every change to its items, from the
    /// table's DynamoDB Stream, decoded into collection `C`'s variants
    /// (feature `streams`), read through `streams`, a DynamoDB Streams
    /// client ([`StreamsClient::new(&sdk_config)`](crate::streams::StreamsClient),
    /// re-exported from `aws-sdk-dynamodbstreams`, with the `SdkConfig` the
    /// DynamoDB client was made from; for a local server
    /// [`local::streams_client`](crate::local::streams_client)). It is a
    /// parameter because the SDK does not let a client's endpoint and
    /// credentials be read back. The table needs a stream with images
    /// (`TableDefinition::stream(StreamViewType::NewAndOldImages)`).
    /// `C` may be a collection of one partition, or, for every change of
    /// the table, a `#[derive(Collection)] #[stamp(any_partition)]` enum of
    /// entities in any partitions. Sends nothing until the first
    /// [`ChangeFeed::next`](crate::streams::ChangeFeed::next).
    ///
    /// # Example
    ///
    /// ```no_run
    /// # use stamp_core::{Collection, Table, streams::Checkpoint};
    /// # async fn run<C: Collection>(table: Table, saved: Checkpoint) -> Result<(), stamp_core::Error> {
    /// let streams = stamp_core::local::streams_client("http://localhost:8000");
    /// let mut feed = table.changes::<C>(streams).resume(saved);
    /// while let Some(change) = feed.next().await? {
    ///     // handle `change`, then keep `feed.checkpoint()` somewhere safe
    /// #   let _ = change;
    /// }
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "streams")]
    pub fn changes<C: Collection>(
        &self,
        streams: crate::streams::StreamsClient,
    ) -> crate::streams::ChangeFeed<C> {
        crate::streams::feed::changes(self, streams)
    }

    /// Reads the item with primary key `key`, eventually consistent:
    /// `Get::new(key.clone()).send(self)` ([`Get`] for a strongly
    /// consistent read). `Ok(None)` when there is no such item.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html>.
    ///
    /// # Errors
    ///
    /// As [`Get::send`].
    pub async fn get<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<Option<E>, Error> {
        Get::new(key.clone()).send(self).await
    }

    /// Writes `entity` with `PutItem`, replacing any item with its key:
    /// `Put::new(entity).send(self)` ([`Put`] for a condition).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html>.
    ///
    /// # Errors
    ///
    /// As [`Put::send`].
    pub async fn put<E: Entity>(&self, entity: &E) -> Result<(), Error> {
        Put::new(entity).send(self).await
    }

    /// Writes `entity` only if no item has its primary key:
    /// `Put::create(entity).send(self)`. `created_at` and `updated_at` are
    /// stamped.
    ///
    /// It is idempotent for one key: sent again with the same key (a client
    /// retrying a request with the id it generated), it stores nothing and
    /// fails with [`Error::AlreadyExists`]. It is not idempotent when the
    /// key holds a value made anew for each request, such as a time the
    /// server sets (`#[sk = "BOOK#<added_at>#<book_id>"]` with `added_at:
    /// Utc::now()`): each attempt is another key, so two POSTs of one book
    /// store two books with one id. Then have the client send that value
    /// too, or create a uniqueness item keyed by the id alone in the same
    /// [`TransactWrite`](crate::TransactWrite); [`Put::create`] shows both.
    ///
    /// # Errors
    ///
    /// As [`Put::send`]: [`Error::AlreadyExists`] when an item with the key
    /// is there, whatever its version.
    pub async fn create<E: Entity>(&self, entity: &E) -> Result<(), Error> {
        Put::create(entity).send(self).await
    }

    /// Deletes the item with `key`, if there is one:
    /// `Delete::new(key.clone()).send(self)` ([`Delete`] for a condition,
    /// an expected version or the old item).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html>.
    ///
    /// # Errors
    ///
    /// As [`Delete::send`].
    pub async fn delete<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<(), Error> {
        Delete::new(key.clone()).send(self).await
    }
}

/// The time source of a [`Table`] ([`Table::with_clock`]).
#[derive(Clone)]
struct Clock(Arc<dyn Fn() -> chrono::DateTime<chrono::Utc> + Send + Sync>);

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Clock")
    }
}
