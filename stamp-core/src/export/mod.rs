//! Per-entity export: the single table back into one file per entity type,
//! as SQL tools want it ([`Export::new`], sent to a table).
//!
//! A parallel `Scan` (`Segment` / `TotalSegments`, [`Export::segments`]
//! segments read [`Export::concurrency`] at a time) reads every item (or
//! [`Export::run_from_files`] reads the `DYNAMODB_JSON` files of an
//! `ExportTableToPointInTime`, without a request); each
//! is routed by its type attribute (`Type`) to the file of the entity that
//! names it, decoded by that entity's `from_item`, and written in the
//! entity's own serde form, so columns are the struct's fields (key
//! attributes such as `PK`, `SK` and `GSI1PK` are left out: their values
//! are in the fields). Items whose type names no registered entity, or that
//! have no type attribute, go to `_unknown.ndjson` as they are stored
//! (plain JSON of the attribute values, numbers with their exact digits;
//! `_unknown.json.gz`, typed, in the [`ExportFormat::DynamoDbJson`]
//! format), so nothing is dropped: unique values' guard items among them
//! (type `UniqueValue`; an import restores them, `UniqueBackfill` rebuilds them).
//!
//! | format | file | columns |
//! |---|---|---|
//! | [`ExportFormat::Ndjson`] | `<Type>.ndjson` | one JSON object per line, the struct's serde form |
//! | `ExportFormat::Parquet` (feature `parquet`) | `<Type>.parquet` | typed from the entity's fields (`serde_arrow` tracing of the type: integers, booleans, strings; `Option` nullable; unit enums as dictionary-encoded strings); for an entity with no items whose type needs samples, one nullable string column per field; uncompressed |
//! | [`ExportFormat::DynamoDbJson`] | `<Type>.json.gz` | none: the items as stored (keys and type attribute included), `{"Item": {…}}` a line in DynamoDB's typed JSON, gzipped; what `ImportTable` reads (see [seeding and restoring by import](#seeding-and-restoring-by-import)) |
//!
//! A parallel scan is not a snapshot: items written while it runs may or
//! may not be in the files. Each page costs read capacity as a scan does
//! (eventually consistent, 0.5 read units per 4 KB).
//!
//! **S3** (feature `s3`): `Export::run_from_s3_export` reads the export
//! `ExportTableToPointInTime` wrote to S3 (its manifests, then each gzipped
//! data file streamed as it arrives), and `Export::to_s3` writes the
//! entity files to S3 in a Hive-style layout that Athena, Spark and DuckDB
//! read as one table per entity:
//!
//! ```text
//! <prefix>/entity=Order/part-00000.parquet
//! <prefix>/entity=Order/part-00001.parquet     (after 128 MiB, `file_bytes`)
//! <prefix>/entity=Customer/part-00000.parquet
//! <prefix>/entity=_unknown/part-00000.ndjson
//! ```
//!
//! Each object is uploaded while the export runs, in multipart uploads of
//! 8 MiB parts (`part_bytes`), so an entity keeps about one part and one
//! row group in memory whatever the table's size.
//!
//! # A run that does not finish
//!
//! An export has no checkpoint and does not resume: a run that fails or is
//! killed (an error, its task dropped, the process killed) is run again
//! from the start, and the complete output is the rerun's. What a run that
//! did not finish leaves is never taken for a complete export:
//!
//! - **The marker.** A complete export is one whose output holds
//!   [`SUCCESS_MARKER`] (`_SUCCESS`, empty), written after every file or
//!   object is complete. A reader (or the next job of a pipeline) waits
//!   for it, as for Spark's and Hadoop's.
//! - **A directory.** A run first deletes the directory's `_SUCCESS`, so an
//!   earlier export there stops counting as complete as soon as a new one
//!   starts, then every file of an earlier export there that it does not
//!   write itself (an entity it no longer exports, the other format's
//!   files after a change of [`ExportFormat`], `.partial` files of a killed
//!   run): the directory's [`MANIFEST`] (`_MANIFEST`) names the files
//!   exports there write, and a rerun deletes those and only those, so a
//!   user's own files in the directory stay (a directory written before
//!   manifests has none: delete its old files by hand once). Rather than
//!   refuse a used directory, as the S3 output refuses a used prefix, a
//!   rerun replaces the earlier export: rerunning into the same directory
//!   is how a failed or killed run is finished. Each file is written as
//!   `<Type>.<extension>.partial`
//!   ([`PARTIAL_SUFFIX`]) and renamed to `<Type>.<extension>` once the scan
//!   is over and the file is flushed and closed, so a file under its final
//!   name is always whole; a run without items of unknown type deletes an
//!   earlier run's `_unknown.ndjson`; then `_SUCCESS` is written. A killed
//!   run leaves its `.partial` files (the next run into the directory
//!   overwrites them) and no `_SUCCESS`; a run killed while it renames may
//!   leave some files of this run and some of an earlier one under final
//!   names, and no `_SUCCESS`. Rerun into the same directory, or another.
//!   The files are not synced to disk: the guarantee is a killed process's,
//!   not a machine's that loses power.
//! - **S3.** The objects are written under their final keys as they are
//!   completed (an entity's rolled parts while the scan runs, the rest at
//!   its end), so a killed run can leave some of them and multipart
//!   uploads never completed (an S3 lifecycle rule
//!   `AbortIncompleteMultipartUpload` removes those), but never
//!   `<prefix>/_SUCCESS`, which is put last. An export refuses a prefix
//!   that already holds objects: rerun into a fresh prefix (or delete the
//!   killed run's objects first).
//!
//! Whatever the point of the kill, the rerun's output holds every item
//! exactly once (`tests/it/export/kill_resume.rs`: 100 seeds, killed at
//! each of its requests, to a directory and to S3).
//!
//! # Seeding and restoring by import
//!
//! [`ExportFormat::DynamoDbJson`] writes the files DynamoDB's import from
//! S3 (`ImportTable`) reads: `InputFormat` `DYNAMODB_JSON`,
//! `InputCompressionType` `GZIP`, every item whole, as stored. Items of
//! unknown type go to `_unknown.json.gz` in the same format (not NDJSON),
//! so the files of a table hold every item of it. Written to S3
//! ([`Export::to_s3`]), the import of the whole table reads the key prefix
//! `<prefix>/entity=` (every entity's objects, and not `<prefix>/_SUCCESS`),
//! the import of one entity `<prefix>/entity=<Type>/`:
//! [`ImportSource::of_export`](crate::ImportSource::of_export) and
//! [`ImportSource::of_entity`](crate::ImportSource::of_entity) name
//! them, and [`Table::start_import`](crate::Table::start_import) starts the
//! import into a new table created from the definition. Each object is one
//! gzip stream; the import reads up to 50,000 objects a job (keep
//! `file_bytes` large enough). The same files are read back as an export's
//! source ([`Export::run_from_files`]), so export → import files → export
//! gives the same per-entity files (`tests/it/export/import.rs`).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Format.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Validation.html>.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>.

mod directory;
mod dynamodb_json;
mod files;
mod ndjson;
mod out;
mod outcome;
#[cfg(feature = "parquet")]
mod parquet;
mod router;
mod run;
#[cfg(feature = "s3")]
mod s3;

#[cfg(feature = "s3")]
pub use s3::{DEFAULT_FILE_BYTES, DEFAULT_PART_BYTES, MAX_PART_BYTES, MAX_PARTS, MIN_PART_BYTES};

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use futures::{Stream, StreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use self::directory::MANIFEST;
use self::out::Out;
pub use self::outcome::{ExportCheck, ExportOutcome, ExportProgress, ExportedFile, ExportedObject};
use self::router::{EXPORT_FILE_PAGE, Router, make_sink, scan};
use crate::error::Error;
use crate::error::JobError;
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::request::table::Table;
#[doc(no_inline)]
pub use crate::unit::{ParseScanSegmentError, ScanSegment};

/// The file name (without extension) of the items of unknown type.
pub const UNKNOWN_FILE_STEM: &str = "_unknown";
/// The empty file (an export to a directory) or object (an export to S3,
/// `<prefix>/_SUCCESS`) an export writes after every other, once all of
/// them are complete: an output without it is not a complete export (see
/// [the module docs](self#a-run-that-does-not-finish)). Readers of a Hive
/// layout (Athena, Spark, DuckDB's `entity=*/*` globs) skip names that
/// start with `_`, as Spark's and Hadoop's own `_SUCCESS` marker.
pub const SUCCESS_MARKER: &str = "_SUCCESS";
/// The suffix of a file of an export to a directory while it is written:
/// `Order.ndjson.partial`, renamed to `Order.ndjson` once complete.
pub const PARTIAL_SUFFIX: &str = ".partial";
/// DynamoDB's largest `TotalSegments` for a parallel scan.
pub const MAX_SEGMENTS: u32 = 1_000_000;
/// How many segments an export reads at once unless
/// [`Export::concurrency`] says otherwise: the `Scan` requests in flight.
pub const DEFAULT_CONCURRENCY: u32 = 4;

/// The file format of the entity files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// Newline-delimited JSON, `<Type>.ndjson`.
    Ndjson,
    /// Apache Parquet, `<Type>.parquet`, with typed columns (feature
    /// `parquet`).
    #[cfg(feature = "parquet")]
    Parquet,
    /// The items as stored (every attribute, keys included), not decoded:
    /// `<Type>.json.gz`, one `{"Item": {…}}` a line in DynamoDB's typed
    /// JSON, gzipped; the files `ImportTable` reads (`DYNAMODB_JSON`,
    /// `GZIP`). Items of unknown type go to `_unknown.json.gz`, in this
    /// format too. See [seeding and restoring by import](self#seeding-and-restoring-by-import).
    DynamoDbJson,
}

impl ExportFormat {
    /// The file extension, such as `parquet` (`json.gz` for
    /// [`DynamoDbJson`](Self::DynamoDbJson)).
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Ndjson => "ndjson",
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => "parquet",
            ExportFormat::DynamoDbJson => "json.gz",
        }
    }

    /// The extension of the file of unknown types: `ndjson` (they have no
    /// columns to type), but `json.gz` for
    /// [`DynamoDbJson`](Self::DynamoDbJson), whose files hold every item
    /// of the table.
    pub fn unknown_extension(self) -> &'static str {
        match self {
            ExportFormat::DynamoDbJson => "json.gz",
            _ => "ndjson",
        }
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// Where one entity's (or the unknown types') items go.
trait Sink: Send {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error>;
    /// Flushes and closes the file (ends the last object); the number of
    /// items written, and the output, for its last bytes.
    fn finish(self: Box<Self>) -> Result<(u64, Out), Error>;
    /// The output, for the bytes ready to send.
    #[cfg_attr(not(feature = "s3"), allow(dead_code))]
    fn out(&mut self) -> &mut Out;
}

type MakeSink = fn(Out, ExportFormat) -> Result<Box<dyn Sink>, Error>;

/// Where an export writes.
#[derive(Debug, Clone)]
enum Output {
    /// `<Type>.<extension>` files in a local directory.
    Directory(PathBuf),
    /// Hive-style objects in S3.
    #[cfg(feature = "s3")]
    S3(s3::Target),
}

impl Output {
    /// Makes the directory, deletes its `_SUCCESS` (an earlier export
    /// there is not complete any more), then every file of an earlier
    /// export that this run, writing the files `own`, does not overwrite
    /// (as its [`MANIFEST`] names them); or checks that nothing is under
    /// the S3 prefix. A method of the output, not of the [`Export`], so
    /// that a run's future holds no `&Export` (whose progress callback is
    /// not `Sync`) across an `.await`: the runs' futures are `Send`.
    async fn prepare(&self, own: &std::collections::BTreeSet<String>) -> Result<(), Error> {
        match self {
            Output::Directory(directory) => {
                std::fs::create_dir_all(directory)
                    .map_err(|error| file_error(directory, &error))?;
                remove_if_there(&directory.join(SUCCESS_MARKER))?;
                directory::replace_earlier(directory, own)
            }
            #[cfg(feature = "s3")]
            Output::S3(target) => target.check_empty().await,
        }
    }

    /// After every file or object is complete: deletes an earlier run's
    /// `_unknown.ndjson` when this one had no item of unknown type, then
    /// writes [`SUCCESS_MARKER`].
    async fn mark_complete(&self, unknown: u64, format: ExportFormat) -> Result<(), Error> {
        match self {
            Output::Directory(directory) => {
                if unknown == 0 {
                    let extension = format.unknown_extension();
                    remove_if_there(&directory.join(format!("{UNKNOWN_FILE_STEM}.{extension}")))?;
                }
                let marker = directory.join(SUCCESS_MARKER);
                std::fs::write(&marker, b"").map_err(|error| file_error(&marker, &error))
            }
            #[cfg(feature = "s3")]
            Output::S3(target) => target.mark_complete().await,
        }
    }
}

/// The callback of [`Export::progress`].
type Progress = Box<dyn FnMut(&ExportProgress) + Send>;

/// An export of a table, one file per entity: made by [`Export::new`],
/// configured, then run on a table by [`run`](Self::run) (a parallel
/// scan), or on the files of a point-in-time export by
/// [`run_from_files`](Self::run_from_files). A plain value until then.
/// Each run's future is `Send`, so a run can go in a task of its own
/// (`tokio::spawn`).
pub struct Export {
    output: Output,
    /// An option of the export to S3 given to an export to a directory.
    #[cfg(feature = "s3")]
    not_s3: Option<&'static str>,
    format: ExportFormat,
    segments: u32,
    concurrency: u32,
    entities: Vec<(&'static EntitySchema, MakeSink)>,
    progress: Option<Progress>,
}

impl fmt::Debug for Export {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Export")
            .field("output", &self.output)
            .field("format", &self.format)
            .field("segments", &self.segments)
            .field("concurrency", &self.concurrency)
            .field(
                "entities",
                &self
                    .entities
                    .iter()
                    .map(|(s, _)| s.type_name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Export {
    /// An export into `directory` (created if missing): one file per
    /// entity registered with [`entity`](Self::entity), NDJSON unless
    /// [`format`](Self::format) says otherwise, from a parallel scan of 4
    /// segments read [`DEFAULT_CONCURRENCY`] at a time. Sends nothing until
    /// [`run`](Self::run).
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table) -> Result<(), stamp_core::Error> {
    /// let outcome = stamp_core::export::Export::new("exports/shop")
    ///     .segments(8)
    ///     // .entity::<Order>() for each entity of the table
    ///     .run(&table)
    ///     .await?;
    /// println!("{} items read", outcome.scanned);
    /// # Ok(()) }
    /// ```
    pub fn new(directory: impl Into<PathBuf>) -> Self {
        Export::with_output(Output::Directory(directory.into()))
    }

    fn with_output(output: Output) -> Self {
        Export {
            output,
            #[cfg(feature = "s3")]
            not_s3: None,
            format: ExportFormat::Ndjson,
            segments: 4,
            concurrency: DEFAULT_CONCURRENCY,
            entities: Vec::new(),
            progress: None,
        }
    }

    /// An export to S3 (feature `s3`): the entity files are written to
    /// `bucket` in a Hive-style layout, `<prefix>/entity=<Type>/part-00000.<extension>`
    /// (the next part `part-00001` once an object reaches
    /// [`file_bytes`](Self::file_bytes), 128 MiB by default), items of
    /// unknown type under `<prefix>/entity=_unknown/` as NDJSON. A trailing
    /// `/` of `prefix` is dropped; an empty prefix writes at the bucket's
    /// root. Each object is uploaded while the export runs (a multipart
    /// upload in parts of [`part_bytes`](Self::part_bytes), or one
    /// `PutObject` when it fits in one part), so memory holds about one
    /// part and one row group per entity. Sends nothing until a `run`.
    ///
    /// Before writing, the export lists `<prefix>/entity=` and
    /// `<prefix>/_SUCCESS` and refuses to run if an object is there
    /// ([`ExportObjectReason::AlreadyExists`](crate::ExportObjectReason::AlreadyExists)):
    /// a reader of the layout would mix an earlier export's parts with the
    /// new ones, or take them for complete while they are written. Once
    /// every object is complete, it puts the empty `<prefix>/_SUCCESS`
    /// ([`SUCCESS_MARKER`]): objects under a prefix without it are a run
    /// that did not finish, to run again into a fresh prefix (see
    /// [a run that does not finish](self#a-run-that-does-not-finish)).
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table, s3: aws_sdk_s3::Client) -> Result<(), stamp_core::Error> {
    /// use stamp_core::export::{Export, ExportFormat};
    ///
    /// let outcome = Export::to_s3(s3, "analytics", "shop/2026-06-01")
    ///     .format(ExportFormat::Parquet)
    ///     // .entity::<Order>() for each entity of the table
    ///     .run(&table)
    ///     .await?;
    /// for object in &outcome.objects {
    ///     println!("s3://{}/{}: {} items", object.bucket, object.key, object.items);
    /// }
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "s3")]
    pub fn to_s3(
        client: aws_sdk_s3::Client,
        bucket: impl Into<String>,
        prefix: impl AsRef<str>,
    ) -> Self {
        Export::with_output(Output::S3(s3::Target::new(
            client,
            bucket.into(),
            prefix.as_ref(),
        )))
    }

    /// The part size of the multipart uploads of an export to S3
    /// ([`to_s3`](Self::to_s3)): [`MIN_PART_BYTES`] (5 MiB) to
    /// [`MAX_PART_BYTES`] (5 GiB), [`DEFAULT_PART_BYTES`] (8 MiB) unless
    /// set. An entity keeps about this much in memory, plus a row group.
    #[cfg(feature = "s3")]
    pub fn part_bytes(mut self, bytes: u64) -> Self {
        match &mut self.output {
            Output::S3(target) => target.part_bytes = bytes,
            Output::Directory(_) => self.not_s3 = Some("part_bytes"),
        }
        self
    }

    /// The size at which an export to S3 ([`to_s3`](Self::to_s3)) ends an
    /// entity's object and starts its next part (`part-00001`, …), at the
    /// next line (NDJSON; `DynamoDbJson`, whose lines are counted before
    /// compression) or row group (Parquet, 8 MiB) boundary:
    /// [`DEFAULT_FILE_BYTES`] (128 MiB) unless set. Smaller objects let
    /// readers split the work; any size keeps the same memory.
    #[cfg(feature = "s3")]
    pub fn file_bytes(mut self, bytes: u64) -> Self {
        match &mut self.output {
            Output::S3(target) => target.file_bytes = bytes,
            Output::Directory(_) => self.not_s3 = Some("file_bytes"),
        }
        self
    }

    /// Writes the items of entity `E` (those whose type attribute is
    /// `E`'s type name) to `<Type>.<extension>`, decoded by `E::from_item`
    /// and written in `E`'s serde form (in the
    /// [`DynamoDbJson`](ExportFormat::DynamoDbJson) format, written as
    /// stored, not decoded). Registering `E` again changes nothing.
    pub fn entity<E>(mut self) -> Self
    where
        E: Entity + Serialize + DeserializeOwned + Send + 'static,
    {
        if !self
            .entities
            .iter()
            .any(|(schema, _)| schema.type_name == E::SCHEMA.type_name)
        {
            self.entities.push((E::SCHEMA, make_sink::<E>));
        }
        self
    }

    /// The file format of the entity files (the unknown types are NDJSON,
    /// having no columns to type, but for
    /// [`ExportFormat::DynamoDbJson`]).
    pub fn format(mut self, format: ExportFormat) -> Self {
        self.format = format;
        self
    }

    /// How many segments the parallel scan has (1 to [`MAX_SEGMENTS`]),
    /// read [`concurrency`](Self::concurrency) at a time.
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = segments;
        self
    }

    /// How many segments are read at once (at least 1; default
    /// [`DEFAULT_CONCURRENCY`], 4): at most this many `Scan` requests are in
    /// flight, each segment read page after page, the next segment started
    /// when one is done. Each `Scan` page costs up to 1 MB of reads, so the
    /// read capacity an export takes per second grows with it.
    pub fn concurrency(mut self, segments_at_once: u32) -> Self {
        self.concurrency = segments_at_once;
        self
    }

    /// Calls `progress` after each scan page.
    pub fn progress(mut self, progress: impl FnMut(&ExportProgress) + Send + 'static) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }
}

/// Deletes the file at `path`, if there is one.
fn remove_if_there(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(file_error(path, &error)),
        _ => Ok(()),
    }
}

/// An I/O error on `path`.
pub(crate) fn file_error(path: &Path, error: &dyn std::error::Error) -> Error {
    Error::Job(JobError::ExportFile {
        path: path.to_path_buf(),
        detail: error.to_string(),
    })
}
