//! [`Error`]: everything Stamp can report, in DynamoDB's own terms.

use std::sync::Arc;

use aws_sdk_dynamodb::error::SdkError;

use crate::KeyPartError;

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

    /// A strongly consistent read was asked of a GSI, which DynamoDB does
    /// not support.
    #[error("a consistent read is not supported on a global secondary index (`{index}`); read the table, or accept eventual consistency")]
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
    #[error("the cursor belongs to another query (another table, index, partition, sort-key condition or order)")]
    CursorMismatch,

    /// A value in a condition or filter could not be serialized.
    #[error("a value in an expression cannot be serialized: {reason}")]
    InvalidExpressionValue {
        /// serde_dynamo's message.
        reason: String,
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
    #[error("the table would have {count} global secondary indexes, more than DynamoDB's {limit}: {indexes:?}")]
    TooManyIndexes {
        /// How many distinct index names the entities write.
        count: usize,
        /// The limit, 20.
        limit: usize,
        /// The index names, in order.
        indexes: Vec<&'static str>,
    },

    /// A projection was set for an index that no entity of the table writes.
    #[error("a projection is set for index `{index}`, which no entity writes; the indexes are {known:?}")]
    UnknownIndex {
        /// The index named in the projection.
        index: String,
        /// The indexes the entities write.
        known: Vec<&'static str>,
    },

    /// An `INCLUDE` projection names no attribute; DynamoDB needs at least
    /// one (use `KEYS_ONLY` for none).
    #[error("the INCLUDE projection of index `{index}` names no attribute; use KEYS_ONLY for keys only")]
    EmptyIncludeProjection {
        /// The index.
        index: String,
    },

    /// The `INCLUDE` projections of a table name more non-key attributes in
    /// total than DynamoDB allows (100, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>).
    #[error("the INCLUDE projections name {count} attributes in total, more than DynamoDB's {limit}")]
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

    /// DynamoDB or the SDK returned an error for a request.
    #[error("DynamoDB {operation} on table `{table}` failed: {source}")]
    DynamoDb {
        /// The operation, such as `PutItem`.
        operation: &'static str,
        /// The table name.
        table: String,
        /// The SDK's error; match on it for service errors such as
        /// `ResourceNotFoundException`.
        source: Arc<aws_sdk_dynamodb::Error>,
    },
}

impl Error {
    /// Wraps an SDK error of `operation` on `table`.
    pub(crate) fn dynamodb<E, R>(
        operation: &'static str,
        table: &str,
        error: SdkError<E, R>,
    ) -> Self
    where
        aws_sdk_dynamodb::Error: From<SdkError<E, R>>,
    {
        Error::DynamoDb {
            operation,
            table: table.to_owned(),
            source: Arc::new(aws_sdk_dynamodb::Error::from(error)),
        }
    }
}
