//! The item-collection size of a table with a local secondary index: which
//! writes ask for `ReturnItemCollectionMetrics = SIZE`, and the warning
//! when a returned size estimate passes the table's threshold.
//!
//! In a table with an LSI, the items of one partition key value and their
//! LSI entries may not exceed 10 GB. A write that asks for `SIZE` gets
//! `ItemCollectionMetrics`: the collection's key and `SizeEstimateRangeGB`,
//! a lower and an upper bound in gigabytes.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ItemCollectionMetrics.html>.

use aws_sdk_dynamodb::types::{AttributeValue, ItemCollectionMetrics, ReturnItemCollectionMetrics};

use crate::model::entity::EntitySchema;
use crate::request::table::Table;

/// The default threshold of [`Table::warn_item_collection_above_gb`]: 8 GB,
/// 80 % of DynamoDB's 10 GB item-collection limit.
pub const DEFAULT_ITEM_COLLECTION_WARNING_GB: f64 = 8.0;

/// `SIZE` when `schema` writes an LSI (only then does DynamoDB return
/// metrics), else nothing is asked.
pub(crate) fn requested(schema: &EntitySchema) -> Option<ReturnItemCollectionMetrics> {
    schema
        .has_local_index()
        .then_some(ReturnItemCollectionMetrics::Size)
}

/// Logs a warning when `metrics` estimates a collection above the table's
/// threshold.
pub(crate) fn check(
    table: &Table,
    operation: &'static str,
    metrics: Option<&ItemCollectionMetrics>,
) {
    let Some(metrics) = metrics else {
        return;
    };
    let range = metrics.size_estimate_range_gb();
    let Some(upper) = range.iter().copied().reduce(f64::max) else {
        return;
    };
    let threshold = table.item_collection_warning_gb();
    if upper <= threshold {
        return;
    }
    let lower = range.iter().copied().reduce(f64::min).unwrap_or(upper);
    let mut key: Vec<String> = metrics
        .item_collection_key()
        .map(|key| {
            key.iter()
                .map(|(name, value)| match value {
                    AttributeValue::S(text) => format!("{name} = {text}"),
                    other => format!("{name} = {other:?}"),
                })
                .collect()
        })
        .unwrap_or_default();
    key.sort();
    let key = key.join(", ");
    tracing::warn!(
        target: "stamp::item_collection",
        table = table.name(),
        operation,
        item_collection = %key,
        size_estimate_lower_gb = lower,
        size_estimate_upper_gb = upper,
        threshold_gb = threshold,
        "item collection `{key}` of table `{}` may hold up to {upper} GB; a table with a local secondary index refuses writes to an item collection above {} GB",
        table.name(),
        crate::limits::MAX_ITEM_COLLECTION_GB,
    );
}
