//! Key migrations: moving every item of an entity from its previous key
//! format (`#[stamp(previous(pk = "…", sk = "…"))]`) to its current one.
//!
//! DynamoDB keys are immutable, so a new key format means writing each item
//! again under its new key and deleting it under the old one.
//! [`Migration`] does that as a backfill that is safe to interrupt:
//!
//! - it scans the table in parallel segments for the entity's items (by the
//!   type attribute), with strongly consistent reads;
//! - each item whose stored key is its previous-format key moves in one
//!   `TransactWriteItems`: a put of the item under its new key, on condition
//!   that no item has that key (`attribute_not_exists`), and a delete of the
//!   old key, on condition that the item is unchanged since it was read
//!   (every attribute equal to what was read, and every other attribute the
//!   entity knows still absent). Both happen or neither does, so an item is
//!   never lost and never present twice;
//! - items already at their current key are left alone, so running the
//!   migration again, or after a crash, changes nothing that is done;
//! - after every page of a segment is fully processed, the segment's
//!   `LastEvaluatedKey` is written to the checkpoint file, and a later run
//!   resumes each segment from there.
//!
//! The moved item keeps every attribute as stored (including attributes
//! the struct does not know, the version and the time stamps); only the
//! partition and sort key attributes change.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeValue, Delete, Get, Put, ReturnConsumedCapacity, TransactGetItem, TransactWriteItem,
};
use futures::{TryStreamExt, stream};
use serde::{Deserialize, Serialize};
use tracing::Instrument;

use crate::expression::{MAX_EXPRESSION_BYTES, Placeholders};
use crate::item::size::{MAX_TRANSACTION_ACTIONS, MAX_TRANSACTION_BYTES, item_size};
use crate::ops::batch::is_retryable;
use crate::ops::write::{Placed, unchanged_condition};
use crate::{BatchRetry, Entity, Error, Item, Table};

/// The format of the checkpoint file this version writes.
const CHECKPOINT_FORMAT: u32 = 1;

/// A key migration of entity `E` on one table, built by
/// `Migration::<E>::new(&table)`; nothing is sent until [`run`](Self::run).
///
/// `E` must declare its previous key format with
/// `#[stamp(previous(pk = "…", sk = "…"))]`. See the [module](self) for
/// what a run does and why it is safe to stop and run again.
///
/// # Example
///
/// ```ignore
/// let outcome = Migration::<Member>::new(&table)
///     .segments(4)
///     .checkpoint_file("member-keys.checkpoint.json")
///     .on_progress(|progress| eprintln!("{progress}"))
///     .run()
///     .await?;
/// assert!(outcome.conflicts.is_empty());
/// ```
pub struct Migration<E> {
    table: Table,
    segments: u32,
    concurrency: usize,
    group_size: usize,
    page_size: Option<u32>,
    checkpoint: Option<PathBuf>,
    progress: Option<Arc<ProgressCallback>>,
    retry: BatchRetry,
    entity: PhantomData<fn() -> E>,
}

type ProgressCallback = dyn Fn(&MigrationProgress) + Send + Sync;

impl<E> fmt::Debug for Migration<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Migration")
            .field("entity", &std::any::type_name::<E>())
            .field("table", &self.table.name())
            .field("segments", &self.segments)
            .field("concurrency", &self.concurrency)
            .field("group_size", &self.group_size)
            .field("page_size", &self.page_size)
            .field("checkpoint", &self.checkpoint)
            .field("retry", &self.retry)
            .finish()
    }
}

/// How far a migration has come; passed to the
/// [`on_progress`](Migration::on_progress) callback after each item, and
/// returned in [`MigrationOutcome`]. Counts cover the current run only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationProgress {
    /// Items of the entity read by the scan.
    pub scanned: u64,
    /// Items moved from their previous key to their current one.
    pub migrated: u64,
    /// Items found already at their current key (moved before, or written
    /// in the current format), left alone.
    pub already_current: u64,
    /// Items whose current key is taken by another item: both are left as
    /// they are (see [`MigrationOutcome::conflicts`]).
    pub conflicts: u64,
    /// Items left alone because they cannot be moved (see
    /// [`MigrationOutcome::skipped`]).
    pub skipped: u64,
    /// Items deleted by someone else between the scan and their move.
    pub vanished: u64,
    /// Scan pages fully processed (each one checkpointed).
    pub pages: u64,
    /// `TransactWriteItems` requests sent, retries included.
    pub transactions: u64,
    /// Segments finished, including those finished by earlier runs.
    pub segments_done: u32,
    /// The number of scan segments.
    pub total_segments: u32,
}

impl fmt::Display for MigrationProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} scanned, {} migrated, {} already current, {} conflicts, {} skipped, {} vanished; \
             {} pages, {}/{} segments done",
            self.scanned,
            self.migrated,
            self.already_current,
            self.conflicts,
            self.skipped,
            self.vanished,
            self.pages,
            self.segments_done,
            self.total_segments
        )
    }
}

/// An item a migration left alone, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedItem {
    /// The item's primary key attributes as stored.
    pub key: Item,
    /// Why it was not moved: the item does not decode into the entity, its
    /// key fits neither the current nor the previous format, or its
    /// unchanged-condition would be longer than DynamoDB's 4 KB.
    pub reason: String,
}

/// What a [`Migration::run`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct MigrationOutcome {
    /// The counts of this run.
    pub progress: MigrationProgress,
    /// The old keys of items whose new key was taken by another item
    /// (typically written in the new format by code already deployed). Both
    /// items are left as they are: decide which one to keep, then run the
    /// migration again.
    pub conflicts: Vec<Item>,
    /// Items left alone, with the reason.
    pub skipped: Vec<SkippedItem>,
    /// Segments resumed from the checkpoint rather than started afresh.
    pub resumed_segments: u32,
    /// How long the run took.
    pub elapsed: Duration,
}

/// The checkpoint file: per segment, where the next page starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CheckpointFile {
    format: u32,
    table: String,
    entity: String,
    total_segments: u32,
    segments: Vec<SegmentCheckpoint>,
}

/// One segment's state, written after each page it fully processed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SegmentCheckpoint {
    /// Every page of the segment is processed.
    done: bool,
    /// Pages processed over all runs.
    pages: u64,
    /// Items moved over all runs.
    migrated: u64,
    /// The `LastEvaluatedKey` of the last processed page, in DynamoDB JSON;
    /// the next page starts after it.
    last_evaluated_key: Option<HashMap<String, serde_dynamo::AttributeValue>>,
}

/// The state shared by the segments of one run.
struct Shared {
    progress: Mutex<MigrationProgress>,
    conflicts: Mutex<Vec<Item>>,
    skipped: Mutex<Vec<SkippedItem>>,
    checkpoint: Mutex<CheckpointFile>,
    /// One permit per transaction in flight.
    permits: tokio::sync::Semaphore,
}

/// What to do with one scanned item.
enum Plan {
    /// It is at its current key.
    Current,
    /// Move it to this new key (partition key, sort key).
    Move(String, String),
    /// Leave it, for this reason.
    Skip(String),
}

/// How one transaction ended.
enum Sent {
    Moved,
    /// A condition failed: a new key is taken, or an item changed or is
    /// gone.
    ConditionFailed,
    /// Worth sending again after a delay.
    Retry(Error),
    /// Not worth sending again.
    Fatal(Error),
}

impl<E: Entity> Migration<E> {
    /// A migration of `E`'s items on `table`: 4 segments, 4 transactions in
    /// flight per segment, pages of up to 1 MB (DynamoDB's default), no
    /// checkpoint, [`BatchRetry::default`] for throttled and conflicting
    /// transactions.
    pub fn new(table: &Table) -> Self {
        Migration {
            table: table.clone(),
            segments: 4,
            concurrency: 4,
            group_size: 25,
            page_size: None,
            checkpoint: None,
            progress: None,
            retry: BatchRetry::default(),
            entity: PhantomData,
        }
    }

    /// Scans in `segments` parallel segments (1 to 1,000,000). A checkpoint
    /// is tied to its segment count: resume with the same one.
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = segments;
        self
    }

    /// Sends up to `concurrency` transactions at once, over all segments
    /// (at least 1; default 4). The scans of the segments run in parallel
    /// regardless.
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency.max(1);
        self
    }

    /// Moves up to `items` items in one `TransactWriteItems` (1 to 50: a
    /// move is two actions, and a transaction holds 100), within 4 MB.
    /// Each item still moves atomically; a group is just fewer requests.
    /// When a condition of a group fails (an item changed, or its new key is
    /// taken), nothing of it is applied and its items are moved one by one,
    /// each in its own transaction. Default 25.
    pub fn group_size(mut self, items: usize) -> Self {
        self.group_size = items.clamp(1, MAX_TRANSACTION_ACTIONS / 2);
        self
    }

    /// DynamoDB's `Limit` on each scan page: items evaluated per request
    /// (before the type filter), so smaller pages checkpoint more often.
    pub fn page_size(mut self, items: u32) -> Self {
        self.page_size = Some(items);
        self
    }

    /// Keeps the checkpoint in the JSON file at `path`, written (atomically,
    /// through a temporary file and a rename) after each processed page. If
    /// the file exists, the run resumes from it; once every segment is done,
    /// running again does nothing until the file is removed.
    pub fn checkpoint_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.checkpoint = Some(path.into());
        self
    }

    /// Calls `callback` with the counts so far after each item and page.
    /// It runs on the migration's task: keep it quick.
    pub fn on_progress(
        mut self,
        callback: impl Fn(&MigrationProgress) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(callback));
        self
    }

    /// How transactions that are throttled, conflict with another
    /// transaction or fail with a server error are retried.
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// Runs the migration to the end of every segment.
    ///
    /// # Errors
    ///
    /// Before sending: [`Error::NoPreviousKeyFormat`],
    /// [`Error::InvalidQuery`] for a segment count outside 1 to 1,000,000
    /// or a page size of 0, and [`Error::MigrationCheckpoint`] when the
    /// checkpoint cannot be read or belongs to another table, entity or
    /// segment count. While running: [`Error::DynamoDb`] for a failed scan,
    /// [`Error::MigrationFailed`] (with the item's key) when a move fails
    /// after its retries, and [`Error::MigrationCheckpoint`] when the
    /// checkpoint cannot be written. After an error, everything moved so far
    /// stays moved; run again to resume.
    pub async fn run(self) -> Result<MigrationOutcome, Error> {
        let started = Instant::now();
        let schema = E::SCHEMA;
        if schema.previous_key.is_none() {
            return Err(Error::NoPreviousKeyFormat {
                entity: schema.type_name,
            });
        }
        if !(1..=1_000_000).contains(&self.segments) {
            return Err(Error::InvalidQuery {
                reason: format!(
                    "a migration scans in 1 to 1000000 segments, not {}",
                    self.segments
                ),
            });
        }
        if self.page_size == Some(0) {
            return Err(Error::InvalidQuery {
                reason: "`page_size` must be at least 1".to_owned(),
            });
        }
        let checkpoint = self.load_checkpoint()?;
        let resumed_segments = checkpoint
            .segments
            .iter()
            .filter(|segment| segment.pages > 0)
            .count() as u32;
        let segments_done = checkpoint
            .segments
            .iter()
            .filter(|segment| segment.done)
            .count() as u32;
        let shared = Shared {
            progress: Mutex::new(MigrationProgress {
                segments_done,
                total_segments: self.segments,
                ..MigrationProgress::default()
            }),
            conflicts: Mutex::default(),
            skipped: Mutex::default(),
            checkpoint: Mutex::new(checkpoint),
            permits: tokio::sync::Semaphore::new(self.concurrency),
        };
        futures::future::try_join_all((0..self.segments).map(|segment| {
            self.run_segment(segment, &shared)
                .instrument(tracing::debug_span!("stamp.migration.segment", segment))
        }))
        .await?;
        let progress = shared.progress.into_inner().expect("not poisoned");
        Ok(MigrationOutcome {
            progress,
            conflicts: shared.conflicts.into_inner().expect("not poisoned"),
            skipped: shared.skipped.into_inner().expect("not poisoned"),
            resumed_segments,
            elapsed: started.elapsed(),
        })
    }

    fn checkpoint_error(&self, reason: String) -> Error {
        Error::MigrationCheckpoint {
            entity: E::SCHEMA.type_name,
            location: self
                .checkpoint
                .as_deref()
                .map_or_else(|| "(none)".to_owned(), |path| path.display().to_string()),
            reason,
        }
    }

    /// The checkpoint to start from: the file's, checked, or a fresh one.
    fn load_checkpoint(&self) -> Result<CheckpointFile, Error> {
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
    fn save_checkpoint(&self, checkpoint: &CheckpointFile) -> Result<(), Error> {
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

    fn report(&self, shared: &Shared, update: impl FnOnce(&mut MigrationProgress)) {
        let snapshot = {
            let mut progress = shared.progress.lock().expect("not poisoned");
            update(&mut progress);
            progress.clone()
        };
        if let Some(callback) = &self.progress {
            callback(&snapshot);
        }
    }

    /// Processes one segment page by page from its checkpoint.
    async fn run_segment(&self, segment: u32, shared: &Shared) -> Result<(), Error> {
        let (done, start) = {
            let checkpoint = shared.checkpoint.lock().expect("not poisoned");
            let state = &checkpoint.segments[segment as usize];
            (state.done, state.last_evaluated_key.clone())
        };
        if done {
            return Ok(());
        }
        let mut start: Option<Item> = start.map(|key| {
            key.into_iter()
                .map(|(name, value)| (name, AttributeValue::from(value)))
                .collect()
        });
        loop {
            let (items, next) = self.scan_page(segment, start.take()).await?;
            self.report(shared, |progress| progress.scanned += items.len() as u64);
            let moved = AtomicU64::new(0);
            self.move_page(items, shared, &moved).await?;
            let moved = moved.into_inner();
            let finished = next.is_none();
            {
                let mut checkpoint = shared.checkpoint.lock().expect("not poisoned");
                let state = &mut checkpoint.segments[segment as usize];
                state.pages += 1;
                state.migrated += moved;
                state.done = finished;
                state.last_evaluated_key = next.clone().map(|key| {
                    key.into_iter()
                        .map(|(name, value)| (name, serde_dynamo::AttributeValue::from(value)))
                        .collect()
                });
                self.save_checkpoint(&checkpoint)?;
            }
            self.report(shared, |progress| {
                progress.pages += 1;
                if finished {
                    progress.segments_done += 1;
                }
            });
            match next {
                Some(key) => start = Some(key),
                None => return Ok(()),
            }
        }
    }

    /// One page of the segment: the entity's items and the
    /// `LastEvaluatedKey`. Throttled and failed requests are retried under
    /// the migration's [`BatchRetry`].
    async fn scan_page(
        &self,
        segment: u32,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>), Error> {
        let schema = E::SCHEMA;
        let mut placeholders = Placeholders::default();
        let filter = format!(
            "{} = {}",
            placeholders.name(schema.type_attribute),
            placeholders.add_value(AttributeValue::S(schema.type_name.to_owned()))
        );
        let parallel = self.segments > 1;
        let span = tracing::debug_span!(
            "stamp.request",
            operation = "Scan",
            table = self.table.name(),
            entity = schema.type_name,
            index = "",
            item_count = tracing::field::Empty,
            consumed_capacity = tracing::field::Empty,
        );
        let request = self
            .table
            .client()
            .scan()
            .table_name(self.table.name())
            .filter_expression(filter)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .set_limit(
                self.page_size
                    .map(|limit| limit.min(i32::MAX as u32) as i32),
            )
            .set_segment(parallel.then_some(segment as i32))
            .set_total_segments(parallel.then_some(self.segments as i32))
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .return_consumed_capacity(ReturnConsumedCapacity::Total);
        let mut attempt = 0;
        let output = loop {
            match request.clone().send().instrument(span.clone()).await {
                Ok(output) => break output,
                Err(error) if attempt < self.retry.max_retries && is_retryable(&error) => {
                    let delay = self.retry.delay_bound(attempt).mul_f64(fastrand::f64());
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
                Err(error) => return Err(Error::dynamodb("Scan", self.table.name(), error)),
            }
        };
        span.record("item_count", output.count);
        if let Some(units) = output
            .consumed_capacity
            .as_ref()
            .and_then(|capacity| capacity.capacity_units)
        {
            span.record("consumed_capacity", units);
        }
        Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
    }

    /// Decides what to do with a stored item of the entity.
    fn plan(item: &Item) -> Plan {
        let schema = E::SCHEMA;
        let stored = |name: &str| match item.get(name) {
            Some(AttributeValue::S(value)) => Some(value.as_str()),
            _ => None,
        };
        let (Some(partition_key), Some(sort_key)) = (
            stored(schema.partition_key.name),
            stored(schema.sort_key.name),
        ) else {
            return Plan::Skip("its key attributes are not strings".to_owned());
        };
        let entity = match E::from_item(item.clone()) {
            Ok(entity) => entity,
            Err(error) => return Plan::Skip(format!("it cannot be read: {error}")),
        };
        let (current_pk, current_sk) = match entity.primary_key() {
            Ok(key) => key.into_parts(),
            Err(error) => return Plan::Skip(format!("its current key cannot be built: {error}")),
        };
        if current_pk == partition_key && current_sk == sort_key {
            return Plan::Current;
        }
        match entity.previous_primary_key() {
            Ok(Some(previous))
                if previous.partition_key() == partition_key && previous.sort_key() == sort_key =>
            {
                Plan::Move(current_pk, current_sk)
            }
            Ok(_) => Plan::Skip(format!(
                "its key fits neither the current format (it would be {} = {current_pk:?}, {} = {current_sk:?}) nor the previous one",
                schema.partition_key.name, schema.sort_key.name
            )),
            Err(error) => Plan::Skip(format!("its previous key cannot be built: {error}")),
        }
    }

    /// What to do with `item`: `Err(())` once it is reported (current,
    /// skipped), or the move to send.
    fn prepare(&self, item: Item, shared: &Shared) -> Result<Move, ()> {
        let schema = E::SCHEMA;
        let old_key = crate::item::check::key_of(schema, &item);
        let skip = |reason: String| {
            shared
                .skipped
                .lock()
                .expect("not poisoned")
                .push(SkippedItem {
                    key: old_key.clone(),
                    reason,
                });
            self.report(shared, |progress| progress.skipped += 1);
        };
        let (new_pk, new_sk) = match Self::plan(&item) {
            Plan::Current => {
                self.report(shared, |progress| progress.already_current += 1);
                return Err(());
            }
            Plan::Skip(reason) => {
                skip(reason);
                return Err(());
            }
            Plan::Move(new_pk, new_sk) => (new_pk, new_sk),
        };
        let unchanged = unchanged_condition(schema, &item);
        if unchanged.expression.len() > MAX_EXPRESSION_BYTES {
            skip(format!(
                "it has {} attributes, too many to compare in a condition of at most {MAX_EXPRESSION_BYTES} bytes",
                item.len()
            ));
            return Err(());
        }
        let mut new_item = item.clone();
        new_item.insert(
            schema.partition_key.name.to_owned(),
            AttributeValue::S(new_pk),
        );
        new_item.insert(schema.sort_key.name.to_owned(), AttributeValue::S(new_sk));
        // The put, the key and the condition's values, which repeat the item.
        let size = 2 * item_size(&item) + item_size(&old_key);
        Ok(Move {
            old_key,
            old_item: item,
            new_item,
            unchanged,
            size,
        })
    }

    /// Moves the items of one page in groups of up to `group_size` per
    /// transaction.
    async fn move_page(
        &self,
        items: Vec<Item>,
        shared: &Shared,
        moved: &AtomicU64,
    ) -> Result<(), Error> {
        let moves: Vec<Move> = items
            .into_iter()
            .filter_map(|item| self.prepare(item, shared).ok())
            .collect();
        let mut groups: Vec<Vec<Move>> = Vec::new();
        let mut bytes = 0;
        for mv in moves {
            let full = groups.last().is_none_or(|group| {
                group.len() >= self.group_size || bytes + mv.size > MAX_TRANSACTION_BYTES
            });
            if full {
                groups.push(Vec::new());
                bytes = 0;
            }
            bytes += mv.size;
            groups.last_mut().expect("pushed above").push(mv);
        }
        stream::iter(groups.into_iter().map(Ok))
            .try_for_each_concurrent(self.concurrency, |group| {
                self.move_group(group, shared, moved)
            })
            .await
    }

    /// Sends one group's moves in one transaction; when a condition fails,
    /// moves its items one by one instead.
    async fn move_group(
        &self,
        group: Vec<Move>,
        shared: &Shared,
        moved: &AtomicU64,
    ) -> Result<(), Error> {
        let schema = E::SCHEMA;
        if group.len() == 1 {
            let mv = group.into_iter().next().expect("one move");
            return self.move_item(mv, shared, moved).await;
        }
        let mut attempt: u32 = 0;
        loop {
            self.report(shared, |progress| progress.transactions += 1);
            match self.send_moves(&group, shared).await {
                Sent::Moved => {
                    moved.fetch_add(group.len() as u64, Ordering::Relaxed);
                    self.report(shared, |progress| progress.migrated += group.len() as u64);
                    return Ok(());
                }
                Sent::ConditionFailed => {
                    for mv in group {
                        self.move_item(mv, shared, moved).await?;
                    }
                    return Ok(());
                }
                Sent::Retry(error) if attempt < self.retry.max_retries => {
                    let _ = error;
                    let delay = self.retry.delay_bound(attempt).mul_f64(fastrand::f64());
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
                Sent::Retry(error) | Sent::Fatal(error) => {
                    return Err(Error::MigrationFailed {
                        entity: schema.type_name,
                        key: group[0].old_key.clone(),
                        source: Box::new(error),
                    });
                }
            }
        }
    }

    /// Moves one item in its own transaction, until it is moved or found
    /// current, conflicting, gone or unmovable.
    async fn move_item(&self, mv: Move, shared: &Shared, moved: &AtomicU64) -> Result<(), Error> {
        let schema = E::SCHEMA;
        let old_key = mv.old_key.clone();
        let failed = |source: Error| Error::MigrationFailed {
            entity: schema.type_name,
            key: old_key.clone(),
            source: Box::new(source),
        };
        let mut mv = mv;
        let mut attempt: u32 = 0;
        loop {
            self.report(shared, |progress| progress.transactions += 1);
            match self.send_moves(std::slice::from_ref(&mv), shared).await {
                Sent::Moved => {
                    moved.fetch_add(1, Ordering::Relaxed);
                    self.report(shared, |progress| progress.migrated += 1);
                    return Ok(());
                }
                Sent::ConditionFailed => {
                    // Look at both keys as of one moment to learn why.
                    let new_key = crate::item::check::key_of(schema, &mv.new_item);
                    let (old_now, new_now) = self
                        .read_both(&mv.old_key, &new_key)
                        .await
                        .map_err(failed)?;
                    match (old_now, new_now) {
                        (None, Some(_)) => {
                            // Moved already, by an earlier attempt whose answer was lost.
                            self.report(shared, |progress| progress.already_current += 1);
                            return Ok(());
                        }
                        (None, None) => {
                            self.report(shared, |progress| progress.vanished += 1);
                            return Ok(());
                        }
                        (Some(_), Some(_)) => {
                            shared
                                .conflicts
                                .lock()
                                .expect("not poisoned")
                                .push(mv.old_key);
                            self.report(shared, |progress| progress.conflicts += 1);
                            return Ok(());
                        }
                        (Some(changed), None) => {
                            // Written meanwhile: move the item as it is now.
                            match self.prepare(changed, shared) {
                                Ok(fresh) => mv = fresh,
                                Err(()) => return Ok(()),
                            }
                        }
                    }
                }
                Sent::Retry(error) => {
                    if attempt >= self.retry.max_retries {
                        return Err(failed(error));
                    }
                    let delay = self.retry.delay_bound(attempt).mul_f64(fastrand::f64());
                    tokio::time::sleep(delay).await;
                }
                Sent::Fatal(error) => return Err(failed(error)),
            }
            attempt += 1;
            if attempt > self.retry.max_retries {
                return Err(failed(Error::ConditionFailed {
                    entity: schema.type_name,
                    key: crate::ops::write::describe_key::<E>(&old_key),
                    item: Box::new(mv.old_item),
                }));
            }
        }
    }

    /// Sends moves in one transaction: for each, a put under the new key if
    /// it is free and a delete of the old key if the item is unchanged.
    async fn send_moves(&self, moves: &[Move], shared: &Shared) -> Sent {
        let schema = E::SCHEMA;
        let table = self.table.name();
        let mut request = self.table.client().transact_write_items();
        for mv in moves {
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(mv.new_item.clone()))
                .condition_expression("attribute_not_exists(#pk)")
                .expression_attribute_names("#pk", schema.partition_key.name)
                .build()
                .expect("table and item are set");
            let delete = Delete::builder()
                .table_name(table)
                .set_key(Some(mv.old_key.clone()))
                .condition_expression(mv.unchanged.expression.clone())
                .set_expression_attribute_names(mv.unchanged.placeholders.names())
                .set_expression_attribute_values(mv.unchanged.placeholders.values())
                .build()
                .expect("table, key and condition are set");
            request = request
                .transact_items(TransactWriteItem::builder().put(put).build())
                .transact_items(TransactWriteItem::builder().delete(delete).build());
        }
        let span = tracing::debug_span!(
            "stamp.request",
            operation = "TransactWriteItems",
            table,
            entity = schema.type_name,
            index = tracing::field::Empty,
            item_count = 2 * moves.len(),
            consumed_capacity = tracing::field::Empty,
        );
        let permit = shared.permits.acquire().await.expect("never closed");
        let result = request.send().instrument(span).await;
        drop(permit);
        match result {
            Ok(_) => Sent::Moved,
            Err(error) => {
                let codes: Vec<String> = match error.as_service_error() {
                    Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => {
                        cancelled
                            .cancellation_reasons()
                            .iter()
                            .map(|reason| reason.code().unwrap_or("None").to_owned())
                            .collect()
                    }
                    _ => Vec::new(),
                };
                if codes.iter().any(|code| code == "ConditionalCheckFailed") {
                    Sent::ConditionFailed
                } else if codes.iter().any(|code| {
                    matches!(
                        code.as_str(),
                        "TransactionConflict" | "ThrottlingError" | "ProvisionedThroughputExceeded"
                    )
                }) || is_retryable(&error)
                {
                    Sent::Retry(Error::dynamodb("TransactWriteItems", table, error))
                } else {
                    Sent::Fatal(Error::dynamodb("TransactWriteItems", table, error))
                }
            }
        }
    }

    /// Both keys' items as of one moment (`TransactGetItems`).
    async fn read_both(
        &self,
        old_key: &Item,
        new_key: &Item,
    ) -> Result<(Option<Item>, Option<Item>), Error> {
        let table = self.table.name();
        let get = |key: &Item| {
            TransactGetItem::builder()
                .get(
                    Get::builder()
                        .table_name(table)
                        .set_key(Some(key.clone()))
                        .build()
                        .expect("table and key are set"),
                )
                .build()
        };
        let output = self
            .table
            .client()
            .transact_get_items()
            .transact_items(get(old_key))
            .transact_items(get(new_key))
            .send()
            .instrument(tracing::debug_span!(
                "stamp.request",
                operation = "TransactGetItems",
                table,
                entity = E::SCHEMA.type_name,
                index = tracing::field::Empty,
                item_count = 2,
                consumed_capacity = tracing::field::Empty,
            ))
            .await
            .map_err(|error| Error::dynamodb("TransactGetItems", table, error))?;
        let mut items = output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(|response| response.item.filter(|item| !item.is_empty()));
        let old = items.next().flatten();
        let new = items.next().flatten();
        Ok((old, new))
    }
}

/// One item's move: its old key and item, the item under its new key, and
/// the condition that it is unchanged.
struct Move {
    old_key: Item,
    old_item: Item,
    new_item: Item,
    unchanged: Placed,
    /// What it adds to a transaction's size, in bytes.
    size: usize,
}

/// `<path>.tmp`, beside the checkpoint.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}
