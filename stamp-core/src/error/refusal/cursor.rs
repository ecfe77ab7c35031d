//! [`CursorReason`]: why a cursor is refused.

/// Why a cursor cannot be used, in [`Refusal::InvalidCursor`](super::Refusal::InvalidCursor). `detail` is
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
