//! [`KeyError`]: a key value that cannot be built, parsed or stored.

use crate::key::part::KeyPartError;

/// A key value Stamp cannot build, parse or send: an empty or too long key,
/// a field with no key encoding, a value that does not match its template, a
/// shard that does not exist, a key attribute of the wrong type. Found
/// before any request is sent.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
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
        reason: KeyMismatchReason,
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
}

/// Where a key value departs from its template, in
/// [`KeyError::KeyMismatch`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyMismatchReason {
    /// A literal of the template is not at its place.
    #[error("expected `{literal}` at byte {at}")]
    Literal {
        /// The literal.
        literal: String,
        /// Its byte offset in the key value.
        at: usize,
    },
    /// The key value does not end with the template's last literal.
    #[error("expected the key to end with `{literal}`")]
    Ending {
        /// The literal.
        literal: String,
    },
    /// No literal follows a field where the template has one.
    #[error("expected `{literal}` after field `{field}`")]
    AfterField {
        /// The literal.
        literal: String,
        /// The field before it.
        field: String,
    },
    /// A field's segment is empty.
    #[error("field `{field}` is empty")]
    EmptyField {
        /// The field.
        field: String,
    },
    /// A field's segment is not escaped as Stamp escapes it.
    #[error("field `{field}` is not written as Stamp writes it")]
    NotStampEscaped {
        /// The field.
        field: String,
    },
    /// The shard segment is not a number from 0 to `shards - 1` in
    /// canonical decimal.
    #[error("the shard `{shard}` is not a number from 0 to {}", .shards - 1)]
    Shard {
        /// The segment.
        shard: String,
        /// The index's shard count.
        shards: u16,
    },
    /// The key value goes on after the template ends.
    #[error("unexpected `{rest}` after the template")]
    Trailing {
        /// What follows.
        rest: String,
    },
}
