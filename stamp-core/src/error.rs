//! [`Error`]: everything Stamp can report, in DynamoDB's own terms.

use aws_sdk_dynamodb::error::SdkError;

use crate::KeyPartError;

/// The error type of every Stamp operation.
///
/// Validation errors (keys, table definitions) are found before any request
/// is sent; [`Error::DynamoDb`] carries what the service or the SDK returned.
#[derive(Debug, thiserror::Error)]
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
        source: Box<aws_sdk_dynamodb::Error>,
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
            source: Box::new(aws_sdk_dynamodb::Error::from(error)),
        }
    }
}
