//! Batch writes and batch gets: many items in as few requests as DynamoDB
//! allows, sent in parallel, with unprocessed items and throttled requests
//! retried under exponential backoff with jitter, and whatever could not be
//! written returned in the error, never dropped.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, DeleteRequest, KeysAndAttributes, PutRequest,
    ReturnConsumedCapacity, WriteRequest,
};
use futures::{StreamExt, stream};
use tracing::Instrument;

use crate::item::size::{
    MAX_BATCH_GET_KEYS, MAX_BATCH_WRITE_BYTES, MAX_BATCH_WRITE_ITEMS, item_size,
};
use crate::{Entity, Error, Item, PrimaryKey, Table};

/// How many batch requests run at once unless set otherwise.
pub const DEFAULT_BATCH_CONCURRENCY: usize = 4;

/// How a batch retries the items DynamoDB leaves unprocessed and the
/// requests it throttles: up to `max_retries` more requests per group of
/// items, each after a random delay from zero to
/// `min(max_delay, base_delay × 2^retry)` ("full jitter").
///
/// A request is retried when DynamoDB returns `UnprocessedItems` or
/// `UnprocessedKeys`, or fails with `ProvisionedThroughputExceededException`,
/// `ThrottlingException`, `RequestLimitExceeded`, an HTTP 5xx error, a
/// timeout or an I/O error. These retries come on top of the SDK's own.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.RetryAndBackoff>.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchRetry {
    /// Requests after the first for one group of items. Default 10.
    pub max_retries: u32,
    /// The delay bound of the first retry. Default 50 ms.
    pub base_delay: Duration,
    /// The largest delay bound. Default 5 s.
    pub max_delay: Duration,
}

impl Default for BatchRetry {
    fn default() -> Self {
        BatchRetry {
            max_retries: 10,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
        }
    }
}

impl BatchRetry {
    /// No retry: whatever the first request leaves is returned in the error.
    pub fn none() -> Self {
        BatchRetry {
            max_retries: 0,
            ..BatchRetry::default()
        }
    }

    /// The upper bound of the delay before retry `retry` (0 for the first):
    /// `min(max_delay, base_delay × 2^retry)`.
    pub fn delay_bound(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.min(31));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }

    /// A random delay from zero to [`delay_bound`](Self::delay_bound).
    fn delay(&self, retry: u32) -> Duration {
        self.delay_bound(retry).mul_f64(fastrand::f64())
    }
}

/// Whether a failed request is worth sending again: throttling, a server
/// error, a timeout or an I/O error.
pub(crate) fn is_retryable<E: ProvideErrorMetadata>(error: &SdkError<E, HttpResponse>) -> bool {
    match error {
        SdkError::TimeoutError(_) => true,
        SdkError::DispatchFailure(failure) => failure.is_timeout() || failure.is_io(),
        SdkError::ServiceError(service) => {
            matches!(
                error.code(),
                Some(
                    "ProvisionedThroughputExceededException"
                        | "ThrottlingException"
                        | "RequestLimitExceeded"
                        | "InternalServerError"
                        | "ServiceUnavailable"
                )
            ) || service.raw().status().is_server_error()
        }
        _ => false,
    }
}

/// The span every batch request runs in.
fn batch_span(
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

fn record_capacity(capacity: Option<&[ConsumedCapacity]>) {
    if let Some(capacity) = capacity {
        let units: f64 = capacity
            .iter()
            .filter_map(|capacity| capacity.capacity_units)
            .sum();
        tracing::Span::current().record("consumed_capacity", units);
    }
}

/// Splits `items` in order into groups of at most `max_count` items and
/// `max_bytes` bytes (a single item larger than `max_bytes` is a group of
/// its own).
fn chunks<T>(
    items: Vec<T>,
    size: impl Fn(&T) -> usize,
    max_count: usize,
    max_bytes: usize,
) -> Vec<Vec<T>> {
    let mut groups = Vec::new();
    let mut group = Vec::new();
    let mut bytes = 0;
    for item in items {
        let item_bytes = size(&item);
        if !group.is_empty() && (group.len() == max_count || bytes + item_bytes > max_bytes) {
            groups.push(std::mem::take(&mut group));
            bytes = 0;
        }
        bytes += item_bytes;
        group.push(item);
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// The `(partition key, sort key)` values of an item or key of `schema`.
fn key_values(partition: &str, sort: &str, item: &Item) -> (String, String) {
    let text = |name: &str| match item.get(name) {
        Some(AttributeValue::S(value)) => value.clone(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    };
    (text(partition), text(sort))
}

/// One put or delete of a [`BatchWrite`].
#[derive(Debug, Clone)]
struct WriteEntry {
    entity: &'static str,
    key: Item,
    identity: (String, String),
    size: usize,
    request: WriteRequest,
}

/// What one group of items came to.
#[derive(Debug, Default)]
struct WriteOutcome {
    written: usize,
    requests: usize,
    retries: usize,
    throttled: usize,
    attempts: u32,
    unprocessed: Vec<WriteRequest>,
    cause: Option<Arc<aws_sdk_dynamodb::Error>>,
}

/// A batch of puts and deletes on one table, of any entities, built by
/// [`Table::batch_write`]. Nothing is sent until [`send`](Self::send).
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
/// let output = table
///     .batch_write()
///     .put(&customer)
///     .put_all(&orders)
///     .delete(Session::key("token-1")?)
///     .send()
///     .await?;
/// assert_eq!(output.written, 2 + orders.len());
/// ```
#[derive(Debug, Clone)]
pub struct BatchWrite {
    table: Table,
    entries: Vec<WriteEntry>,
    error: Option<Error>,
    max_concurrency: usize,
    retry: BatchRetry,
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

impl Table {
    /// A batch write on this table: add puts and deletes, then
    /// [`send`](BatchWrite::send).
    pub fn batch_write(&self) -> BatchWrite {
        BatchWrite {
            table: self.clone(),
            entries: Vec::new(),
            error: None,
            max_concurrency: DEFAULT_BATCH_CONCURRENCY,
            retry: BatchRetry::default(),
        }
    }

    /// A batch get of `keys` on this table; [`send`](BatchGet::send) returns
    /// the items in the order of the keys.
    pub fn batch_get<E: Entity>(
        &self,
        keys: impl IntoIterator<Item = PrimaryKey<E>>,
    ) -> BatchGet<E> {
        BatchGet {
            table: self.clone(),
            keys: keys.into_iter().collect(),
            consistent_read: false,
            max_concurrency: DEFAULT_BATCH_CONCURRENCY,
            retry: BatchRetry::default(),
            entity: PhantomData,
        }
    }
}

impl BatchWrite {
    fn keep_error(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Adds a put of `entity`, replacing any item with its primary key.
    /// Errors in making the item (serialization, numbers, size) are returned
    /// by [`send`](Self::send), before anything is sent.
    pub fn put<E: Entity>(mut self, entity: &E) -> Self {
        match crate::item::check::item_for_write(entity) {
            Ok((item, size)) => {
                let key = crate::item::check::key_of(E::SCHEMA, &item);
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
    pub fn delete<E: Entity>(mut self, key: PrimaryKey<E>) -> Self {
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
        self.entries.push(WriteEntry {
            entity: E::SCHEMA.type_name,
            size: item_size(&map),
            key: map,
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

    /// The `BatchWriteItem` requests [`send`](Self::send) would start with,
    /// as their lists of write requests, without a network.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn requests(&self) -> Result<Vec<Vec<WriteRequest>>, Error> {
        self.check()?;
        Ok(Self::groups(self.entries.clone())
            .into_iter()
            .map(|group| group.into_iter().map(|entry| entry.request).collect())
            .collect())
    }

    fn check(&self) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let mut seen: HashMap<&(String, String), ()> = HashMap::with_capacity(self.entries.len());
        for entry in &self.entries {
            if seen.insert(&entry.identity, ()).is_some() {
                return Err(Error::DuplicateBatchKey {
                    operation: "BatchWriteItem",
                    entity: entry.entity,
                    key: entry.key.clone(),
                });
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

    /// Writes the batch. An empty batch sends nothing.
    ///
    /// # Errors
    ///
    /// Before sending: the errors of making an item ([`Error::Serialize`],
    /// [`Error::InvalidNumber`], [`Error::ItemTooLarge`], …) and
    /// [`Error::DuplicateBatchKey`]. After: [`Error::UnprocessedItems`] with
    /// exactly the write requests not written, when retries run out or a
    /// request fails with an error that is not retried (then no new
    /// request is started).
    pub async fn send(mut self) -> Result<BatchWriteOutput, Error> {
        self.check()?;
        if self.entries.is_empty() {
            return Ok(BatchWriteOutput::default());
        }
        let first = self.entries[0].entity;
        let entity = if self.entries.iter().all(|entry| entry.entity == first) {
            first
        } else {
            "(mixed)"
        };
        let stop = AtomicBool::new(false);
        let groups = Self::groups(std::mem::take(&mut self.entries));
        let this = &self;
        let outcomes: Vec<WriteOutcome> = stream::iter(groups.into_iter().map(|group| {
            this.write_group(
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
        for outcome in outcomes {
            output.written += outcome.written;
            output.requests += outcome.requests;
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
                table: self.table.name().to_owned(),
                attempts,
                written: output.written,
                unprocessed,
                cause,
            })
        }
    }

    /// Writes one group of at most 25 requests, retrying what is left.
    async fn write_group(
        &self,
        mut pending: Vec<WriteRequest>,
        entity: &'static str,
        stop: &AtomicBool,
    ) -> WriteOutcome {
        let table = self.table.name();
        let mut outcome = WriteOutcome::default();
        loop {
            if stop.load(Ordering::Relaxed) {
                outcome.unprocessed = pending;
                return outcome;
            }
            outcome.attempts += 1;
            outcome.requests += 1;
            let sent = pending.len();
            let result = self
                .table
                .client()
                .batch_write_item()
                .request_items(table, pending.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .instrument(batch_span("BatchWriteItem", table, entity, sent))
                .await;
            match result {
                Ok(mut response) => {
                    record_capacity(response.consumed_capacity.as_deref());
                    let left = response
                        .unprocessed_items
                        .as_mut()
                        .and_then(|unprocessed| unprocessed.remove(table))
                        .unwrap_or_default();
                    outcome.written += sent.saturating_sub(left.len());
                    pending = left;
                    if pending.is_empty() {
                        return outcome;
                    }
                }
                Err(error) if is_retryable(&error) => {
                    outcome.throttled += 1;
                    let error = aws_sdk_dynamodb::Error::from(error);
                    let throttling_reasons = crate::error::sdk_throttling_reasons(&error);
                    tracing::debug!(table, %error, ?throttling_reasons, "BatchWriteItem will be retried");
                }
                Err(error) => {
                    stop.store(true, Ordering::Relaxed);
                    outcome.cause = Some(Arc::new(aws_sdk_dynamodb::Error::from(error)));
                    outcome.unprocessed = pending;
                    return outcome;
                }
            }
            if outcome.attempts > self.retry.max_retries {
                outcome.unprocessed = pending;
                return outcome;
            }
            outcome.retries += 1;
            tokio::time::sleep(self.retry.delay(outcome.attempts - 1)).await;
        }
    }
}

/// What one group of keys came to.
#[derive(Debug, Default)]
struct GetOutcome {
    items: Vec<Item>,
    attempts: u32,
    unprocessed: Vec<Item>,
    cause: Option<Arc<aws_sdk_dynamodb::Error>>,
}

/// A batch get of items of entity `E` by primary key, built by
/// [`Table::batch_get`]. Nothing is sent until [`send`](Self::send).
///
/// `send` splits the keys into `BatchGetItem` requests of at most 100
/// keys, runs up to [`max_concurrency`](Self::max_concurrency) of them at
/// once, retries unprocessed keys and throttled requests under
/// [`BatchRetry`], and returns one `Option<E>` per key, in the order of the
/// keys (`None` when there is no such item).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.
///
/// # Example
///
/// ```ignore
/// let keys = skus.iter().map(|sku| Product::key(sku)).collect::<Result<Vec<_>, _>>()?;
/// let products: Vec<Option<Product>> = table.batch_get(keys).send().await?;
/// ```
pub struct BatchGet<E> {
    table: Table,
    keys: Vec<PrimaryKey<E>>,
    consistent_read: bool,
    max_concurrency: usize,
    retry: BatchRetry,
    entity: PhantomData<fn() -> E>,
}

impl<E> std::fmt::Debug for BatchGet<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchGet")
            .field("entity", &std::any::type_name::<E>())
            .field("table", &self.table.name())
            .field("keys", &self.keys.len())
            .field("consistent_read", &self.consistent_read)
            .field("max_concurrency", &self.max_concurrency)
            .field("retry", &self.retry)
            .finish()
    }
}

impl<E: Entity> BatchGet<E> {
    /// Reads with strong consistency (twice the read capacity).
    pub fn consistent_read(mut self) -> Self {
        self.consistent_read = true;
        self
    }

    /// How many requests run at once, at least 1. Default
    /// [`DEFAULT_BATCH_CONCURRENCY`] (4).
    pub fn max_concurrency(mut self, requests: usize) -> Self {
        self.max_concurrency = requests.max(1);
        self
    }

    /// How unprocessed keys and throttled requests are retried. Default
    /// [`BatchRetry::default`].
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// Reads the items: one `Option<E>` per key, in the order of the keys.
    /// No key sends nothing.
    ///
    /// # Errors
    ///
    /// Before sending: [`Error::DuplicateBatchKey`]. After:
    /// [`Error::UnprocessedKeys`] with exactly the keys not read and the
    /// items that were, and the errors of [`Entity::from_item`].
    pub async fn send(self) -> Result<Vec<Option<E>>, Error> {
        let schema = E::SCHEMA;
        let mut positions: HashMap<(String, String), usize> =
            HashMap::with_capacity(self.keys.len());
        for (position, key) in self.keys.iter().enumerate() {
            let identity = (key.partition_key().to_owned(), key.sort_key().to_owned());
            if positions.insert(identity, position).is_some() {
                return Err(Error::DuplicateBatchKey {
                    operation: "BatchGetItem",
                    entity: schema.type_name,
                    key: key.to_attribute_map(),
                });
            }
        }
        let maps: Vec<Item> = self.keys.iter().map(PrimaryKey::to_attribute_map).collect();
        let stop = AtomicBool::new(false);
        let outcomes: Vec<GetOutcome> = stream::iter(
            chunks(maps, |_| 0, MAX_BATCH_GET_KEYS, usize::MAX)
                .into_iter()
                .map(|group| self.read_group(group, &stop)),
        )
        .buffer_unordered(self.max_concurrency)
        .collect()
        .await;

        let mut found: Vec<Option<Item>> = vec![None; self.keys.len()];
        let mut unprocessed = Vec::new();
        let mut cause = None;
        let mut attempts = 0;
        for outcome in outcomes {
            attempts = attempts.max(outcome.attempts);
            unprocessed.extend(outcome.unprocessed);
            cause = cause.or(outcome.cause);
            for item in outcome.items {
                let identity = key_values(schema.partition_key.name, schema.sort_key.name, &item);
                if let Some(&position) = positions.get(&identity) {
                    found[position] = Some(item);
                }
            }
        }
        if !unprocessed.is_empty() {
            return Err(Error::UnprocessedKeys {
                table: self.table.name().to_owned(),
                entity: schema.type_name,
                attempts,
                keys: unprocessed,
                items: found.into_iter().flatten().collect(),
                cause,
            });
        }
        found
            .into_iter()
            .map(|item| item.map(E::from_item).transpose())
            .collect()
    }

    /// Reads one group of at most 100 keys, retrying what is left.
    async fn read_group(&self, mut pending: Vec<Item>, stop: &AtomicBool) -> GetOutcome {
        let table = self.table.name();
        let mut outcome = GetOutcome::default();
        loop {
            if stop.load(Ordering::Relaxed) {
                outcome.unprocessed = pending;
                return outcome;
            }
            outcome.attempts += 1;
            let keys = KeysAndAttributes::builder()
                .set_keys(Some(pending.clone()))
                .set_consistent_read(self.consistent_read.then_some(true))
                .build()
                .expect("the keys are set");
            let result = self
                .table
                .client()
                .batch_get_item()
                .request_items(table, keys)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .instrument(batch_span(
                    "BatchGetItem",
                    table,
                    E::SCHEMA.type_name,
                    pending.len(),
                ))
                .await;
            match result {
                Ok(mut response) => {
                    record_capacity(response.consumed_capacity.as_deref());
                    if let Some(items) = response
                        .responses
                        .as_mut()
                        .and_then(|responses| responses.remove(table))
                    {
                        outcome.items.extend(items);
                    }
                    pending = response
                        .unprocessed_keys
                        .as_mut()
                        .and_then(|unprocessed| unprocessed.remove(table))
                        .map(|keys| keys.keys)
                        .unwrap_or_default();
                    if pending.is_empty() {
                        return outcome;
                    }
                }
                Err(error) if is_retryable(&error) => {
                    let error = aws_sdk_dynamodb::Error::from(error);
                    let throttling_reasons = crate::error::sdk_throttling_reasons(&error);
                    tracing::debug!(table, %error, ?throttling_reasons, "BatchGetItem will be retried");
                }
                Err(error) => {
                    stop.store(true, Ordering::Relaxed);
                    outcome.cause = Some(Arc::new(aws_sdk_dynamodb::Error::from(error)));
                    outcome.unprocessed = pending;
                    return outcome;
                }
            }
            if outcome.attempts > self.retry.max_retries {
                outcome.unprocessed = pending;
                return outcome;
            }
            tokio::time::sleep(self.retry.delay(outcome.attempts - 1)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_respect_count_and_bytes() {
        let sizes = vec![10, 10, 10, 10, 10];
        let groups = chunks(sizes.clone(), |size| *size, 2, 100);
        assert_eq!(groups, [vec![10, 10], vec![10, 10], vec![10]]);
        let groups = chunks(sizes, |size| *size, 25, 25);
        assert_eq!(groups, [vec![10, 10], vec![10, 10], vec![10]]);
        let groups = chunks(vec![5, 50, 5], |size| *size, 25, 20);
        assert_eq!(groups, [vec![5], vec![50], vec![5]]);
        assert!(chunks(Vec::<usize>::new(), |size| *size, 25, 20).is_empty());
        let keys: Vec<usize> = (0..250).collect();
        let groups = chunks(keys, |_| 0, MAX_BATCH_GET_KEYS, usize::MAX);
        assert_eq!(
            groups.iter().map(Vec::len).collect::<Vec<_>>(),
            [100, 100, 50]
        );
    }

    #[test]
    fn delays_grow_exponentially_up_to_the_cap() {
        let retry = BatchRetry::default();
        assert_eq!(retry.delay_bound(0), Duration::from_millis(50));
        assert_eq!(retry.delay_bound(1), Duration::from_millis(100));
        assert_eq!(retry.delay_bound(4), Duration::from_millis(800));
        assert_eq!(retry.delay_bound(7), Duration::from_secs(5));
        assert_eq!(retry.delay_bound(u32::MAX), Duration::from_secs(5));
        for retry_number in 0..20 {
            assert!(retry.delay(retry_number) <= retry.delay_bound(retry_number));
        }
    }
}
