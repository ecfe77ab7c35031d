//! [`MigrationCheckpointReason`]: why a migration checkpoint cannot be used.

/// Why a migration checkpoint cannot be used, in
/// [`JobError::MigrationCheckpoint`](super::JobError::MigrationCheckpoint). `detail` is the I/O or JSON error's
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
