//! Batch writes and batch gets: many items in as few requests as DynamoDB
//! allows, sent in parallel, with unprocessed items and throttled requests
//! retried under exponential backoff with jitter, and whatever could not be
//! written returned in the error, never dropped.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::model::entity::AttributeMap;
use crate::request::retry::BatchRetry;
use crate::request::retry::{Backoff, log_retry};
use crate::request::table::Table;

mod get;
mod write;

pub use get::BatchGet;
pub(crate) use get::{Fetch, fetch};
pub use write::{BatchWrite, BatchWriteOutput};

impl Table {
    /// An empty batch write whose items are stamped at this table's
    /// [`now`](Self::now): `BatchWrite::new().at(table.now())`.
    pub fn batch_write(&self) -> BatchWrite {
        BatchWrite::new().at(self.now())
    }
}

/// How many batch requests run at once unless set otherwise.
pub const DEFAULT_BATCH_CONCURRENCY: usize = 4;

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

/// What one request of a batch group came to.
enum Sent<P> {
    /// DynamoDB answered: what it left unprocessed, and the items it
    /// returned (a batch get's).
    Answered {
        left: Vec<P>,
        found: Vec<AttributeMap>,
    },
    /// A failure worth sending again (throttling, 5xx, timeout, I/O).
    Retryable(aws_sdk_dynamodb::Error),
    /// A failure that stops the batch.
    Failed(aws_sdk_dynamodb::Error),
}

/// What one group of a batch came to.
#[derive(Debug)]
struct GroupOutcome<P> {
    found: Vec<AttributeMap>,
    attempts: u32,
    retries: usize,
    throttled: usize,
    unprocessed: Vec<P>,
    cause: Option<Arc<aws_sdk_dynamodb::Error>>,
}

/// Sends one group with `send` until DynamoDB leaves nothing, retrying what
/// it leaves and retryable failures under `retry`'s backoff. A failure that
/// is not retried sets `stop`, which ends the other groups before their
/// next request; whatever is left is returned as unprocessed, never dropped.
async fn run_group<P: Clone, Fut: Future<Output = Sent<P>>>(
    (operation, table): (&'static str, &str),
    retry: BatchRetry,
    stop: &AtomicBool,
    mut pending: Vec<P>,
    mut send: impl FnMut(Vec<P>) -> Fut,
) -> GroupOutcome<P> {
    let mut outcome = GroupOutcome {
        found: Vec::new(),
        attempts: 0,
        retries: 0,
        throttled: 0,
        unprocessed: Vec::new(),
        cause: None,
    };
    let mut backoff = Backoff::new(retry);
    loop {
        if stop.load(Ordering::Relaxed) {
            outcome.unprocessed = pending;
            return outcome;
        }
        outcome.attempts += 1;
        match send(pending.clone()).await {
            Sent::Answered { left, found } => {
                outcome.found.extend(found);
                pending = left;
                if pending.is_empty() {
                    return outcome;
                }
            }
            Sent::Retryable(error) => {
                outcome.throttled += 1;
                log_retry(operation, table, &error);
            }
            Sent::Failed(error) => {
                stop.store(true, Ordering::Relaxed);
                outcome.cause = Some(Arc::new(error));
                outcome.unprocessed = pending;
                return outcome;
            }
        }
        if !backoff.wait().await {
            outcome.unprocessed = pending;
            return outcome;
        }
        outcome.retries += 1;
    }
}

/// The `(partition key, sort key)` values of an item or key of `schema`.
fn key_values(partition: &str, sort: &str, item: &AttributeMap) -> (String, String) {
    let text = |name: &str| match item.get(name) {
        Some(AttributeValue::S(value)) => value.clone(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    };
    (text(partition), text(sort))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::limits::MAX_BATCH_GET_KEYS;
    use crate::request::retry::BatchRetry;

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
