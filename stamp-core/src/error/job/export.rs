//! The reasons of the jobs that move a table's data in files: [`ImportReason`],
//! [`ExportReason`], [`ExportObjectReason`] (feature `s3`).

/// Why an import cannot be asked as configured, in
/// [`JobError::InvalidImport`](super::JobError::InvalidImport).
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

/// Why an export cannot run as configured, in [`JobError::InvalidExport`](super::JobError::InvalidExport).
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
/// [`JobError::ExportObject`](super::JobError::ExportObject) (feature `s3`).
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
