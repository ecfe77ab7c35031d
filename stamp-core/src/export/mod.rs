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
//! | [`ExportFormat::Parquet`] (feature `parquet`) | `<Type>.parquet` | typed from the entity's fields (`serde_arrow` tracing of the type: integers, booleans, strings; `Option` nullable; unit enums as dictionary-encoded strings); for an entity with no items whose type needs samples, one nullable string column per field; uncompressed |
//!
//! A parallel scan is not a snapshot: items written while it runs may or
//! may not be in the files. Each page costs read capacity as a scan does
//! (eventually consistent, 0.5 read units per 4 KB).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>.

mod files;
mod ndjson;
#[cfg(feature = "parquet")]
mod parquet;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use futures::{Stream, StreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::JobError;
use crate::{AttributeMap, Entity, EntitySchema, Error, Table};

/// The file name (without extension) of the items of unknown type.
pub const UNKNOWN_FILE_STEM: &str = "_unknown";
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

/// What an export did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOutcome {
    /// One file per registered entity (in registration order, written even
    /// when empty), then the file of unknown types when there was any.
    pub files: Vec<ExportedFile>,
    /// Items read from the table.
    pub scanned: u64,
}

impl ExportOutcome {
    /// How many items went to the file of entity `type_name` (0 when none).
    pub fn items(&self, type_name: &str) -> u64 {
        self.files
            .iter()
            .find(|file| file.entity == Some(type_name))
            .map_or(0, |file| file.items)
    }

    /// How many items had a type no registered entity names.
    pub fn unknown(&self) -> u64 {
        self.files
            .iter()
            .find(|file| file.entity.is_none())
            .map_or(0, |file| file.items)
    }
}

/// Where one entity's (or the unknown types') items go.
trait Sink: Send {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error>;
    /// Flushes and closes the file; the number of items written.
    fn finish(self: Box<Self>) -> Result<u64, Error>;
}

type MakeSink = fn(&Path, ExportFormat) -> Result<Box<dyn Sink>, Error>;

/// The callback of [`Export::progress`].
type Progress = Box<dyn FnMut(&ExportProgress) + Send>;

/// An export of a table, one file per entity: made by [`Export::new`],
/// configured, then run on a table by [`run`](Self::run) (a parallel
/// scan), or on the files of a point-in-time export by
/// [`run_from_files`](Self::run_from_files). A plain value until then.
pub struct Export {
    directory: PathBuf,
    format: ExportFormat,
    segments: u32,
    concurrency: u32,
    entities: Vec<(&'static EntitySchema, MakeSink)>,
    progress: Option<Progress>,
}

impl fmt::Debug for Export {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Export")
            .field("directory", &self.directory)
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
        Export {
            directory: directory.into(),
            format: ExportFormat::Ndjson,
            segments: 4,
            concurrency: DEFAULT_CONCURRENCY,
            entities: Vec::new(),
            progress: None,
        }
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
    /// and returns what it wrote.
    ///
    /// # Errors
    ///
    /// Before any request, [`JobError::InvalidExport`] for no entity, two
    /// entities with different type attributes, an entity whose type name
    /// is not a plain file name or is [`UNKNOWN_FILE_STEM`], a segment
    /// count of 0 or above [`MAX_SEGMENTS`], or a concurrency of 0; [`JobError::ExportFile`] when the
    /// directory or a file cannot be written; then [`Error::DynamoDb`] for
    /// the scan, and the errors of an entity's `from_item` for an item that
    /// names the entity but cannot be read as it (the files written so far
    /// stay, incomplete).
    pub async fn run(mut self, table: &Table) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        std::fs::create_dir_all(&self.directory)
            .map_err(|error| file_error(&self.directory, &error))?;
        let mut router = Router::new(&self, type_attribute)?;
        let mut pages = scan(table, self.segments, self.concurrency);
        while let Some(page) = pages.next().await {
            router.page(page?, &mut self.progress)?;
        }
        router.finish()
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
        std::fs::create_dir_all(&self.directory)
            .map_err(|error| file_error(&self.directory, &error))?;
        let mut router = Router::new(&self, type_attribute)?;
        for path in files {
            files::read(&path, 1_000, |items| router.page(items, &mut self.progress))?;
        }
        router.finish()
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

/// The files being written, and where each item goes.
struct Router {
    type_attribute: &'static str,
    sinks: Vec<(&'static str, PathBuf, Box<dyn Sink>)>,
    by_type: HashMap<&'static str, usize>,
    unknown_path: PathBuf,
    unknown: Option<Box<dyn Sink>>,
    progress: ExportProgress,
}

impl Router {
    fn new(export: &Export, type_attribute: &'static str) -> Result<Self, Error> {
        let mut sinks = Vec::new();
        for (schema, make) in &export.entities {
            let path = export.directory.join(format!(
                "{}.{}",
                schema.type_name,
                export.format.extension()
            ));
            sinks.push((schema.type_name, path.clone(), make(&path, export.format)?));
        }
        let by_type = sinks
            .iter()
            .enumerate()
            .map(|(position, (name, _, _))| (*name, position))
            .collect();
        Ok(Router {
            type_attribute,
            sinks,
            by_type,
            unknown_path: export.directory.join(format!("{UNKNOWN_FILE_STEM}.ndjson")),
            unknown: None,
            progress: ExportProgress::default(),
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
                Some(position) => self.sinks[position].2.push(item)?,
                None => {
                    if self.unknown.is_none() {
                        self.unknown = Some(ndjson::unknown_sink(&self.unknown_path)?);
                    }
                    self.unknown.as_mut().expect("just made").push(item)?;
                }
            }
        }
        self.progress.pages += 1;
        if let Some(report) = report.as_mut() {
            report(&self.progress);
        }
        Ok(())
    }

    fn finish(self) -> Result<ExportOutcome, Error> {
        let mut files = Vec::with_capacity(self.sinks.len() + 1);
        for (name, path, sink) in self.sinks {
            files.push(ExportedFile {
                entity: Some(name),
                path,
                items: sink.finish()?,
            });
        }
        if let Some(sink) = self.unknown {
            files.push(ExportedFile {
                entity: None,
                path: self.unknown_path,
                items: sink.finish()?,
            });
        }
        Ok(ExportOutcome {
            files,
            scanned: self.progress.scanned,
        })
    }
}

fn make_sink<E>(path: &Path, format: ExportFormat) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + DeserializeOwned + Send + 'static,
{
    match format {
        ExportFormat::Ndjson => ndjson::entity_sink::<E>(path),
        #[cfg(feature = "parquet")]
        ExportFormat::Parquet => parquet::entity_sink::<E>(path),
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

/// An I/O error on `path`.
pub(crate) fn file_error(path: &Path, error: &dyn std::error::Error) -> Error {
    Error::Job(JobError::ExportFile {
        path: path.to_path_buf(),
        detail: error.to_string(),
    })
}
