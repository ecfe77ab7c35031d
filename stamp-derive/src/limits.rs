//! The limits the derive checks at compile time, mirrored from stamp-core's
//! `limits` module (DynamoDB's quotas, each with its documentation link
//! there) and `MAX_SHARDS` (Stamp's own). This is the one place the derive
//! writes them; `tests/it/keys/limits.rs` includes this file and asserts that
//! every value equals the runtime's.

/// How many GSIs one table may have (stamp-core's `limits::MAX_GSIS`):
/// `#[gsi1]` to `#[gsi20]`.
pub const MAX_GSIS: usize = 20;

/// How many LSIs one table may have (stamp-core's `limits::MAX_LSIS`):
/// `#[lsi1]` to `#[lsi5]`.
pub const MAX_LSIS: usize = 5;

/// The most partition-key, and the most sort-key, attributes of one
/// multi-attribute GSI key (stamp-core's `limits::MAX_INDEX_KEY_ATTRIBUTES`).
pub const MAX_INDEX_KEY_ATTRIBUTES: usize = 4;

/// The largest `shards = N` of a sharded GSI (stamp-core's `MAX_SHARDS`,
/// Stamp's own limit: one request per shard for each page of a query).
pub const MAX_SHARDS: u16 = 32;

/// The most dimensions of a vector index (stamp-core's
/// `limits::MAX_VECTOR_DIMENSIONS`).
pub const MAX_VECTOR_DIMENSIONS: u32 = 4_096;

/// The most vector indexes of a table (stamp-core's
/// `limits::MAX_VECTOR_INDEXES`): `#[vector1]` to `#[vector5]`.
pub const MAX_VECTOR_INDEXES: usize = 5;

/// The shortest name of a table or an index (stamp-core's
/// `limits::MIN_NAME_LENGTH`).
pub const MIN_NAME_LENGTH: usize = 3;

/// The longest name of a table or an index (stamp-core's
/// `limits::MAX_NAME_LENGTH`).
pub const MAX_NAME_LENGTH: usize = 255;
