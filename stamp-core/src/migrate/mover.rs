//! A running migration: each segment scanned page by page from its
//! checkpoint, each scanned item planned (current, to move, or skipped).

use std::ops::Deref;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;

use aws_sdk_dynamodb::types::AttributeValue;

use super::checkpoint::CheckpointFile;
use super::moves::Move;
use super::{Migration, MigrationCheck, MigrationProgress, SkippedItem};
use crate::error::Error;
use crate::item::size::item_size;
use crate::limits::MAX_EXPRESSION_BYTES;
use crate::model::entity::{AttributeMap, Entity};
use crate::ops::scan::Scan;
use crate::ops::write::unchanged_condition;
use crate::request::executor::Call;
use crate::request::retry::{Backoff, is_retryable, log_retried};
use crate::request::table::Table;

/// A migration given its table by [`Migration::run`].
pub(super) struct Running<'a, E> {
    pub(super) migration: Migration<E>,
    pub(super) table: &'a Table,
}

impl<E> Deref for Running<'_, E> {
    type Target = Migration<E>;

    fn deref(&self) -> &Migration<E> {
        &self.migration
    }
}

/// The state shared by the segments of one run.
pub(super) struct Shared {
    pub(super) progress: Mutex<MigrationProgress>,
    pub(super) conflicts: Mutex<Vec<AttributeMap>>,
    pub(super) skipped: Mutex<Vec<SkippedItem>>,
    pub(super) checkpoint: Mutex<CheckpointFile>,
    /// One permit per transaction in flight.
    pub(super) permits: tokio::sync::Semaphore,
}

/// What to do with one scanned item.
pub(super) enum Plan {
    /// It is at its current key, with its current index attributes.
    Current,
    /// Move it to this new key (partition key, sort key).
    Move(String, String),
    /// It is at its current key, but its index attributes are not what the
    /// entity's index templates give (a changed shard count or template, a
    /// new index): rewrite them in place.
    Reindex,
    /// Leave it, for this reason.
    Skip(String),
}

/// How one transaction ended.
pub(super) enum Sent {
    Moved,
    /// A condition failed: a new key is taken, or an item changed or is
    /// gone.
    ConditionFailed,
    /// Worth sending again after a delay.
    Retry(Error),
    /// Not worth sending again.
    Fatal(Error),
}

impl<E: Entity> Running<'_, E> {
    pub(super) fn report(&self, shared: &Shared, update: impl FnOnce(&mut MigrationProgress)) {
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
    pub(super) async fn run_segment(&self, segment: u32, shared: &Shared) -> Result<(), Error> {
        let (done, start) = {
            let checkpoint = shared.checkpoint.lock().expect("not poisoned");
            let state = &checkpoint.segments[segment as usize];
            (state.done, state.last_evaluated_key.clone())
        };
        if done {
            return Ok(());
        }
        let mut start: Option<AttributeMap> = start.map(|key| {
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

    /// Reads one segment to its end and sorts its items: current,
    /// unmovable, or still to move (counted, and the first one's key).
    pub(super) async fn check_segment(
        &self,
        segment: u32,
    ) -> Result<(MigrationCheck, u64, Option<AttributeMap>), Error> {
        let mut check = MigrationCheck::default();
        let mut remaining = 0;
        let mut first = None;
        let mut start = None;
        loop {
            let (items, next) = self.scan_page(segment, start.take()).await?;
            for item in items {
                check.scanned += 1;
                match Self::plan(&item) {
                    Plan::Current => check.current += 1,
                    Plan::Skip(_) => check.unmovable += 1,
                    Plan::Move(..) | Plan::Reindex => {
                        remaining += 1;
                        if first.is_none() {
                            first = Some(crate::item::check::key_of(E::SCHEMA, &item));
                        }
                    }
                }
            }
            match next {
                Some(key) => start = Some(key),
                None => return Ok((check, remaining, first)),
            }
        }
    }

    /// One page of the segment: the entity's items and the
    /// `LastEvaluatedKey`. Throttled and failed requests are retried under
    /// the migration's [`BatchRetry`].
    async fn scan_page(
        &self,
        segment: u32,
        start: Option<AttributeMap>,
    ) -> Result<(Vec<AttributeMap>, Option<AttributeMap>), Error> {
        let schema = E::SCHEMA;
        // Every item moves, expired ones too: a migration changes the
        // storage format, and DynamoDB deletes them by their TTL later.
        let mut scan = Scan::<E>::new()
            .segments(self.segments)
            .consistent_read()
            .include_expired();
        if let Some(page_size) = self.page_size {
            scan = scan.limit(page_size);
        }
        let mut input = scan.segment_request(self.table.name(), segment)?;
        input.exclusive_start_key = start;
        let mut backoff = Backoff::new(self.retry);
        let output = loop {
            match self
                .table
                .execute(input.clone(), Call::of(schema.type_name))
                .await
            {
                Ok(output) => break output,
                Err(failure) => {
                    let retryable = is_retryable(&failure.error);
                    let error = Error::from_failure(self.table.name(), failure);
                    if !retryable {
                        return Err(error);
                    }
                    log_retried(&error);
                    if !backoff.wait().await {
                        return Err(error);
                    }
                }
            }
        };
        Ok((output.items.unwrap_or_default(), output.last_evaluated_key))
    }

    /// Decides what to do with a stored item of the entity.
    fn plan(item: &AttributeMap) -> Plan {
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
            return match index_attributes::<E>(&entity) {
                Ok(expected) if same_index_attributes::<E>(item, &expected) => Plan::Current,
                Ok(_) => Plan::Reindex,
                Err(error) => Plan::Skip(format!("its index attributes cannot be built: {error}")),
            };
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
    pub(super) fn prepare(&self, item: AttributeMap, shared: &Shared) -> Result<Move, ()> {
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
        let (new_key, in_place) = match Self::plan(&item) {
            Plan::Current => {
                self.report(shared, |progress| progress.already_current += 1);
                return Err(());
            }
            Plan::Skip(reason) => {
                skip(reason);
                return Err(());
            }
            Plan::Move(new_pk, new_sk) => (Some((new_pk, new_sk)), false),
            Plan::Reindex => (None, true),
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
        if let Some((new_pk, new_sk)) = new_key {
            new_item.insert(
                schema.partition_key.name.to_owned(),
                AttributeValue::S(new_pk),
            );
            new_item.insert(schema.sort_key.name.to_owned(), AttributeValue::S(new_sk));
        }
        // The index attributes follow the current templates and the new key
        // (a sharded index's shard is a function of the primary key).
        let expected = E::from_item(item.clone())
            .and_then(|entity| index_attributes::<E>(&entity))
            .map_err(|error| skip(format!("its index attributes cannot be built: {error}")))?;
        for name in schema.index_key_attributes() {
            match expected.get(name) {
                Some(value) => new_item.insert(name.to_owned(), value.clone()),
                None => new_item.remove(name),
            };
        }
        // The put, the key and the condition's values, which repeat the item.
        let size = 2 * item_size(&item) + item_size(&old_key);
        Ok(Move {
            old_key,
            old_item: item,
            new_item,
            unchanged,
            size,
            in_place,
        })
    }
}

/// The index attributes (GSIs and LSIs) `to_item` writes for `entity` (a
/// sparse index's left out when it does not hold the item).
fn index_attributes<E: Entity>(entity: &E) -> Result<AttributeMap, Error> {
    let mut item = entity.to_item()?;
    let names: Vec<&str> = E::SCHEMA.index_key_attributes().collect();
    item.retain(|name, _| names.contains(&name.as_str()));
    Ok(item)
}

/// Whether `stored` has exactly the `expected` index attributes (compared
/// as DynamoDB stores them).
fn same_index_attributes<E: Entity>(stored: &AttributeMap, expected: &AttributeMap) -> bool {
    E::SCHEMA
        .index_key_attributes()
        .all(|name| crate::item::stored::same_attribute(stored.get(name), expected.get(name)))
}
