//! Queries on a sharded GSI: one `Query` per shard, sent together, merged
//! in sort-key order as if the index were not sharded.
//!
//! # The merge
//!
//! Each shard's partition is queried with the same key condition, filter,
//! order and `Limit`. The merge keeps, per shard, the items read and not
//! yet returned, and where the shard goes on after them (its
//! `LastEvaluatedKey`, or done). It returns items in merged order: by the
//! index sort key (DynamoDB orders `S` values by their UTF-8 bytes, as
//! Rust's `str` does), ties broken by shard number, then by the order
//! within the shard. A shard whose items read have all been returned and
//! that has more may still hold items after its `LastEvaluatedKey` (its
//! *frontier*), so an item of another shard is only returned when it sorts
//! before that key; otherwise the merge waits, and that shard, and only
//! that one, is queried again. So each item is read once by a stream, and
//! each shard costs the requests the same query on its partition alone
//! costs (`k / Limit + 1` for `k` items, with a `LastEvaluatedKey` after
//! each full page).
//!
//! A page of [`send`](Query::send) is one round (a request to every shard
//! the merge needs), or, with `max_items`, the rounds until it holds that
//! many items, within the request budget (`max_requests` per shard). Its
//! cursor holds each shard's position: after its last item returned, or
//! at its `LastEvaluatedKey` or done when every item it sent was
//! returned; the items read and not returned are read again by the next
//! page.
//!
//! So the items of every page, in order, are exactly those of the same
//! query on an unsharded index; when the type scope and the filter drop
//! nothing, each page is too (a page of `Limit` items is the first `Limit`
//! items of the merged order, since each shard was asked for its first
//! `Limit`). With a filter, a page holds the items that pass it among what
//! was read up to the frontier, at most `Limit`; pages may then split
//! differently from an unsharded query's, while the items across pages
//! are the same. Every round makes progress: the shard with the lowest
//! frontier has all its items returned, or `Limit` items are.

use std::cmp::Ordering;
use std::collections::VecDeque;

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::AttributeValue;
use futures::future::try_join_all;

use super::Query;
use super::plan::Plan;
use super::send::{Page, Response, execute};
use crate::error::Error;
use crate::error::KeyError;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::IndexSchema;
use crate::model::index::QueryIndex;
use crate::ops::cursor::{Cursor, Fingerprint, ShardStart};
use crate::ops::query::DEFAULT_MAX_REQUESTS;
use crate::request::cursor_key::CursorKey;
use crate::request::table::Table;

/// One shard in a merge.
struct ShardState {
    /// After the last item returned from the shard, or where it started.
    position: ShardStart,
    /// Items read and not yet returned, in the query's order.
    buffer: VecDeque<AttributeMap>,
    /// Where the shard goes on after `buffer`: after its
    /// `LastEvaluatedKey`, or done; `None` before its first response.
    read_to: Option<ShardStart>,
    /// Requests sent to the shard.
    requests: u32,
    /// Responses in a row that held fewer items than their limit.
    shorts: u32,
}

impl ShardState {
    /// Where the shard goes on when every item read has been returned.
    fn next(&self) -> &ShardStart {
        self.read_to.as_ref().unwrap_or(&self.position)
    }

    /// The start of the shard's next request, when the merge needs one:
    /// every item read was returned, and the shard has more.
    fn next_start(&self) -> Option<Option<AttributeMap>> {
        if !self.buffer.is_empty() {
            return None;
        }
        match self.next() {
            ShardStart::Done => None,
            ShardStart::Start => Some(None),
            ShardStart::After(key) => Some(Some(key.clone())),
        }
    }

    /// The shard's position in a cursor.
    fn cursor_position(&self) -> ShardStart {
        if self.buffer.is_empty() {
            self.next().clone()
        } else {
            self.position.clone()
        }
    }
}

/// A merge over the shards of one query (see the module's documentation).
pub(super) struct ShardMerge {
    /// The partition key before the shard number.
    base: String,
    fingerprint: Fingerprint,
    shards: Vec<ShardState>,
    /// Items DynamoDB evaluated (`ScannedCount`), summed.
    scanned_count: u32,
}

impl ShardMerge {
    /// Whether every shard's items have been read and returned.
    pub(super) fn finished(&self) -> bool {
        self.shards
            .iter()
            .all(|shard| shard.buffer.is_empty() && *shard.next() == ShardStart::Done)
    }

    fn positions(&self) -> Vec<ShardStart> {
        self.shards
            .iter()
            .map(ShardState::cursor_position)
            .collect()
    }
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// The shard count of the queried index, when it is sharded.
    pub(super) fn shards() -> Option<u16> {
        Self::index().and_then(IndexSchema::shards)
    }

    /// The partition key of shard `shard`: the text before the shard, which
    /// the generated `query_gsiN` built, and the shard number.
    fn shard_partition(base: &str, shard: u16) -> String {
        format!("{base}{shard}")
    }

    /// The fingerprint shared by every shard's request: the request with
    /// `<shard of N>` in place of the shard number, so that a cursor is
    /// tied to the shard count too. First, the check that the longest
    /// shard's partition key fits DynamoDB's 2,048 bytes
    /// ([`KeyError::KeyTooLong`]), which the text before the shard alone
    /// does not tell.
    fn shard_fingerprint(
        &self,
        table_name: &str,
        base: &str,
        shards: u16,
    ) -> Result<Fingerprint, Error> {
        let longest = Self::shard_partition(base, shards - 1).len();
        if longest > crate::limits::MAX_PARTITION_KEY_BYTES {
            let index = Self::index().expect("a sharded index");
            return Err(Error::Key(KeyError::KeyTooLong {
                entity: E::SCHEMA.type_name,
                template: index
                    .partition_template()
                    .expect("a sharded index has a template")
                    .source,
                length: longest,
                limit: crate::limits::MAX_PARTITION_KEY_BYTES,
            }));
        }
        let partition = format!("{base}<shard of {shards}>");
        Ok(self
            .render(table_name, None, false, None, &partition, None)?
            .fingerprint)
    }

    /// Every shard's request for the first page, in shard order: what
    /// [`send`](Self::send) sends, each shard from the position of the
    /// cursor given to [`after`](Self::after) (a shard the cursor has
    /// finished is left out).
    pub(super) fn shard_requests(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        count_only: bool,
        limit: Option<u32>,
    ) -> Result<Vec<(u16, Plan)>, Error> {
        let merge = self.start_merge(table_name, signing)?;
        let mut plans = Vec::new();
        for (shard, state) in merge.shards.iter().enumerate() {
            if let Some(start) = state.next_start() {
                let plan =
                    self.shard_plan(table_name, signing, &merge, shard, count_only, limit, start)?;
                plans.push((shard as u16, plan));
            }
        }
        Ok(plans)
    }

    /// The request of shard `shard` from `start`: the one plan builder of
    /// a sharded query's requests.
    #[allow(clippy::too_many_arguments)]
    fn shard_plan(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        merge: &ShardMerge,
        shard: usize,
        count_only: bool,
        limit: Option<u32>,
        start: Option<AttributeMap>,
    ) -> Result<Plan, Error> {
        let shard = u16::try_from(shard).expect("at most 65,535 shards");
        let mut plan = self.render(
            table_name,
            signing,
            count_only,
            limit,
            &Self::shard_partition(&merge.base, shard),
            Some(merge.fingerprint),
        )?;
        plan.input.exclusive_start_key = start;
        Ok(plan)
    }

    /// The position of every shard given by the cursor of
    /// [`after`](Self::after), each key checked against its shard's
    /// partition and the key condition; every shard at the start without
    /// one.
    fn start_positions(
        &self,
        table_name: &str,
        base: &str,
        shards: u16,
        fingerprint: Fingerprint,
        signing: Option<&CursorKey>,
    ) -> Result<Vec<ShardStart>, Error> {
        let Some(cursor) = &self.start else {
            return Ok(vec![ShardStart::Start; usize::from(shards)]);
        };
        let positions = cursor.decode_shards(&fingerprint, signing, shards)?;
        let accept = self
            .render(table_name, None, false, None, base, None)?
            .accept;
        let (partition_attribute, _, sort_attribute) = Self::key_attributes();
        for (shard, position) in (0..shards).zip(&positions) {
            if let ShardStart::After(key) = position {
                Self::check_start(
                    key,
                    partition_attribute,
                    &Self::shard_partition(base, shard),
                    sort_attribute,
                    &accept,
                )?;
            }
        }
        Ok(positions)
    }

    /// A merge from the cursor of [`after`](Self::after) (every shard at
    /// the start without one), after the checks of the options and the
    /// cursor; nothing is sent.
    pub(super) fn start_merge(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
    ) -> Result<ShardMerge, Error> {
        let base = self.partition_key.as_ref().map_err(Clone::clone)?;
        let shards = Self::shards().expect("a sharded index");
        let fingerprint = self.shard_fingerprint(table_name, base, shards)?;
        let positions = self.start_positions(table_name, base, shards, fingerprint, signing)?;
        Ok(ShardMerge {
            base: base.clone(),
            fingerprint,
            shards: positions
                .into_iter()
                .map(|position| ShardState {
                    position,
                    buffer: VecDeque::new(),
                    read_to: None,
                    requests: 0,
                    shorts: 0,
                })
                .collect(),
            scanned_count: 0,
        })
    }

    /// Sends, together, the next request of every shard the merge needs
    /// (its items read have all been returned, and it has more), each
    /// with the `Limit` of [`request_limit`](Self::request_limit) for the
    /// `remaining` items wanted. Sends nothing, and returns `false`, when
    /// no shard needs one, or when one of them has had `budget` requests.
    pub(super) async fn fill(
        &self,
        table: &Table,
        merge: &mut ShardMerge,
        remaining: Option<usize>,
        budget: Option<u32>,
    ) -> Result<bool, Error> {
        let mut plans = Vec::new();
        for (shard, state) in merge.shards.iter().enumerate() {
            let Some(start) = state.next_start() else {
                continue;
            };
            if budget.is_some_and(|budget| state.requests >= budget) {
                return Ok(false);
            }
            let limit = self.request_limit(remaining, state.shorts);
            let plan = self.shard_plan(
                table.name(),
                table.cursor_key(),
                merge,
                shard,
                false,
                limit,
                start,
            )?;
            plans.push((shard, limit, plan));
        }
        if plans.is_empty() {
            return Ok(false);
        }
        let responses = try_join_all(plans.into_iter().map(|(shard, limit, plan)| async move {
            let response: Response =
                execute::<E>(table, plan.input.clone(), Self::index_name()).await?;
            Ok::<_, Error>((shard, limit, plan, response))
        }))
        .await?;
        for (shard, limit, plan, response) in responses {
            merge.scanned_count += response.scanned_count;
            let state = &mut merge.shards[shard];
            // Every item before where this request started was returned.
            if let Some(start) = state.read_to.take() {
                state.position = start;
            }
            state.buffer = response
                .items
                .into_iter()
                .filter(|item| !plan.excludes(item))
                .collect();
            state.read_to = Some(match response.last_evaluated_key {
                Some(key) => ShardStart::After(key),
                None => ShardStart::Done,
            });
            state.requests += 1;
            if limit.is_some_and(|limit| state.buffer.len() < limit as usize) {
                state.shorts += 1;
            } else {
                state.shorts = 0;
            }
        }
        Ok(true)
    }

    /// The next item in merged order, when the merge knows it: `None` when
    /// a shard whose items read were all returned has more that might
    /// sort before it (see the module's documentation), or when nothing
    /// is left.
    pub(super) fn pop(&self, merge: &mut ShardMerge) -> Option<AttributeMap> {
        let (_, _, sort_attribute) = Self::key_attributes();
        let sort_value = |item: &AttributeMap| -> String {
            match sort_attribute.and_then(|name| item.get(name)) {
                Some(AttributeValue::S(text)) => text.clone(),
                _ => String::new(),
            }
        };
        let descending = self.newest_first;
        // The merged order of (sort key, shard) pairs.
        let order = |a: (&str, usize), b: (&str, usize)| -> Ordering {
            let by_key = a.0.cmp(b.0);
            let by_key = if descending { by_key.reverse() } else { by_key };
            by_key.then(a.1.cmp(&b.1))
        };
        let (key, best) = merge
            .shards
            .iter()
            .enumerate()
            .filter_map(|(shard, state)| Some((sort_value(state.buffer.front()?), shard)))
            .min_by(|a, b| order((&a.0, a.1), (&b.0, b.1)))?;
        for (shard, state) in merge.shards.iter().enumerate() {
            if shard == best || !state.buffer.is_empty() {
                continue;
            }
            match state.next() {
                ShardStart::Done => {}
                ShardStart::Start => return None,
                ShardStart::After(frontier) => {
                    if order((&key, best), (&sort_value(frontier), shard)) != Ordering::Less {
                        return None;
                    }
                }
            }
        }
        let state = &mut merge.shards[best];
        let item = state.buffer.pop_front()?;
        state.position = ShardStart::After(self.cursor_key(&item));
        Some(item)
    }

    /// [`send`](Self::send) on a sharded index: one round, or with
    /// [`max_items`](Self::max_items) the rounds until it has them, the
    /// shards are done, or a shard has had
    /// [`max_requests`](Self::max_requests).
    pub(super) async fn send_sharded(&self, table: &Table) -> Result<Page<O>, Error> {
        let mut merge = self.start_merge(table.name(), table.cursor_key())?;
        let cap = self.max_items.or(self.limit.map(|limit| limit as usize));
        let budget = self
            .max_items
            .map(|_| self.max_requests.unwrap_or(DEFAULT_MAX_REQUESTS));
        let mut raw = Vec::new();
        let mut missing = 0;
        loop {
            let remaining = self.max_items.map(|wanted| wanted - raw.len());
            let sent = self.fill(table, &mut merge, remaining, budget).await?;
            self.take_merged(table, &mut merge, cap, &mut raw, &mut missing)
                .await?;
            if self.max_items.is_none() || !sent || cap.is_some_and(|cap| raw.len() >= cap) {
                break;
            }
        }
        let cursor = if merge.finished() {
            None
        } else {
            Some(Cursor::encode_shards(
                &merge.fingerprint,
                table.cursor_key(),
                &merge.positions(),
            )?)
        };
        Ok(Page {
            items: raw.into_iter().map(self.decode).collect::<Result<_, _>>()?,
            cursor,
            scanned_count: merge.scanned_count,
            missing,
        })
    }

    /// [`count`](Self::count) on a sharded index: the sum of the shards'
    /// counts, counted together.
    pub(super) async fn count_sharded(&self, table: &Table) -> Result<u64, Error> {
        let plans = self.shard_requests(table.name(), table.cursor_key(), true, self.limit)?;
        let counts = try_join_all(plans.into_iter().map(|(_, plan)| async move {
            super::send::count_from::<E>(table, plan, Self::index_name()).await
        }))
        .await?;
        Ok(counts.into_iter().sum())
    }

    /// Every shard's first request, as [`requests`](Self::requests) gives
    /// them.
    pub(super) fn sharded_inputs(&self, table_name: &str) -> Result<Vec<QueryInput>, Error> {
        Ok(self
            .shard_requests(
                table_name,
                None,
                false,
                self.request_limit(self.max_items, 0),
            )?
            .into_iter()
            .map(|(_, plan)| plan.input)
            .collect())
    }
}
