//! [`Checkpoint`]: how far a change feed has read, per shard, as a value a
//! consumer stores (JSON) and hands back to resume.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::shards::{ShardInfo, compare_sequence_numbers, is_sequence_number};
use crate::error::Error;
use crate::error::JobError;

/// How far a [`ChangeFeed`](super::ChangeFeed) has read: the stream's ARN
/// and, per shard it started, the sequence number of the last record it
/// returned, and whether it read the shard to its end.
///
/// Take it with [`ChangeFeed::checkpoint`](super::ChangeFeed::checkpoint)
/// after handling a change, store it (it is `Serialize`/`Deserialize`;
/// [`to_json`](Self::to_json) gives the usual form), and give it to
/// [`ChangeFeed::resume`](super::ChangeFeed::resume): the resumed feed
/// starts after the last record the checkpoint counts, so that a record is
/// neither missed nor returned twice. Shards it does not name are read from
/// their oldest record (`TRIM_HORIZON`). A shard read to its end is dropped
/// from the checkpoint once the stream no longer lists it.
///
/// It holds no secret, and nothing in it is trusted: a resumed feed checks
/// it against the stream before reading ([`JobError::InvalidCheckpoint`],
/// [`JobError::CheckpointExpired`]).
///
/// # Delivery: at-least-once, or exactly once with the effect
///
/// The feed's part: a feed resumed from a checkpoint returns exactly the
/// records after it, in order: none that it counts, none skipped. What a
/// consumer sees again after a crash depends on when it stores the
/// checkpoint:
///
/// - **Stored apart from the effects** (handle a change, later store the
///   checkpoint, every change or every N): a consumer killed between the
///   two is given again, after a resume from the checkpoint it stored
///   last, every change it handled since. Delivery is **at-least-once
///   between stored checkpoints**, and a change the stored checkpoint
///   counts is never returned again. Make the effects idempotent, or
///   accept repeats of the changes since the last stored checkpoint.
/// - **Stored with the effects** in one atomic write (the effects' items
///   and the checkpoint's item in one `TransactWriteItems`, or one
///   transaction of the database the effects go to): each change takes
///   effect **exactly once**. Condition that write on the checkpoint it
///   replaces (such as a count of the changes handled, or its JSON): a
///   killed consumer's last write can still be applied after it died (the
///   request was sent), and the condition keeps it from overwriting a
///   newer checkpoint; the consumer that meets the failed condition reads
///   the stored checkpoint again and resumes from it.
///
/// `tests/it/streams/kill_resume.rs` holds both to it: consumers killed at
/// each of their requests over 100 seeds, resumed from the stored
/// checkpoint.
///
/// # Example
///
/// ```
/// # use stamp_core::streams::Checkpoint;
/// let text = r#"{"stream_arn":"arn:aws:dynamodb:us-east-1:1:table/shop/stream/2026","shards":{}}"#;
/// let checkpoint = Checkpoint::from_json(text).unwrap();
/// assert_eq!(checkpoint.stream_arn(), "arn:aws:dynamodb:us-east-1:1:table/shop/stream/2026");
/// assert_eq!(Checkpoint::from_json(&checkpoint.to_json()).unwrap(), checkpoint);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    stream_arn: String,
    shards: BTreeMap<String, ShardCheckpoint>,
}

/// Where a [`Checkpoint`] stands in one shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardCheckpoint {
    /// The `SequenceNumber` of the last record returned from the shard;
    /// `None` when none was yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Whether the shard was read to its end (it was closed, and its last
    /// record returned): its child shards come next.
    #[serde(default)]
    pub finished: bool,
}

impl Checkpoint {
    /// A checkpoint of stream `stream_arn` that has read nothing.
    pub(crate) fn new(stream_arn: String) -> Self {
        Checkpoint {
            stream_arn,
            shards: BTreeMap::new(),
        }
    }

    /// The ARN of the stream it belongs to (`LatestStreamArn` of the table
    /// when it was taken).
    pub fn stream_arn(&self) -> &str {
        &self.stream_arn
    }

    /// Where it stands in shard `shard_id`, if it started that shard.
    pub fn shard(&self, shard_id: &str) -> Option<&ShardCheckpoint> {
        self.shards.get(shard_id)
    }

    /// Every shard it started, by shard id.
    pub fn shards(&self) -> &BTreeMap<String, ShardCheckpoint> {
        &self.shards
    }

    /// The checkpoint as JSON: `{"stream_arn": "…", "shards": {"<shard
    /// id>": {"after": "<sequence number>", "finished": false}}}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a checkpoint is plain JSON")
    }

    /// Reads a checkpoint written by [`to_json`](Self::to_json).
    ///
    /// # Errors
    ///
    /// [`JobError::InvalidCheckpoint`] when `text` is not such JSON, or a
    /// sequence number in it is not 21 to 40 decimal digits.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let checkpoint: Checkpoint = serde_json::from_str(text).map_err(|error| {
            Error::Job(JobError::InvalidCheckpoint {
                table: String::new(),
                shard_id: None,
                reason: crate::error::CheckpointReason::NotCheckpoint {
                    detail: error.to_string(),
                },
            })
        })?;
        checkpoint.check_form("")?;
        Ok(checkpoint)
    }

    /// Records that the record `sequence_number` of `shard_id` was returned.
    pub(crate) fn advance(&mut self, shard_id: &str, sequence_number: &str) {
        let entry = self.entry(shard_id);
        entry.after = Some(sequence_number.to_owned());
    }

    /// Records that `shard_id` was read to its end.
    pub(crate) fn finish(&mut self, shard_id: &str) {
        self.entry(shard_id).finished = true;
    }

    /// Keeps the shards for which `keep` holds.
    pub(crate) fn retain_shards(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.shards.retain(|id, _| keep(id));
    }

    fn entry(&mut self, shard_id: &str) -> &mut ShardCheckpoint {
        self.shards
            .entry(shard_id.to_owned())
            .or_insert(ShardCheckpoint {
                after: None,
                finished: false,
            })
    }

    /// Every sequence number has the form of one.
    pub(crate) fn check_form(&self, table: &str) -> Result<(), Error> {
        for (shard_id, shard) in &self.shards {
            if let Some(after) = &shard.after
                && !is_sequence_number(after)
            {
                return Err(Error::Job(JobError::InvalidCheckpoint {
                    table: table.to_owned(),
                    shard_id: Some(shard_id.clone()),
                    reason: crate::error::CheckpointReason::NotSequenceNumber {
                        value: after.clone(),
                    },
                }));
            }
        }
        Ok(())
    }

    /// Checks the checkpoint against the stream as described, before any
    /// record is read: the same stream, every unfinished shard still there,
    /// no sequence number below its shard's oldest record
    /// (trimmed) or above its last (never issued), and no shard marked
    /// finished that the stream has open. Drops the finished shards the
    /// stream no longer lists.
    ///
    /// A shard is closed when `DescribeStream` gives it an
    /// `EndingSequenceNumber` and either lists a child of it (a split or a
    /// roll-over) or the stream is `DISABLED`: a closed shard only ends in
    /// one of these ways, and a server that gives an open shard its last
    /// sequence number so far as `EndingSequenceNumber` (dynoxide) is not
    /// taken for a closed one.
    pub(crate) fn check_against(
        &mut self,
        table: &str,
        stream_arn: &str,
        shards: &[ShardInfo],
        disabled: bool,
    ) -> Result<(), Error> {
        self.check_form(table)?;
        if self.stream_arn != stream_arn {
            return Err(Error::Job(JobError::InvalidCheckpoint {
                table: table.to_owned(),
                shard_id: None,
                reason: crate::error::CheckpointReason::OtherStream {
                    checkpoint_stream: self.stream_arn.clone(),
                    table_stream: stream_arn.to_owned(),
                },
            }));
        }
        let mut gone = Vec::new();
        for (shard_id, position) in &self.shards {
            let Some(shard) = shards.iter().find(|shard| &shard.id == shard_id) else {
                if position.finished {
                    gone.push(shard_id.clone());
                    continue;
                }
                return Err(Error::Job(JobError::CheckpointExpired {
                    table: table.to_owned(),
                    shard_id: shard_id.clone(),
                    sequence_number: position.after.clone(),
                }));
            };
            if let Some(after) = &position.after {
                check_in_range(table, shard, after)?;
            }
            let closed = shard.end.is_some()
                && (disabled
                    || shards
                        .iter()
                        .any(|child| child.parent.as_deref() == Some(shard_id.as_str())));
            if position.finished && !closed {
                return Err(Error::Job(JobError::InvalidCheckpoint {
                    table: table.to_owned(),
                    shard_id: Some(shard_id.clone()),
                    reason: crate::error::CheckpointReason::FinishedShardOpen,
                }));
            }
        }
        for shard_id in gone {
            self.shards.remove(&shard_id);
        }
        Ok(())
    }
}

/// `after` lies in the shard's `SequenceNumberRange`: below its start, the
/// records after it were trimmed; above its end, it was never issued.
fn check_in_range(table: &str, shard: &ShardInfo, after: &str) -> Result<(), Error> {
    if shard
        .start
        .as_deref()
        .is_some_and(|start| compare_sequence_numbers(after, start).is_lt())
    {
        return Err(Error::Job(JobError::CheckpointExpired {
            table: table.to_owned(),
            shard_id: shard.id.clone(),
            sequence_number: Some(after.to_owned()),
        }));
    }
    if let Some(end) = shard.end.as_deref()
        && compare_sequence_numbers(after, end).is_gt()
    {
        return Err(Error::Job(JobError::InvalidCheckpoint {
            table: table.to_owned(),
            shard_id: Some(shard.id.clone()),
            reason: crate::error::CheckpointReason::AfterShardEnd {
                sequence_number: after.to_owned(),
                end: end.to_owned(),
            },
        }));
    }
    Ok(())
}
