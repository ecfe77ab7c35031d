//! The public map of `stamp` (the facade re-exports it whole): each module
//! a list of re-exports of this crate, named for what its items are (as the
//! SDK's `types`, `operation` and `error`, or tokio's `sync` and `time`).
//! The facade's root re-exports what a service uses every day; everything
//! else is here. Here, not in the facade, so that each feature's items
//! exist exactly when this crate has the feature.

#[cfg(feature = "export")]
pub use crate::export;
#[cfg(feature = "streams")]
pub use crate::streams;
#[cfg(feature = "local")]
pub use crate::testing;
pub use crate::{limits, local};

/// Errors by stage, their typed reasons, and the outcome of a request.
///
/// [`Error`](crate::Error) (also at the root) is what every operation
/// returns; its top-level variants are the outcomes a caller matches on, and
/// the enums here are the reasons nested in them: [`DefinitionError`](crate::DefinitionError) (the
/// table's definition), [`KeyError`](crate::KeyError) (a key value), [`Refusal`](crate::Refusal) (refused
/// before sending), [`DecodeError`](crate::DecodeError) (an item that does not decode),
/// [`JobError`](crate::JobError) (a migration, an export or a change feed), the
/// cancellation reasons of a transaction, and [`Throttle`](crate::Throttle) (why DynamoDB
/// throttled a request).
pub mod error {
    #[cfg(feature = "streams")]
    #[doc(no_inline)]
    pub use crate::CheckpointReason;
    #[cfg(feature = "s3")]
    #[doc(no_inline)]
    pub use crate::ExportObjectReason;
    #[doc(no_inline)]
    pub use crate::{
        CancellationCode, CancellationReason, CursorReason, DecodeError, DefinitionError, Error,
        ExportReason, GlobalTableError, ImportReason, ItemKey, JobError, KeyError,
        KeyMismatchReason, KeyPartError, MigrationCheckpointReason, QueryReason, Refusal,
        RequestOutcome, StreamRecordReason, TableNameReason, TableSettingError, Throttle,
        ThrottleLimit, ThrottledAccess, ThrottledResource, UpdateReason, VectorError,
    };
}

/// The schema as data: what the derive describes of each entity (its
/// attributes, key templates and indexes) and the table a set of entities
/// makes ([`TableDefinition`](crate::TableDefinition), also at the root: `CreateTable`,
/// CloudFormation, the drift check, the catalogue).
///
/// The index markers ([`BaseTable`](crate::BaseTable), [`Gsi`](crate::Gsi), [`Lsi`](crate::Lsi), [`Vector`](crate::Vector)) are the
/// second parameter of [`Query`](crate::Query).
pub mod schema {
    #[cfg(feature = "schema-tooling")]
    #[doc(no_inline)]
    pub use crate::CloudFormationTemplate;
    #[doc(no_inline)]
    pub use crate::{
        AlwaysStored, BaseTable, CollectionMember, CollectionOf, EntitySchema, FieldAttribute, Gsi,
        ImportSource, IndexId, IndexKey, IndexKeyAttribute, IndexKeyField, IndexKeySchema,
        IndexKind, IndexProjection, IndexSchema, KeyAttribute, KeyAttributeType, KeyNames, Lsi,
        PreviousKeyFormat, QueryIndex, SchemaDifference, TableBilling, TableDefinition, TableIndex,
        Throughput, TimeToLive, UniqueValue, Vector, WriteTime,
    };
    #[doc(no_inline)]
    pub use crate::{
        GlobalTable, MultiRegionConsistency, Replica, STRONG_CONSISTENCY_REGION_SETS,
        STRONG_CONSISTENCY_REGIONS,
    };
    #[doc(no_inline)]
    pub use crate::{
        MAX_RESOURCE_POLICY_BYTES, MAX_TAG_KEY_CHARS, MAX_TAG_VALUE_CHARS, MAX_TAGS, MaxThroughput,
        TableClass, TableEncryption, TableSettings, WarmThroughput,
    };
}

/// Capacity: the units each request consumed, as DynamoDB reports them
/// ([`CapacityLog`](crate::CapacityLog), `Table::with_capacity_log`), and (feature
/// `schema-tooling`) the units a workload will consume, computed from the
/// definition by DynamoDB's rules.
pub mod capacity {
    #[cfg(feature = "schema-tooling")]
    #[doc(no_inline)]
    pub use crate::{
        Access, EntityCapacity, Load, PAGE_ITEMS, PartitionLoad, ReadUnits, UniqueCapacity,
        Workload, WriteUnits, read_units, write_units,
    };
    #[doc(no_inline)]
    pub use crate::{
        CapacityDetail, CapacityLog, CapacityRecord, DEFAULT_ITEM_COLLECTION_WARNING_GB,
    };
}

/// Vector indexes and similarity searches (`SearchVectors`): the distance
/// functions, the stored form of a vector, the search's conditions (typed
/// by the index: only its inline filters) and its results.
pub mod vector {
    #[doc(no_inline)]
    pub use crate::{
        DEFAULT_TOP_K, DistanceFunction, Projected, SearchAttribute, SearchCondition, SearchDecode,
        SearchResults, Similar, SimilaritySearch, VectorElement, VectorFilters, VectorIndexSchema,
        VectorProjection, Whole, check_stored_vector, vector_of, vector_value,
    };
}

/// Keys: the order-preserving encoding of a key field ([`KeyPart`], also at
/// the root), templates and their builders, write sharding, and the
/// sort-key conditions of queries.
///
/// These encodings are a **storage format**: every key Stamp writes is made
/// of them, so changing one is a data migration. Each is reversible, and
/// where the type is ordered the byte order of encodings equals the order of
/// values, which is what DynamoDB compares for sort keys.
///
/// | type | encoding | example |
/// |---|---|---|
/// | `String` | the text as is (then escaped, see below) | `Ada` |
/// | `u8`, `u16`, `u32`, `u64`, `usize` | decimal, zero-padded to 3, 5, 10, 20, 20 digits | `42u16` → `00042` |
/// | `i8` … `i64`, `isize` | `value - MIN` as the unsigned type of the same width (the sign bit flipped) | `-1i8` → `127`, `0i8` → `128` |
/// | `bool` | `false` / `true` | `true` |
/// | `uuid::Uuid` | lowercase hyphenated, 36 characters | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
/// | `chrono::DateTime<Utc>` | RFC 3339 in UTC with exactly 9 fractional digits and `Z`, years 0000 to 9999; a leap second is second `60` | `2026-06-01T10:00:00.000000000Z` |
/// | `chrono::NaiveDate` | `YYYY-MM-DD`, years 0000 to 9999 | `2026-06-01` |
/// | unit-only enum, `#[derive(KeyPart)]` | the variant name after serde's `rename_all` / `rename` (or `#[stamp(…)]`'s); ordered by that text | `OrderStatus::Pending` → `PENDING` |
/// | newtype, `#[derive(KeyPart)]` | the inner value's encoding | `Sku("A-1".into())` → `A-1` |
///
/// A date-time and a date share their first ten characters, so a sort key
/// that starts with a time can be compared with whole days.
///
/// `u128` and `i128` have no encoding: a key field is stored as an ordinary
/// attribute too, and a DynamoDB Number holds 38 significant digits, so such
/// an item could not be stored; using one in a template does not compile.
///
/// **Escaping.** After encoding, every character from U+0000 to `%`
/// (U+0025) is written as `%XX` per UTF-8 byte: the control characters,
/// space, `!`, `"`, `#`, `$` and `%` ([`KeyTemplate::ESCAPED`]). Every
/// literal that follows a placeholder must begin with a character below `%`
/// (such as `#`; anything else does not compile). So a value with a
/// delimiter in it round-trips, two different field tuples never give the
/// same key, and a field's encoding always sorts above the delimiter that
/// ends it: keys sort in the order of their values even when one value is a
/// prefix of another (`ab` < `ab c`, as `ab#` < `ab%20c#`), which makes
/// every range condition exact. Only that canonical form parses back
/// (`%41` for `A` does not). Values without those characters are written
/// unchanged (no built-in encoding except `String` and derived names ever
/// has one); keys keep their case exactly. An empty value is refused with
/// [`KeyError::EmptyKeyValue`].
///
/// # Generated functions
///
/// `#[derive(Item)]` documents each function it generates in one line that
/// names its templates; what they share is said here once.
///
/// **Key builders** (`key`, `gsiN_key`, `lsiN_key`, `previous_key`) fill
/// the templates with the fields given, encoded and escaped as above.
/// Errors: [`KeyError::EmptyKeyValue`] when a field encodes to the empty
/// string, [`KeyError::KeyEncode`] when a field has no key encoding, and,
/// for a sharded index's `shard` (the item's shard is
/// [`shard_of`](crate::shard_of)`(PK, SK, shards)`, from 0 to `shards - 1`),
/// [`KeyError::InvalidShard`] for another number.
///
/// **Key parsers** (`parse_partition_key`, `parse_sort_key`,
/// `parse_gsiN_partition_key`, …) split a key value back into the fields
/// of its template, in template order (`()` for a constant template).
/// Errors: [`KeyError::KeyMismatch`] when the value does not have the
/// template's shape, [`KeyError::KeyDecode`] when a field's segment is not
/// the canonical encoding of its type.
///
/// **Queries** (`query`, `query_gsiN`, `query_lsiN`) read one partition of
/// the table or index, the entity's items only. Add a sort-key condition
/// with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, `sort_key_prefix`,
/// … on a leading prefix of the sort key's fields. An LSI query may be
/// `consistent_read` (DynamoDB serves strongly consistent reads from an
/// LSI); a sparse index holds only the items whose index fields are not
/// `None`.
///
/// **Updates** (`update`, `upsert`) change the item with the primary key
/// given: set fields through the attribute constants (`Entity::FIELD`);
/// index attributes and `updated_at` are rewritten in the same request. An
/// upsert is one `UpdateItem` that creates the item when it is absent
/// ([`Update::into_upsert`](crate::Update::into_upsert)).
///
/// **Attribute constants** (`Entity::FIELD`) name a stored field for
/// conditions, filters and updates; a primary-key field's is for conditions
/// only, an `Option` field's may also be removed.
///
/// **Similarity searches** (`search_similar`, `search_similar_vectorN`)
/// send one [`SearchVectors`](https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html)
/// request for the items nearest `vector`, the 10 most similar unless
/// `top_k` says otherwise (1 to 100). The vector's length, a NaN or an
/// infinity, a zero vector under cosine and `top_k` are checked before
/// sending (`Error::Refused(Refusal::Vector(…))`); `.filter(|f| …)` names
/// only the index's inline filters (any other attribute does not compile).
///
/// Nothing is sent until the request's `send`, `stream` or `count`.
///
/// [`KeyError::KeyMismatch`]: crate::KeyError::KeyMismatch
/// [`KeyError::KeyDecode`]: crate::KeyError::KeyDecode
/// [`KeyError::KeyEncode`]: crate::KeyError::KeyEncode
/// [`KeyError::InvalidShard`]: crate::KeyError::InvalidShard
///
/// See [`KeyPart`] for implementing the encoding of a type of your own
/// (`#[derive(KeyPart)]` does it for unit enums and newtypes), and
/// [`KeyTemplate`] for how a template's segments become a key value and back.
///
/// [`KeyPart`]: crate::KeyPart
/// [`KeyTemplate`]: crate::KeyTemplate
/// [`KeyError::EmptyKeyValue`]: crate::KeyError::EmptyKeyValue
/// [`KeyTemplate::ESCAPED`]: crate::KeyTemplate::ESCAPED
pub mod key {
    #[doc(no_inline)]
    pub use crate::{
        KeyBuilder, KeyPart, KeyPartError, KeyTemplate, MAX_SHARDS, MultiAttributeQuery,
        NoSortAttributeLeft, PrimaryKey, Segment, SortAttributes, SortKeyPrefix, SortKeyText,
        TextSortAttribute, prefix_upper_bound, shard_of,
    };
}

/// Items on the wire: the attribute map, the codec of each field type, and
/// DynamoDB's item rules (sizes, the 400 KB limit, what it refuses).
pub mod item {
    #[doc(no_inline)]
    pub use crate::{
        AttributeCodec, AttributeMap, attribute_value_size, check_item, check_value, item_size,
    };
}

/// Typed expressions: the attribute constants the derive generates, the
/// conditions built from them, and the placeholders (`#name`, `:value`)
/// every expression uses.
pub mod expression {
    #[doc(no_inline)]
    pub use crate::{
        Attribute, AttributeType, Condition, Encoder, MAX_PATH_STEPS, Optional, Ordered, Path,
        Placeholders, PrimaryKeyField, Required, Settable, Size, check_expression_length,
    };
}

/// The operations (each a builder that plans its request; `send` runs it)
/// and their options and outputs: batches, transactions, pages and
/// cursors, update values, retries.
pub mod ops {
    #[doc(no_inline)]
    pub use crate::{
        BatchGet, BatchRetry, BatchWrite, BatchWriteOutput, Cursor, DEFAULT_BATCH_CONCURRENCY,
        DEFAULT_MAX_REQUESTS, Delete, Get, GetUnique, MAX_CURSOR_LEN, Number, Page, Put, Query,
        Scan, Set, Slot, ThrottleRetries, TransactGet, TransactGetOutput, TransactWrite, Update,
    };
}

/// Key migrations and index backfills: [`Migration`](crate::Migration),
/// resumable, each item moved once, also in units ([`ScanSegment`](crate::ScanSegment));
/// [`UniqueBackfill`](crate::UniqueBackfill), the guards of values declared
/// unique on items stored before.
pub mod migrate {
    #[doc(no_inline)]
    pub use crate::{
        Migration, MigrationCheck, MigrationOutcome, MigrationProgress, ParseScanSegmentError,
        ScanSegment, SkippedItem, UniqueBackfill, UniqueBackfillOutcome, UniqueConflict,
    };
}
