//! [`QueryReason`]: why a query, scan or migration option is refused.

/// Why a query, scan or migration option is invalid, in
/// [`Refusal::InvalidQuery`](super::Refusal::InvalidQuery).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryReason {
    /// A count option is 0: `limit`, `max_items`, `max_requests` or a
    /// migration's `page_size`.
    #[error("`{option}` must be at least 1")]
    Zero {
        /// The option, such as `limit`.
        option: &'static str,
    },
    /// Two sort-key conditions were given.
    #[error("a query takes one sort-key condition")]
    TwoSortConditions,
    /// A condition on sort-key attributes was given for an index whose sort
    /// key is built from a template.
    #[error("a condition on sort-key attributes needs a multi-attribute index")]
    AttributeConditionNeedsMultiAttributeIndex,
    /// A sort-key template condition was given for a multi-attribute index.
    #[error("a sort-key template condition on a multi-attribute index")]
    TemplateConditionOnMultiAttributeIndex,
    /// The query gives another number of partition-key values than the
    /// multi-attribute index has partition-key attributes.
    #[error("index `{index}` has {expected} partition-key attributes, and the query gives {given}")]
    PartitionKeyAttributes {
        /// The index name.
        index: &'static str,
        /// How many partition-key attributes it has (1 to 4).
        expected: usize,
        /// How many values the query gives.
        given: usize,
    },
    /// The sort-key condition names more attributes than the
    /// multi-attribute index has sort-key attributes.
    #[error("index `{index}` has {expected} sort-key attributes, and the condition names {given}")]
    SortKeyAttributes {
        /// The index name.
        index: &'static str,
        /// How many sort-key attributes it has (0 to 4).
        expected: usize,
        /// How many the condition names.
        given: usize,
    },
    /// A value of another type than its key attribute's (`S`, `N` or `B`).
    #[error(
        "attribute `{attribute}` of index `{index}` is of type {attribute_type}, and the query gives {value:?}"
    )]
    AttributeType {
        /// The key attribute.
        attribute: &'static str,
        /// The index name.
        index: &'static str,
        /// Its type: `S`, `N` or `B`.
        attribute_type: &'static str,
        /// The value given.
        value: Box<aws_sdk_dynamodb::types::AttributeValue>,
    },
    /// `request` was asked of a query on a sharded index, which sends one
    /// request per shard (`requests` gives them).
    #[error(
        "a query on a sharded index sends one request per shard ({shards}); `requests` gives them"
    )]
    ShardedRequest {
        /// The index's shard count.
        shards: u16,
    },
    /// A scan's segment count is outside 1 to 1,000,000, or the segment
    /// asked for is not below it.
    #[error(
        "a scan takes 1 to 1000000 segments, and segment {segment} of {segments} does not exist"
    )]
    ScanSegment {
        /// The segment asked for, from 0.
        segment: u32,
        /// The segment count.
        segments: u32,
    },
    /// A migration's segment count is outside 1 to 1,000,000.
    #[error("a migration scans in 1 to 1000000 segments, not {segments}")]
    MigrationSegments {
        /// The segment count given.
        segments: u32,
    },
}
