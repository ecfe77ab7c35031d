//! [`BatchWrite`]: puts and deletes of any entities in `BatchWriteItem`
//! requests of at most 25 items and 16 MB.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemInput;
use aws_sdk_dynamodb::types::{
    DeleteRequest, PutRequest, ReturnConsumedCapacity, ReturnItemCollectionMetrics, WriteRequest,
};
use futures::{StreamExt, stream};

use super::{DEFAULT_BATCH_CONCURRENCY, GroupOutcome, Sent, chunks, key_values, run_group};
use crate::error::Error;
use crate::error::ItemKey;
use crate::error::Refusal;
use crate::item::size::{MAX_BATCH_WRITE_BYTES, MAX_BATCH_WRITE_ITEMS, item_size};
use crate::model::entity::Entity;
use crate::model::typed_key::PrimaryKey;
use crate::request::dispatch::Operation;
use crate::request::executor::Call;
use crate::request::retry::BatchRetry;
use crate::request::retry::is_retryable;
use crate::request::span::common_entity;
use crate::request::table::Table;

/// One put or delete of a [`BatchWrite`].
#[derive(Debug, Clone)]
struct WriteEntry {
    entity: &'static str,
    key: ItemKey,
    identity: (String, String),
    size: usize,
    request: WriteRequest,
}

/// A batch of puts and deletes on one table, of any entities, built by
/// [`BatchWrite::new`]. Nothing is sent until [`send`](Self::send) names the
/// table.
///
/// `send` splits the batch into `BatchWriteItem` requests of at most 25
/// items and 16 MB, runs up to [`max_concurrency`](Self::max_concurrency)
/// of them at once, and retries unprocessed items and throttled requests
/// under [`BatchRetry`]. Items are written in no particular order, and a
/// batch is not a transaction: when it fails, the error lists exactly the
/// requests that were not written.
///
/// Every item is checked before anything is sent (see
/// [`check_item`](crate::check_item)), and a batch that names one primary
/// key twice is refused, as DynamoDB refuses it.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>.
///
/// # Example
///
/// ```ignore
/// let output = BatchWrite::new()
///     .put(&customer)
///     .put_all(&orders)
///     .delete(Session::key("token-1")?)
///     .send(&table)
///     .await?;
/// assert_eq!(output.written, 2 + orders.len());
/// ```
#[derive(Debug, Clone)]
pub struct BatchWrite {
    entries: Vec<WriteEntry>,
    error: Option<Error>,
    max_concurrency: usize,
    retry: BatchRetry,
    /// Whether an entry writes an entity with an LSI, so that every request
    /// asks for `ReturnItemCollectionMetrics = SIZE`.
    item_collection_metrics: bool,
    /// The time [`put`](Self::put) stamps `updated_at` with
    /// ([`at`](Self::at)); the system clock when `None`.
    at: Option<chrono::DateTime<chrono::Utc>>,
}

/// What a [`BatchWrite`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchWriteOutput {
    /// Write requests written (puts and deletes).
    pub written: usize,
    /// `BatchWriteItem` requests sent, retries included.
    pub requests: usize,
    /// Requests sent again, for unprocessed items or after throttling.
    pub retries: usize,
    /// Requests that failed with a retryable error (throttling, 5xx).
    pub throttled: usize,
}

impl Default for BatchWrite {
    fn default() -> Self {
        BatchWrite::new()
    }
}

impl BatchWrite {
    /// An empty batch: add puts and deletes, then [`send`](Self::send) it
    /// to a table.
    pub fn new() -> Self {
        BatchWrite {
            entries: Vec::new(),
            error: None,
            max_concurrency: DEFAULT_BATCH_CONCURRENCY,
            retry: BatchRetry::default(),
            item_collection_metrics: false,
            at: None,
        }
    }

    /// Stamps the items of the puts added after this call with `now`
    /// (`#[stamp(updated_at)]`) instead of the system clock's time when
    /// each is added. [`Table::batch_write`](crate::Table::batch_write)
    /// starts a batch at the table's clock.
    pub fn at(mut self, now: chrono::DateTime<chrono::Utc>) -> Self {
        self.at = Some(now);
        self
    }

    fn keep_error(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Adds a put of `entity`, replacing any item with its primary key.
    /// Errors in making the item (serialization, numbers, size) are returned
    /// by [`send`](Self::send), before anything is sent.
    pub fn put<E: Entity>(mut self, entity: &E) -> Self {
        match crate::item::check::item_for_write(entity, self.at.unwrap_or_else(chrono::Utc::now)) {
            Ok((item, size)) => {
                let key = ItemKey::of::<E>(&item);
                let identity =
                    key_values(E::SCHEMA.partition_key.name, E::SCHEMA.sort_key.name, &item);
                let request = WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(item))
                            .build()
                            .expect("the item is set"),
                    )
                    .build();
                self.item_collection_metrics |= E::SCHEMA.has_local_index();
                self.entries.push(WriteEntry {
                    entity: E::SCHEMA.type_name,
                    key,
                    identity,
                    size,
                    request,
                });
            }
            Err(error) => self.keep_error(error),
        }
        self
    }

    /// Adds a put of each of `entities`.
    pub fn put_all<'a, E: Entity + 'a>(self, entities: impl IntoIterator<Item = &'a E>) -> Self {
        entities
            .into_iter()
            .fold(self, |batch, entity| batch.put(entity))
    }

    /// Adds a delete of the item with primary key `key` (nothing happens
    /// when there is none).
    ///
    /// Refused ([`Refusal::UniqueBatchWrite`], returned by
    /// [`send`](Self::send)) for an entity with unique values: the delete
    /// would leave its guard items holding the values.
    pub fn delete<E: Entity>(mut self, key: PrimaryKey<E>) -> Self {
        if !E::SCHEMA.unique_values.is_empty() {
            self.keep_error(Error::Refused(Refusal::UniqueBatchWrite {
                entity: E::SCHEMA.type_name,
            }));
            return self;
        }
        let map = key.to_attribute_map();
        let (partition_key, sort_key) = key.into_parts();
        let request = WriteRequest::builder()
            .delete_request(
                DeleteRequest::builder()
                    .set_key(Some(map.clone()))
                    .build()
                    .expect("the key is set"),
            )
            .build();
        self.item_collection_metrics |= E::SCHEMA.has_local_index();
        self.entries.push(WriteEntry {
            entity: E::SCHEMA.type_name,
            size: item_size(&map),
            key: ItemKey::of::<E>(&map),
            identity: (partition_key, sort_key),
            request,
        });
        self
    }

    /// Adds a delete of each of `keys`.
    pub fn delete_all<E: Entity>(self, keys: impl IntoIterator<Item = PrimaryKey<E>>) -> Self {
        keys.into_iter().fold(self, |batch, key| batch.delete(key))
    }

    /// How many requests run at once, at least 1. Default
    /// [`DEFAULT_BATCH_CONCURRENCY`] (4).
    pub fn max_concurrency(mut self, requests: usize) -> Self {
        self.max_concurrency = requests.max(1);
        self
    }

    /// How unprocessed items and throttled requests are retried. Default
    /// [`BatchRetry::default`].
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// The number of puts and deletes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the batch has no put or delete.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The exact `BatchWriteItem` requests [`send`](Self::send) starts with
    /// on the table named `table_name`, one per group of at most 25 writes
    /// and 16 MB, without a network (writes DynamoDB leaves unprocessed are
    /// sent again in later requests of their own).
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn requests(&self, table_name: &str) -> Result<Vec<BatchWriteItemInput>, Error> {
        self.check()?;
        Ok(Self::groups(self.entries.clone())
            .into_iter()
            .map(|group| {
                self.input(
                    table_name,
                    group.into_iter().map(|entry| entry.request).collect(),
                )
            })
            .collect())
    }

    /// One `BatchWriteItem` of `requests` on table `table_name`.
    fn input(&self, table_name: &str, requests: Vec<WriteRequest>) -> BatchWriteItemInput {
        BatchWriteItemInput::builder()
            .request_items(table_name, requests)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .set_return_item_collection_metrics(
                self.item_collection_metrics
                    .then_some(ReturnItemCollectionMetrics::Size),
            )
            .build()
            .expect("BatchWriteItemInput has no required fields")
    }

    fn check(&self) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let mut seen: HashMap<&(String, String), ()> = HashMap::with_capacity(self.entries.len());
        for entry in &self.entries {
            if seen.insert(&entry.identity, ()).is_some() {
                return Err(Error::Refused(Refusal::DuplicateBatchKey {
                    operation: <BatchWriteItemInput as Operation>::NAME,
                    entity: entry.entity,
                    key: entry.key.clone(),
                }));
            }
        }
        Ok(())
    }

    fn groups(entries: Vec<WriteEntry>) -> Vec<Vec<WriteEntry>> {
        chunks(
            entries,
            |entry| entry.size,
            MAX_BATCH_WRITE_ITEMS,
            MAX_BATCH_WRITE_BYTES,
        )
    }

    /// Writes the batch to `table`. An empty batch sends nothing.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of making an item ([`Refusal::Serialize`],
    /// [`Refusal::InvalidNumber`], [`Refusal::ItemTooLarge`], …) and
    /// [`Refusal::DuplicateBatchKey`]. After: [`Error::UnprocessedItems`] with
    /// exactly the write requests not written, when retries run out or a
    /// request fails with an error that is not retried (then no new
    /// request is started).
    pub async fn send(mut self, table: &Table) -> Result<BatchWriteOutput, Error> {
        self.check()?;
        if self.entries.is_empty() {
            return Ok(BatchWriteOutput::default());
        }
        let entity = common_entity(self.entries.iter().map(|entry| entry.entity));
        let stop = AtomicBool::new(false);
        let groups = Self::groups(std::mem::take(&mut self.entries));
        let this = &self;
        let outcomes: Vec<(usize, GroupOutcome<WriteRequest>)> =
            stream::iter(groups.into_iter().map(|group| {
                this.write_group(
                    table,
                    group.into_iter().map(|entry| entry.request).collect(),
                    entity,
                    &stop,
                )
            }))
            .buffer_unordered(self.max_concurrency)
            .collect()
            .await;

        let mut output = BatchWriteOutput::default();
        let mut unprocessed = Vec::new();
        let mut cause = None;
        let mut attempts = 0;
        for (sent, outcome) in outcomes {
            output.written += sent - outcome.unprocessed.len();
            output.requests += outcome.attempts as usize;
            output.retries += outcome.retries;
            output.throttled += outcome.throttled;
            attempts = attempts.max(outcome.attempts);
            unprocessed.extend(outcome.unprocessed);
            cause = cause.or(outcome.cause);
        }
        if unprocessed.is_empty() {
            Ok(output)
        } else {
            Err(Error::UnprocessedItems {
                table: table.name().to_owned(),
                attempts,
                written: output.written,
                unprocessed,
                cause,
            })
        }
    }

    /// Writes one group of at most 25 requests, retrying what is left;
    /// returns its size and outcome.
    async fn write_group(
        &self,
        table: &Table,
        pending: Vec<WriteRequest>,
        entity: &'static str,
        stop: &AtomicBool,
    ) -> (usize, GroupOutcome<WriteRequest>) {
        let name = table.name();
        let size = pending.len();
        let outcome = run_group(
            (<BatchWriteItemInput as Operation>::NAME, name),
            self.retry,
            stop,
            pending,
            |pending| async move {
                let sent = pending.len();
                let input = self.input(name, pending);
                let result = table.execute(input, Call::of(entity).items(sent)).await;
                match result {
                    Ok(mut response) => {
                        let left = response
                            .unprocessed_items
                            .as_mut()
                            .and_then(|unprocessed| unprocessed.remove(name))
                            .unwrap_or_default();
                        Sent::Answered {
                            left,
                            found: Vec::new(),
                        }
                    }
                    Err(failure) if is_retryable(&failure.error) => {
                        Sent::Retryable(failure.error.into())
                    }
                    Err(failure) => Sent::Failed(failure.error.into()),
                }
            },
        )
        .await;
        (size, outcome)
    }
}
