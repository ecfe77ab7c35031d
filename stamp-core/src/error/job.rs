//! [`JobError`]: the jobs that run many requests: a key migration, an
//! export, the change feed.

use super::{Error, ItemKey};

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
        missing: Vec<crate::ScanSegment>,
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

/// Why a change-feed checkpoint cannot be used, in
/// [`JobError::InvalidCheckpoint`].
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
/// [`JobError::InvalidStreamRecord`].
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

/// Why an import cannot be asked as configured, in
/// [`JobError::InvalidImport`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportReason {
    /// The definition has local secondary indexes: `ImportTable`'s
    /// `TableCreationParameters` has no `LocalSecondaryIndexes`, and an
    /// LSI can only be made with its table, so the imported table would
    /// lack them for good. Create the table (`Table::create_table`) and
    /// load it with writes instead.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableCreationParameters.html>.
    #[error(
        "the definition has local secondary indexes ({}), which `ImportTable` cannot create and no later request can add",
        .indexes.join(", ")
    )]
    LocalSecondaryIndexes {
        /// Their names, such as `LSI1`.
        indexes: Vec<String>,
    },
    /// The bucket name is empty.
    #[error("the bucket name is empty")]
    EmptyBucket,
}

/// Why an export cannot run as configured, in [`JobError::InvalidExport`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportReason {
    /// No entity was registered.
    #[error("no entity to export; register each with `Export::entity::<E>()`")]
    NoEntity,
    /// The segment count is outside 1 to 1,000,000.
    #[error("{segments} segments; a parallel scan has 1 to {limit}")]
    Segments {
        /// The segment count given.
        segments: u32,
        /// The largest, 1,000,000.
        limit: u32,
    },
    /// A concurrency of 0.
    #[error("a concurrency of 0 reads no segment; give 1 or more")]
    ZeroConcurrency,
    /// Two entities keep their type in different attributes.
    #[error(
        "entity `{first_entity}` stores its type in `{first_attribute}` and `{second_entity}` in `{second_attribute}`; one export reads one type attribute"
    )]
    TypeAttributes {
        /// The first entity registered.
        first_entity: &'static str,
        /// Its type attribute.
        first_attribute: &'static str,
        /// The entity with another one.
        second_entity: &'static str,
        /// That entity's type attribute.
        second_attribute: &'static str,
    },
    /// An entity's type name cannot name a file (empty, `.`, `..`, a path
    /// separator, NUL, or the name of the file of unknown types).
    #[error("entity type name `{type_name}` cannot name a file of its own")]
    FileName {
        /// The type name.
        type_name: &'static str,
    },
    /// An option of the export to S3 was given to an export to a directory.
    #[cfg(feature = "s3")]
    #[error(
        "`{option}` shapes the objects of an export to S3 (`Export::to_s3`), and this export writes a directory"
    )]
    NotS3 {
        /// The option, such as `part_bytes`.
        option: &'static str,
    },
    /// The bucket name is empty.
    #[cfg(feature = "s3")]
    #[error("the bucket name is empty")]
    EmptyBucket,
    /// An export to S3 was asked to run in units
    /// (`Export::run_segment`, `Export::check_segments`), which write and
    /// check a directory's unit folders.
    #[cfg(feature = "s3")]
    #[error(
        "an export runs in units into a directory (`Export::new`); an export to S3 runs whole (`Export::run`)"
    )]
    SegmentsToS3,
    /// The multipart upload part size is outside S3's bounds (5 MiB to
    /// 5 GiB).
    #[cfg(feature = "s3")]
    #[error("a part of {bytes} bytes; S3 takes {min} to {max} bytes a part")]
    PartSize {
        /// The size given.
        bytes: u64,
        /// 5 MiB.
        min: u64,
        /// 5 GiB.
        max: u64,
    },
    /// An object of `file_bytes` would need more parts of `part_bytes`
    /// than one multipart upload has (10,000).
    #[cfg(feature = "s3")]
    #[error(
        "objects of {file_bytes} bytes in parts of {part_bytes} bytes need more than {limit} parts; raise the part size"
    )]
    PartsPerObject {
        /// The roll size of an object.
        file_bytes: u64,
        /// The part size.
        part_bytes: u64,
        /// 10,000 parts.
        limit: u64,
    },
    /// An object roll size of 0.
    #[cfg(feature = "s3")]
    #[error("objects rolled at 0 bytes; give 1 or more")]
    ZeroFileBytes,
}

/// Why an S3 object of an export cannot be used, in
/// [`JobError::ExportObject`] (feature `s3`).
#[cfg(feature = "s3")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportObjectReason {
    /// There is no object at the key (`NoSuchKey`): a missing
    /// `manifest-summary.json`, or a data file its manifest lists. Found
    /// before anything is written when it is the manifest.
    #[error("there is no such object (NoSuchKey)")]
    Missing,
    /// An object is already under the export's `<prefix>/entity=` (readers
    /// of the Hive layout would mix it with the new files), or at
    /// `<prefix>/_SUCCESS` (it would mark the new files complete while they
    /// are written). Found before anything is written; delete it or choose
    /// another prefix.
    #[error(
        "an object is already there, under the export's prefix: delete the earlier export or choose another prefix"
    )]
    AlreadyExists,
    /// `manifest-summary.json` or a line of `manifest-files.json` is not
    /// what DynamoDB writes there.
    #[error(
        "it is not a DynamoDB export manifest{}: {detail}",
        .line.map(|line| format!(" (line {line})")).unwrap_or_default()
    )]
    NotManifest {
        /// The line of `manifest-files.json`, or `None` for the summary.
        line: Option<u64>,
        /// The JSON decoder's message, for people.
        detail: String,
    },
    /// The export is not a full export in the `DYNAMODB_JSON` format (an
    /// `ION` export, or an incremental export), which is all Stamp reads.
    #[error(
        "the export is `{output_format}` `{export_type}`; Stamp reads DYNAMODB_JSON FULL_EXPORT"
    )]
    Unsupported {
        /// The summary's `outputFormat`.
        output_format: String,
        /// The summary's `exportType`.
        export_type: String,
    },
    /// A line of a data file is not a `DYNAMODB_JSON` item
    /// (`{"Item": {…}}`). The objects the export completed before stay; its
    /// uploads under way are aborted.
    #[error("line {line} is not a DYNAMODB_JSON item (`{{\"Item\": {{…}}}}`): {detail}")]
    NotDynamoDbJson {
        /// The line's number in the (decompressed) file, from 1.
        line: u64,
        /// The JSON decoder's message, for people.
        detail: String,
    },
    /// A data file holds another number of items than its manifest says
    /// (`itemCount` in `manifest-files.json`).
    #[error("the manifest says {expected} items and the file holds {found}")]
    ItemCount {
        /// The manifest's `itemCount`.
        expected: u64,
        /// The items read.
        found: u64,
    },
    /// Its body cannot be read: the connection broke, or a gzipped file is
    /// not gzip.
    #[error("its body cannot be read: {detail}")]
    Read {
        /// The I/O or decoder's message, for people.
        detail: String,
    },
    /// An entity file cannot be encoded (JSON, Arrow or Parquet).
    #[error("it cannot be encoded: {detail}")]
    Encode {
        /// The encoder's message, for people.
        detail: String,
    },
    /// S3 refused or failed a request.
    #[error(
        "{operation} failed{}: {message}",
        .code.as_ref().map(|code| format!(" ({code})")).unwrap_or_default()
    )]
    Request {
        /// The S3 operation, such as `UploadPart`.
        operation: &'static str,
        /// The S3 error code, such as `NoSuchBucket`; `None` when no
        /// answer came (a timeout, a connection error).
        code: Option<String>,
        /// The service's message, or the SDK error's chain.
        message: String,
    },
}

/// Why a migration checkpoint cannot be used, in
/// [`JobError::MigrationCheckpoint`]. `detail` is the I/O or JSON error's
/// message, for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MigrationCheckpointReason {
    /// The file cannot be read.
    #[error("cannot read it: {detail}")]
    Read {
        /// The I/O error's message.
        detail: String,
    },
    /// The file is not JSON of a checkpoint.
    #[error("it is not valid JSON: {detail}")]
    NotJson {
        /// The JSON decoder's message.
        detail: String,
    },
    /// It was written by another version of the checkpoint format.
    #[error("it has format {found}, this version reads {expected}")]
    Format {
        /// The format in the file.
        found: u32,
        /// The format this version reads.
        expected: u32,
    },
    /// It belongs to the migration of another entity or table.
    #[error("it belongs to the migration of entity `{entity}` on table `{table}`")]
    OtherMigration {
        /// The entity in the file.
        entity: String,
        /// The table in the file.
        table: String,
    },
    /// It was written by a scan in another number of segments.
    #[error(
        "it was written by a scan in {found} segments, and this one has {segments}; resume with the same count"
    )]
    Segments {
        /// The segment count in the file.
        found: u32,
        /// The migration's segment count.
        segments: u32,
    },
    /// It cannot be serialized.
    #[error("cannot serialize it: {detail}")]
    Serialize {
        /// The JSON encoder's message.
        detail: String,
    },
    /// The file cannot be written.
    #[error("cannot write it: {detail}")]
    Write {
        /// The I/O error's message.
        detail: String,
    },
}
