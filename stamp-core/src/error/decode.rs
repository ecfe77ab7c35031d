//! [`DecodeError`]: an item read from DynamoDB that is not the entity.

/// An item DynamoDB returned that cannot be read as the entity asked for:
/// serde could not decode it, its type attribute names another entity, or
/// its TTL attribute is not epoch seconds. The request was sent and
/// answered.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
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
}
