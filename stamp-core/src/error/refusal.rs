//! [`Refusal`]: a request Stamp refuses to send, because DynamoDB would
//! refuse it or it could not do what it says.
use super::ItemKey;

/// A request Stamp refuses before sending it: DynamoDB would refuse it (an
/// item over 400 KB, a transaction over 100 actions, an expression over
/// 4 KB, a number it cannot store), or it could not do what it says (an
/// invalid query, update or cursor, attributes an index does not project).
/// Nothing was sent.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// A vector or a similarity search breaks a rule of DynamoDB's vector
    /// indexes: the length or a non-finite element of a vector, `TopK`, the
    /// search condition, the projection ([`VectorError`](crate::VectorError)).
    #[error(transparent)]
    Vector(crate::VectorError),

    /// serde could not turn the entity into DynamoDB attributes.
    #[error("entity `{entity}` cannot be serialized into a DynamoDB item: {source}")]
    Serialize {
        /// The entity type name.
        entity: &'static str,
        /// serde_dynamo's error.
        source: serde_dynamo::Error,
    },

    /// A query or scan option is invalid, such as `limit(0)` or two
    /// sort-key conditions.
    #[error("invalid query: {reason}")]
    InvalidQuery {
        /// What is wrong.
        reason: QueryReason,
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
        reason: CursorReason,
    },

    /// A cursor from one query was given to another.
    #[error(
        "the cursor belongs to another query (another table, index, partition, sort-key condition or order)"
    )]
    CursorMismatch,

    /// A value in a condition or filter could not be serialized.
    #[error("a value in an expression cannot be serialized: {detail}")]
    InvalidExpressionValue {
        /// serde_dynamo's (or the value check's) message, for people.
        detail: String,
    },

    /// An update is not valid, such as one that changes nothing.
    #[error("invalid update of entity `{entity}`: {reason}")]
    InvalidUpdate {
        /// The entity type name.
        entity: &'static str,
        /// What is wrong.
        reason: UpdateReason,
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

    /// An upsert ([`Update::into_upsert`](crate::Update::into_upsert)) that
    /// could create an item that does not decode: a field that is not an
    /// `Option` is neither in the primary key nor written by the upsert
    /// (`set`, `set_if_not_exists`, `add`, `subtract`, `append`,
    /// `add_to_set`). Found before sending; nothing is sent.
    #[error(
        "the upsert of entity `{entity}` could create the item without {missing:?}, which are not `Option` fields, so it would not decode: write them in the upsert (`set_if_not_exists` keeps a stored value), or use `update` for an item that exists"
    )]
    IncompleteUpsert {
        /// The entity type name.
        entity: &'static str,
        /// The attributes of the fields the upsert must write as well.
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

    /// A batch write (`BatchWrite::put` or `delete`) of an entity with
    /// unique values (`#[stamp(unique)]`): `BatchWriteItem` takes no
    /// condition, so it can neither claim a value's guard item nor release
    /// it, and a batch would let two items hold one value or leave a value
    /// taken by no item. Found before sending; write such items with
    /// `put`, `create`, `Delete` or in a transaction, or load them in a
    /// batch under another entity and run `UniqueBackfill`.
    #[error(
        "entity `{entity}` has unique values, whose guard items a batch write cannot claim or release: write it with put, create, delete or in a transaction"
    )]
    UniqueBatchWrite {
        /// The entity type name.
        entity: &'static str,
    },

    /// An item is larger than DynamoDB's 400 KB item limit, counted by
    /// DynamoDB's rules ([`item_size`](crate::item_size)). Found before
    /// sending.
    #[error(
        "the item of entity `{entity}` with key {key} is {size} bytes, more than DynamoDB's item limit of {limit} bytes (400 KB)"
    )]
    ItemTooLarge {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
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

    /// A set (`SS`, `NS`, `BS`) holds two equal elements (for a number set,
    /// equal as numbers: `1` and `1.0`), which DynamoDB refuses ("Input
    /// collection contains duplicates"). Found before sending.
    #[error(
        "attribute `{attribute}` of entity `{entity}` is a set that holds {element} twice, which DynamoDB refuses; a set's elements are distinct (numbers as numbers: 1 and 1.0 are one)"
    )]
    DuplicateSetElement {
        /// The entity type name.
        entity: &'static str,
        /// The attribute, with the path inside it.
        attribute: String,
        /// The element found a second time, as written (a string quoted, a
        /// binary as its bytes).
        element: String,
    },

    /// A value nests deeper than DynamoDB stores: more than `limit` (32)
    /// levels of lists and maps, the attribute's value being the first
    /// ("Nested attribute depth", service quotas). Found before sending.
    #[error(
        "attribute `{attribute}` of entity `{entity}` nests deeper than DynamoDB's {limit} levels of lists and maps"
    )]
    NestedTooDeep {
        /// The entity type name.
        entity: &'static str,
        /// The path of the first value past the limit.
        attribute: String,
        /// DynamoDB's limit, [`MAX_NESTING_DEPTH`](crate::limits::MAX_NESTING_DEPTH).
        limit: usize,
    },

    /// The same primary key appears twice in one `BatchWriteItem` or
    /// `BatchGetItem`, which DynamoDB refuses. Found before sending.
    #[error(
        "the {operation} lists the item with key {key} twice (entity `{entity}`); a batch may name each item once"
    )]
    DuplicateBatchKey {
        /// `BatchWriteItem` or `BatchGetItem`.
        operation: &'static str,
        /// The entity type name of the second occurrence.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
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

    /// A document path of more steps than Stamp holds
    /// ([`MAX_PATH_STEPS`](crate::expression::MAX_PATH_STEPS)), built with
    /// `Attribute::then` and `Attribute::at`. Found before sending.
    #[error("the document path `{path}` has more than {limit} steps")]
    PathTooDeep {
        /// The path, as far as it is held.
        path: String,
        /// The most steps, 16.
        limit: usize,
    },

    /// A transaction has no action. Found before sending.
    #[error("the transaction has no action; DynamoDB needs from 1 to 100")]
    EmptyTransaction,

    /// A unique field (`#[stamp(unique)]` or part of `unique(a, b)`) is
    /// stored in a form that is not a value: a list, a map, a set or
    /// `NULL` is not; a String, a Number, a Binary or a Boolean is.
    #[error(
        "the unique field `{field}` of entity `{entity}` is stored as a {stored}; a unique value is a String, Number, Binary or Boolean"
    )]
    UniqueValueNotScalar {
        /// The entity type name.
        entity: &'static str,
        /// The field, by its name in the struct.
        field: &'static str,
        /// The DynamoDB type it is stored as, such as `L`.
        stored: &'static str,
    },

    /// A lookup by unique value ([`GetUnique`](crate::GetUnique)) names
    /// fields that are not one of the entity's unique values (a
    /// `#[stamp(unique)]` field, or all the fields of a `unique(a, b)`).
    #[error(
        "entity `{entity}` has no unique value of the attributes {attributes:?}: name a `#[stamp(unique)]` field, or every field of a `unique(…)`"
    )]
    NotUnique {
        /// The entity type name.
        entity: &'static str,
        /// The attributes named.
        attributes: Vec<String>,
    },

    /// An update changes a unique field by an action whose result depends
    /// on the stored value (`ADD`, a subtraction, an append, a set
    /// `DELETE`): the guard of the new value could not be written in the
    /// same transaction. Set the field instead.
    #[error(
        "the update of entity `{entity}` changes the unique field `{field}` with `{action}`; a unique field is changed by `set` or `remove`"
    )]
    UniqueFieldArithmetic {
        /// The entity type name.
        entity: &'static str,
        /// The attribute name.
        field: &'static str,
        /// The action, such as `ADD`.
        action: &'static str,
    },

    /// `send_returning_new` or `send_returning_old` of an update that
    /// changes a unique value, or `send_returning_old` of a delete of an
    /// entity with unique values: these writes are one `TransactWriteItems`
    /// with their guards, which returns no item. Use `send` and read the
    /// item.
    #[error(
        "a write of entity `{entity}` that keeps its unique values is a transaction, which returns no item: use `send`, then read"
    )]
    UniqueReturnValues {
        /// The entity type name.
        entity: &'static str,
    },

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
        "actions {first} and {second} of the transaction both name the item with key {key} (entity `{entity}`); a transaction may act on each item once"
    )]
    DuplicateTransactionItem {
        /// The position of the first action on the item.
        first: usize,
        /// The position of the second one.
        second: usize,
        /// The entity type name of the second action.
        entity: &'static str,
        /// The item's primary key; its `Display` is `PK=…, SK=…`.
        key: ItemKey,
    },

    /// A client request token is not 1 to 36 characters long. Found before
    /// sending.
    #[error("the client request token `{token}` is {} characters long; DynamoDB takes 1 to 36", .token.chars().count())]
    InvalidClientRequestToken {
        /// The token given.
        token: String,
    },
}

/// Why a query, scan or migration option is invalid, in
/// [`Refusal::InvalidQuery`].
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

/// Why a cursor cannot be used, in [`Refusal::InvalidCursor`]. `detail` is
/// the decoder's message, for people.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CursorReason {
    /// It is longer than any cursor Stamp writes.
    #[error("{length} bytes, more than a cursor can be ({limit})")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The longest a cursor of this query can be.
        limit: usize,
    },
    /// It is not signed, and the table signs its cursors.
    #[error("not signed, and this table signs its cursors")]
    Unsigned,
    /// Its signature is not URL-safe base64.
    #[error("signature not URL-safe base64: {detail}")]
    SignatureNotBase64 {
        /// The decoder's message.
        detail: String,
    },
    /// Its signature does not match its content.
    #[error("the signature does not match: the cursor was changed or signed with another key")]
    SignatureMismatch,
    /// It is not URL-safe base64.
    #[error("not URL-safe base64: {detail}")]
    NotBase64 {
        /// The decoder's message.
        detail: String,
    },
    /// It is not the JSON of a Stamp cursor.
    #[error("not a Stamp cursor: {detail}")]
    NotStampCursor {
        /// The JSON decoder's message.
        detail: String,
    },
    /// A cursor of a sharded query was given to a query of one partition.
    #[error("a cursor of a sharded query, with a position per shard")]
    Sharded,
    /// A cursor of a query of one partition was given to a sharded query.
    #[error("not a cursor of a sharded query: it has no position per shard")]
    NotSharded,
    /// A sharded query's cursor has another number of shard positions.
    #[error("{positions} shard positions, for a query over {shards} shards")]
    ShardCount {
        /// How many positions it has.
        positions: usize,
        /// How many shards the query has.
        shards: u16,
    },
    /// A key attribute is given twice.
    #[error("key attribute `{attribute}` is given twice")]
    AttributeTwice {
        /// The attribute.
        attribute: String,
    },
    /// A Binary key attribute is not base64.
    #[error("key attribute `{attribute}` not base64: {detail}")]
    AttributeNotBase64 {
        /// The attribute.
        attribute: String,
        /// The decoder's message.
        detail: String,
    },
    /// A key attribute of the position is not a string.
    #[error("key attribute `{attribute}` is {value:?}, not a string")]
    NotString {
        /// The attribute.
        attribute: String,
        /// Its value.
        value: Box<aws_sdk_dynamodb::types::AttributeValue>,
    },
    /// A key attribute of the position is not a String, Number or Binary.
    #[error("key attribute `{attribute}` is {value:?}, not S, N or B")]
    NotKeyType {
        /// The attribute.
        attribute: String,
        /// Its value.
        value: Box<aws_sdk_dynamodb::types::AttributeValue>,
    },
    /// The position has an attribute that is not a key attribute of the
    /// query.
    #[error("unexpected attribute `{attribute}`")]
    UnexpectedAttribute {
        /// The attribute.
        attribute: String,
    },
    /// A key attribute of the query is missing from the position.
    #[error("key attribute `{attribute}` is missing")]
    MissingAttribute {
        /// The attribute.
        attribute: String,
    },
    /// A Number key attribute is not an integer.
    #[error("key attribute `{attribute}` is not an integer")]
    NotInteger {
        /// The attribute.
        attribute: String,
    },
    /// A key attribute is not of its index's type.
    #[error("key attribute `{attribute}` is not of type {attribute_type}")]
    WrongType {
        /// The attribute.
        attribute: String,
        /// Its type in the index: `S`, `N` or `B`.
        attribute_type: &'static str,
    },
    /// The position is in another partition than the query's.
    #[error("`{attribute}` is not the query's partition")]
    OtherPartition {
        /// The partition key attribute.
        attribute: String,
    },
    /// A key attribute the query gives a value for has another value.
    #[error("`{attribute}` is not the query's value")]
    OtherValue {
        /// The attribute.
        attribute: String,
    },
    /// The position is outside the query's sort-key condition.
    #[error("`{attribute}` is outside the query's sort-key condition")]
    OutsideSortCondition {
        /// The sort key attribute.
        attribute: String,
    },
}

/// Why an update is invalid, in [`Refusal::InvalidUpdate`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UpdateReason {
    /// The update has no action.
    #[error("the update changes nothing")]
    ChangesNothing,
    /// Two actions change one attribute, which DynamoDB refuses.
    #[error("`{attribute}` is changed twice; DynamoDB takes one action per attribute in an update")]
    ChangedTwice {
        /// The attribute.
        attribute: &'static str,
    },
    /// The update sets the `#[stamp(version)]` attribute, which Stamp
    /// increments itself.
    #[error("the version `{attribute}` is counted by Stamp; use `expect_version`")]
    SetsVersion {
        /// The version attribute.
        attribute: &'static str,
    },
    /// A field of an index's key template is added to, appended to or set
    /// if absent, so the update cannot know its value to rebuild the
    /// index's key attributes.
    #[error(
        "`{field}` is in a key template of {index}, so it must be set to a value (not added to, appended to or set if absent), for the index attributes to be rebuilt"
    )]
    KeyFieldNotSet {
        /// The field, as stored.
        field: String,
        /// The index name.
        index: &'static str,
    },
    /// An index key attribute is built from a field that serde does not
    /// store (`#[serde(skip)]`), so an update cannot rebuild it.
    #[error(
        "`{attribute}` is built from `{field}`, which serde does not store, so an update cannot rebuild it"
    )]
    UnstoredKeyField {
        /// The index key attribute.
        attribute: &'static str,
        /// The field it is built from.
        field: &'static str,
    },
    /// A path inside an index attribute (an element of a vector, a
    /// field of a key attribute): the index needs the attribute whole.
    #[error("`{path}` is inside `{attribute}`, which an index reads: set `{attribute}` whole")]
    PathIntoIndexAttribute {
        /// The attribute.
        attribute: &'static str,
        /// The path.
        path: String,
    },
    /// A sharded index's key is rebuilt from the primary key, which the
    /// update was not given.
    #[error(
        "the shard of a sharded index follows from the primary key, which the update was not given"
    )]
    ShardNeedsPrimaryKey,
}
