//! Moves in `TransactWriteItems`: grouped, with a per-item fallback that
//! reads both keys to learn why a condition failed.

use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsInput;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{Get, ReturnConsumedCapacity, TransactGetItem};
use futures::{TryStreamExt, stream};

use super::mover::{Running, Sent, Shared};
use crate::error::Error;
use crate::error::ItemKey;
use crate::error::JobError;
use crate::item::size::MAX_TRANSACTION_BYTES;
use crate::model::entity::{AttributeMap, Entity};
use crate::ops::transaction::TransactWrite;
use crate::ops::write::Placed;
use crate::request::executor::Call;
use crate::request::retry::{Backoff, is_retryable, log_retried};

/// One item's move: its old key and item, the item under its new key, and
/// the condition that it is unchanged.
pub(super) struct Move {
    pub(super) old_key: AttributeMap,
    pub(super) old_item: AttributeMap,
    pub(super) new_item: AttributeMap,
    pub(super) unchanged: Placed,
    /// What it adds to a transaction's size, in bytes.
    pub(super) size: usize,
    /// The key stays: only the index attributes are rewritten, by one put
    /// on condition that the item is unchanged.
    pub(super) in_place: bool,
}

impl<E: Entity> Running<'_, E> {
    /// Moves the items of one page in groups of up to `group_size` per
    /// transaction.
    pub(super) async fn move_page(
        &self,
        items: Vec<AttributeMap>,
        shared: &Shared,
        moved: &AtomicU64,
    ) -> Result<(), Error> {
        let moves: Vec<Move> = items
            .into_iter()
            .filter_map(|item| self.prepare(item, shared).ok())
            .collect();
        let mut groups: Vec<Vec<Move>> = Vec::new();
        let mut bytes = 0;
        // A move is two actions, and one guard action per unique value.
        let group_size = self
            .group_size
            .min(crate::item::size::MAX_TRANSACTION_ACTIONS / (2 + E::SCHEMA.unique_values.len()));
        for mv in moves {
            let full = groups.last().is_none_or(|group| {
                group.len() >= group_size || bytes + mv.size > MAX_TRANSACTION_BYTES
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
        let mut backoff = Backoff::new(self.retry);
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
                Sent::Retry(error) => {
                    log_retried(&error);
                    if !backoff.wait().await {
                        return Err(Error::Job(JobError::MigrationFailed {
                            entity: schema.type_name,
                            key: ItemKey::of_schema(schema, &group[0].old_key),
                            source: Box::new(error),
                        }));
                    }
                }
                Sent::Fatal(error) => {
                    return Err(Error::Job(JobError::MigrationFailed {
                        entity: schema.type_name,
                        key: ItemKey::of_schema(schema, &group[0].old_key),
                        source: Box::new(error),
                    }));
                }
            }
        }
    }

    /// Moves one item in its own transaction, until it is moved or found
    /// current, conflicting, gone or unmovable.
    async fn move_item(&self, mv: Move, shared: &Shared, moved: &AtomicU64) -> Result<(), Error> {
        let schema = E::SCHEMA;
        let old_key = ItemKey::of_schema(schema, &mv.old_key);
        let failed = |source: Error| {
            Error::Job(JobError::MigrationFailed {
                entity: schema.type_name,
                key: old_key.clone(),
                source: Box::new(source),
            })
        };
        let mut mv = mv;
        let mut backoff = Backoff::new(self.retry);
        loop {
            self.report(shared, |progress| progress.transactions += 1);
            match self.send_moves(std::slice::from_ref(&mv), shared).await {
                Sent::Moved => {
                    moved.fetch_add(1, Ordering::Relaxed);
                    self.report(shared, |progress| progress.migrated += 1);
                    return Ok(());
                }
                Sent::ConditionFailed => {
                    // Look at both keys as of one moment to learn why (one
                    // key for a rewrite in place, which is then the new key).
                    let new_key = crate::item::check::key_of(schema, &mv.new_item);
                    let (old_now, new_now) = if mv.in_place {
                        let now = self.read_one(&mv.old_key).await.map_err(failed)?;
                        (now, None)
                    } else {
                        self.read_both(&mv.old_key, &new_key)
                            .await
                            .map_err(failed)?
                    };
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
                            if !backoff.spend() {
                                return Err(failed(Error::ConditionFailed {
                                    entity: schema.type_name,
                                    key: old_key.clone(),
                                    item: Box::new(mv.old_item),
                                }));
                            }
                        }
                    }
                }
                Sent::Retry(error) => {
                    log_retried(&error);
                    if !backoff.wait().await {
                        return Err(failed(error));
                    }
                }
                Sent::Fatal(error) => return Err(failed(error)),
            }
        }
    }

    /// Sends moves in one transaction: for each, a put under the new key if
    /// it is free and a delete of the old key if the item is unchanged.
    async fn send_moves(&self, moves: &[Move], shared: &Shared) -> Sent {
        let schema = E::SCHEMA;
        let table = self.table.name();
        let mut transaction = TransactWrite::new();
        for mv in moves {
            if mv.in_place {
                transaction = transaction.put_item(
                    schema,
                    mv.new_item.clone(),
                    Some(mv.unchanged.clone()),
                    false,
                );
                continue;
            }
            let mut absent = crate::expression::Placeholders::default();
            let absent = Placed {
                expression: format!(
                    "attribute_not_exists({})",
                    absent.name(schema.partition_key.name)
                ),
                placeholders: absent,
            };
            transaction = transaction
                .put_item(schema, mv.new_item.clone(), Some(absent), true)
                .delete_key(schema, mv.old_key.clone(), Some(mv.unchanged.clone()));
        }
        let permit = shared.permits.acquire().await.expect("never closed");
        let result = match transaction.execute(self.table).await {
            Ok(result) => result,
            Err(error) => return Sent::Fatal(error),
        };
        drop(permit);
        match result {
            Ok(_) => Sent::Moved,
            Err(failure) => {
                let codes: Vec<String> = match failure.service_error() {
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
                }) || is_retryable(&failure.error)
                {
                    Sent::Retry(Error::from_failure(table, failure))
                } else {
                    Sent::Fatal(Error::from_failure(table, failure))
                }
            }
        }
    }

    /// The item at `key`, strongly consistent (`GetItem`).
    async fn read_one(&self, key: &AttributeMap) -> Result<Option<AttributeMap>, Error> {
        self.table
            .stored_item(E::SCHEMA.type_name, key.clone(), true)
            .await
    }

    /// Both keys' items as of one moment (`TransactGetItems`).
    async fn read_both(
        &self,
        old_key: &AttributeMap,
        new_key: &AttributeMap,
    ) -> Result<(Option<AttributeMap>, Option<AttributeMap>), Error> {
        let table = self.table.name();
        let get = |key: &AttributeMap| {
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
        let input = TransactGetItemsInput::builder()
            .transact_items(get(old_key))
            .transact_items(get(new_key))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("TransactGetItemsInput has no required fields");
        let output = self
            .table
            .execute_mapped(input, Call::of(E::SCHEMA.type_name).items(2))
            .await?;
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
