//! [`Refusal`]: a request Stamp refuses to send, because DynamoDB would
//! refuse it or it could not do what it says.
mod cursor;
mod query;
mod update;

pub use cursor::CursorReason;
pub use query::QueryReason;
pub use update::UpdateReason;

use super::ItemKey;
use crate::error::VectorError;

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
    Vector(VectorError),

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
