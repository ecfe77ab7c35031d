//! The checkpoint file of a migration: per segment, where the next page
//! starts, written atomically after each processed page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::mover::Running;
use crate::error::Error;
use crate::error::JobError;
use crate::model::entity::Entity;

/// The format of the checkpoint file this version writes.
/// The format of the checkpoint file this version writes.
const CHECKPOINT_FORMAT: u32 = 1;

/// The checkpoint file: per segment, where the next page starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct CheckpointFile {
    pub(super) format: u32,
    pub(super) table: String,
    pub(super) entity: String,
    pub(super) total_segments: u32,
    pub(super) segments: Vec<SegmentCheckpoint>,
}

/// One segment's state, written after each page it fully processed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct SegmentCheckpoint {
    /// Every page of the segment is processed.
    pub(super) done: bool,
    /// Pages processed over all runs.
    pub(super) pages: u64,
    /// Items moved over all runs.
    pub(super) migrated: u64,
    /// The `LastEvaluatedKey` of the last processed page, in DynamoDB JSON;
    /// the next page starts after it.
    pub(super) last_evaluated_key: Option<HashMap<String, serde_dynamo::AttributeValue>>,
}

impl<E: Entity> Running<'_, E> {
    pub(super) fn checkpoint_error(
        &self,
        reason: crate::error::MigrationCheckpointReason,
    ) -> Error {
        Error::Job(JobError::MigrationCheckpoint {
            entity: E::SCHEMA.type_name,
            location: self
                .checkpoint
                .as_deref()
                .map_or_else(|| "(none)".to_owned(), |path| path.display().to_string()),
            reason,
        })
    }

    /// The checkpoint to start from: the file's, checked, or a fresh one.
    pub(super) fn load_checkpoint(&self) -> Result<CheckpointFile, Error> {
        let fresh = CheckpointFile {
            format: CHECKPOINT_FORMAT,
            table: self.table.name().to_owned(),
            entity: E::SCHEMA.type_name.to_owned(),
            total_segments: self.segments,
            segments: vec![SegmentCheckpoint::default(); self.segments as usize],
        };
        let Some(path) = &self.checkpoint else {
            return Ok(fresh);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(fresh),
            Err(error) => {
                return Err(
                    self.checkpoint_error(crate::error::MigrationCheckpointReason::Read {
                        detail: error.to_string(),
                    }),
                );
            }
        };
        let file: CheckpointFile = serde_json::from_str(&text).map_err(|error| {
            self.checkpoint_error(crate::error::MigrationCheckpointReason::NotJson {
                detail: error.to_string(),
            })
        })?;
        let mismatch = if file.format != CHECKPOINT_FORMAT {
            Some(crate::error::MigrationCheckpointReason::Format {
                found: file.format,
                expected: CHECKPOINT_FORMAT,
            })
        } else if file.table != fresh.table || file.entity != fresh.entity {
            Some(crate::error::MigrationCheckpointReason::OtherMigration {
                entity: file.entity.clone(),
                table: file.table.clone(),
            })
        } else if file.total_segments != self.segments
            || file.segments.len() != self.segments as usize
        {
            Some(crate::error::MigrationCheckpointReason::Segments {
                found: file.total_segments,
                segments: self.segments,
            })
        } else {
            None
        };
        match mismatch {
            Some(reason) => Err(self.checkpoint_error(reason)),
            None => Ok(file),
        }
    }

    /// Writes the checkpoint file, through a temporary file and a rename.
    pub(super) fn save_checkpoint(&self, checkpoint: &CheckpointFile) -> Result<(), Error> {
        let Some(path) = &self.checkpoint else {
            return Ok(());
        };
        let text = serde_json::to_string_pretty(checkpoint).map_err(|error| {
            self.checkpoint_error(crate::error::MigrationCheckpointReason::Serialize {
                detail: error.to_string(),
            })
        })?;
        let temporary = temporary_path(path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|error| {
                self.checkpoint_error(crate::error::MigrationCheckpointReason::Write {
                    detail: error.to_string(),
                })
            })
    }
}

/// `<path>.tmp`, beside the checkpoint.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}
