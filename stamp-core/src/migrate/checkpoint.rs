//! The checkpoint file of a migration: per segment, where the next page
//! starts, written atomically after each processed page.

use crate::JobError;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::mover::Running;
use crate::{Entity, Error};

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
    pub(super) fn checkpoint_error(&self, reason: String) -> Error {
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
            Err(error) => return Err(self.checkpoint_error(format!("cannot read it: {error}"))),
        };
        let file: CheckpointFile = serde_json::from_str(&text)
            .map_err(|error| self.checkpoint_error(format!("it is not valid JSON: {error}")))?;
        let mismatch = if file.format != CHECKPOINT_FORMAT {
            Some(format!(
                "it has format {}, this version reads {CHECKPOINT_FORMAT}",
                file.format
            ))
        } else if file.table != fresh.table || file.entity != fresh.entity {
            Some(format!(
                "it belongs to the migration of entity `{}` on table `{}`",
                file.entity, file.table
            ))
        } else if file.total_segments != self.segments
            || file.segments.len() != self.segments as usize
        {
            Some(format!(
                "it was written by a scan in {} segments, and this one has {}; resume with the same count",
                file.total_segments, self.segments
            ))
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
        let text = serde_json::to_string_pretty(checkpoint)
            .map_err(|error| self.checkpoint_error(format!("cannot serialize it: {error}")))?;
        let temporary = temporary_path(path);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|error| self.checkpoint_error(format!("cannot write it: {error}")))
    }
}

/// `<path>.tmp`, beside the checkpoint.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}
