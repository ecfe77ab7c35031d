//! DynamoDB's limits, the one place the runtime writes a quota down: the
//! sizes of items and key values, the lengths of requests, the number of
//! indexes, and the units capacity is counted in. Every check of the
//! runtime refers to these constants (and the crate root re-exports them);
//! the derive mirrors the ones it checks at compile time in its own
//! `limits` module, and a test of the workspace
//! ([`tests/it/keys/limits.rs`](https://github.com/stamp-rs/stamp/blob/main/tests/it/keys/limits.rs))
//! asserts that the two agree.
//!
//! Stamp's own choices (the most shards of an index, the longest cursor,
//! default page sizes) are not DynamoDB's limits and stay beside the code
//! they govern.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html>.

/// The largest item DynamoDB stores: 400 KB, that is 409,600 bytes, counted
/// by [`item_size`](crate::item_size) (attribute names and values, key
/// attributes included).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items>.
pub const MAX_ITEM_SIZE_BYTES: usize = 400 * 1024;

/// The longest partition key value, in bytes (UTF-8 for a string), of the
/// table and of every index: 2048.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-partition-sort-keys>.
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;

/// The longest sort key value, in bytes (UTF-8 for a string), of the table
/// and of every index: 1024.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-partition-sort-keys>.
pub const MAX_SORT_KEY_BYTES: usize = 1024;

/// The most items one `BatchWriteItem` request writes or deletes: 25.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>.
pub const MAX_BATCH_WRITE_ITEMS: usize = 25;

/// The largest `BatchWriteItem` request: 16 MB (16,777,216 bytes), counted
/// as the sum of the [`item_size`](crate::item_size)s of its puts and the
/// key sizes of its deletes. With items of at most [`MAX_ITEM_SIZE_BYTES`],
/// 25 items stay under it, so the count is the limit that splits requests
/// in practice.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html>.
pub const MAX_BATCH_WRITE_BYTES: usize = 16 * 1024 * 1024;

/// The most keys one `BatchGetItem` request reads: 100.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>.
pub const MAX_BATCH_GET_KEYS: usize = 100;

/// The most actions in one `TransactWriteItems` or `TransactGetItems`: 100.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html>.
pub const MAX_TRANSACTION_ACTIONS: usize = 100;

/// The largest transaction: 4 MB (4,194,304 bytes), the aggregate size of
/// the items it writes and of the keys and values of its other actions.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-dynamodb-transactions>.
pub const MAX_TRANSACTION_BYTES: usize = 4 * 1024 * 1024;

/// The longest expression string DynamoDB takes: 4 KB ("Expression
/// parameters"). It applies to each of the key condition, filter,
/// condition, update and projection expressions of a request.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-expression-parameters>.
pub const MAX_EXPRESSION_BYTES: usize = 4096;

/// The most significant digits a DynamoDB Number holds: 38.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number>.
pub const MAX_NUMBER_DIGITS: usize = 38;

/// The largest decimal exponent of a Number's magnitude: DynamoDB's largest
/// is `9.9999999999999999999999999999999999999E+125`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number>.
pub const MAX_NUMBER_EXPONENT: i64 = 125;

/// The smallest decimal exponent of a non-zero Number's magnitude: `1E-130`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Number>.
pub const MIN_NUMBER_EXPONENT: i64 = -130;

/// The deepest a value nests: 32 levels, the top-level attribute's value
/// being the first ("Nested attribute depth"). A value inside 32 lists or
/// maps (a leaf wrapped in 32) is refused; inside 31, it is stored.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-attributes>.
pub const MAX_NESTING_DEPTH: usize = 32;

/// The shortest name of a table or an index (GSI, LSI, vector index): 3
/// characters, each one of `a-z`, `A-Z`, `0-9`, `_`, `-` and `.`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.NamingRules>.
pub const MIN_NAME_LENGTH: usize = 3;

/// The longest name of a table or an index: 255 characters.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.NamingRules>.
pub const MAX_NAME_LENGTH: usize = 255;

/// How many GSIs one table may have: 20, DynamoDB's default quota (GSI
/// numbers `#[gsiN]` run from 1 to 20).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#gsi-limits>.
pub const MAX_GSIS: usize = 20;

/// How many local secondary indexes one table may have: 5, a fixed limit
/// (LSI numbers `#[lsiN]` run from 1 to 5).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>.
pub const MAX_LSIS: usize = 5;

/// How many non-key attributes the `INCLUDE` projections of one table may
/// name in total: 100.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>.
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;

/// The most partition-key attributes, and the most sort-key attributes, of
/// one multi-attribute GSI key: 4 each.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.
pub const MAX_INDEX_KEY_ATTRIBUTES: usize = 4;

/// The largest item collection (the items of one partition key value with
/// their LSI entries) of a table with an LSI: 10 GB.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit>.
pub const MAX_ITEM_COLLECTION_GB: f64 = 10.0;

/// The most dimensions of a vector index: 4,096.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-vector-indexes>.
pub const MAX_VECTOR_DIMENSIONS: u32 = 4_096;

/// The most vector indexes of one table: 5 (`#[vector1]` to `#[vector5]`).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-vector-indexes>.
pub const MAX_VECTOR_INDEXES: usize = 5;

/// The largest `TopK` of a `SearchVectors` request (its range is 1 to 100).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.
pub const MAX_TOP_K: u32 = 100;

/// The most bytes of one `SearchVectors` answer: 16 MB, with no pagination
/// (use a narrower projection or a smaller `TopK`).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.
pub const MAX_SEARCH_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

/// The bytes one read capacity unit reads: 4 KB (a strongly consistent
/// read; an eventually consistent one reads twice that).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html#read-write-capacity-units>.
pub const READ_UNIT_BYTES: usize = 4096;

/// The bytes one write capacity unit writes: 1 KB.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html#read-write-capacity-units>.
pub const WRITE_UNIT_BYTES: usize = 1024;

/// The read units one partition serves per second: 3,000.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html>.
pub const PARTITION_READ_UNITS: f64 = 3000.0;

/// The write units one partition serves per second: 1,000.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html>.
pub const PARTITION_WRITE_UNITS: f64 = 1000.0;
