//! The change feed's reasons: [`CheckpointReason`], [`StreamRecordReason`].

use crate::error::Error;

/// Why a change-feed checkpoint cannot be used, in
/// [`JobError::InvalidCheckpoint`](super::JobError::InvalidCheckpoint).
#[cfg(feature = "streams")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointReason {
    /// It is not the JSON a change feed writes.
    #[error("it is not a change-feed checkpoint: {detail}")]
    NotCheckpoint {
        /// The JSON decoder's message.
        detail: String,
    },
    /// A position in it is not a sequence number.
    #[error("`{value}` is not a sequence number (21 to 40 decimal digits)")]
    NotSequenceNumber {
        /// What it holds.
        value: String,
    },
    /// It belongs to another stream: another table's, or the table's
    /// stream was turned off and on.
    #[error(
        "it belongs to stream `{checkpoint_stream}`, and the table's stream is `{table_stream}`"
    )]
    OtherStream {
        /// The stream ARN in the checkpoint.
        checkpoint_stream: String,
        /// The table's stream ARN.
        table_stream: String,
    },
    /// It marks a shard read to its end that the stream still has open.
    #[error(
        "it marks the shard read to its end, and the stream has it open (no EndingSequenceNumber, or no child shard while the stream is enabled): its later records would be skipped"
    )]
    FinishedShardOpen,
    /// It names a position after the shard's last record.
    #[error(
        "sequence number {sequence_number} is after the shard's last, {end}: the stream never issued it"
    )]
    AfterShardEnd {
        /// The checkpoint's sequence number.
        sequence_number: String,
        /// The shard's `EndingSequenceNumber`.
        end: String,
    },
    /// `GetShardIterator` answered without an iterator.
    #[error("GetShardIterator returned no iterator")]
    NoIterator,
    /// The stream refused the checkpoint's sequence number
    /// (`ValidationException`).
    #[error("the stream refuses sequence number {sequence_number}: {message}")]
    SequenceNumberRefused {
        /// The checkpoint's sequence number.
        sequence_number: String,
        /// The service's message.
        message: String,
    },
}

/// Why a DynamoDB Streams record cannot be decoded, in
/// [`JobError::InvalidStreamRecord`](super::JobError::InvalidStreamRecord).
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum StreamRecordReason {
    /// Its `eventName` is not `INSERT`, `MODIFY` or `REMOVE`.
    #[error("the eventName is `{event_name}`, not INSERT, MODIFY or REMOVE")]
    UnknownEventName {
        /// The `eventName` it has.
        event_name: String,
    },
    /// Its `StreamViewType` is not one DynamoDB has.
    #[error("the StreamViewType `{view_type}` is not one DynamoDB has")]
    UnknownViewType {
        /// The `StreamViewType` it has.
        view_type: String,
    },
    /// It has no `Keys`.
    #[error("the record has no Keys")]
    NoKeys,
    /// An `INSERT` record has an `OldImage`.
    #[error("an INSERT record has an OldImage, which DynamoDB never writes")]
    InsertWithOldImage,
    /// A `REMOVE` record has a `NewImage`.
    #[error("a REMOVE record has a NewImage, which DynamoDB never writes")]
    RemoveWithNewImage,
    /// An image (`Keys`, `NewImage` or `OldImage`) holds an attribute type
    /// the SDK does not know.
    #[error("its {image} holds an attribute type this SDK does not know")]
    UnknownAttributeType {
        /// `Keys`, `NewImage` or `OldImage`.
        image: String,
    },
    /// An image of a member entity cannot be read as that entity.
    #[error("its {image} cannot be read: {source}")]
    UnreadableImage {
        /// `NewImage` or `OldImage`.
        image: &'static str,
        /// Why.
        source: Box<Error>,
    },
    /// A key attribute of the entity is missing from `Keys` or is not a
    /// string.
    #[error(
        "key attribute `{attribute}` of entity `{entity}` is {}, not a string",
        .value.as_ref().map_or("missing".to_owned(), |value| format!("{value:?}"))
    )]
    KeyNotString {
        /// The key attribute.
        attribute: &'static str,
        /// The entity type name.
        entity: &'static str,
        /// What `Keys` holds there, `None` when nothing.
        value: Option<Box<aws_sdk_dynamodb::types::AttributeValue>>,
    },
}
