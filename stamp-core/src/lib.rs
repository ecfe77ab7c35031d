//! The runtime of Stamp, a DynamoDB single-table framework. Users depend on
//! the `stamp` facade, which re-exports this crate and the derives.
//!
//! - [`KeyPart`]: how one field becomes one key segment.
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
//! - [`Error`]: every error, in DynamoDB's terms.
//!
//! # Key encodings
//!
//! These encodings are a **storage format**: every key Stamp writes is made
//! of them, so changing one is a data migration. Each is reversible, and
//! where the type is ordered the byte order of encodings equals the order of
//! values, which is what DynamoDB compares for sort keys.
//!
//! | type | encoding | example |
//! |---|---|---|
//! | `String` | the text as is (then escaped, see below) | `Ada` |
//! | `u8`, `u16`, `u32`, `u64`, `usize` | decimal, zero-padded to 3, 5, 10, 20, 20 digits | `42u16` → `00042` |
//! | `i8` … `i64`, `isize` | `value - MIN` as the unsigned type of the same width (the sign bit flipped) | `-1i8` → `127`, `0i8` → `128` |
//! | `bool` | `false` / `true` | `true` |
//! | `uuid::Uuid` | lowercase hyphenated, 36 characters | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//! | `chrono::DateTime<Utc>` | RFC 3339 in UTC with exactly 9 fractional digits and `Z`, years 0000 to 9999; a leap second is second `60` | `2026-06-01T10:00:00.000000000Z` |
//! | `chrono::NaiveDate` | `YYYY-MM-DD`, years 0000 to 9999 | `2026-06-01` |
//! | unit-only enum, `#[derive(KeyPart)]` | the variant name after serde's `rename_all` / `rename` (or `#[stamp(…)]`'s); ordered by that text | `OrderStatus::Pending` → `PENDING` |
//! | newtype, `#[derive(KeyPart)]` | the inner value's encoding | `Sku("A-1".into())` → `A-1` |
//!
//! A date-time and a date share their first ten characters, so a sort key
//! that starts with a time can be compared with whole days.
//!
//! `u128` and `i128` have no encoding: a key field is stored as an ordinary
//! attribute too, and a DynamoDB Number holds 38 significant digits, so such
//! an item could not be stored; using one in a template does not compile.
//!
//! **Escaping.** After encoding, every character from U+0000 to `%`
//! (U+0025) is written as `%XX` per UTF-8 byte: the control characters,
//! space, `!`, `"`, `#`, `$` and `%` ([`KeyTemplate::ESCAPED`]). Every
//! literal that follows a placeholder must begin with a character below `%`
//! (such as `#`; anything else does not compile). So a value with a
//! delimiter in it round-trips, two different field tuples never give the
//! same key, and a field's encoding always sorts above the delimiter that
//! ends it: keys sort in the order of their values even when one value is a
//! prefix of another (`ab` < `ab c`, as `ab#` < `ab%20c#`), which makes
//! every range condition exact. Only that canonical form parses back
//! (`%41` for `A` does not). Values without those characters are written
//! unchanged (no built-in encoding except `String` and derived names ever
//! has one); keys keep their case exactly. An empty value is refused with
//! [`KeyError::EmptyKeyValue`].

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

#[doc(hidden)]
pub mod __private;

pub use aws_sdk_dynamodb;
#[cfg(feature = "streams")]
pub use error::CheckpointReason;
#[cfg(feature = "s3")]
pub use error::ExportObjectReason;
pub use error::{
    CursorReason, DecodeError, DefinitionError, Error, ExportReason, ItemKey, JobError, KeyError,
    KeyMismatchReason, MigrationCheckpointReason, QueryReason, Refusal, StreamRecordReason,
    TableNameReason, UpdateReason, VectorError,
};
pub use expression::{
    Attribute, AttributeType, Condition, Encoder, Optional, Placeholders, PrimaryKeyField,
    Required, Settable, Size, check_expression_length,
};
pub use item::check::{check_item, check_value};
pub use item::size::{attribute_value_size, item_size};
pub use item::value::AttributeCodec;
pub use key::part::{KeyPart, KeyPartError};
pub use key::shard::{MAX_SHARDS, shard_of};
pub use key::template::{KeyBuilder, KeyTemplate, Segment};
pub use migrate::{Migration, MigrationOutcome, MigrationProgress, SkippedItem};
pub use model::collection::{Collection, CollectionMember, CollectionOf};
pub use model::entity::{
    AttributeMap, Entity, EntitySchema, FieldAttribute, IndexKey, KeyAttribute, PreviousKeyFormat,
    PrimaryKey, WriteTime,
};
pub use model::index::{
    BaseTable, Gsi, IndexId, IndexKeySchema, IndexKind, IndexSchema, Lsi, QueryIndex, Vector,
};
pub use model::multi_attribute::{
    IndexKeyAttribute, IndexKeyField, KeyAttributeType, NoSortAttributeLeft, SortAttributes,
    TextSortAttribute,
};
pub use model::projection::{AlwaysStored, Projection};
pub use model::ttl::TimeToLive;
pub use model::vector::{
    DEFAULT_TOP_K, DistanceFunction, VectorElement, VectorIndexSchema, VectorProjection,
    check_stored_vector, vector_of, vector_value,
};
pub use ops::batch::{BatchGet, BatchWrite, BatchWriteOutput, DEFAULT_BATCH_CONCURRENCY};
pub use ops::cursor::Cursor;
pub use ops::get::Get;
pub use ops::query::{
    DEFAULT_MAX_REQUESTS, MAX_CURSOR_LEN, MultiAttributeQuery, Page, Query, SortKeyPrefix,
    SortKeyText, prefix_upper_bound,
};
pub use ops::scan::Scan;
pub use ops::search::{Projected, SearchDecode, SearchResults, Similar, SimilaritySearch, Whole};
pub use ops::search_filter::{SearchAttribute, SearchCondition, VectorFilters};
pub use ops::transaction::{
    CancellationCode, CancellationReason, Slot, TransactGet, TransactGetOutput, TransactWrite,
};
pub use ops::update::{Number, Set, Update};
pub use ops::write::{Delete, Put};
pub use request::collection_metrics::DEFAULT_ITEM_COLLECTION_WARNING_GB;
pub use request::executor::{CapacityDetail, CapacityLog, CapacityRecord};
pub use request::failure::RequestOutcome;
pub use request::retry::BatchRetry;
pub use request::table::Table;
pub use request::throttling::{
    Throttle, ThrottleLimit, ThrottleRetries, ThrottledAccess, ThrottledResource,
};
#[cfg(feature = "schema-tooling")]
pub use schema::{
    Access, CloudFormationTemplate, EntityCapacity, Load, PAGE_ITEMS, PartitionLoad, ReadUnits,
    Workload, WriteUnits, read_units, write_units,
};
pub use schema::{
    IndexProjection, KeyNames, SchemaDifference, TableBilling, TableDefinition, TableIndex,
    Throughput,
};
/// serde_dynamo, whose set helpers (`#[serde(with = "stamp::serde_dynamo::string_set")]`,
/// `number_set`, `binary_set`) store a field as `SS`, `NS` or `BS`.
pub use serde_dynamo;
