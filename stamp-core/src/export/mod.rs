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
//! (plain JSON of the attribute values, numbers with their exact digits),
//! so nothing is dropped.
//!
//! | format | file | columns |
//! |---|---|---|
//! | [`ExportFormat::Ndjson`] | `<Type>.ndjson` | one JSON object per line, the struct's serde form |
//! | `ExportFormat::Parquet` (feature `parquet`) | `<Type>.parquet` | typed from the entity's fields (`serde_arrow` tracing of the type: integers, booleans, strings; `Option` nullable; unit enums as dictionary-encoded strings); for an entity with no items whose type needs samples, one nullable string column per field; uncompressed |
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
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>.

mod directory;
mod files;
mod ndjson;
mod out;
#[cfg(feature = "parquet")]
mod parquet;
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
use crate::JobError;
use crate::{AttributeMap, Entity, EntitySchema, Error, Table};

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
}

impl ExportFormat {
    /// The file extension, such as `parquet`.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Ndjson => "ndjson",
            #[cfg(feature = "parquet")]
            ExportFormat::Parquet => "parquet",
        }
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// How far an export is, passed to [`Export::progress`] after each page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportProgress {
    /// Items read so far, over all segments.
    pub scanned: u64,
    /// Scan pages read so far.
    pub pages: u64,
}

/// One file an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedFile {
    /// The entity type name, or `None` for the file of unknown types.
    pub entity: Option<&'static str>,
    /// Where it is.
    pub path: PathBuf,
    /// How many items it holds.
    pub items: u64,
}

/// One S3 object an export to S3 wrote (feature `s3`):
/// `<prefix>/entity=<Type>/part-NNNNN.<extension>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedObject {
    /// The entity type name, or `None` for the objects of unknown types.
    pub entity: Option<&'static str>,
    /// Its bucket.
    pub bucket: String,
    /// Its key.
    pub key: String,
    /// How many items it holds.
    pub items: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What an export did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOutcome {
    /// For an export to a directory: one file per registered entity (in
    /// registration order, written even when empty), then the file of
    /// unknown types when there was any.
    pub files: Vec<ExportedFile>,
    /// For an export to S3 (`Export::to_s3`, feature `s3`): every object
    /// written, in the same order, each entity's parts in order (at least
    /// one per entity, written even when empty).
    pub objects: Vec<ExportedObject>,
    /// Items read from the table (or the export files).
    pub scanned: u64,
    /// The S3 requests the export sent (feature `s3`; 0 for an export from
    /// a table to a directory): `ListObjectsV2`, `GetObject`, `PutObject`
    /// and the multipart uploads' requests, each counted once however many
    /// times the SDK retried it.
    pub s3_requests: u64,
}

impl ExportOutcome {
    /// How many items went to the file(s) of entity `type_name` (0 when
    /// none).
    pub fn items(&self, type_name: &str) -> u64 {
        self.count(Some(type_name))
    }

    /// How many items had a type no registered entity names.
    pub fn unknown(&self) -> u64 {
        self.count(None)
    }

    fn count(&self, entity: Option<&str>) -> u64 {
        let files = self.files.iter().filter(|file| file.entity == entity);
        let objects = self.objects.iter().filter(|object| object.entity == entity);
        files.map(|file| file.items).sum::<u64>() + objects.map(|object| object.items).sum::<u64>()
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
    async fn mark_complete(&self, unknown: u64) -> Result<(), Error> {
        match self {
            Output::Directory(directory) => {
                if unknown == 0 {
                    remove_if_there(&directory.join(format!("{UNKNOWN_FILE_STEM}.ndjson")))?;
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
    /// next line (NDJSON) or row group (Parquet, 8 MiB) boundary:
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
    /// and written in `E`'s serde form. Registering `E` again changes
    /// nothing.
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

    /// The file format of the entity files (the unknown types are always
    /// NDJSON, having no columns to type).
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

    /// Runs the export on `table`: scans every segment, writes the files,
    /// then [`SUCCESS_MARKER`], and returns what it wrote.
    ///
    /// # Errors
    ///
    /// Before any request, [`JobError::InvalidExport`] for no entity, two
    /// entities with different type attributes, an entity whose type name
    /// is not a plain file name or is [`UNKNOWN_FILE_STEM`], a segment
    /// count of 0 or above [`MAX_SEGMENTS`], a concurrency of 0, or (feature
    /// `s3`) an S3 option out of bounds or given to an export to a
    /// directory; [`JobError::ExportFile`] when the directory or a file
    /// cannot be written (`JobError::ExportObject` for an object of an
    /// export to S3, also when one is already under its prefix); then
    /// [`Error::DynamoDb`] for the scan, and the errors of an entity's
    /// `from_item` for an item that names the entity but cannot be read as
    /// it. On an error the files written so far stay, incomplete, under
    /// their `.partial` names, and no `_SUCCESS` is written; an export to
    /// S3 keeps the objects it completed (the parts an entity rolled over),
    /// writes no `_SUCCESS` and aborts its multipart uploads under way (see
    /// [a run that does not finish](self#a-run-that-does-not-finish): it
    /// is run again).
    pub async fn run(mut self, table: &Table) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            let mut pages = scan(table, self.segments, self.concurrency);
            while let Some(page) = pages.next().await {
                router.page(page?, &mut self.progress)?;
                router.upload().await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.end(read).await
    }

    /// Runs the export on the data files of an `ExportTableToPointInTime`
    /// in the `DYNAMODB_JSON` format (gzipped `*.json.gz` as DynamoDB writes
    /// them, or uncompressed), read in the order given, instead of a scan:
    /// no request is sent, and [`segments`](Self::segments) is not used. A
    /// page is 1,000 lines of a file.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run) before any request, and [`JobError::ExportFile`]
    /// when an export file cannot be read (missing: before anything is
    /// written) or a line is not `DYNAMODB_JSON` (with its number).
    pub async fn run_from_files(
        mut self,
        files: impl IntoIterator<Item = impl Into<PathBuf>>,
    ) -> Result<ExportOutcome, Error> {
        let files: Vec<PathBuf> = files.into_iter().map(Into::into).collect();
        let type_attribute = self.check()?;
        files::check(&files)?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            for path in files {
                let mut file = files::LocalFile::open(&path, EXPORT_FILE_PAGE)?;
                while file.step(&mut |items| router.page(items, &mut self.progress))? {
                    router.upload().await?;
                }
                router.upload().await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.end(read).await
    }

    /// Runs the export on a DynamoDB export to S3 (feature `s3`), read
    /// straight from S3 with `client`: `export` is the key of its
    /// `manifest-summary.json` in `bucket`, or the folder that holds it
    /// (`<prefix>/AWSDynamoDB/<export id>`, with or without a trailing
    /// `/`). The export reads the summary and `manifest-files.json`, then
    /// each data file (`dataFileS3Key`, gzipped `DYNAMODB_JSON`) in the
    /// manifest's order, its body decoded line by line as it arrives (no
    /// file is held in memory), in pages of 1,000 lines, and checks each
    /// file's item count against the manifest's `itemCount`. No DynamoDB
    /// request is sent, and [`segments`](Self::segments) is not used. The
    /// output is a directory ([`new`](Self::new)) or S3
    /// ([`to_s3`](Self::to_s3), another client or bucket if need be).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(s3: aws_sdk_s3::Client) -> Result<(), stamp_core::Error> {
    /// use stamp_core::export::{Export, ExportFormat};
    ///
    /// let outcome = Export::to_s3(s3.clone(), "analytics", "shop/by-entity")
    ///     .format(ExportFormat::Parquet)
    ///     // .entity::<Order>() for each entity of the table
    ///     .run_from_s3_export(&s3, "exports", "shop/AWSDynamoDB/01234567890123-abcdefgh")
    ///     .await?;
    /// println!("{} items read", outcome.scanned);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run) before any request; then
    /// `JobError::ExportObject` with the object's key: the manifest missing
    /// (`ExportObjectReason::Missing`, before anything is written) or not a
    /// manifest (`NotManifest`), an `ION` or incremental export
    /// (`Unsupported`), a data file missing (`Missing`), a line that is not
    /// `DYNAMODB_JSON` (`NotDynamoDbJson`, with its number), a file whose
    /// item count differs from its manifest's (`ItemCount`), a body that
    /// cannot be read or inflated (`Read`), or a request S3 refused
    /// (`Request`). What was written before such an error stays as
    /// [`run`](Self::run) says.
    #[cfg(feature = "s3")]
    pub async fn run_from_s3_export(
        mut self,
        client: &aws_sdk_s3::Client,
        bucket: &str,
        export: &str,
    ) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        let source = crate::request::dispatch::s3::S3::new(client.clone());
        let files = s3::data_files(&source, bucket, export).await?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            for file in &files {
                s3::read_data_file(
                    &source,
                    bucket,
                    file,
                    EXPORT_FILE_PAGE,
                    &mut router,
                    &mut self.progress,
                )
                .await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.done.s3_requests = source.requests();
        router.end(read).await
    }

    /// The names of the files a run into a directory may write: each
    /// entity's `<Type>.<extension>`, and `_unknown.ndjson`.
    fn file_names(&self) -> std::collections::BTreeSet<String> {
        let extension = self.format.extension();
        self.entities
            .iter()
            .map(|(schema, _)| format!("{}.{extension}", schema.type_name))
            .chain([format!("{UNKNOWN_FILE_STEM}.ndjson")])
            .collect()
    }

    /// The checks made before any request; the type attribute.
    fn check(&self) -> Result<&'static str, Error> {
        let invalid =
            |reason: crate::error::ExportReason| Error::Job(JobError::InvalidExport { reason });
        let Some((first, _)) = self.entities.first() else {
            return Err(invalid(crate::error::ExportReason::NoEntity));
        };
        if self.segments == 0 || self.segments > MAX_SEGMENTS {
            return Err(invalid(crate::error::ExportReason::Segments {
                segments: self.segments,
                limit: MAX_SEGMENTS,
            }));
        }
        if self.concurrency == 0 {
            return Err(invalid(crate::error::ExportReason::ZeroConcurrency));
        }
        #[cfg(feature = "s3")]
        if let Some(option) = self.not_s3 {
            return Err(invalid(crate::error::ExportReason::NotS3 { option }));
        }
        #[cfg(feature = "s3")]
        if let Output::S3(target) = &self.output {
            target.check().map_err(invalid)?;
        }
        for (schema, _) in &self.entities {
            if schema.type_attribute != first.type_attribute {
                return Err(invalid(crate::error::ExportReason::TypeAttributes {
                    first_entity: first.type_name,
                    first_attribute: first.type_attribute,
                    second_entity: schema.type_name,
                    second_attribute: schema.type_attribute,
                }));
            }
            let name = schema.type_name;
            let plain = !name.is_empty()
                && name != "."
                && name != ".."
                && !name.contains(['/', '\\', '\0']);
            if !plain || name == UNKNOWN_FILE_STEM {
                return Err(invalid(crate::error::ExportReason::FileName {
                    type_name: name,
                }));
            }
        }
        Ok(first.type_attribute)
    }
}

/// How many lines of an export file make a page.
const EXPORT_FILE_PAGE: usize = 1_000;

/// One entity's (or the unknown types') output.
struct Entry {
    entity: Option<&'static str>,
    /// The file, for an export to a directory: its final name, and the
    /// `.partial` one it is written under until complete.
    path: Option<(PathBuf, PathBuf)>,
    sink: Box<dyn Sink>,
    /// The uploads, for an export to S3.
    #[cfg(feature = "s3")]
    uploads: Option<s3::Uploads>,
}

impl Entry {
    /// The output of `stem` (a type name, or the unknown types'), a file or
    /// objects, with its sink.
    fn open(
        output: &Output,
        entity: Option<&'static str>,
        extension: &'static str,
        make: impl FnOnce(Out) -> Result<Box<dyn Sink>, Error>,
    ) -> Result<Entry, Error> {
        let stem = entity.unwrap_or(UNKNOWN_FILE_STEM);
        match output {
            Output::Directory(directory) => {
                let path = directory.join(format!("{stem}.{extension}"));
                let partial = directory.join(format!("{stem}.{extension}{PARTIAL_SUFFIX}"));
                Ok(Entry {
                    entity,
                    sink: make(Out::create_file(&partial)?)?,
                    path: Some((path, partial)),
                    #[cfg(feature = "s3")]
                    uploads: None,
                })
            }
            #[cfg(feature = "s3")]
            Output::S3(target) => Ok(Entry {
                entity,
                path: None,
                sink: make(Out::Objects(target.staging(stem, extension)))?,
                uploads: Some(target.uploads(entity)),
            }),
        }
    }

    /// Sends the bytes that are ready (an export to S3).
    async fn upload(&mut self, part_bytes: usize) -> Result<(), Error> {
        #[cfg(feature = "s3")]
        if let (Some(uploads), Out::Objects(staging)) = (&mut self.uploads, self.sink.out()) {
            uploads.upload(staging.take(part_bytes)).await?;
        }
        let _ = part_bytes;
        Ok(())
    }
}

/// The files being written, and where each item goes.
struct Router {
    type_attribute: &'static str,
    output: Output,
    entries: Vec<Entry>,
    by_type: HashMap<&'static str, usize>,
    unknown: Option<Entry>,
    progress: ExportProgress,
    /// The outcome so far.
    done: ExportOutcome,
}

impl Router {
    fn new(export: &Export, type_attribute: &'static str) -> Result<Self, Error> {
        let mut entries = Vec::new();
        for (schema, make) in &export.entities {
            let format = export.format;
            entries.push(Entry::open(
                &export.output,
                Some(schema.type_name),
                format.extension(),
                |out| make(out, format),
            )?);
        }
        let by_type = entries
            .iter()
            .enumerate()
            .map(|(position, entry)| (entry.entity.expect("an entity"), position))
            .collect();
        Ok(Router {
            type_attribute,
            output: export.output.clone(),
            entries,
            by_type,
            unknown: None,
            progress: ExportProgress::default(),
            done: ExportOutcome {
                files: Vec::new(),
                objects: Vec::new(),
                scanned: 0,
                s3_requests: 0,
            },
        })
    }

    /// Writes one page of items, then reports progress.
    fn page(
        &mut self,
        items: Vec<AttributeMap>,
        report: &mut Option<Progress>,
    ) -> Result<(), Error> {
        for item in items {
            self.progress.scanned += 1;
            let position = match item.get(self.type_attribute) {
                Some(AttributeValue::S(name)) => self.by_type.get(name.as_str()).copied(),
                _ => None,
            };
            match position {
                Some(position) => self.entries[position].sink.push(item)?,
                None => {
                    if self.unknown.is_none() {
                        self.unknown = Some(Entry::open(&self.output, None, "ndjson", |out| {
                            Ok(ndjson::unknown_sink(out))
                        })?);
                    }
                    self.unknown.as_mut().expect("just made").sink.push(item)?;
                }
            }
        }
        self.progress.pages += 1;
        if let Some(report) = report.as_mut() {
            report(&self.progress);
        }
        Ok(())
    }

    /// The part size of an export to S3.
    fn part_bytes(&self) -> usize {
        match &self.output {
            Output::Directory(_) => usize::MAX,
            #[cfg(feature = "s3")]
            Output::S3(target) => target.part_bytes as usize,
        }
    }

    /// Sends what the pages so far made ready (an export to S3; a
    /// directory's files are written as the items are).
    async fn upload(&mut self) -> Result<(), Error> {
        let part_bytes = self.part_bytes();
        for entry in self.entries.iter_mut().chain(self.unknown.as_mut()) {
            entry.upload(part_bytes).await?;
        }
        Ok(())
    }

    /// Closes every file (sends every object's last bytes), or, after an
    /// error, aborts the uploads under way.
    async fn end(mut self, read: Result<(), Error>) -> Result<ExportOutcome, Error> {
        let result = match read {
            Ok(()) => self.finish().await,
            Err(error) => Err(error),
        };
        if result.is_err() {
            #[cfg(feature = "s3")]
            for entry in self.entries.iter_mut().chain(self.unknown.as_mut()) {
                if let Some(uploads) = &mut entry.uploads {
                    uploads.abort().await;
                }
            }
        }
        #[cfg(feature = "s3")]
        if let Output::S3(target) = &self.output {
            self.done.s3_requests += target.s3.requests();
        }
        result.map(|()| self.done)
    }

    /// Finishes the entries in order; those not finished stay in
    /// `entries`, so that [`end`](Self::end) aborts their uploads.
    async fn finish(&mut self) -> Result<(), Error> {
        let part_bytes = self.part_bytes();
        self.entries.extend(self.unknown.take());
        while !self.entries.is_empty() {
            let Entry {
                entity,
                path,
                sink,
                #[cfg(feature = "s3")]
                mut uploads,
            } = self.entries.remove(0);
            let finished = match sink.finish() {
                #[cfg(feature = "s3")]
                Ok((items, Out::Objects(mut staging))) => {
                    let uploads = uploads.as_mut().expect("an export to S3 has uploads");
                    let sent = uploads.upload(staging.take(part_bytes)).await;
                    self.done.objects.append(&mut uploads.done);
                    sent.map(|()| items)
                }
                Ok((items, _)) => Ok(items),
                Err(error) => Err(error),
            };
            let finished = match (finished, &path) {
                (Ok(items), Some((path, partial))) => std::fs::rename(partial, path)
                    .map(|()| items)
                    .map_err(|error| file_error(path, &error)),
                (finished, _) => finished,
            };
            match finished {
                Ok(items) => {
                    if let Some((path, _)) = path {
                        self.done.files.push(ExportedFile {
                            entity,
                            path,
                            items,
                        });
                    }
                }
                Err(error) => {
                    #[cfg(feature = "s3")]
                    if let Some(uploads) = uploads.as_mut() {
                        uploads.abort().await;
                    }
                    return Err(error);
                }
            }
        }
        #[cfg(not(feature = "s3"))]
        let _ = part_bytes;
        self.done.scanned = self.progress.scanned;
        self.output.mark_complete(self.done.unknown()).await
    }
}

fn make_sink<E>(out: Out, format: ExportFormat) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + DeserializeOwned + Send + 'static,
{
    match format {
        ExportFormat::Ndjson => ndjson::entity_sink::<E>(out),
        #[cfg(feature = "parquet")]
        ExportFormat::Parquet => parquet::entity_sink::<E>(out),
    }
}

/// The pages of a parallel scan of `segments` segments, `concurrency` of
/// them read at once.
fn scan(
    table: &Table,
    segments: u32,
    concurrency: u32,
) -> impl Stream<Item = Result<Vec<AttributeMap>, Error>> + '_ {
    futures::stream::iter((0..segments).map(move |segment| {
        let input =
            crate::ops::scan::segment_input(table.name(), (segment, segments), None, false, None);
        crate::ops::scan::pages(table, Ok(input), "(mixed)").boxed()
    }))
    .flatten_unordered(concurrency as usize)
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
