//! Batch writes and batch gets: many items in as few requests as DynamoDB
//! allows, sent in parallel, with unprocessed items and throttled requests
//! retried under exponential backoff with jitter, and whatever could not be
//! written returned in the error, never dropped.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::Item;

mod get;
mod write;

pub use get::BatchGet;
pub use write::{BatchWrite, BatchWriteOutput};

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

/// The `(partition key, sort key)` values of an item or key of `schema`.
fn key_values(partition: &str, sort: &str, item: &Item) -> (String, String) {
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
    use crate::{BatchRetry, MAX_BATCH_GET_KEYS};

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
