//! The live change feed: [`Table::changes`] reads the table's DynamoDB
//! Stream through the Streams API (`DescribeStream`, `GetShardIterator`,
//! `GetRecords`, crate `aws-sdk-dynamodbstreams`) and yields each record as
//! a typed [`Change<C>`](super::Change).
//!
//! How it reads (the rules of "DynamoDB Streams low-level API", Amazon
//! DynamoDB Developer Guide):
//!
//! - **Shards.** `DescribeStream` (every page, `LastEvaluatedShardId`) lists
//!   the shards with their parents. A shard is read only once its parent is
//!   read to its end, or when the parent is no longer listed (trimmed), so
//!   the records of one item come in order across a split. It is described
//!   again whenever a shard ends, to find its children.
//! - **Iterators.** A shard starts at `TRIM_HORIZON` (its oldest record), or
//!   `AFTER_SEQUENCE_NUMBER` the checkpoint's last record in it. An iterator
//!   that expired (`ExpiredIteratorException`, after 15 minutes) is asked
//!   for again from the same position. `GetRecords` without
//!   `NextShardIterator` means the shard is closed and read to its end.
//! - **Polling.** Each round reads every readable shard. `GetRecords` can
//!   answer an empty page while later records exist ("it might take
//!   multiple calls to get to a portion of the shard that contains stream
//!   records"), so a round follows an open shard's `NextShardIterator`
//!   past empty pages, up to [`ChangeFeed::pages_per_shard`] pages
//!   ([`DEFAULT_PAGES_PER_SHARD`]) per shard per round: a round that finds
//!   nothing sends that many `GetRecords` per open shard. After a round
//!   that reads nothing the feed sleeps, from [`ChangeFeed::idle_backoff`]'s
//!   minimum doubling to its maximum, and back to the minimum when records
//!   come.
//! - **Errors.** [`ChangeFeed::next`] returns a request's error to the
//!   caller, and the next call retries from where the feed stood (the same
//!   iterator). [`ChangeFeed::into_stream`] yields the error, then waits
//!   before retrying: [`ChangeFeed::error_backoff`]'s minimum after the
//!   first error in a row ([`DEFAULT_MIN_ERROR_BACKOFF`]), doubling with
//!   each further one up to its maximum ([`DEFAULT_MAX_ERROR_BACKOFF`]),
//!   and no wait again once a change comes.
//! - **Checkpoint.** [`ChangeFeed::checkpoint`] counts every change returned
//!   so far (and nothing more), so a feed resumed from it neither misses nor
//!   repeats a record. A checkpoint that marks a shard finished that the
//!   stream still has open is refused before any record is read. A consumer
//!   that stores its checkpoint apart from its effects gets the changes
//!   since its last stored checkpoint again after a crash (at-least-once
//!   between checkpoints); one that stores it in the same atomic write as
//!   its effects handles each change exactly once (see
//!   [`Checkpoint`](super::Checkpoint#delivery-at-least-once-or-exactly-once-with-the-effect)).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB_Streams.html>.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::time::Duration;

use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_sdk_dynamodbstreams::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodbstreams::operation::get_records::{GetRecordsError, GetRecordsInput};
use aws_sdk_dynamodbstreams::operation::get_shard_iterator::{
    GetShardIteratorError, GetShardIteratorInput,
};
use aws_sdk_dynamodbstreams::types::{Record, ShardIteratorType};
use futures::Stream;

use super::Change;
use super::checkpoint::Checkpoint;
use super::records::{decode, describe_stream, streams_error};
use super::shards::{ShardInfo, read_order, readable};
use crate::error::Error;
use crate::error::JobError;
use crate::model::collection::Collection;
use crate::request::table::Table;

mod state;

use state::{Buffered, FeedState, error_wait};

/// The shortest sleep after a round that read nothing, by default.
pub const DEFAULT_MIN_BACKOFF: Duration = Duration::from_millis(250);
/// The longest sleep between rounds that read nothing, by default.
pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_secs(2);
/// The most `GetRecords` pages one round reads of one open shard while they
/// are empty, by default (see [`ChangeFeed::pages_per_shard`]). DynamoDB
/// allows about 5 `GetRecords` per second per shard.
pub const DEFAULT_PAGES_PER_SHARD: u32 = 3;
/// The wait of [`ChangeFeed::into_stream`] after its first error in a row,
/// by default.
pub const DEFAULT_MIN_ERROR_BACKOFF: Duration = Duration::from_secs(1);
/// The longest wait of [`ChangeFeed::into_stream`] between errors, by
/// default.
pub const DEFAULT_MAX_ERROR_BACKOFF: Duration = Duration::from_secs(60);

/// [`Table::changes`].
pub(crate) fn changes<C>(table: &Table, streams: StreamsClient) -> ChangeFeed<C> {
    ChangeFeed {
        table: table.clone(),
        client: streams,
        resume: None,
        min_backoff: DEFAULT_MIN_BACKOFF,
        max_backoff: DEFAULT_MAX_BACKOFF,
        pages_per_shard: DEFAULT_PAGES_PER_SHARD,
        min_error_backoff: DEFAULT_MIN_ERROR_BACKOFF,
        max_error_backoff: DEFAULT_MAX_ERROR_BACKOFF,
        state: None,
        marker: PhantomData,
    }
}

/// A typed change feed of one table, made by [`Table::changes`]: a plain
/// value until the first read, then the reader of the stream. `Send`.
///
/// Resumed from a [`Checkpoint`] it returns exactly the changes after it.
/// A consumer killed between handling changes and storing the checkpoint
/// gets those changes again (at-least-once between stored checkpoints);
/// stored in one atomic write with the effects, and conditioned on the
/// checkpoint it replaces, each change takes effect exactly once (see
/// [`Checkpoint`](super::Checkpoint#delivery-at-least-once-or-exactly-once-with-the-effect)).
#[derive(Debug)]
pub struct ChangeFeed<C> {
    table: Table,
    client: StreamsClient,
    resume: Option<Checkpoint>,
    min_backoff: Duration,
    max_backoff: Duration,
    pages_per_shard: u32,
    min_error_backoff: Duration,
    max_error_backoff: Duration,
    state: Option<FeedState>,
    marker: PhantomData<fn() -> C>,
}

impl<C: Collection> ChangeFeed<C> {
    /// How long to sleep after a round of reads that found nothing: `min`
    /// first, doubling up to `max` (defaults [`DEFAULT_MIN_BACKOFF`] and
    /// [`DEFAULT_MAX_BACKOFF`]). DynamoDB allows about 5 `GetRecords` per
    /// second per shard; Lambda polls 4 times a second.
    pub fn idle_backoff(mut self, min: Duration, max: Duration) -> Self {
        self.min_backoff = min;
        self.max_backoff = max.max(min);
        self
    }

    /// The most `GetRecords` pages a round reads of one open shard while
    /// they are empty (default [`DEFAULT_PAGES_PER_SHARD`]; 0 counts as 1):
    /// DynamoDB can answer empty pages before a shard's next records, and
    /// the feed follows `NextShardIterator` past them. A page with records,
    /// or the shard's end, ends the shard's turn in the round. So one
    /// [`next_ready`](Self::next_ready) that finds nothing sends up to this
    /// many `GetRecords` per open shard.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html>.
    pub fn pages_per_shard(mut self, pages: u32) -> Self {
        self.pages_per_shard = pages.max(1);
        self
    }

    /// How long [`into_stream`](Self::into_stream) waits after an error
    /// before it tries again: `min` after the first error in a row,
    /// doubling with each further one up to `max` (defaults
    /// [`DEFAULT_MIN_ERROR_BACKOFF`] and [`DEFAULT_MAX_ERROR_BACKOFF`]); a
    /// change returned ends the run of errors.
    pub fn error_backoff(mut self, min: Duration, max: Duration) -> Self {
        self.min_error_backoff = min;
        self.max_error_backoff = max.max(min);
        self
    }

    /// The next change, waiting (with the idle backoff) until one comes.
    /// `Ok(None)` only when the stream was turned off and every shard is
    /// read to its end.
    ///
    /// # Errors
    ///
    /// [`JobError::StreamNotEnabled`] when the table has no stream;
    /// [`JobError::InvalidCheckpoint`] and [`JobError::CheckpointExpired`] for a
    /// checkpoint that cannot be resumed from (one that marks a shard
    /// finished that the stream has open included, before any
    /// `GetShardIterator` or `GetRecords`); [`JobError::InvalidStreamRecord`]
    /// for a record that cannot be decoded (it is counted in the checkpoint,
    /// so that resuming does not stop at it again);
    /// [`Error::DynamoDbStreams`] and [`Error::DynamoDb`] for what the
    /// services return. After an error of a request, calling `next` again
    /// retries from where the feed stood.
    pub async fn next(&mut self) -> Result<Option<Change<C>>, Error> {
        loop {
            if let Some(change) = self.next_ready().await? {
                return Ok(Some(change));
            }
            let state = self.state.as_mut().expect("started by next_ready");
            if state.disabled && state.shards.iter().all(|shard| shard.finished) {
                return Ok(None);
            }
            tokio::time::sleep(state.backoff).await;
            state.backoff = (state.backoff * 2).min(self.max_backoff);
        }
    }

    /// The next change if the stream has one now: `Ok(None)` when one round
    /// of `GetRecords` over the readable shards found nothing. For a job
    /// that reads what is there and stops.
    ///
    /// # Errors
    ///
    /// As [`next`](Self::next).
    pub async fn next_ready(&mut self) -> Result<Option<Change<C>>, Error> {
        match self.next_ready_record().await? {
            Some((_, record)) => decode(record).map(Some),
            None => Ok(None),
        }
    }
    /// The feed as a `futures::Stream` of each change with the checkpoint
    /// that counts it. It never ends while the stream is on.
    ///
    /// # Errors
    ///
    /// Items are the errors of [`next`](Self::next); the stream goes on
    /// after one, once it has waited as [`error_backoff`](Self::error_backoff)
    /// says (1 s, 2 s, 4 s, … up to 60 s by default), so a failing service
    /// is not asked again at once.
    pub fn into_stream(self) -> impl Stream<Item = Result<(Change<C>, Checkpoint), Error>> + Send
    where
        C: Send,
    {
        futures::stream::unfold((self, 0u32), |(mut feed, errors)| async move {
            if errors > 0 {
                let wait = error_wait(feed.min_error_backoff, feed.max_error_backoff, errors);
                tokio::time::sleep(wait).await;
            }
            let (item, errors) = match feed.next().await {
                Ok(Some(change)) => (
                    Ok((
                        change,
                        feed.checkpoint().cloned().expect("a started feed has one"),
                    )),
                    0,
                ),
                Ok(None) => return None,
                Err(error) => (Err(error), errors.saturating_add(1)),
            };
            Some((item, (feed, errors)))
        })
    }
}

/// The reading itself, which needs no collection: the test kit's Lambda
/// events (`stamp::testing::LambdaEvents`) read the raw records with it.
impl<C> ChangeFeed<C> {
    /// Starts after `checkpoint` (taken from an earlier feed of the same
    /// table's stream) instead of at the oldest record of every shard.
    pub fn resume(mut self, checkpoint: Checkpoint) -> Self {
        self.resume = Some(checkpoint);
        self
    }

    /// How far the feed has read: every change returned so far, and none
    /// after. `None` before the first read; then the checkpoint given to
    /// [`resume`](Self::resume), advanced by each change returned.
    pub fn checkpoint(&self) -> Option<&Checkpoint> {
        self.state
            .as_ref()
            .map(|state| &state.checkpoint)
            .or(self.resume.as_ref())
    }

    /// The next record as `GetRecords` answered it, with its shard's id,
    /// if the stream has one now (see [`ChangeFeed::next_ready`]); it is
    /// counted in the checkpoint.
    pub(crate) async fn next_ready_record(&mut self) -> Result<Option<(String, Record)>, Error> {
        if self.state.is_none() {
            self.state = Some(self.start().await?);
        }
        loop {
            let state = self.state.as_mut().expect("started");
            match state.buffer.pop_front() {
                Some(Buffered::Record(shard_id, record)) => {
                    state.backoff = self.min_backoff;
                    let sequence_number = record
                        .dynamodb
                        .as_ref()
                        .and_then(|stream| stream.sequence_number.clone());
                    if let Some(sequence_number) = &sequence_number {
                        state.checkpoint.advance(&shard_id, sequence_number);
                    }
                    return Ok(Some((shard_id, *record)));
                }
                Some(Buffered::End(shard_id)) => {
                    state.checkpoint.finish(&shard_id);
                    if let Some(shard) = state.shards.iter_mut().find(|s| s.info.id == shard_id) {
                        shard.finished = true;
                    }
                }
                None => {
                    if !self.poll_round().await? {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// The stream's ARN, once the feed has started.
    pub(crate) fn stream_arn(&self) -> Option<&str> {
        self.state.as_ref().map(|state| state.stream_arn.as_str())
    }

    /// `DescribeTable` for the stream, `DescribeStream` for its shards, and
    /// the checkpoint checked against them.
    async fn start(&mut self) -> Result<FeedState, Error> {
        let table = self.table.name().to_owned();
        if let Some(checkpoint) = &self.resume {
            checkpoint.check_form(&table)?;
        }
        let described = self
            .table
            .execute_mapped(
                aws_sdk_dynamodb::operation::describe_table::DescribeTableInput::builder()
                    .table_name(&table)
                    .build()
                    .expect("DescribeTableInput has no required fields"),
                crate::request::executor::Call::of(""),
            )
            .await?;
        let description = described.table();
        let enabled = description
            .and_then(|table| table.stream_specification())
            .is_some_and(|spec| spec.stream_enabled());
        let stream_arn = match description.and_then(|table| table.latest_stream_arn()) {
            Some(arn) if enabled => arn.to_owned(),
            _ => return Err(Error::Job(JobError::StreamNotEnabled { table })),
        };
        let client = self.client.clone();
        let (shards, disabled) = describe_stream(&client, &table, &stream_arn).await?;
        let mut checkpoint = match self.resume.take() {
            Some(mut checkpoint) => {
                checkpoint.check_against(&table, &stream_arn, &shards, disabled)?;
                checkpoint
            }
            None => Checkpoint::new(stream_arn.clone()),
        };
        let mut state = FeedState {
            client,
            stream_arn,
            checkpoint: Checkpoint::new(String::new()),
            shards: Vec::new(),
            buffer: VecDeque::new(),
            describe: false,
            disabled,
            backoff: self.min_backoff,
        };
        state.merge(shards, &mut checkpoint);
        state.checkpoint = checkpoint;
        Ok(state)
    }

    /// One `GetRecords` per readable shard; whether anything came (records,
    /// or the end of a shard).
    async fn poll_round(&mut self) -> Result<bool, Error> {
        let table = self.table.name().to_owned();
        let pages_per_shard = self.pages_per_shard;
        let state = self.state.as_mut().expect("started");
        if state.describe {
            let (shards, disabled) =
                describe_stream(&state.client, &table, &state.stream_arn).await?;
            state.disabled = disabled;
            let mut checkpoint =
                std::mem::replace(&mut state.checkpoint, Checkpoint::new(String::new()));
            state.merge(shards, &mut checkpoint);
            state.checkpoint = checkpoint;
            state.describe = false;
        }
        let view: Vec<(&ShardInfo, bool)> = state
            .shards
            .iter()
            .map(|shard| (&shard.info, shard.finished))
            .collect();
        let ready = readable(&view);
        let mut progressed = false;
        let readable_count = ready.len();
        for index in ready {
            let mut iterator = match state.shards[index].iterator.take() {
                Some(iterator) => iterator,
                None => state.shard_iterator(&table, index).await?,
            };
            let shard_id = state.shards[index].info.id.clone();
            let mut page = 1;
            loop {
                let input = GetRecordsInput::builder()
                    .shard_iterator(&iterator)
                    .build()
                    .expect("GetRecordsInput has no required fields");
                let result =
                    crate::request::dispatch::streams::get_records(&state.client, &table, input)
                        .await;
                match result {
                    Ok(output) => {
                        let records = output.records.unwrap_or_default();
                        let empty = records.is_empty();
                        for record in records {
                            progressed = true;
                            state
                                .buffer
                                .push_back(Buffered::Record(shard_id.clone(), Box::new(record)));
                        }
                        match output.next_shard_iterator {
                            // An empty page of an open shard: records may
                            // still follow it.
                            Some(next) if empty && page < pages_per_shard => {
                                iterator = next;
                                page += 1;
                            }
                            Some(next) => {
                                state.shards[index].iterator = Some(next);
                                break;
                            }
                            None => {
                                progressed = true;
                                state.describe = true;
                                state.buffer.push_back(Buffered::End(shard_id));
                                break;
                            }
                        }
                    }
                    Err(SdkError::ServiceError(service))
                        if matches!(
                            service.err(),
                            GetRecordsError::ExpiredIteratorException(_)
                        ) =>
                    {
                        // Asked for again from the checkpoint on the next round.
                        progressed = true;
                        break;
                    }
                    Err(SdkError::ServiceError(service))
                        if matches!(
                            service.err(),
                            GetRecordsError::TrimmedDataAccessException(_)
                        ) =>
                    {
                        return Err(state.expired(&table, &shard_id));
                    }
                    Err(error) => {
                        // Tried again from the same place by the next call.
                        state.shards[index].iterator = Some(iterator);
                        return Err(streams_error(
                            crate::request::dispatch::streams::GET_RECORDS,
                            &table,
                            error,
                        ));
                    }
                }
            }
        }
        if readable_count == 0 && !state.disabled {
            state.describe = true;
        }
        Ok(progressed)
    }
}

#[cfg(test)]
mod tests;
