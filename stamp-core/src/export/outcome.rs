//! What an export reports: its progress, the files and objects it wrote, its outcome.

use super::*;

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

/// What [`Export::check_segments`] found: every unit of the export run in
/// units complete, and the export marked complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportCheck {
    /// The folder of each unit, in order (`<directory>/segment-03-of-16`).
    pub units: Vec<PathBuf>,
    /// The marker written, `<directory>/_SUCCESS`.
    pub marker: PathBuf,
}
