//! [`Refusal`]: a request Stamp refuses to send, because DynamoDB would
//! refuse it or it could not do what it says.

/// A request Stamp refuses before sending it: DynamoDB would refuse it (an
/// item over 400 KB, a transaction over 100 actions, an expression over
/// 4 KB, a number it cannot store), or it could not do what it says (an
/// invalid query, update or cursor, attributes an index does not project).
/// Nothing was sent.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
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
        reason: String,
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
}
