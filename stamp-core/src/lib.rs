//! The runtime of Stamp, a DynamoDB single-table framework. Users depend on
//! the `stamp` facade, which re-exports this crate and the derives.
//!
//! - [`KeyPart`]: how one field becomes one key segment; [`key`](crate::surface::key): the
//!   encodings and their escaping, a storage format.
//! - [`KeyTemplate`]: the static description of a template such as
//!   `ORDER#<created_at>#<order_id>`, emitted by `#[derive(Item)]`.
//! - [`Entity`]: the trait the derive implements; [`PrimaryKey`] and
//!   [`IndexKey`] are the typed keys its builders return.
//! - [`Table`]: a client and a table name; `put`, `get`, `create_table`.
//! - [`TableDefinition`]: the table a set of entities needs, checked (key
//!   spaces that could collide, index limits), and made into the `CreateTable`
//!   input and (feature `schema-tooling`, on by default) a CloudFormation
//!   template, an access-pattern catalogue, capacity and partition planning;
//!   [`Table::verify`] compares a live table with it.
//! - [`Migration`]: moves an entity's items from its previous key format
//!   (`#[stamp(previous(…))]`) to the current one, resumably.
//! - `streams` (feature `streams`): DynamoDB Streams records decoded into
//!   typed changes of a [`Collection`], from a Lambda event or live from the
//!   table's stream (`Table::changes`, with a resumable `Checkpoint`).
//! - `export` (feature `export`, on by default): the table back into one
//!   file per entity type (NDJSON, or Parquet with typed columns under the
//!   feature `parquet`), from a parallel scan (`export::Export`); with the
//!   feature `s3`, from a DynamoDB export in S3 (`run_from_s3_export`) and
//!   to S3 in a Hive-style layout (`Export::to_s3`,
//!   `entity=<Type>/part-00000.parquet`).
//! - [`local`]: SDK clients for a local server, and (feature `local`)
//!   `local::LocalDynamoDb`, an embedded DynamoDB (dynoxide) on a loopback
//!   port of your process, for tests and tools: no Docker, JVM or Python.
//! - `testing` (feature `local`): the test kit, the chapter "Testing a
//!   service" (whole-table assertions in entities, faults on demand,
//!   Lambda events from the embedded stream).
//! - [`Error`]: every error, in DynamoDB's terms.
//!
//! # Key encodings
//!
//! The encodings of key fields and their escaping are a storage format:
//! [`surface::key`] (`stamp::key`) documents them.

#![deny(missing_docs)]
// trybuild builds this crate without default features (the lean runtime,
// as `default-features = false` services get it) for the compile-fail
// fixtures, with `--cfg trybuild`: any warning of that configuration fails
// CI there, so it needs no build of its own.
#![cfg_attr(trybuild, deny(warnings))]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The layout: `key/` (encodings, templates), `model/` (the entity trait and
// schema descriptions), `item/` (codec, checks, sizes), `expression/`
// (attributes, conditions, placeholders), `request/` (the table, spans,
// retries, SDK errors), `ops/` (every operation), `migrate/`, `schema/`,
// `streams`. ARCHITECTURE.md draws it.
mod error;
#[cfg(feature = "export")]
pub mod export;
mod expression;
mod item;
mod key;
pub mod limits;
pub mod local;
mod migrate;
mod model;
mod ops;
mod request;
mod schema;
#[cfg(feature = "streams")]
pub mod streams;
#[cfg(feature = "local")]
pub mod testing;
mod unit;

#[doc(hidden)]
pub mod __private;
#[doc(hidden)]
pub mod surface;

pub use aws_sdk_dynamodb;
#[cfg(feature = "streams")]
pub use error::CheckpointReason;
#[cfg(feature = "s3")]
pub use error::ExportObjectReason;
pub use error::{
    CancellationCode, CancellationReason, CursorReason, DecodeError, DefinitionError, Error,
    ExportReason, GlobalTableError, ImportReason, ItemKey, JobError, KeyError, KeyMismatchReason,
    MigrationCheckpointReason, QueryReason, Refusal, RequestOutcome, StreamRecordReason,
    TableNameReason, TableSettingError, UpdateReason, VectorError,
};
pub use expression::{
    Attribute, AttributeType, Condition, Encoder, MAX_PATH_STEPS, Optional, Ordered, Path,
    Placeholders, PrimaryKeyField, Required, Settable, Size, check_expression_length,
};
pub use item::check::{check_item, check_value};
pub use item::size::{attribute_value_size, item_size};
pub use item::value::AttributeCodec;
pub use key::part::{KeyPart, KeyPartError};
pub use key::prefix::SortKeyText;
pub use key::shard::{MAX_SHARDS, shard_of};
pub use key::template::{KeyBuilder, KeyTemplate, Segment};
pub use migrate::{
    Migration, MigrationCheck, MigrationOutcome, MigrationProgress, SkippedItem, UniqueBackfill,
    UniqueBackfillOutcome, UniqueConflict,
};
pub use model::collection::{Collection, CollectionMember, CollectionOf};
pub use model::entity::{
    AttributeMap, Entity, EntitySchema, FieldAttribute, KeyAttribute, PreviousKeyFormat,
    UniqueValue, WriteTime,
};
pub use model::index::{
    BaseTable, Gsi, IndexId, IndexKeySchema, IndexKind, IndexSchema, Lsi, QueryIndex, Vector,
};
pub use model::index_projection::IndexProjection;
pub use model::multi_attribute::{
    IndexKeyAttribute, IndexKeyField, KeyAttributeType, NoSortAttributeLeft, SortAttributes,
    TextSortAttribute,
};
pub use model::projection::{AlwaysStored, Projection};
pub use model::ttl::TimeToLive;
pub use model::typed_key::{IndexKey, PrimaryKey};
pub use model::vector::{
    DEFAULT_TOP_K, DistanceFunction, VectorElement, VectorIndexSchema, VectorProjection,
    check_stored_vector, vector_of, vector_value,
};
pub use ops::batch::{BatchGet, BatchWrite, BatchWriteOutput, DEFAULT_BATCH_CONCURRENCY};
pub use ops::cursor::Cursor;
pub use ops::get::Get;
pub use ops::query::{
    DEFAULT_MAX_REQUESTS, MAX_CURSOR_LEN, MultiAttributeQuery, Page, Query, SortKeyPrefix,
    prefix_upper_bound,
};
pub use ops::scan::Scan;
pub use ops::search::{Projected, SearchDecode, SearchResults, Similar, SimilaritySearch, Whole};
pub use ops::search_filter::{SearchAttribute, SearchCondition, VectorFilters};
pub use ops::transaction::{Slot, TransactGet, TransactGetOutput, TransactWrite};
pub use ops::unique::GetUnique;
pub use ops::update::{Number, Set, Update};
pub use ops::write::{Delete, Put};
pub use request::collection_metrics::DEFAULT_ITEM_COLLECTION_WARNING_GB;
pub use request::executor::{CapacityDetail, CapacityLog, CapacityRecord};
pub use request::retry::BatchRetry;
pub use request::table::Table;
pub use request::throttling::{
    Throttle, ThrottleLimit, ThrottleRetries, ThrottledAccess, ThrottledResource,
};
#[cfg(feature = "schema-tooling")]
pub use schema::{
    Access, CloudFormationTemplate, EntityCapacity, Load, PAGE_ITEMS, PartitionLoad, ReadUnits,
    UniqueCapacity, Workload, WriteUnits, read_units, write_units,
};
pub use schema::{
    GlobalTable, MultiRegionConsistency, Replica, STRONG_CONSISTENCY_REGION_SETS,
    STRONG_CONSISTENCY_REGIONS,
};
pub use schema::{
    ImportSource, KeyNames, MAX_RESOURCE_POLICY_BYTES, MAX_TAG_KEY_CHARS, MAX_TAG_VALUE_CHARS,
    MAX_TAGS, MaxThroughput, SchemaDifference, TableBilling, TableClass, TableDefinition,
    TableEncryption, TableIndex, TableSettings, Throughput, WarmThroughput,
};
/// serde_dynamo, whose set helpers (`#[serde(with = "stamp::serde_dynamo::string_set")]`,
/// `number_set`, `binary_set`) store a field as `SS`, `NS` or `BS`.
pub use serde_dynamo;
pub use unit::{ParseScanSegmentError, ScanSegment};
