//! Key migrations: moving every item of an entity from its previous key
//! format (`#[stamp(previous(pk = "…", sk = "…"))]`) to its current one:
//! [`Migration`], whose documentation says what a run does.

use std::fmt;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tracing::Instrument;

use crate::error::Error;
use crate::error::{JobError, Refusal};
use crate::item::size::MAX_TRANSACTION_ACTIONS;
use crate::model::entity::{AttributeMap, Entity};
use crate::request::retry::BatchRetry;
use crate::request::table::Table;
use crate::unit::ScanSegment;

mod checkpoint;
mod mover;
mod moves;
mod unique;

pub use unique::{UniqueBackfill, UniqueBackfillOutcome, UniqueConflict};

use crate::error::ItemKey;
use mover::{Running, Shared};

/// A key migration of entity `E` on one table, built by
/// `Migration::<E>::new()`; nothing is sent until [`run`](Self::run) names
/// the table.
///
/// `E` must declare its previous key format with
/// `#[stamp(previous(pk = "…", sk = "…"))]`.
///
/// # What a run does
///
/// DynamoDB keys are immutable, so a new key format means writing each item
/// again under its new key and deleting it under the old one.
/// A migration does that as a backfill that is safe to interrupt:
///
/// - it scans the table in parallel segments for the entity's items (by the
///   type attribute), with strongly consistent reads;
/// - each item whose stored key is its previous-format key moves in one
///   `TransactWriteItems`: a put of the item under its new key, on condition
///   that no item has that key (`attribute_not_exists`), and a delete of the
///   old key, on condition that the item is unchanged since it was read
///   (every attribute equal to what was read, and every other attribute the
///   entity knows still absent). Both happen or neither does, so an item is
///   never lost and never present twice;
/// - items already at their current key are left alone, so running the
///   migration again, or after a crash, changes nothing that is done;
/// - after every page of a segment is fully processed, the segment's
///   `LastEvaluatedKey` is written to the checkpoint file, and a later run
///   resumes each segment from there.
///
/// The moved item keeps every attribute as stored (including attributes
/// the struct does not know, the version and the time stamps); only the
/// partition and sort key attributes change, and the index attributes,
/// which follow the entity's current index templates and the new key.
///
/// The same run is an **index backfill**: an item at its current key whose
/// index attributes differ from what the entity's templates give (the
/// shard count of a sharded GSI changed, a GSI template changed, a GSI was
/// added) is rewritten in place, by one put on condition that the item is
/// unchanged. So changing `shards = 8` to `shards = 16` is: deploy the new
/// count, then run `Migration::<E>::new().run(&table)`. While it runs, and
/// while code with the old count still runs:
///
/// - growing the count (8 to 16), a query on the new count reads the old
///   partitions too (`#0` to `#7` are among `#0` to `#15`), so it finds
///   every item; a query on the old count misses the items already moved
///   to shards 8 to 15, and an old writer puts new items on the old count
///   (run the migration again after the last old writer is gone);
/// - shrinking the count (16 to 8), a query on the new count misses the
///   items still on shards 8 to 15 until the migration has moved them.
///
/// An entity without a previous key format can run it too; one with
/// neither a previous format nor an index has nothing to migrate.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>
/// and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
///
/// # Example
///
/// ```ignore
/// let outcome = Migration::<Member>::new()
///     .segments(4)
///     .checkpoint_file("member-keys.checkpoint.json")
///     .on_progress(|progress| eprintln!("{progress}"))
///     .run(&table)
///     .await?;
/// assert!(outcome.conflicts.is_empty());
/// ```
pub struct Migration<E> {
    pub(super) segments: u32,
    pub(super) concurrency: usize,
    pub(super) group_size: usize,
    pub(super) page_size: Option<u32>,
    pub(super) checkpoint: Option<PathBuf>,
    pub(super) progress: Option<Arc<ProgressCallback>>,
    pub(super) retry: BatchRetry,
    entity: PhantomData<fn() -> E>,
}

pub(super) type ProgressCallback = dyn Fn(&MigrationProgress) + Send + Sync;

impl<E> fmt::Debug for Migration<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Migration")
            .field("entity", &std::any::type_name::<E>())
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
    /// Items moved from their previous key to their current one, or whose
    /// index attributes were rewritten in place to the current templates.
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
    pub key: AttributeMap,
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
    pub conflicts: Vec<AttributeMap>,
    /// Items left alone, with the reason.
    pub skipped: Vec<SkippedItem>,
    /// Segments resumed from the checkpoint rather than started afresh.
    pub resumed_segments: u32,
    /// How long the run took.
    pub elapsed: Duration,
}

/// What [`Migration::check`] found in a table where the migration is
/// complete: every item of the entity at its current key with its current
/// index attributes, but those it cannot move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationCheck {
    /// Items of the entity read by the check's scan.
    pub scanned: u64,
    /// Items at their current key with their current index attributes.
    pub current: u64,
    /// Items a migration leaves alone ([`MigrationOutcome::skipped`]
    /// says why: they do not decode, or their key fits neither format).
    pub unmovable: u64,
}

impl<E: Entity> Migration<E> {
    /// A migration of `E`'s items: 4 segments, 4 transactions in
    /// flight per segment, pages of up to 1 MB (DynamoDB's default), no
    /// checkpoint, [`BatchRetry::default`] for throttled and conflicting
    /// transactions.
    pub fn new() -> Self {
        Migration {
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

    /// Runs the migration on `table` to the end of every segment.
    ///
    /// # Errors
    ///
    /// Before sending: [`JobError::NoPreviousKeyFormat`],
    /// [`Refusal::InvalidQuery`] for a segment count outside 1 to 1,000,000
    /// or a page size of 0, and [`JobError::MigrationCheckpoint`] when the
    /// checkpoint cannot be read or belongs to another table, entity or
    /// segment count. While running: [`Error::DynamoDb`] for a failed scan,
    /// [`JobError::MigrationFailed`] (with the item's key) when a move fails
    /// after its retries, and [`JobError::MigrationCheckpoint`] when the
    /// checkpoint cannot be written. After an error, everything moved so far
    /// stays moved; run again to resume.
    pub async fn run(self, table: &Table) -> Result<MigrationOutcome, Error> {
        self.run_units(table, None).await
    }

    /// Runs one unit of the migration on `table`: segment `segment.index`
    /// of `segment.of` to its end, and no other, so that a runner outside
    /// Stamp (a Step Functions distributed map, an indexed Kubernetes Job,
    /// the reference CLI's `migrate --segment i --of N`) spreads the
    /// segments over workers and machines, then runs
    /// [`check`](Self::check) once every unit has finished.
    ///
    /// A unit is idempotent on its own: each move is one conditional
    /// `TransactWriteItems` and an item already at its new key is left
    /// alone, so running a unit twice, or again from its start on another
    /// machine after a kill, moves each item of the segment exactly once.
    /// The checkpoint file ([`checkpoint_file`](Self::checkpoint_file)) is
    /// an optimisation there, not the source of truth: a unit started
    /// without it scans its segment from the start and finds the moved
    /// items current. Give each unit a file of its own (two processes
    /// writing one file at once would garble it); a file written by a run
    /// of `segment.of` segments resumes this unit's segment, and its other
    /// segments are left as they are. [`segments`](Self::segments) is not
    /// used: the unit names its count.
    ///
    /// [`MigrationOutcome::progress`] counts this unit; `total_segments`
    /// is `segment.of`, and `segments_done` counts the segments the
    /// checkpoint marks done.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run), and [`Refusal::InvalidQuery`] with
    /// [`QueryReason::ScanSegment`](crate::QueryReason::ScanSegment) for a
    /// segment DynamoDB does not have (`of` outside 1 to 1,000,000, or
    /// `index` not below it), before sending.
    pub async fn run_segment(
        mut self,
        table: &Table,
        segment: ScanSegment,
    ) -> Result<MigrationOutcome, Error> {
        segment.check()?;
        self.segments = segment.of;
        self.run_units(table, Some(segment.index)).await
    }

    /// The final step of a migration run in units: scans the whole table
    /// (in [`segments`](Self::segments) parallel segments, strongly
    /// consistent) and checks that no item of the entity is still to move,
    /// that is at its previous key or with index attributes the entity's
    /// templates do not give. Sends only `Scan`s; writes nothing.
    ///
    /// # Errors
    ///
    /// [`JobError::MigrationIncomplete`] with the count and the first key
    /// when an item is still to move (a unit not run, or not finished, or
    /// an item whose new key is taken); before sending, as
    /// [`run`](Self::run); [`Error::DynamoDb`] for a failed scan.
    pub async fn check(self, table: &Table) -> Result<MigrationCheck, Error> {
        self.check_ready()?;
        let running = Running {
            migration: self,
            table,
        };
        let found = futures::future::try_join_all(
            (0..running.segments).map(|segment| running.check_segment(segment)),
        )
        .await?;
        let mut check = MigrationCheck::default();
        let mut first = None;
        let mut remaining = 0;
        for (segment_check, segment_remaining, segment_first) in found {
            check.scanned += segment_check.scanned;
            check.current += segment_check.current;
            check.unmovable += segment_check.unmovable;
            remaining += segment_remaining;
            if first.is_none() {
                first = segment_first;
            }
        }
        match first {
            Some(first) => Err(Error::Job(JobError::MigrationIncomplete {
                entity: E::SCHEMA.type_name,
                remaining,
                first: ItemKey::of_schema(E::SCHEMA, &first),
            })),
            None => Ok(check),
        }
    }

    /// The checks made before any request of a run or a check.
    fn check_ready(&self) -> Result<(), Error> {
        let schema = E::SCHEMA;
        if schema.previous_key.is_none() && schema.indexes.is_empty() {
            return Err(Error::Job(JobError::NoPreviousKeyFormat {
                entity: schema.type_name,
            }));
        }
        if !(1..=1_000_000).contains(&self.segments) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::MigrationSegments {
                    segments: self.segments,
                },
            }));
        }
        if self.page_size == Some(0) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::Zero {
                    option: "page_size",
                },
            }));
        }
        Ok(())
    }

    /// Runs every segment (`only` is `None`) or one.
    async fn run_units(self, table: &Table, only: Option<u32>) -> Result<MigrationOutcome, Error> {
        let started = Instant::now();
        self.check_ready()?;
        let running = Running {
            migration: self,
            table,
        };
        let checkpoint = running.load_checkpoint()?;
        let resumed_segments = checkpoint
            .segments
            .iter()
            .enumerate()
            .filter(|(segment, state)| {
                state.pages > 0 && only.is_none_or(|only| only as usize == *segment)
            })
            .count() as u32;
        let segments_done = checkpoint
            .segments
            .iter()
            .filter(|segment| segment.done)
            .count() as u32;
        let shared = Shared {
            progress: Mutex::new(MigrationProgress {
                segments_done,
                total_segments: running.segments,
                ..MigrationProgress::default()
            }),
            conflicts: Mutex::default(),
            skipped: Mutex::default(),
            checkpoint: Mutex::new(checkpoint),
            permits: tokio::sync::Semaphore::new(running.concurrency),
        };
        let segments: Vec<u32> = match only {
            Some(segment) => vec![segment],
            None => (0..running.segments).collect(),
        };
        futures::future::try_join_all(segments.into_iter().map(|segment| {
            running
                .run_segment(segment, &shared)
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
}

impl<E: Entity> Default for Migration<E> {
    fn default() -> Self {
        Migration::new()
    }
}
