//! [`BatchGet`]: items of one entity by primary key in `BatchGetItem`
//! requests of at most 100 keys, returned in the order of the keys.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::types::{KeysAndAttributes, ReturnConsumedCapacity};
use futures::{StreamExt, stream};

use super::{DEFAULT_BATCH_CONCURRENCY, GroupOutcome, Sent, chunks, key_values, run_group};
use crate::error::Error;
use crate::error::ItemKey;
use crate::error::Refusal;
use crate::item::size::MAX_BATCH_GET_KEYS;
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::model::typed_key::PrimaryKey;
use crate::request::dispatch::Operation;
use crate::request::executor::Call;
use crate::request::retry::BatchRetry;
use crate::request::retry::is_retryable;
use crate::request::table::Table;

/// A batch get of items of entity `E` by primary key, built by
/// [`BatchGet::new`]. Nothing is sent until [`send`](Self::send) names the
/// table.
///
/// `send` splits the keys into `BatchGetItem` requests of at most 100
/// keys, runs up to [`max_concurrency`](Self::max_concurrency) of them at
/// once, retries unprocessed keys and throttled requests under
/// [`BatchRetry`], and returns one `Option<E>` per key, in the order of the
/// keys (`None` when there is no such item, or when its TTL has passed at
/// the table's clock, [`Table::now`], judged on the client: such an item is
/// still read and charged; [`include_expired`](Self::include_expired)
/// returns it).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.
///
/// # Example
///
/// ```ignore
/// let keys = skus.iter().map(|sku| Product::key(sku)).collect::<Result<Vec<_>, _>>()?;
/// let products: Vec<Option<Product>> = BatchGet::new(keys).send(&table).await?;
/// ```
pub struct BatchGet<E> {
    keys: Vec<PrimaryKey<E>>,
    consistent_read: bool,
    include_expired: bool,
    max_concurrency: usize,
    retry: BatchRetry,
    entity: PhantomData<fn() -> E>,
}

impl<E> std::fmt::Debug for BatchGet<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchGet")
            .field("entity", &std::any::type_name::<E>())
            .field("keys", &self.keys.len())
            .field("consistent_read", &self.consistent_read)
            .field("include_expired", &self.include_expired)
            .field("max_concurrency", &self.max_concurrency)
            .field("retry", &self.retry)
            .finish()
    }
}

impl<E: Entity> BatchGet<E> {
    /// A batch get of `keys`; [`send`](Self::send) returns the items in the
    /// order of the keys.
    pub fn new(keys: impl IntoIterator<Item = PrimaryKey<E>>) -> Self {
        BatchGet {
            keys: keys.into_iter().collect(),
            consistent_read: false,
            include_expired: false,
            max_concurrency: DEFAULT_BATCH_CONCURRENCY,
            retry: BatchRetry::default(),
            entity: PhantomData,
        }
    }

    /// Reads with strong consistency (twice the read capacity).
    pub fn consistent_read(mut self) -> Self {
        self.consistent_read = true;
        self
    }

    /// Returns items whose TTL (`#[stamp(ttl)]`) has passed and that
    /// DynamoDB has not deleted yet; by default each reads as `None`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
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

    /// Reads the items from `table`: one `Option<E>` per key, in the order of the keys
    /// (`None` for an item whose TTL has passed at [`Table::now`], unless
    /// [`include_expired`](Self::include_expired)). No key sends nothing.
    ///
    /// # Errors
    ///
    /// Before sending: [`Refusal::DuplicateBatchKey`]. After:
    /// [`Error::UnprocessedKeys`] with exactly the keys not read and the
    /// items that were, and the errors of [`Entity::from_item`].
    pub async fn send(self, table: &Table) -> Result<Vec<Option<E>>, Error> {
        self.check()?;
        let maps: Vec<AttributeMap> = self.keys.iter().map(PrimaryKey::to_attribute_map).collect();
        fetch(
            table,
            E::SCHEMA,
            maps,
            Fetch {
                consistent_read: self.consistent_read,
                max_concurrency: self.max_concurrency,
                retry: self.retry,
                now: (!self.include_expired).then(|| table.now().timestamp()),
            },
        )
        .await?
        .into_iter()
        .map(|item| item.map(E::from_item).transpose())
        .collect()
    }

    /// The exact `BatchGetItem` requests [`send`](Self::send) starts with on
    /// the table named `table_name`, one per group of at most 100 keys,
    /// without a network (keys DynamoDB leaves unprocessed are sent again
    /// in later requests of their own).
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn requests(&self, table_name: &str) -> Result<Vec<BatchGetItemInput>, Error> {
        self.check()?;
        let maps: Vec<AttributeMap> = self.keys.iter().map(PrimaryKey::to_attribute_map).collect();
        Ok(chunks(maps, |_| 0, MAX_BATCH_GET_KEYS, usize::MAX)
            .into_iter()
            .map(|group| batch_get_input(table_name, group, self.consistent_read))
            .collect())
    }

    /// Refuses a key given twice; the position of each key otherwise.
    fn check(&self) -> Result<HashMap<(String, String), usize>, Error> {
        let mut positions: HashMap<(String, String), usize> =
            HashMap::with_capacity(self.keys.len());
        for (position, key) in self.keys.iter().enumerate() {
            let identity = (key.partition_key().to_owned(), key.sort_key().to_owned());
            if positions.insert(identity, position).is_some() {
                return Err(Error::Refused(Refusal::DuplicateBatchKey {
                    operation: <BatchGetItemInput as Operation>::NAME,
                    entity: E::SCHEMA.type_name,
                    key: ItemKey::of::<E>(&key.to_attribute_map()),
                }));
            }
        }
        Ok(positions)
    }
}

/// How [`fetch`] sends its requests.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fetch {
    /// `ConsistentRead` of every request.
    pub(crate) consistent_read: bool,
    /// How many requests run at once.
    pub(crate) max_concurrency: usize,
    /// How unprocessed keys and throttled requests are retried.
    pub(crate) retry: BatchRetry,
    /// The table's clock in epoch seconds: an item expired at it
    /// ([`is_expired`](crate::ops::expiry::is_expired)) reads as absent.
    /// `None` reads every item.
    pub(crate) now: Option<i64>,
}

impl Default for Fetch {
    fn default() -> Self {
        Fetch {
            consistent_read: false,
            max_concurrency: DEFAULT_BATCH_CONCURRENCY,
            retry: BatchRetry::default(),
            now: None,
        }
    }
}

/// The one batch read of items by primary key, for [`BatchGet`] and for a
/// hydrated query (`ops/query/hydrate.rs`): `keys` (the table's key
/// attributes of items of `schema`'s table) read in `BatchGetItem`
/// requests of at most [`MAX_BATCH_GET_KEYS`] keys, up to
/// `max_concurrency` at once, keys DynamoDB leaves unprocessed (its 16 MB
/// answer limit, throttling) retried under `retry`; one `Option` per key,
/// in the order of the keys (`None`: no such item). A key given twice is
/// read once and answered at each of its places. Whatever reads must leave
/// out of every batch read belongs here.
///
/// # Errors
///
/// [`Error::UnprocessedKeys`] with exactly the keys not read and the items
/// that were.
pub(crate) async fn fetch(
    table: &Table,
    schema: &'static EntitySchema,
    keys: Vec<AttributeMap>,
    options: Fetch,
) -> Result<Vec<Option<AttributeMap>>, Error> {
    let (partition, sort) = (schema.partition_key.name, schema.sort_key.name);
    let mut positions: HashMap<(String, String), Vec<usize>> = HashMap::with_capacity(keys.len());
    let mut unique = Vec::with_capacity(keys.len());
    for (position, key) in keys.into_iter().enumerate() {
        let places = positions
            .entry(key_values(partition, sort, &key))
            .or_default();
        if places.is_empty() {
            unique.push(key);
        }
        places.push(position);
    }
    let count = positions.values().map(Vec::len).sum();
    let stop = AtomicBool::new(false);
    let outcomes: Vec<GroupOutcome<AttributeMap>> = stream::iter(
        chunks(unique, |_| 0, MAX_BATCH_GET_KEYS, usize::MAX)
            .into_iter()
            .map(|group| read_group(table, schema, group, options, &stop)),
    )
    .buffer_unordered(options.max_concurrency.max(1))
    .collect()
    .await;

    let mut found: Vec<Option<AttributeMap>> = vec![None; count];
    let mut unprocessed = Vec::new();
    let mut cause = None;
    let mut attempts = 0;
    for outcome in outcomes {
        attempts = attempts.max(outcome.attempts);
        unprocessed.extend(outcome.unprocessed);
        cause = cause.or(outcome.cause);
        for item in outcome.found {
            if options
                .now
                .is_some_and(|now| crate::ops::expiry::is_expired(&item, schema, now))
            {
                continue;
            }
            if let Some(places) = positions.get(&key_values(partition, sort, &item)) {
                for &position in places {
                    found[position] = Some(item.clone());
                }
            }
        }
    }
    if !unprocessed.is_empty() {
        return Err(Error::UnprocessedKeys {
            table: table.name().to_owned(),
            entity: schema.type_name,
            attempts,
            keys: unprocessed,
            items: found.into_iter().flatten().collect(),
            cause,
        });
    }
    Ok(found)
}

/// Reads one group of at most 100 keys, retrying what is left.
async fn read_group(
    table: &Table,
    schema: &'static EntitySchema,
    pending: Vec<AttributeMap>,
    options: Fetch,
    stop: &AtomicBool,
) -> GroupOutcome<AttributeMap> {
    let name = table.name();
    run_group(
        (<BatchGetItemInput as Operation>::NAME, name),
        options.retry,
        stop,
        pending,
        |pending| async move {
            let count = pending.len();
            let input = batch_get_input(name, pending, options.consistent_read);
            let result = table
                .execute(input, Call::of(schema.type_name).items(count))
                .await;
            match result {
                Ok(mut response) => {
                    let found = response
                        .responses
                        .as_mut()
                        .and_then(|responses| responses.remove(name))
                        .unwrap_or_default();
                    let left = response
                        .unprocessed_keys
                        .as_mut()
                        .and_then(|unprocessed| unprocessed.remove(name))
                        .map(|keys| keys.keys)
                        .unwrap_or_default();
                    Sent::Answered { left, found }
                }
                Err(failure) if is_retryable(&failure.error) => {
                    Sent::Retryable(failure.error.into())
                }
                Err(failure) => Sent::Failed(failure.error.into()),
            }
        },
    )
    .await
}

/// One `BatchGetItem` of `keys` (at most 100) on table `table_name`.
fn batch_get_input(
    table_name: &str,
    keys: Vec<AttributeMap>,
    consistent_read: bool,
) -> BatchGetItemInput {
    let keys = KeysAndAttributes::builder()
        .set_keys(Some(keys))
        .set_consistent_read(consistent_read.then_some(true))
        .build()
        .expect("the keys are set");
    BatchGetItemInput::builder()
        .request_items(table_name, keys)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .build()
        .expect("BatchGetItemInput has no required fields")
}
