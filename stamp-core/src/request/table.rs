//! [`Table`]: a client and a table name; creating and deleting the table.
//! The operations on its items are in `ops/`, each an `impl Table` or a
//! builder sent to it.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::ops::cursor::CursorKey;
use crate::request::executor::Call;
use crate::{Error, TableDefinition};
use aws_sdk_dynamodb::Client;

/// How long [`Table::create_table`] waits for the new table to become
/// `ACTIVE`.
const TABLE_ACTIVE_TIMEOUT: Duration = Duration::from_secs(120);

/// What a table knows of the definition it was made from.
#[derive(Debug)]
struct Known {
    /// The projection of each index.
    index_projections: Vec<(&'static str, crate::IndexProjection)>,
    /// Whether it has a local secondary index: then every write asks for
    /// `ReturnItemCollectionMetrics = SIZE`.
    has_local_index: bool,
}

impl Known {
    fn of(definition: &TableDefinition) -> Result<Self, Error> {
        definition.check()?;
        let indexes = definition.indexes()?;
        Ok(Known {
            has_local_index: indexes.iter().any(crate::TableIndex::is_local),
            index_projections: indexes
                .into_iter()
                .map(|index| (index.name, index.projection))
                .collect(),
        })
    }
}

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
    throttle_retries: crate::ThrottleRetries,
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
            throttle_retries: crate::ThrottleRetries::default(),
        }
    }

    /// This table, capping the SDK's retries of a throttled request by the
    /// class of DynamoDB's `ThrottlingReasons`: `retries.hot_key` after a
    /// hot partition (`…KeyRangeThroughputExceeded`), `retries.limits` after
    /// a provisioned, on-demand maximum or account limit. By default both
    /// are the SDK's own (its `max_attempts`, 3 in the standard mode). A
    /// request that meets its cap fails with [`Error::DynamoDb`], whose
    /// [`throttles`](Error::throttles) name the limit and the resource.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling.html>.
    pub fn with_throttle_retries(mut self, retries: crate::ThrottleRetries) -> Self {
        self.throttle_retries = retries;
        self
    }

    /// The caps of [`with_throttle_retries`](Self::with_throttle_retries).
    pub(crate) fn throttle_retries(&self) -> crate::ThrottleRetries {
        self.throttle_retries
    }

    /// This table, asking DynamoDB for the consumed capacity of every
    /// request (`ReturnConsumedCapacity = TOTAL`, or `INDEXES` for
    /// [`CapacityDetail::Indexes`](crate::CapacityDetail)) and recording what
    /// it reports in `log`: gets, puts, updates, deletes, queries, scans,
    /// batches, transactions, re-keys, migrations and exports alike. Asking
    /// costs nothing.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ConsumedCapacity.html>.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table) {
    /// use stamp_core::{CapacityDetail, CapacityLog};
    /// let log = CapacityLog::new();
    /// let table = table.with_capacity_log(&log, CapacityDetail::Indexes);
    /// // … requests on `table` …
    /// for record in log.take() {
    ///     println!("{} {}: {} units", record.operation, record.entity, record.units());
    /// }
    /// # }
    /// ```
    pub fn with_capacity_log(
        mut self,
        log: &crate::CapacityLog,
        detail: crate::CapacityDetail,
    ) -> Self {
        self.capacity = Some(crate::request::executor::CapacityRecording {
            log: log.clone(),
            detail,
        });
        self
    }

    /// The log of [`with_capacity_log`](Self::with_capacity_log), if any.
    pub(crate) fn capacity_recording(
        &self,
    ) -> Option<&crate::request::executor::CapacityRecording> {
        self.capacity.as_ref()
    }

    /// Whether the table's definition, when known, has a local secondary
    /// index.
    pub(crate) fn has_local_index(&self) -> bool {
        self.known.get().is_some_and(|known| known.has_local_index)
    }

    /// This table, knowing `definition` (the definition it was created
    /// from): a query of a GSI (of any kind: template, sharded or
    /// multi-attribute) that `definition` projects as `KEYS_ONLY` or
    /// `INCLUDE` is then refused with [`Refusal::AttributesNotProjected`](crate::Refusal::AttributesNotProjected),
    /// before sending, when it needs an attribute the index does not hold
    /// (the entity's fields it decodes, its type attribute, the attributes
    /// its filter names). A table that [`create_table`](Self::create_table)
    /// made (and its clones) knows the definition it was made from without
    /// this. Without either, such a query is sent, and fails to decode or
    /// finds nothing (every entity query filters on the type attribute,
    /// which such an index may not hold): give a table made elsewhere
    /// (CloudFormation, another process) its definition.
    ///
    /// LSIs need no check, with or without the definition: every query of
    /// an LSI (entity, collection or projection) sends
    /// `Select = ALL_ATTRIBUTES`, so DynamoDB fetches from the
    /// table each item's attributes that the LSI does not project, at the
    /// cost of reads from the table beside the index's own ("Provisioned
    /// throughput considerations for Local Secondary Indexes"; no fetch
    /// when the LSI projects `ALL`).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>
    /// and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-Select>.
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::check`].
    pub fn with_definition(mut self, definition: &TableDefinition) -> Result<Self, Error> {
        self.known = Arc::new(OnceLock::from(Known::of(definition)?));
        Ok(self)
    }

    /// The projection of GSI `index` in the definition given to
    /// [`with_definition`](Self::with_definition), if any.
    pub(crate) fn index_projection(&self, index: &str) -> Option<&crate::IndexProjection> {
        self.known
            .get()?
            .index_projections
            .iter()
            .find(|(name, _)| *name == index)
            .map(|(_, projection)| projection)
    }

    /// This table, logging a `tracing` warning (target
    /// `stamp::item_collection`) when a write reports an item collection
    /// whose estimated size may be above `gigabytes`: the upper bound of
    /// `ItemCollectionMetrics.SizeEstimateRangeGB` is greater than it. The
    /// default is [`DEFAULT_ITEM_COLLECTION_WARNING_GB`](crate::DEFAULT_ITEM_COLLECTION_WARNING_GB)
    /// (8 GB); `f64::INFINITY` turns the warning off.
    ///
    /// In a table with a local secondary index, the items of one partition
    /// key value and their LSI entries (an *item collection*) may not
    /// exceed 10 GB: DynamoDB then refuses writes that would grow it
    /// (`ItemCollectionSizeLimitExceededException`, an [`Error::DynamoDb`]).
    /// Every write of an entity with an LSI (put, create, update, delete,
    /// rekey, batch writes and transactions holding one) asks for
    /// `ReturnItemCollectionMetrics = SIZE`, so that the warning comes
    /// before the limit.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit>.
    ///
    /// # Panics
    ///
    /// When `gigabytes` is NaN.
    pub fn warn_item_collection_above_gb(mut self, gigabytes: f64) -> Self {
        assert!(!gigabytes.is_nan(), "the warning threshold is a number");
        self.item_collection_warning_gb = gigabytes;
        self
    }

    /// The item-collection size above which a write logs a warning.
    pub fn item_collection_warning_gb(&self) -> f64 {
        self.item_collection_warning_gb
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
    /// not who holds it.
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

    /// Creates this table from `definition` and waits, up to two minutes,
    /// until it is `ACTIVE`; from then on this table and its clones know
    /// `definition`, as with [`with_definition`](Self::with_definition)
    /// (unless they were given one already); then, when an entity has a `#[stamp(ttl)]`
    /// field, turns on TTL on it with `UpdateTimeToLive`. Point-in-time
    /// recovery is left as DynamoDB creates it (off); it is part of
    /// [`TableDefinition::cloudformation`].
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::request`], found before
    /// sending; [`Error::DynamoDb`] for what the service returns, such as
    /// `ResourceInUseException` when the table exists; [`Error::TableNotActive`]
    /// when it does not become `ACTIVE` in time.
    pub async fn create_table(&self, definition: &TableDefinition) -> Result<(), Error> {
        let input = definition.request(&self.name)?;
        let known = Known::of(definition)?;
        self.execute_mapped(input, Call::of("")).await?;
        // The table now knows what it was made from (unless it was told
        // already): its queries are checked against its index projections.
        let _ = self.known.set(known);
        crate::request::dispatch::wait_until_active(self, TABLE_ACTIVE_TIMEOUT)
            .await
            .map_err(|detail| Error::TableNotActive {
                table: self.name.to_string(),
                detail,
            })?;
        self.enable_time_to_live(definition).await?;
        Ok(())
    }

    /// Deletes this table and every item in it.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`] for what the service returns, such as
    /// `ResourceNotFoundException` when there is no such table.
    pub async fn delete_table(&self) -> Result<(), Error> {
        let input = aws_sdk_dynamodb::operation::delete_table::DeleteTableInput::builder()
            .table_name(&*self.name)
            .build()
            .expect("DeleteTableInput has no required fields");
        self.execute_mapped(input, Call::of("")).await?;
        Ok(())
    }
}
