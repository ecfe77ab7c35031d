//! [`Error`]: everything Stamp can report, in DynamoDB's own terms.
//!
//! The file is one enum of documented variants (its cause, what was or was
//! not sent, the remedy), longer than the others on purpose: splitting it
//! would split the type users match on. Its helpers live elsewhere: the key
//! of an item in [`item_key`], the mapping of SDK errors in
//! `request/failure.rs`.

use std::sync::Arc;

use crate::{KeyPartError, RequestOutcome};

mod item_key;
mod vector;

pub use item_key::ItemKey;
pub use vector::VectorError;

/// The error type of every Stamp operation.
///
/// Validation errors (keys, table definitions) are found before any request
/// is sent; [`Error::DynamoDb`] carries what the service or the SDK returned.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key field encodes to the empty string. DynamoDB refuses empty key
    /// attribute values, and an empty segment could not be parsed back.
    #[error(
        "field `{field}` of entity `{entity}` is empty, and a key field needs a non-empty value"
    )]
    EmptyKeyValue {
        /// The entity type name.
        entity: &'static str,
        /// The field, as named in the struct.
        field: &'static str,
    },

    /// A key value is longer than DynamoDB allows: 2048 bytes for a
    /// partition key, 1024 for a sort key, in the table and in every index
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html>).
    /// Found before anything is sent.
    #[error(
        "key `{template}` of entity `{entity}` is {length} bytes, above DynamoDB's limit of {limit} bytes for a {}",
        if *limit == crate::key::template::PARTITION_KEY_LIMIT { "partition key" } else { "sort key" }
    )]
    KeyTooLong {
        /// The entity type name.
        entity: &'static str,
        /// The key template, such as `ORDER#<created_at>#<order_id>`.
        template: &'static str,
        /// The key value's length in UTF-8 bytes.
        length: usize,
        /// The limit: 2048 or 1024.
        limit: usize,
    },

    /// A String or Binary attribute of a multi-attribute GSI key is longer
    /// than DynamoDB allows for a key attribute: 2048 bytes in a partition
    /// key, 1024 in a sort key (an attribute in the sort key of any of the
    /// entity's indexes gets 1024). For a String, its UTF-8 bytes.
    /// Found before anything is sent, for puts, updates and query values
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html>).
    #[error(
        "attribute `{attribute}` of entity `{entity}` is {length} bytes, above DynamoDB's limit of {limit} bytes for a {} attribute",
        if *limit == crate::key::template::PARTITION_KEY_LIMIT { "partition key" } else { "sort key" }
    )]
    KeyAttributeTooLong {
        /// The entity type name.
        entity: &'static str,
        /// The key attribute's name, as stored.
        attribute: &'static str,
        /// The value's length in bytes.
        length: usize,
        /// The limit: 2048 or 1024.
        limit: usize,
    },

    /// A key field's value has no key encoding (see [`KeyPartError`]).
    #[error("field `{field}` of entity `{entity}` cannot be encoded into a key: {source}")]
    KeyEncode {
        /// The entity type name.
        entity: &'static str,
        /// The field, as named in the struct.
        field: &'static str,
        /// Why the value cannot be encoded.
        source: KeyPartError,
    },

    /// A key value does not have the shape of its template.
    #[error("key `{key}` does not match the template `{template}` of entity `{entity}`: {reason}")]
    KeyMismatch {
        /// The entity type name.
        entity: &'static str,
        /// The template, as written in the attribute.
        template: &'static str,
        /// The key value that was given.
        key: String,
        /// What did not match.
        reason: String,
    },

    /// A field segment of a key value is not a valid encoding of the field's
    /// type.
    #[error("field `{field}` in key `{key}` of entity `{entity}` cannot be decoded: {source}")]
    KeyDecode {
        /// The entity type name.
        entity: &'static str,
        /// The field, as named in the struct.
        field: &'static str,
        /// The whole key value.
        key: String,
        /// Why the segment cannot be decoded.
        source: KeyPartError,
    },

    /// serde could not turn the entity into DynamoDB attributes.
    #[error("entity `{entity}` cannot be serialized into a DynamoDB item: {source}")]
    Serialize {
        /// The entity type name.
        entity: &'static str,
        /// serde_dynamo's error.
        source: serde_dynamo::Error,
    },

    /// serde could not read the entity from a DynamoDB item.
    #[error("a DynamoDB item cannot be deserialized into entity `{entity}`: {source}")]
    Deserialize {
        /// The entity type name.
        entity: &'static str,
        /// serde_dynamo's error.
        source: serde_dynamo::Error,
    },

    /// An item's type attribute names another entity than the one asked for.
    #[error("the item's `{attribute}` is `{found}`, but entity `{expected}` was asked for")]
    EntityTypeMismatch {
        /// The type attribute name, such as `Type`.
        attribute: &'static str,
        /// The entity that was asked for.
        expected: &'static str,
        /// What the item holds (its `Debug` form when it is not a string).
        found: String,
    },

    /// A stored TTL attribute is not a Number of epoch seconds that the
    /// field's type can hold.
    #[error(
        "the TTL attribute `{attribute}` of entity `{entity}` holds `{value}`, which is not epoch seconds the field can hold"
    )]
    InvalidTimeToLive {
        /// The entity type name.
        entity: &'static str,
        /// The TTL attribute.
        attribute: String,
        /// The stored Number, as text.
        value: String,
    },

    /// A query or scan option is invalid, such as `limit(0)` or two
    /// sort-key conditions.
    #[error("invalid query: {reason}")]
    InvalidQuery {
        /// What is wrong.
        reason: String,
    },

    /// A shard number outside a sharded GSI's shards was given to its key
    /// builder (`Order::gsi1_key(…, shard)`): shards are `0` to
    /// `shards - 1`.
    #[error(
        "shard {shard} of index `{index}` of entity `{entity}` does not exist: the index has shards 0 to {}",
        shards - 1
    )]
    InvalidShard {
        /// The entity type.
        entity: &'static str,
        /// The index name.
        index: &'static str,
        /// The shard given.
        shard: u16,
        /// The index's shard count.
        shards: u16,
    },

    /// A query of a GSI needs attributes that the index does not project
    /// (`KEYS_ONLY`, or `INCLUDE` without them, as the table's definition
    /// says, [`Table::with_definition`](crate::Table::with_definition)): a
    /// GSI returns only its projected attributes, so the items could not be
    /// decoded, or a filter (the entity's type scope included) would match
    /// nothing. Every entity query (and count) of an index is scoped to
    /// its entity by the type attribute, so when `missing` holds it
    /// (`KEYS_ONLY` never projects it) the index must project it: no
    /// [`Projection`](crate::Projection) can help. Otherwise read a
    /// `Projection` of the projected attributes, project more, or get the
    /// items from the table.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>.
    #[error(
        "index `{index}` projects {projection}, which leaves out {missing:?} that a query of `{entity}` reads; {}",
        crate::error::not_projected_advice(*.type_attribute, .missing)
    )]
    AttributesNotProjected {
        /// The entity queried.
        entity: &'static str,
        /// The entity's type attribute (as `Type`) when it is among
        /// `missing`: Stamp scopes every query of an index to its entity
        /// by it, so the index must project it.
        type_attribute: Option<&'static str>,
        /// The index name.
        index: &'static str,
        /// The index's projection, as `KEYS_ONLY` or `INCLUDE (a, b)`.
        projection: String,
        /// The attributes the query needs and the index does not hold.
        missing: Vec<String>,
    },

    /// A strongly consistent read was asked of a GSI, which DynamoDB does
    /// not support.
    #[error(
        "a consistent read is not supported on a global secondary index (`{index}`); read the table, or accept eventual consistency"
    )]
    ConsistentReadOnIndex {
        /// The index name.
        index: &'static str,
    },

    /// The lower end of a sort-key range is above its upper end.
    #[error("the sort-key range is empty: lower bound `{lower}` is above upper bound `{upper}`")]
    InvalidSortKeyRange {
        /// The lower bound, as key text.
        lower: String,
        /// The upper bound, as key text.
        upper: String,
    },

    /// A cursor is not one Stamp wrote.
    #[error("invalid cursor: {reason}")]
    InvalidCursor {
        /// What is wrong with it.
        reason: String,
    },

    /// A cursor from one query was given to another.
    #[error(
        "the cursor belongs to another query (another table, index, partition, sort-key condition or order)"
    )]
    CursorMismatch,

    /// A value in a condition or filter could not be serialized.
    #[error("a value in an expression cannot be serialized: {reason}")]
    InvalidExpressionValue {
        /// serde_dynamo's message.
        reason: String,
    },

    /// `create` found an item with the key already there.
    #[error("an item of entity `{entity}` with key {key} already exists")]
    AlreadyExists {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
    },

    /// A write that needs an existing item (an update, a conditional write,
    /// the old key of a re-key) found none.
    #[error("there is no item of entity `{entity}` with key {key}")]
    ItemNotFound {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
    },

    /// The stored item's `#[stamp(version)]` is not the one the write
    /// expected: someone else wrote it first (optimistic locking).
    #[error(
        "entity `{entity}` with key {key} is {}, not at the expected version {expected}: it was written meanwhile; read it again",
        match .found { Some(found) => format!("at version {found}"), None => "not stored with a version (absent, or written without one)".to_owned() }
    )]
    VersionConflict {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
        /// The version the write expected.
        expected: u64,
        /// The stored version, when there is a stored item.
        found: Option<u64>,
    },

    /// A write's condition expression did not hold for the stored item.
    #[error(
        "the condition of a write of entity `{entity}` with key {key} does not hold for the stored item"
    )]
    ConditionFailed {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
        /// The stored item (`ReturnValuesOnConditionCheckFailure = ALL_OLD`).
        item: Box<crate::Item>,
    },

    /// An update is not valid, such as one that changes nothing.
    #[error("invalid update of entity `{entity}`: {reason}")]
    InvalidUpdate {
        /// The entity type name.
        entity: &'static str,
        /// What is wrong.
        reason: String,
    },

    /// An update of a versioned entity did not say which version it
    /// expects (`Update::expect_version`).
    #[error(
        "entity `{entity}` has a `#[stamp(version)]` field: give the update `expect_version(v)`"
    )]
    MissingExpectedVersion {
        /// The entity type name.
        entity: &'static str,
    },

    /// An update changes a field of a GSI key template but not the other
    /// fields the index attributes are built from, so they cannot be
    /// rebuilt.
    #[error(
        "the update of entity `{entity}` changes a field of index `{index}`, whose key attributes are also built from {missing:?}, which the update does not know: set (or remove) them in the same update, or state their current values with `given(…)` / `given_none(…)`, which the update then checks"
    )]
    IncompleteIndexUpdate {
        /// The entity type name.
        entity: &'static str,
        /// The index name.
        index: &'static str,
        /// The attributes to set as well.
        missing: Vec<String>,
    },

    /// A write of a versioned entity at the largest version its field type
    /// holds: there is no next version to store. Found before sending.
    #[error(
        "entity `{entity}` is at version {version}, the largest its `#[stamp(version)]` field holds, so a write cannot increment it"
    )]
    VersionOverflow {
        /// The entity type name.
        entity: &'static str,
        /// The version the write started from.
        version: u64,
    },

    /// A batch write was given an entity with a `#[stamp(version)]` field:
    /// `BatchWriteItem` cannot check versions, so it would lose updates.
    #[error(
        "entity `{entity}` has a `#[stamp(version)]` field, and a batch write cannot check versions: write it with `put` or in a transaction"
    )]
    VersionedBatchWrite {
        /// The entity type name.
        entity: &'static str,
    },

    /// A table definition has no entity.
    #[error("the table definition has no entity; add one with `TableDefinition::entity::<E>()`")]
    EmptyTableDefinition,

    /// Two entities of one table give one key attribute different names.
    #[error(
        "entities `{first_entity}` and `{second_entity}` disagree on the {role} attribute: `{first_name}` and `{second_name}`; one table has one name for it"
    )]
    ConflictingKeyAttributes {
        /// The entity that named the attribute first.
        first_entity: &'static str,
        /// The entity with the other name.
        second_entity: &'static str,
        /// Which attribute, such as "partition key" or "GSI1 sort key".
        role: String,
        /// The first entity's name for it.
        first_name: &'static str,
        /// The second entity's name for it.
        second_name: &'static str,
    },

    /// One attribute is a key attribute of two types in one table, such as
    /// a field that is a Number in one multi-attribute index and a String
    /// in another index: DynamoDB defines each attribute once
    /// (`AttributeDefinitions`), so `CreateTable` would fail.
    #[error(
        "key attribute `{attribute}` is of type {first_type} in {first_index} and of type {second_type} in {second_index}; a table defines each attribute with one type"
    )]
    ConflictingKeyAttributeTypes {
        /// The attribute name.
        attribute: &'static str,
        /// Where it is first a key attribute: an index name, or "the table".
        first_index: &'static str,
        /// Its type there: `S`, `N` or `B`.
        first_type: &'static str,
        /// Where it is a key attribute of the other type.
        second_index: &'static str,
        /// Its type there.
        second_type: &'static str,
    },

    /// Two different entities of one table have the same type name, so the
    /// type attribute could not tell their items apart.
    #[error(
        "two different entities of the table are named `{type_name}`; rename one with `#[stamp(type_name = \"…\")]`"
    )]
    DuplicateEntityType {
        /// The type name both have.
        type_name: &'static str,
    },

    /// Two entities name different TTL attributes; DynamoDB reads one TTL
    /// attribute per table.
    #[error(
        "entities `{first_entity}` and `{second_entity}` have different TTL attributes, `{first_attribute}` and `{second_attribute}`; a table has one TTL attribute"
    )]
    ConflictingTimeToLive {
        /// The entity that named the TTL attribute first.
        first_entity: &'static str,
        /// Its TTL attribute.
        first_attribute: &'static str,
        /// The entity with the other TTL attribute.
        second_entity: &'static str,
        /// Its TTL attribute.
        second_attribute: &'static str,
    },

    /// The entities of a table write more GSIs than DynamoDB allows in one
    /// table (20, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#gsi-limits>).
    #[error(
        "the table would have {count} global secondary indexes, more than DynamoDB's {limit}: {indexes:?}"
    )]
    TooManyIndexes {
        /// How many distinct index names the entities write.
        count: usize,
        /// The limit, 20.
        limit: usize,
        /// The index names, in order.
        indexes: Vec<&'static str>,
    },

    /// The entities of a table write more local secondary indexes than
    /// DynamoDB allows in one table (5, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>).
    #[error(
        "the table would have {count} local secondary indexes, more than DynamoDB's {limit}: {indexes:?}"
    )]
    TooManyLocalIndexes {
        /// How many distinct LSI names the entities write.
        count: usize,
        /// The limit, 5.
        limit: usize,
        /// The index names, in order.
        indexes: Vec<&'static str>,
    },

    /// A global and a local secondary index of one table have the same
    /// name; DynamoDB needs every index name of a table to be distinct.
    #[error(
        "index name `{index}` is both a global and a local secondary index of the table: rename one with `index_name = \"…\"`"
    )]
    DuplicateIndexName {
        /// The index name.
        index: &'static str,
    },

    /// An entity stores a field under the name of a key attribute of an
    /// index that an entity of the table writes, where DynamoDB would not
    /// take it: under a key built from a template (the sort key of an LSI,
    /// a key of a template GSI), any field, whose items would enter that
    /// index under the field's value; under a multi-attribute key
    /// attribute, a field stored as another type, whose every write
    /// DynamoDB refuses ("Type mismatch for Index Key": an item with an
    /// index key attribute of another type than the index's is refused,
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Writes>).
    /// A field of the same type under a multi-attribute key attribute is
    /// fine: its items are in the index, and queries filter by type.
    #[error(
        "`{field_entity}` stores field `{field}` as `{attribute}` ({field_type}), which is a key attribute of index `{index}` written by `{index_entity}` ({key_type}): DynamoDB would put its items in that index under a key Stamp does not build, or refuse every write of one whose value has another type (\"Type mismatch for Index Key\"); rename the field (`#[serde(rename = \"…\")]`) or the index attribute"
    )]
    IndexAttributeCollision {
        /// The entity whose field has the index attribute's name.
        field_entity: &'static str,
        /// The field, as named in the struct.
        field: &'static str,
        /// The type of the field's stored form (`S`, `N`, `B`, `BOOL`, `L`,
        /// `M`), or `"any type"` when the derive does not know it.
        field_type: &'static str,
        /// The entity that writes the index.
        index_entity: &'static str,
        /// The index name.
        index: &'static str,
        /// The attribute name.
        attribute: &'static str,
        /// The key attribute's type: `S`, `N` or `B`, and whether it is
        /// built from a template.
        key_type: &'static str,
    },

    /// A projection was set for an index that no entity of the table writes.
    #[error(
        "a projection is set for index `{index}`, which no entity writes; the indexes are {known:?}"
    )]
    UnknownIndex {
        /// The index named in the projection.
        index: String,
        /// The indexes the entities write.
        known: Vec<&'static str>,
    },

    /// An `INCLUDE` projection names no attribute; DynamoDB needs at least
    /// one (use `KEYS_ONLY` for none).
    #[error(
        "the INCLUDE projection of index `{index}` names no attribute; use KEYS_ONLY for keys only"
    )]
    EmptyIncludeProjection {
        /// The index.
        index: String,
    },

    /// The `INCLUDE` projections of a table name more non-key attributes in
    /// total than DynamoDB allows (100, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>).
    #[error(
        "the INCLUDE projections name {count} attributes in total, more than DynamoDB's {limit}"
    )]
    TooManyProjectedAttributes {
        /// How many attributes the projections name, counted per index.
        count: usize,
        /// The limit, 100.
        limit: usize,
    },

    /// The primary key templates of two entities can produce the same key,
    /// so an item of one could overwrite an item of the other.
    #[error(
        "the keys of entities `{first_entity}` and `{second_entity}` can collide: both can have partition key `{partition_key}` and sort key `{sort_key}`; give one of them a distinct literal prefix"
    )]
    CollidingKeySpaces {
        /// The entity added to the definition first.
        first_entity: &'static str,
        /// The entity added later.
        second_entity: &'static str,
        /// A partition key value both templates can produce.
        partition_key: String,
        /// A sort key value both templates can produce.
        sort_key: String,
    },

    /// A created table did not become `ACTIVE` in time.
    #[error("table `{table}` did not become ACTIVE: {reason}")]
    TableNotActive {
        /// The table name.
        table: String,
        /// What the waiter reported.
        reason: String,
    },

    /// An item is larger than DynamoDB's 400 KB item limit, counted by
    /// DynamoDB's rules ([`item_size`](crate::item_size)). Found before
    /// sending.
    #[error(
        "the item of entity `{entity}` with key {} is {size} bytes, more than DynamoDB's item limit of {limit} bytes (400 KB)",
        crate::error::key_text(.key)
    )]
    ItemTooLarge {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key attributes.
        key: crate::Item,
        /// The item's size in bytes.
        size: usize,
        /// The limit, 409,600 bytes.
        limit: usize,
    },

    /// A Number that DynamoDB cannot store: `NaN`, an infinity, more than 38
    /// significant digits, or a magnitude outside `1E-130` to
    /// `9.99…E+125`. Found before sending.
    #[error(
        "attribute `{attribute}` of entity `{entity}` holds the number `{value}`, which DynamoDB cannot store: {reason}"
    )]
    InvalidNumber {
        /// The entity type name.
        entity: &'static str,
        /// The attribute, with the path inside it (`dimensions.width`,
        /// `scores[2]`).
        attribute: String,
        /// The number as serialized.
        value: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A set nested in a map or list is empty. DynamoDB has no empty sets;
    /// a top-level empty set is left out of the item instead. Found before
    /// sending.
    #[error(
        "attribute `{attribute}` of entity `{entity}` is an empty set, which DynamoDB cannot store; skip it when empty (`#[serde(default, skip_serializing_if = \"…::is_empty\")]`)"
    )]
    EmptySet {
        /// The entity type name.
        entity: &'static str,
        /// The attribute, with the path inside it.
        attribute: String,
    },

    /// A key or index key attribute of an item to write is missing, empty,
    /// or not a string. Found before sending.
    #[error(
        "key attribute `{attribute}` of entity `{entity}` holds {found}, but a key attribute must be a non-empty string"
    )]
    InvalidKeyAttribute {
        /// The entity type name.
        entity: &'static str,
        /// The key attribute, such as `PK` or `GSI1SK`.
        attribute: &'static str,
        /// What the item holds there.
        found: String,
    },

    /// The same primary key appears twice in one `BatchWriteItem` or
    /// `BatchGetItem`, which DynamoDB refuses. Found before sending.
    #[error(
        "the {operation} lists the item with key {} twice (entity `{entity}`); a batch may name each item once",
        crate::error::key_text(.key)
    )]
    DuplicateBatchKey {
        /// `BatchWriteItem` or `BatchGetItem`.
        operation: &'static str,
        /// The entity type name of the second occurrence.
        entity: &'static str,
        /// The primary key attributes.
        key: crate::Item,
    },

    /// A batch write gave up on some items: their retries (after
    /// `UnprocessedItems` or throttling) ran out, or a request failed with an
    /// error that is not retried. `unprocessed` holds exactly the write
    /// requests *not known to be written*: those DynamoDB returned as
    /// unprocessed or never received, and those of a request that timed out
    /// or lost its answer (which DynamoDB may have applied). Every other
    /// request was written. Puts and deletes can be sent again safely.
    #[error(
        "BatchWriteItem on table `{table}` left {} write requests not known to be written after {attempts} attempts ({written} written){}",
        .unprocessed.len(),
        crate::error::cause_text(.cause)
    )]
    UnprocessedItems {
        /// The table name.
        table: String,
        /// The most requests sent for one group of items, retries included.
        attempts: u32,
        /// How many write requests were written.
        written: usize,
        /// The write requests not known to be written, as `BatchWriteItem`
        /// takes them. After a timeout or a lost answer (see `cause`) the
        /// service may have applied some of them; puts and deletes can be
        /// sent again safely.
        unprocessed: Vec<aws_sdk_dynamodb::types::WriteRequest>,
        /// The error that stopped the batch, when it was not only that
        /// retries ran out.
        cause: Option<Arc<aws_sdk_dynamodb::Error>>,
    },

    /// A batch get gave up on some keys after their retries (after
    /// `UnprocessedKeys` or throttling) ran out, or a request failed with an
    /// error that is not retried. `keys` holds exactly the keys not read;
    /// `items` the items that were read (nothing read is thrown away).
    #[error(
        "BatchGetItem on table `{table}` left {} keys of entity `{entity}` unread after {attempts} attempts ({} items read){}",
        .keys.len(),
        .items.len(),
        crate::error::cause_text(.cause)
    )]
    UnprocessedKeys {
        /// The table name.
        table: String,
        /// The entity type name.
        entity: &'static str,
        /// The most requests sent for one group of keys, retries included.
        attempts: u32,
        /// The primary keys not read, as attribute maps.
        keys: Vec<crate::Item>,
        /// The items read before the batch gave up, as stored, in the order
        /// of the keys asked for (decode them with `Entity::from_item`).
        /// A key that was read and has no item is in neither list.
        items: Vec<crate::Item>,
        /// The error that stopped the batch, when it was not only that
        /// retries ran out.
        cause: Option<Arc<aws_sdk_dynamodb::Error>>,
    },

    /// An expression is longer than DynamoDB's 4 KB (`MAX_EXPRESSION_BYTES`),
    /// or nests deeper than any such expression can. Found before sending.
    #[error(
        "the {kind} expression is {length} bytes or more, longer than DynamoDB's {limit} bytes (4 KB); split the request or test fewer values"
    )]
    ExpressionTooLong {
        /// Which expression: `condition or filter`, `update`, `key
        /// condition`, `projection`.
        kind: &'static str,
        /// Its length in bytes (at least this many, when rendering stopped
        /// early).
        length: usize,
        /// The limit, 4,096 bytes.
        limit: usize,
    },

    /// A transaction has no action. Found before sending.
    #[error("the transaction has no action; DynamoDB needs from 1 to 100")]
    EmptyTransaction,

    /// A transaction has more actions than DynamoDB allows (100). Found
    /// before sending.
    #[error("the transaction has {count} actions, more than DynamoDB's {limit}")]
    TooManyTransactionActions {
        /// How many actions it has.
        count: usize,
        /// The limit, 100.
        limit: usize,
    },

    /// A transaction is larger than DynamoDB's 4 MB. Found before sending.
    #[error("the transaction is {size} bytes, more than DynamoDB's {limit} bytes (4 MB)")]
    TransactionTooLarge {
        /// The aggregate size of its items, keys and values, in bytes.
        size: usize,
        /// The limit, 4,194,304 bytes.
        limit: usize,
    },

    /// Two actions of one transaction name the same item, which DynamoDB
    /// refuses. Found before sending.
    #[error(
        "actions {first} and {second} of the transaction both name the item with key {} (entity `{entity}`); a transaction may act on each item once",
        crate::error::key_text(.key)
    )]
    DuplicateTransactionItem {
        /// The position of the first action on the item.
        first: usize,
        /// The position of the second one.
        second: usize,
        /// The entity type name of the second action.
        entity: &'static str,
        /// The primary key attributes.
        key: crate::Item,
    },

    /// A client request token is not 1 to 36 characters long. Found before
    /// sending.
    #[error("the client request token `{token}` is {} characters long; DynamoDB takes 1 to 36", .token.chars().count())]
    InvalidClientRequestToken {
        /// The token given.
        token: String,
    },

    /// DynamoDB cancelled a transaction (`TransactionCanceledException`):
    /// nothing of it was applied. `reasons` has one entry per action, in
    /// order, with the action's entity, key and reason code.
    #[error("the transaction on table `{table}` was cancelled: {}", crate::error::reasons_text(.reasons))]
    TransactionCanceled {
        /// The table name.
        table: String,
        /// One reason per action, in the order of the actions.
        reasons: Vec<crate::CancellationReason>,
    },

    /// A DynamoDB Streams record cannot be decoded into a change: an
    /// `eventName` other than `INSERT`, `MODIFY` and `REMOVE`, no `Keys`, or
    /// an image of a member entity that the entity cannot read.
    #[error(
        "stream record `{event_id}` with key {} cannot be decoded{}: {reason}",
        crate::error::key_text(.key),
        .entity.as_ref().map(|entity| format!(" as entity `{entity}`")).unwrap_or_default()
    )]
    InvalidStreamRecord {
        /// The record's `eventID`.
        event_id: String,
        /// The entity type named by the image's type attribute, when known.
        entity: Option<String>,
        /// The record's `Keys`.
        key: crate::Item,
        /// What is wrong.
        reason: String,
    },

    /// The table has no DynamoDB Stream (`DescribeTable` gives no
    /// `LatestStreamArn`, or the stream is off), so there is no change feed
    /// to read. Turn it on with `TableDefinition::stream`.
    #[cfg(feature = "streams")]
    #[error(
        "table `{table}` has no DynamoDB Stream; create it with `TableDefinition::stream(StreamViewType::NewAndOldImages)`"
    )]
    StreamNotEnabled {
        /// The table name.
        table: String,
    },

    /// A change-feed checkpoint cannot be used: it is not the JSON a feed
    /// writes, a sequence number in it is not one (21 to 40 digits), it
    /// belongs to another stream (another table, or the stream was turned
    /// off and on), it names a position the shard never had, or it marks a
    /// shard read to its end that the stream still has open (its later
    /// records would be skipped). Found before any `GetShardIterator` or
    /// `GetRecords` is sent for it, except that a server
    /// may refuse a sequence number it never issued (`ValidationException`).
    #[cfg(feature = "streams")]
    #[error("the change-feed checkpoint of table `{table}` cannot be used: {reason}")]
    InvalidCheckpoint {
        /// The table name.
        table: String,
        /// The shard the problem is in, when it is in one.
        shard_id: Option<String>,
        /// What is wrong.
        reason: String,
    },

    /// The records after a checkpoint are gone: its shard is no longer in
    /// the stream, or DynamoDB answered `TrimmedDataAccessException` (stream
    /// records are kept for 24 hours). Resuming would miss changes; start
    /// again from a full read of the table.
    #[cfg(feature = "streams")]
    #[error(
        "the change feed of table `{table}` cannot resume in shard `{shard_id}` after {}: its records were trimmed (older than 24 hours)",
        .sequence_number.as_deref().unwrap_or("its start")
    )]
    CheckpointExpired {
        /// The table name.
        table: String,
        /// The shard of the checkpoint.
        shard_id: String,
        /// The last sequence number read in it, as the checkpoint holds it.
        sequence_number: Option<String>,
    },

    /// DynamoDB Streams or the SDK returned an error for a request
    /// (`DescribeStream`, `GetShardIterator`, `GetRecords`), as
    /// [`Error::DynamoDb`] does for the DynamoDB API.
    #[cfg(feature = "streams")]
    #[error(
        "DynamoDB Streams {operation} on table `{table}` failed{}{}",
        .code.as_deref().map(|code| format!(": {code}")).unwrap_or_default(),
        .message.as_deref().map(|message| format!(": {message}")).unwrap_or_default()
    )]
    DynamoDbStreams {
        /// The operation, such as `GetRecords`.
        operation: &'static str,
        /// The table name.
        table: String,
        /// Whether the service refused the request, or it timed out, or its
        /// answer was lost.
        outcome: RequestOutcome,
        /// The service's error code, such as `ExpiredIteratorException`.
        code: Option<String>,
        /// The service's error message, when it answered with one.
        message: Option<String>,
        /// The SDK's error.
        source: Arc<aws_sdk_dynamodbstreams::Error>,
    },

    /// A table name DynamoDB would refuse: 3 to 255 characters of `a-z`,
    /// `A-Z`, `0-9`, `_`, `-` and `.` ("Naming rules", Amazon DynamoDB
    /// Developer Guide). Found before `CreateTable` is sent.
    #[error("the table name `{name}` is not valid: {reason}")]
    InvalidTableName {
        /// The name given.
        name: String,
        /// Which rule it breaks.
        reason: String,
    },

    /// An export cannot run as configured (no entity, a segment count
    /// outside 1 to 1,000,000, a type name that cannot name a file, two
    /// type attributes). Found before any request.
    #[error("invalid export: {reason}")]
    InvalidExport {
        /// What is wrong.
        reason: String,
    },

    /// An export file or its directory cannot be written.
    #[error("the export file `{}` cannot be written: {reason}", .path.display())]
    ExportFile {
        /// The file or directory.
        path: std::path::PathBuf,
        /// The I/O, JSON, Arrow or Parquet error.
        reason: String,
    },

    /// A key migration was asked of an entity that declares no previous key
    /// format and has no index to rebuild, so it has nothing to migrate.
    /// Found before sending.
    #[error(
        "entity `{entity}` declares no previous key format to migrate from: add `#[stamp(previous(pk = \"…\", sk = \"…\"))]`"
    )]
    NoPreviousKeyFormat {
        /// The entity type name.
        entity: &'static str,
    },

    /// A migration checkpoint cannot be read or written, or was written by
    /// another migration (another table, entity or segment count).
    #[error("the migration checkpoint `{location}` of entity `{entity}` cannot be used: {reason}")]
    MigrationCheckpoint {
        /// The entity type name.
        entity: &'static str,
        /// Where the checkpoint is kept, such as a file path.
        location: String,
        /// What is wrong.
        reason: String,
    },

    /// A key migration stopped at an item. Every item it moved before is at
    /// its new key; running the migration again resumes from the checkpoint.
    #[error(
        "the key migration of entity `{entity}` stopped at the item with key {}: {source}",
        crate::error::key_text(.key)
    )]
    MigrationFailed {
        /// The entity type name.
        entity: &'static str,
        /// The primary key attributes of the item, in its old format.
        key: crate::Item,
        /// Why it stopped.
        source: Box<Error>,
    },

    /// A conditional write failed its condition on an attempt that the SDK
    /// sent again after an earlier attempt that may have been applied (it
    /// timed out, its answer was lost or unreadable, or it met a server
    /// error), and the stored item does not show whether that earlier
    /// attempt was applied. It is not a plain conflict: the condition may
    /// have failed against this very write. Read the item and decide.
    ///
    /// When the stored item shows that the earlier attempt was applied (a
    /// put whose item is stored as sent; an update whose values, version
    /// and time stamp are stored as sent), the write succeeds instead.
    #[error(
        "DynamoDB {operation} of entity `{entity}` at {key} may have been applied: an earlier attempt got no usable answer, and the SDK's retry then failed the condition; read the item before writing again"
    )]
    OutcomeUnknown {
        /// The operation, such as `UpdateItem`.
        operation: &'static str,
        /// The entity type name.
        entity: &'static str,
        /// The key of the item.
        key: ItemKey,
        /// The stored item as the failed condition returned it
        /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`), `None` when
        /// there is none.
        item: Option<Box<crate::Item>>,
    },

    /// A rule of DynamoDB's vector indexes broken by a definition, an item
    /// or a similarity search ([`VectorError`]); nothing was sent.
    #[error(transparent)]
    Vector(VectorError),

    /// DynamoDB or the SDK returned an error for a request. The message
    /// gives DynamoDB's error code and message, such as
    /// `ResourceNotFoundException: Requested resource not found`, or says
    /// that the request timed out and may have been applied.
    #[error(
        "DynamoDB {operation} on table `{table}` {}",
        crate::request::failure::failure_text(*.outcome, *.status, .code.as_deref(), .message.as_deref(), .source)
    )]
    DynamoDb {
        /// The operation, such as `PutItem`.
        operation: &'static str,
        /// The table name.
        table: String,
        /// Whether DynamoDB refused the request, or it timed out, or its
        /// answer was lost: see [`RequestOutcome::may_have_been_applied`].
        outcome: RequestOutcome,
        /// The HTTP status of the answer, when one came.
        status: Option<u16>,
        /// DynamoDB's error code, such as `ResourceNotFoundException`
        /// (the exception name of the API reference), when it answered.
        code: Option<String>,
        /// DynamoDB's error message, when it answered with one.
        message: Option<String>,
        /// The SDK's error; match on it for service errors such as
        /// `ResourceNotFoundException`.
        source: Arc<aws_sdk_dynamodb::Error>,
    },
}

impl Error {
    /// Whether the write this error reports may have been applied: an
    /// [`Error::DynamoDb`] whose [`RequestOutcome::may_have_been_applied`]
    /// (a timeout, a lost or unreadable answer, a server error), or an
    /// [`Error::OutcomeUnknown`]. Read the item before retrying a write that
    /// is not idempotent.
    pub fn may_have_been_applied(&self) -> bool {
        match self {
            Error::DynamoDb { outcome, code, .. } => outcome.may_have_been_applied(code.as_deref()),
            Error::OutcomeUnknown { .. } => true,
            _ => false,
        }
    }
}

/// A primary key as text for messages, as [`ItemKey`] writes one:
/// `PK=CUST#1, SK=PROFILE` (attributes by name; a value that is not a
/// string in DynamoDB's JSON form).
pub(crate) fn key_text(key: &crate::Item) -> String {
    let mut names: Vec<&String> = key.keys().collect();
    names.sort();
    let parts: Vec<String> = names
        .into_iter()
        .map(|name| match &key[name] {
            aws_sdk_dynamodb::types::AttributeValue::S(value) => format!("{name}={value}"),
            other => format!("{name}={other:?}"),
        })
        .collect();
    if parts.is_empty() {
        "(none)".to_owned()
    } else {
        parts.join(", ")
    }
}

/// What would serve a query that [`Error::AttributesNotProjected`] refuses.
fn not_projected_advice(type_attribute: Option<&str>, missing: &[String]) -> String {
    match type_attribute {
        Some(type_attribute) => format!(
            "Stamp scopes every query of an index to its entity by the type attribute `{type_attribute}`, so the index must project it: `IndexProjection::Include` with {missing:?} (and what it already includes), or `IndexProjection::All`"
        ),
        None => format!(
            "query a projection of the projected attributes, or add {missing:?} to the index's `IndexProjection::Include`"
        ),
    }
}

/// `: <cause>` when there is one.
fn cause_text(cause: &Option<Arc<aws_sdk_dynamodb::Error>>) -> String {
    cause
        .as_ref()
        .map_or_else(String::new, |cause| format!(": {cause}"))
}

/// The reasons of a cancelled transaction other than `None`.
fn reasons_text(reasons: &[crate::CancellationReason]) -> String {
    let failed: Vec<String> = reasons
        .iter()
        .filter(|reason| reason.code != crate::CancellationCode::None)
        .map(|reason| {
            format!(
                "action {} ({} {}) {}",
                reason.index,
                reason.entity,
                key_text(&reason.key),
                reason.code
            )
        })
        .collect();
    if failed.is_empty() {
        "no reason given".to_owned()
    } else {
        failed.join("; ")
    }
}
