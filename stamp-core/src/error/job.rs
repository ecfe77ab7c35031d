//! [`JobError`]: the jobs that run many requests: a key migration, an
//! export, the change feed.

mod export;
mod migration;
mod stream;

#[cfg(feature = "s3")]
pub use export::ExportObjectReason;
pub use export::{ExportReason, ImportReason};
pub use migration::MigrationCheckpointReason;
#[cfg(feature = "streams")]
pub use stream::CheckpointReason;
pub use stream::StreamRecordReason;

use super::{Error, ItemKey};
use crate::unit::ScanSegment;

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
        reason: ExportReason,
    },

    /// An import (`ImportTable`) cannot be asked as configured: the
    /// definition has a local secondary index, or the bucket name is
    /// empty. Found before sending.
    #[error("invalid import: {reason}")]
    InvalidImport {
        /// What is wrong.
        reason: ImportReason,
    },

    /// An export file or its directory cannot be written.
    #[error("the export file `{}` cannot be written: {detail}", .path.display())]
    ExportFile {
        /// The file or directory.
        path: std::path::PathBuf,
        /// The I/O, JSON, Arrow or Parquet error's message, for people.
        detail: String,
    },

    /// An S3 object of an export (feature `s3`) cannot be read or written:
    /// the manifest or a data file of a DynamoDB S3 export
    /// ([`Export::run_from_s3_export`](crate::export::Export::run_from_s3_export)),
    /// or an entity file of an export to S3
    /// ([`Export::to_s3`](crate::export::Export::to_s3)).
    #[cfg(feature = "s3")]
    #[error("the export object `s3://{bucket}/{key}` cannot be used: {reason}")]
    ExportObject {
        /// The bucket.
        bucket: String,
        /// The object's key.
        key: String,
        /// What is wrong.
        reason: ExportObjectReason,
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
        reason: MigrationCheckpointReason,
    },

    /// A key migration stopped at an item. Every item it moved before is at
    /// its new key; running the migration again resumes from the checkpoint.
    #[error("the key migration of entity `{entity}` stopped at the item with key {key}: {source}")]
    MigrationFailed {
        /// The entity type name.
        entity: &'static str,
        /// The item's primary key, in its old format; its `Display` is
        /// `PK=…, SK=…`.
        key: ItemKey,
        /// Why it stopped.
        source: Box<Error>,
    },

    /// The check of a key migration run in units
    /// ([`Migration::check`](crate::Migration::check)) found items of the
    /// entity still to move: at their previous key, or with index
    /// attributes that are not what the entity's templates give. A unit
    /// was not run, or did not finish, or an item's new key is taken (a
    /// conflict the runs report): run the units again, then check again.
    #[error(
        "the key migration of entity `{entity}` is not complete: {remaining} items still to move, the first with key {first}"
    )]
    MigrationIncomplete {
        /// The entity type name.
        entity: &'static str,
        /// How many items the check found still to move.
        remaining: u64,
        /// The first of them the check read (its `Display` is `PK=…, SK=…`).
        first: ItemKey,
    },

    /// The check of an export run in units (`Export::check_segments`,
    /// feature `export`) found units whose output is not complete (no
    /// `_SUCCESS` in the unit's folder), or the outputs of units of another
    /// segment count, which a reader would read with the job's. Nothing was
    /// written; run the missing units (or delete the stray folders), then
    /// check again.
    #[error(
        "the export in `{location}` is not complete: {} units not done ({}){}",
        .missing.len(),
        .missing.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        if .stray.is_empty() { String::new() } else { format!("; folders of another segment count: {}", .stray.join(", ")) }
    )]
    ExportIncomplete {
        /// The export's directory.
        location: String,
        /// The units without a complete output, in order.
        missing: Vec<ScanSegment>,
        /// The names of the unit folders of another segment count.
        stray: Vec<String>,
    },

    /// A DynamoDB Streams record cannot be decoded into a change: an
    /// `eventName` other than `INSERT`, `MODIFY` and `REMOVE`, no `Keys`, or
    /// an image of a member entity that the entity cannot read.
    #[error(
        "stream record `{event_id}` with key {} cannot be decoded{}: {reason}",
        .key.as_ref().map_or_else(|| "(none)".to_owned(), ItemKey::to_string),
        .entity.as_ref().map(|entity| format!(" as entity `{entity}`")).unwrap_or_default()
    )]
    InvalidStreamRecord {
        /// The record's `eventID`.
        event_id: String,
        /// The entity type named by the image's type attribute, when known.
        entity: Option<String>,
        /// The record's `Keys` (`None` when it has none).
        key: Option<ItemKey>,
        /// What is wrong.
        reason: StreamRecordReason,
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
        reason: CheckpointReason,
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
