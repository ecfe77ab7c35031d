//! [`JobError`]: the jobs that run many requests: a key migration, an
//! export, the change feed.

use super::Error;

/// A job (a key migration, an export, the change feed) that cannot start,
/// stopped, or met something it cannot read: its configuration, its
/// checkpoint, its files, a stream record.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
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
}
