//! The feed's reading state: the shards in read order, their iterators and
//! the records read ahead.

use super::*;

#[derive(Debug)]
pub(super) struct FeedState {
    pub(super) client: StreamsClient,
    pub(super) stream_arn: String,
    pub(super) checkpoint: Checkpoint,
    /// In read order (parents first).
    pub(super) shards: Vec<ShardState>,
    pub(super) buffer: VecDeque<Buffered>,
    pub(super) describe: bool,
    pub(super) disabled: bool,
    pub(super) backoff: Duration,
}

#[derive(Debug)]
pub(super) struct ShardState {
    pub(super) info: ShardInfo,
    pub(super) iterator: Option<String>,
    pub(super) finished: bool,
}

#[derive(Debug)]
pub(super) enum Buffered {
    Record(String, Box<Record>),
    End(String),
}

/// The wait of [`ChangeFeed::into_stream`] after `errors` errors in a row
/// (1 or more): `min`, doubled for each error after the first, at most `max`.
pub(super) fn error_wait(min: Duration, max: Duration, errors: u32) -> Duration {
    let factor = 2u32.saturating_pow(errors.saturating_sub(1));
    min.saturating_mul(factor).min(max)
}

impl FeedState {
    /// Takes in the shards as described now: new ones are added, the ones
    /// read to their end and no longer listed dropped (from the checkpoint
    /// too), the order recomputed.
    pub(super) fn merge(&mut self, described: Vec<ShardInfo>, checkpoint: &mut Checkpoint) {
        let mut shards: Vec<ShardState> = std::mem::take(&mut self.shards);
        shards.retain(|shard| {
            described.iter().any(|info| info.id == shard.info.id) || !shard.finished
        });
        for info in described {
            match shards.iter_mut().find(|shard| shard.info.id == info.id) {
                Some(shard) => shard.info = info,
                None => {
                    let finished = checkpoint.shard(&info.id).is_some_and(|s| s.finished);
                    shards.push(ShardState {
                        info,
                        iterator: None,
                        finished,
                    });
                }
            }
        }
        checkpoint.retain_shards(|id| shards.iter().any(|shard| shard.info.id == id));
        let infos: Vec<ShardInfo> = shards.iter().map(|shard| shard.info.clone()).collect();
        let mut ordered = Vec::with_capacity(shards.len());
        for info in read_order(&infos) {
            let position = shards
                .iter()
                .position(|shard| shard.info.id == info.id)
                .expect("ordered from these shards");
            ordered.push(shards.swap_remove(position));
        }
        self.shards = ordered;
    }

    /// `GetShardIterator` for shard `index`: after the checkpoint's last
    /// record in it, or at its oldest.
    pub(super) async fn shard_iterator(
        &mut self,
        table: &str,
        index: usize,
    ) -> Result<String, Error> {
        let shard_id = self.shards[index].info.id.clone();
        let after = self
            .checkpoint
            .shard(&shard_id)
            .and_then(|shard| shard.after.clone());
        let kind = if after.is_some() {
            ShardIteratorType::AfterSequenceNumber
        } else {
            ShardIteratorType::TrimHorizon
        };
        let input = GetShardIteratorInput::builder()
            .stream_arn(&self.stream_arn)
            .shard_id(&shard_id)
            .shard_iterator_type(kind)
            .set_sequence_number(after.clone())
            .build()
            .expect("GetShardIteratorInput has no required fields");
        let result =
            crate::request::dispatch::streams::get_shard_iterator(&self.client, table, input).await;
        match result {
            Ok(output) => output.shard_iterator.ok_or_else(|| {
                Error::Job(JobError::InvalidCheckpoint {
                    table: table.to_owned(),
                    shard_id: Some(shard_id),
                    reason: crate::error::CheckpointReason::NoIterator,
                })
            }),
            Err(SdkError::ServiceError(service))
                if matches!(
                    service.err(),
                    GetShardIteratorError::TrimmedDataAccessException(_)
                        | GetShardIteratorError::ResourceNotFoundException(_)
                ) =>
            {
                Err(self.expired(table, &shard_id))
            }
            Err(SdkError::ServiceError(service))
                if after.is_some() && service.err().code() == Some("ValidationException") =>
            {
                Err(Error::Job(JobError::InvalidCheckpoint {
                    table: table.to_owned(),
                    shard_id: Some(shard_id),
                    reason: crate::error::CheckpointReason::SequenceNumberRefused {
                        sequence_number: after.unwrap_or_default().to_string(),
                        message: service
                            .err()
                            .message()
                            .unwrap_or("ValidationException")
                            .to_owned(),
                    },
                }))
            }
            Err(error) => Err(streams_error(
                crate::request::dispatch::streams::GET_SHARD_ITERATOR,
                table,
                error,
            )),
        }
    }

    pub(super) fn expired(&self, table: &str, shard_id: &str) -> Error {
        Error::Job(JobError::CheckpointExpired {
            table: table.to_owned(),
            shard_id: shard_id.to_owned(),
            sequence_number: self
                .checkpoint
                .shard(shard_id)
                .and_then(|shard| shard.after.clone()),
        })
    }
}
