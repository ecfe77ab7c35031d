//! Sending a query: one page ([`Query::send`]), every page as a stream
//! ([`Query::stream`]), or the count ([`Query::count`]), each request in a
//! `stamp.request` span.

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::AttributeValue;
use futures::{Stream, StreamExt, TryStreamExt, stream};

use super::Query;
use super::hydrate::{Slot, take};
use super::plan::Plan;
use crate::error::Error;
use crate::error::Refusal;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::QueryIndex;
use crate::ops::cursor::Cursor;
use crate::ops::query::DEFAULT_MAX_REQUESTS;
use crate::request::executor::Call;
use crate::request::table::Table;

/// A page of results: one `Query` response (1 MB at most); with
/// [`Query::max_items`], the responses that `send` followed until it had
/// that many items (at most [`Query::max_requests`] of them), truncated to
/// them. On a sharded GSI, the merge of one response per shard, or of the
/// rounds that `max_items` needs (see [`Query::send`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Page<O> {
    /// The items, decoded, in sort-key order (as the query asked).
    pub items: Vec<O>,
    /// Where the next page starts; `None` after the last page. Hand
    /// [`Cursor::as_str`] to a client; it is signed, not encrypted (see
    /// [`Cursor`]).
    pub cursor: Option<Cursor>,
    /// Items DynamoDB evaluated before the filter (`ScannedCount`).
    pub scanned_count: u32,
    /// Of a [`hydrate`](Query::hydrate)d query: the index entries of the
    /// page whose item the table no longer held when it was read (deleted
    /// between the index read and the `BatchGetItem`), left out of
    /// `items`; 0 otherwise. The cursor is after them: the next page does
    /// not count them again.
    pub missing: u32,
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// The exact `Query` request the first page would send, without a
    /// network: expressions, placeholders, index, order, limit.
    ///
    /// Without a table there is no cursor key: a cursor's signature is not
    /// checked here (its payload is), while [`send`](Self::send),
    /// [`stream`](Self::stream) and [`count`](Self::count) check it with
    /// the table's key.
    ///
    /// A query on a sharded index sends one request per shard:
    /// [`requests`](Self::requests) gives them, and this returns
    /// [`Refusal::InvalidQuery`].
    ///
    /// # Errors
    ///
    /// The errors [`send`](Self::send) finds before sending.
    pub fn request(&self, table_name: &str) -> Result<QueryInput, Error> {
        if let Some(shards) = Self::shards() {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::ShardedRequest { shards },
            }));
        }
        Ok(self
            .plan(
                table_name,
                None,
                false,
                self.request_limit(self.max_items, 0),
            )?
            .input)
    }

    /// The requests the first page sends, without a network: one `Query`,
    /// or on a sharded index one per shard, in shard order (leaving out
    /// the shards that the cursor of [`after`](Self::after) has finished).
    ///
    /// # Errors
    ///
    /// The errors [`send`](Self::send) finds before sending.
    pub fn requests(&self, table_name: &str) -> Result<Vec<QueryInput>, Error> {
        match Self::shards() {
            Some(_) => self.sharded_inputs(table_name),
            None => Ok(vec![self.request(table_name)?]),
        }
    }

    /// Sends one `Query` request and returns its page; with
    /// [`max_items`](Self::max_items), follows DynamoDB's pages until it
    /// has that many items, the query ends, or the request budget
    /// ([`max_requests`](Self::max_requests), [`DEFAULT_MAX_REQUESTS`]
    /// by default) runs out.
    ///
    /// On a sharded index (`shards = N`) it sends one `Query` per shard,
    /// together, and merges their items in sort-key order: the items of
    /// the pages are those of the same query on an unsharded index, in the
    /// same order (ties between shards by shard number). A page is one
    /// round of requests (one to each shard the merge needs) or, with
    /// `max_items`, the rounds until it has that many items; an item of one
    /// shard is returned only once no other shard can still hold an item
    /// before it, and the items read past the page's last one are read
    /// again by the next page. With a filter, pages may split differently
    /// from an unsharded query's; the items across pages are the same.
    ///
    /// # Errors
    ///
    /// Before sending: a key value error, [`Refusal::ConsistentReadOnIndex`],
    /// [`Refusal::AttributesNotProjected`] (the table knows its definition,
    /// [`Table::with_definition`], and the GSI, of any kind, does not
    /// project what the query reads), [`Refusal::InvalidQuery`],
    /// [`Refusal::InvalidSortKeyRange`], [`Refusal::InvalidCursor`] or
    /// [`Refusal::CursorMismatch`]. After: [`Error::DynamoDb`], and the
    /// errors of decoding an item.
    pub async fn send(self, table: &Table) -> Result<Page<O>, Error> {
        let this = self.at_clock_of(table);
        this.send_at_clock(table).await
    }

    /// [`send`](Self::send), with the time of expiry fixed.
    async fn send_at_clock(self, table: &Table) -> Result<Page<O>, Error> {
        self.check_projection(table, true)?;
        if Self::shards().is_some() {
            return self.send_sharded(table).await;
        }
        let mut plan = self.plan(
            table.name(),
            table.cursor_key(),
            false,
            self.request_limit(self.max_items, 0),
        )?;
        let Some(wanted) = self.max_items else {
            let response = execute::<E>(table, plan.input.clone(), Self::index_name()).await?;
            return self.page(table, plan, response, None).await;
        };
        let budget = self.max_requests.unwrap_or(DEFAULT_MAX_REQUESTS);
        let mut raw: Vec<Slot> = Vec::new();
        let mut missing = 0;
        let mut scanned_count = 0;
        let mut sent = 0;
        let mut shorts = 0;
        let cursor_key = loop {
            let response = execute::<E>(table, plan.input.clone(), Self::index_name()).await?;
            sent += 1;
            scanned_count += response.scanned_count;
            let found: Vec<AttributeMap> = response
                .items
                .into_iter()
                .filter(|item| !plan.excludes(item))
                .collect();
            let found = self.slots(table, found).await?;
            let items_found = found
                .iter()
                .filter(|slot| !matches!(slot, Slot::Missing))
                .count();
            if plan
                .input
                .limit
                .is_some_and(|limit| items_found < limit.max(0) as usize)
            {
                shorts += 1;
            } else {
                shorts = 0;
            }
            let remaining = wanted - raw.len();
            let more_found = take(&mut raw, found, Some(remaining), &mut missing);
            match response.last_evaluated_key {
                // Enough: the cursor is after the last item returned, when
                // the query goes on.
                last if raw.len() == wanted => {
                    break (last.is_some() || more_found).then(|| {
                        let last = raw.last().and_then(Slot::entry).expect("wanted > 0");
                        self.cursor_key(last)
                    });
                }
                None => break None,
                Some(last) if sent >= budget => break Some(last),
                Some(last) => {
                    plan.input.exclusive_start_key = Some(last);
                    plan.input.limit = self
                        .request_limit(Some(wanted - raw.len()), shorts)
                        .map(|limit| limit as i32);
                }
            }
        };
        let cursor = cursor_key
            .map(|key| Cursor::encode(&plan.fingerprint, plan.signing.as_ref(), &key))
            .transpose()?;
        Ok(Page {
            items: raw
                .into_iter()
                .filter_map(Slot::into_item)
                .map(self.decode)
                .collect::<Result<Vec<O>, Error>>()?,
            cursor,
            scanned_count,
            missing,
        })
    }

    /// The key attributes of `item` that a cursor after it holds.
    pub(super) fn cursor_key(&self, item: &AttributeMap) -> AttributeMap {
        Self::cursor_attributes()
            .into_iter()
            .filter_map(|name| item.get(name).map(|value| (name.to_owned(), value.clone())))
            .collect()
    }

    /// The page of one response (hydrated when the query is), of at most
    /// `remaining` items.
    async fn page(
        &self,
        table: &Table,
        plan: Plan,
        response: Response,
        remaining: Option<usize>,
    ) -> Result<Page<O>, Error> {
        let found: Vec<AttributeMap> = response
            .items
            .into_iter()
            .filter(|item| !plan.excludes(item))
            .collect();
        let found = self.slots(table, found).await?;
        let mut raw = Vec::new();
        let mut missing = 0;
        let more_found = take(&mut raw, found, remaining, &mut missing);
        let mut cursor = response
            .last_evaluated_key
            .map(|key| Cursor::encode(&plan.fingerprint, plan.signing.as_ref(), &key))
            .transpose()?;
        if let Some(remaining) = remaining
            && raw.len() == remaining
            && remaining > 0
            && (cursor.is_some() || more_found)
        {
            let last = raw.last().and_then(Slot::entry).expect("remaining > 0");
            let key = self.cursor_key(last);
            cursor = Some(Cursor::encode(
                &plan.fingerprint,
                plan.signing.as_ref(),
                &key,
            )?);
        }
        let items = raw
            .into_iter()
            .filter_map(Slot::into_item)
            .map(self.decode)
            .collect::<Result<Vec<O>, Error>>()?;
        Ok(Page {
            items,
            cursor,
            scanned_count: response.scanned_count,
            missing,
        })
    }

    /// Every matching item, across pages. It goes on through empty pages
    /// that still carry a `LastEvaluatedKey` (which a filter with a limit
    /// produces) and stops at the end or after
    /// [`max_items`](Self::max_items), sizing each request's `Limit` as
    /// `send` does. On a sharded index, each shard is read once: a shard
    /// is queried again only when the merge has returned every item it
    /// sent and the shard has more, so the stream
    /// sends, per shard, the requests the same query on that shard's
    /// partition alone would send.
    ///
    /// # Errors
    ///
    /// The errors of [`send`](Self::send), as stream items; the stream ends
    /// after the first error.
    pub fn stream<'t>(self, table: &'t Table) -> impl Stream<Item = Result<O, Error>> + Send + 't
    where
        E: Send + 't,
        O: Send + 't,
    {
        struct State<Q> {
            query: Q,
            cursor: Option<Cursor>,
            remaining: Option<usize>,
            done: bool,
            /// Responses in a row that held fewer items than their limit.
            shorts: u32,
            /// A sharded query's merge, after the first page.
            merge: Option<super::shards::ShardMerge>,
        }
        let query = self.at_clock_of(table);
        let state = State {
            cursor: query.start.clone(),
            remaining: query.max_items,
            query,
            done: false,
            shorts: 0,
            merge: None,
        };
        stream::try_unfold(state, move |mut state| async move {
            if state.query.max_items == Some(0) && !state.done {
                // Refused, as `send` refuses it: the plan says why.
                state.done = true;
                state.query.plan(table.name(), None, false, None)?;
            }
            if state.done || state.remaining == Some(0) {
                return Ok::<_, Error>(None);
            }
            state.query.check_projection(table, true)?;
            if Self::shards().is_some() {
                let merge = match state.merge.as_mut() {
                    Some(merge) => merge,
                    None => state
                        .merge
                        .insert(state.query.start_merge(table.name(), table.cursor_key())?),
                };
                let sent = state
                    .query
                    .fill(table, merge, state.remaining, None)
                    .await?;
                let mut raw = Vec::new();
                let mut missing = 0;
                let taken = state
                    .query
                    .take_merged(table, merge, state.remaining, &mut raw, &mut missing)
                    .await?;
                if let Some(remaining) = state.remaining.as_mut() {
                    *remaining -= raw.len();
                }
                // Every round reads on (see `shards.rs`); a round that
                // neither sent nor returned anything has nothing left.
                state.done = merge.finished() || (!sent && taken == 0);
                let items = raw
                    .into_iter()
                    .map(state.query.decode)
                    .collect::<Result<Vec<O>, Error>>()?;
                return Ok(Some((stream::iter(items.into_iter().map(Ok)), state)));
            }
            state.query.start = state.cursor.take();
            let limit = state.query.request_limit(state.remaining, state.shorts);
            let plan = state
                .query
                .plan(table.name(), table.cursor_key(), false, limit)?;
            let response = execute::<E>(table, plan.input.clone(), Self::index_name()).await?;
            let page = state
                .query
                .page(table, plan, response, state.remaining)
                .await?;
            if limit.is_some_and(|limit| page.items.len() < limit as usize) {
                state.shorts += 1;
            } else {
                state.shorts = 0;
            }
            if let Some(remaining) = state.remaining.as_mut() {
                *remaining -= page.items.len();
            }
            state.done = page.cursor.is_none();
            state.cursor = page.cursor;
            Ok(Some((stream::iter(page.items.into_iter().map(Ok)), state)))
        })
        .try_flatten()
        .boxed()
    }

    /// The number of matching items of this entity, with `Select = COUNT`
    /// (the items are read, and count against capacity, but not returned),
    /// across pages. DynamoDB counts after the filter, so items of other
    /// types under the same prefix are not counted. On an LSI, the count
    /// reads the items with `Select = ALL_ATTRIBUTES` and counts them: the
    /// type scope filters on an attribute that a `KEYS_ONLY` or `INCLUDE`
    /// LSI may not hold, and DynamoDB documents the fetch from the table
    /// for `ALL_ATTRIBUTES`, not for `COUNT`.
    ///
    /// It reads from the cursor of [`after`](Self::after), if any, to the
    /// end of the key condition: `max_items` and `max_requests` do not
    /// apply to it (`limit` only sizes each request), so a count costs the
    /// read units of every matching item, one request per 1 MB read.
    ///
    /// # Errors
    ///
    /// The errors of [`send`](Self::send).
    pub async fn count(self, table: &Table) -> Result<u64, Error> {
        let this = self.at_clock_of(table);
        this.count_at_clock(table).await
    }

    /// [`count`](Self::count), with the time of expiry fixed.
    async fn count_at_clock(self, table: &Table) -> Result<u64, Error> {
        self.check_projection(table, false)?;
        if Self::shards().is_some() {
            return self.count_sharded(table).await;
        }
        // The first request's start is the checked cursor of `after`; the
        // next ones start at DynamoDB's own `LastEvaluatedKey`.
        let plan = self.plan(table.name(), table.cursor_key(), true, self.limit)?;
        count_from::<E>(table, plan, Self::index_name()).await
    }
}

/// The items `plan` counts, from its start to the end of its range.
pub(super) async fn count_from<E: Entity>(
    table: &Table,
    mut plan: Plan,
    index: Option<&'static str>,
) -> Result<u64, Error> {
    let mut total = 0;
    loop {
        let response = execute::<E>(table, plan.input.clone(), index).await?;
        total += if plan.excluded_sort_key.is_some() {
            response
                .items
                .iter()
                .filter(|item| !plan.excludes(item))
                .count() as u64
        } else {
            response.count as u64
        };
        match response.last_evaluated_key {
            Some(key) => plan.input.exclusive_start_key = Some(key),
            None => return Ok(total),
        }
    }
}

/// The parts of a `Query` response Stamp reads.
pub(super) struct Response {
    pub(super) items: Vec<AttributeMap>,
    pub(super) last_evaluated_key: Option<HashMap<String, AttributeValue>>,
    pub(super) count: usize,
    pub(super) scanned_count: u32,
}

/// Sends one `Query` in a `stamp.request` span.
pub(super) async fn execute<E: Entity>(
    table: &Table,
    input: QueryInput,
    index: Option<&'static str>,
) -> Result<Response, Error> {
    let output = table
        .execute_mapped(
            input,
            Call::of(E::SCHEMA.type_name).index(index.unwrap_or("")),
        )
        .await?;
    Ok(Response {
        count: output.count.max(0) as usize,
        scanned_count: output.scanned_count.max(0) as u32,
        items: output.items.unwrap_or_default(),
        last_evaluated_key: output.last_evaluated_key,
    })
}
