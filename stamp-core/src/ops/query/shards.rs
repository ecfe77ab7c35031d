//! Queries on a sharded GSI: one `Query` per shard, sent together, merged
//! in sort-key order as if the index were not sharded.
//!
//! # The merge
//!
//! Each shard's partition is queried with the same key condition, filter,
//! order and `Limit`. The results of all shards are merged by the index
//! sort key (DynamoDB orders `S` values by their UTF-8 bytes, as Rust's
//! `str` does), ties broken by shard number, then by the order within the
//! shard. A shard that answered with a `LastEvaluatedKey` may still hold
//! items after it, so an item of another shard is only returned when it
//! sorts before that key (the shard's *frontier*); the rest wait for the
//! next page, which reads them again. The first `Limit` items in merged
//! order are then the page; each shard's cursor position is after its last
//! item returned (or at its `LastEvaluatedKey`, or done, when every item it
//! sent was returned).
//!
//! So the items of every page, in order, are exactly those of the same
//! query on an unsharded index; when the type scope and the filter drop
//! nothing, each page is too (a page of `Limit` items is the first `Limit`
//! items of the merged order, since each shard was asked for its first
//! `Limit`). With a filter, a page holds the items that pass it among what
//! was read up to the frontier, at most `Limit`; pages may then split
//! differently from an unsharded query's, while the items across pages
//! are the same. Every page makes progress: the shard with the lowest
//! frontier has all its items returned, or `Limit` items are.

use std::cmp::Ordering;

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::AttributeValue;
use futures::future::try_join_all;

use super::Query;
use super::plan::Plan;
use super::send::{Page, Response, execute};
use crate::ops::cursor::{Cursor, CursorKey, Fingerprint, ShardStart};
use crate::{Entity, Error, Item, Table};

/// One shard's answer, its items in the order DynamoDB sent them.
struct ShardAnswer {
    items: Vec<Item>,
    last_evaluated_key: Option<Item>,
}

/// The requests of a sharded page: each shard's not done, by shard number,
/// with every shard's position and the fingerprint they share.
struct ShardPlans {
    plans: Vec<(u16, Plan)>,
    positions: Vec<ShardStart>,
    fingerprint: Fingerprint,
}

/// A merged page before decoding: items in order, the next position of
/// every shard, and the items DynamoDB evaluated.
pub(super) struct MergedPage {
    pub(super) items: Vec<Item>,
    pub(super) positions: Vec<ShardStart>,
    pub(super) scanned_count: u32,
}

impl<E: Entity, const INDEX: u8, O> Query<E, INDEX, O> {
    /// The shard count of the queried index, when it is sharded.
    pub(super) fn shards() -> Option<u16> {
        Self::index().and_then(|index| index.shards)
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
    /// ([`Error::KeyTooLong`]), which the text before the shard alone
    /// does not tell.
    fn shard_fingerprint(
        &self,
        table_name: &str,
        base: &str,
        shards: u16,
    ) -> Result<Fingerprint, Error> {
        let longest = Self::shard_partition(base, shards - 1).len();
        if longest > crate::PARTITION_KEY_LIMIT {
            let index = Self::index().expect("a sharded index");
            return Err(Error::KeyTooLong {
                entity: E::SCHEMA.type_name,
                template: index.partition_key.template.source,
                length: longest,
                limit: crate::PARTITION_KEY_LIMIT,
            });
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
        Ok(self
            .shard_plans(table_name, signing, count_only, limit, None)?
            .plans)
    }

    /// The requests of the shards not done, from `positions` (or from the
    /// cursor of [`after`](Self::after) when `None`), with the positions
    /// and the fingerprint they share.
    fn shard_plans(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        count_only: bool,
        limit: Option<u32>,
        positions: Option<Vec<ShardStart>>,
    ) -> Result<ShardPlans, Error> {
        let base = self.partition_key.as_ref().map_err(Clone::clone)?;
        let shards = Self::shards().expect("a sharded index");
        let fingerprint = self.shard_fingerprint(table_name, base, shards)?;
        let positions = match positions {
            Some(positions) => positions,
            None => self.start_positions(table_name, base, shards, fingerprint, signing)?,
        };
        let mut plans = Vec::new();
        for (shard, position) in (0..shards).zip(&positions) {
            let start = match position {
                ShardStart::Done => continue,
                ShardStart::Start => None,
                ShardStart::After(key) => Some(key.clone()),
            };
            let mut plan = self.render(
                table_name,
                signing,
                count_only,
                limit,
                &Self::shard_partition(base, shard),
                Some(fingerprint),
            )?;
            plan.input.exclusive_start_key = start;
            plans.push((shard, plan));
        }
        Ok(ShardPlans {
            plans,
            positions,
            fingerprint,
        })
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

    /// One merged page over the shards, from `positions`, with at most
    /// `remaining` items.
    pub(super) async fn merged_page(
        &self,
        table: &Table,
        positions: Option<Vec<ShardStart>>,
        remaining: Option<usize>,
    ) -> Result<(MergedPage, Fingerprint), Error> {
        let limit = self.request_limit(remaining);
        let ShardPlans {
            plans,
            positions,
            fingerprint,
        } = self.shard_plans(table.name(), table.cursor_key(), false, limit, positions)?;
        let responses = try_join_all(plans.into_iter().map(|(shard, plan)| async move {
            let response: Response =
                execute::<E>(table, plan.input.clone(), Self::index_name()).await?;
            Ok::<_, Error>((usize::from(shard), plan, response))
        }))
        .await?;
        let mut answers: Vec<Option<ShardAnswer>> = positions.iter().map(|_| None).collect();
        let mut scanned_count = 0;
        for (shard, plan, response) in responses {
            scanned_count += response.scanned_count;
            answers[shard] = Some(ShardAnswer {
                items: response
                    .items
                    .into_iter()
                    .filter(|item| !plan.excludes(item))
                    .collect(),
                last_evaluated_key: response.last_evaluated_key,
            });
        }
        let page = self.merge(positions, answers, limit.map(|limit| limit as usize));
        Ok((
            MergedPage {
                scanned_count,
                ..page
            },
            fingerprint,
        ))
    }

    /// The merge of the shards' answers (see the module's documentation).
    fn merge(
        &self,
        positions: Vec<ShardStart>,
        answers: Vec<Option<ShardAnswer>>,
        limit: Option<usize>,
    ) -> MergedPage {
        let (_, _, sort_attribute) = Self::key_attributes();
        let sort_value = |item: &Item| -> String {
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
        let frontiers: Vec<(String, usize)> = answers
            .iter()
            .enumerate()
            .filter_map(|(shard, answer)| {
                let key = answer.as_ref()?.last_evaluated_key.as_ref()?;
                Some((sort_value(key), shard))
            })
            .collect();
        let mut candidates: Vec<(String, usize, usize)> = answers
            .iter()
            .enumerate()
            .flat_map(|(shard, answer)| {
                answer
                    .iter()
                    .flat_map(|answer| answer.items.iter().enumerate())
                    .map(move |(position, item)| (sort_value(item), shard, position))
            })
            .collect();
        candidates.sort_by(|a, b| order((&a.0, a.1), (&b.0, b.1)).then(a.2.cmp(&b.2)));
        // The items that sort before every other shard's frontier, at most `limit`.
        let mut taken: Vec<(usize, usize)> = candidates
            .into_iter()
            .take_while(|(key, shard, _)| {
                frontiers.iter().all(|(frontier, from)| {
                    from == shard || order((key, *shard), (frontier, *from)) == Ordering::Less
                })
            })
            .map(|(_, shard, position)| (shard, position))
            .collect();
        if let Some(limit) = limit {
            taken.truncate(limit);
        }
        let mut answers = answers;
        let mut next = positions;
        let cursor_attributes = Self::cursor_attributes();
        for (shard, answer) in answers.iter_mut().enumerate() {
            let Some(answer) = answer else { continue };
            let returned = taken.iter().filter(|(from, _)| *from == shard).count();
            next[shard] = if returned == answer.items.len() {
                match answer.last_evaluated_key.take() {
                    Some(key) => ShardStart::After(key),
                    None => ShardStart::Done,
                }
            } else if returned > 0 {
                let last = &answer.items[returned - 1];
                ShardStart::After(
                    cursor_attributes
                        .iter()
                        .filter_map(|name| {
                            last.get(*name)
                                .map(|value| ((*name).to_owned(), value.clone()))
                        })
                        .collect(),
                )
            } else {
                next[shard].clone()
            };
        }
        let items = taken
            .into_iter()
            .map(|(shard, position)| {
                std::mem::take(
                    &mut answers[shard]
                        .as_mut()
                        .expect("a taken item's shard answered")
                        .items[position],
                )
            })
            .collect();
        MergedPage {
            items,
            positions: next,
            scanned_count: 0,
        }
    }

    /// [`send`](Self::send) on a sharded index: one merged page.
    pub(super) async fn send_sharded(&self, table: &Table) -> Result<Page<O>, Error> {
        let (page, fingerprint) = self.merged_page(table, None, self.max_items).await?;
        self.sharded_page(table, page, fingerprint)
    }

    /// The decoded page and its cursor.
    pub(super) fn sharded_page(
        &self,
        table: &Table,
        page: MergedPage,
        fingerprint: Fingerprint,
    ) -> Result<Page<O>, Error> {
        let cursor = if page
            .positions
            .iter()
            .all(|position| *position == ShardStart::Done)
        {
            None
        } else {
            Some(Cursor::encode_shards(
                &fingerprint,
                table.cursor_key(),
                &page.positions,
            )?)
        };
        Ok(Page {
            items: page
                .items
                .into_iter()
                .map(self.decode)
                .collect::<Result<_, _>>()?,
            cursor,
            scanned_count: page.scanned_count,
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
            .shard_requests(table_name, None, false, self.request_limit(self.max_items))?
            .into_iter()
            .map(|(_, plan)| plan.input)
            .collect())
    }
}
