//! Hydrated index reads (issue 42, point 2): a query of a GSI or LSI that
//! does not project what the entity needs (`KEYS_ONLY`, `INCLUDE`) reads
//! the index page with only the key attributes (a `ProjectionExpression`
//! of the table's and the index's keys), then the whole items from the
//! table with `BatchGetItem` (the one batch read of `ops/batch/get.rs`:
//! at most 100 keys a request, unprocessed keys retried under the batch
//! backoff), and returns them in the index's order.
//!
//! Between the two reads an item may be deleted: its index entry is then
//! left out of the page and counted in [`Page::missing`](super::Page::missing),
//! never a silent gap. The cursor is the index page's: after the last
//! entry returned or counted, so the next page goes on after it.
//!
//! The entity's type scope (`Type = :type`) is not sent with the index
//! query: the index may not hold the type attribute. It is checked on the
//! fetched items instead (an item of another type is left out, as the
//! filter would have left it out, and is not counted as missing). A
//! user's filter still runs on the index, so it may only name attributes
//! the index projects ([`Refusal::AttributesNotProjected`](crate::Refusal::AttributesNotProjected)
//! otherwise, before sending).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>.

use aws_sdk_dynamodb::types::AttributeValue;

use super::Query;
use super::shards::ShardMerge;
use crate::error::Error;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::{Gsi, Lsi, QueryIndex};
use crate::ops::batch::{Fetch, fetch};
use crate::request::table::Table;

impl<E: Entity, const N: u8, O> Query<E, Gsi<N>, O> {
    /// Returns whole entities from a GSI that does not project them
    /// (`KEYS_ONLY` or `INCLUDE`), in two steps per page: the index query,
    /// asking only for the key attributes (a `ProjectionExpression` of the
    /// table's and the index's keys), then `BatchGetItem` of those keys
    /// (at most 100 keys a request, sent together; keys DynamoDB leaves
    /// unprocessed, as its 16 MB answer limit or throttling does, are
    /// retried with [`BatchRetry`](crate::BatchRetry)'s backoff). The items
    /// come back in the index's order.
    ///
    /// An item deleted between the two reads is left out and counted in
    /// [`Page::missing`](super::Page::missing); the page's cursor is the
    /// index page's, so the next page goes on after it. An item changed
    /// between the reads is returned as the table holds it now. The type
    /// scope of an entity query is checked on the fetched items (the index
    /// need not hold the type attribute); a [`filter`](Self::filter) runs
    /// on the index, so it may only name attributes the index projects.
    ///
    /// Works for entity queries, [`collection`](Self::collection)s,
    /// [`project`](Self::project)ions (decoded from the whole items) and
    /// sharded GSIs. [`count`](Self::count) is not hydrated (it decodes
    /// nothing). Each page costs the index read plus one read of each
    /// item, rounded up to 4 KB (`EntityCapacity::index_query_hydrations` in `stamp::capacity`).
    ///
    /// # Errors
    ///
    /// Those of [`send`](Self::send), and [`Error::UnprocessedKeys`] when
    /// keys stay unprocessed after the retries.
    pub fn hydrate(mut self) -> Self {
        self.hydrate = true;
        self
    }
}

impl<E: Entity, const N: u8, O> Query<E, Lsi<N>, O> {
    /// Returns whole entities from an LSI in two steps per page, as
    /// [`Query::<E, Gsi<N>>::hydrate`](Query::hydrate) does: the index
    /// query asking only for the key attributes, then `BatchGetItem` of
    /// those keys. Without it, an LSI query already returns whole items
    /// (`Select = ALL_ATTRIBUTES`: DynamoDB fetches them from the table
    /// within the query); hydrating instead keeps each page's index read
    /// to the index entries and reads the items in batches of 100, with
    /// [`consistent_read`](Self::consistent_read) applied to both steps.
    /// Deleted items are counted in [`Page::missing`](super::Page::missing).
    pub fn hydrate(mut self) -> Self {
        self.hydrate = true;
        self
    }
}

/// One index entry of a page and what the page returns for it.
pub(super) enum Slot {
    /// Not hydrated: the item is its own entry.
    Item(AttributeMap),
    /// Hydrated: the index entry and the item read from the table.
    Hydrated {
        entry: AttributeMap,
        item: AttributeMap,
    },
    /// Hydrated, but the table no longer holds the item.
    Missing,
}

impl Slot {
    /// The index entry (its key attributes make the cursor).
    pub(super) fn entry(&self) -> Option<&AttributeMap> {
        match self {
            Slot::Item(entry) | Slot::Hydrated { entry, .. } => Some(entry),
            Slot::Missing => None,
        }
    }

    /// The item returned.
    pub(super) fn into_item(self) -> Option<AttributeMap> {
        match self {
            Slot::Item(item) | Slot::Hydrated { item, .. } => Some(item),
            Slot::Missing => None,
        }
    }
}

/// Moves `slots` into `kept` until it holds `remaining` more items (all of
/// them when `None`), counting the missing ones passed in `missing`;
/// whether slots were left (the page stops before them).
pub(super) fn take(
    kept: &mut Vec<Slot>,
    slots: Vec<Slot>,
    remaining: Option<usize>,
    missing: &mut u32,
) -> bool {
    let mut taken = 0;
    for slot in slots {
        if remaining.is_some_and(|remaining| taken == remaining) {
            return true;
        }
        match slot {
            Slot::Missing => *missing += 1,
            slot => {
                kept.push(slot);
                taken += 1;
            }
        }
    }
    false
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// Whether the pages are hydrated (not for a count, which decodes
    /// nothing).
    pub(super) fn hydrates(&self) -> bool {
        self.hydrate
    }

    /// The slots of index entries `entries`: the entries themselves, or,
    /// hydrated, the items read from the table by their keys in one batch
    /// read, in the entries' order; an item of another type than the
    /// entity's (an entity query's scope) is left out, as the scope filter
    /// would have left it.
    pub(super) async fn slots(
        &self,
        table: &Table,
        entries: Vec<AttributeMap>,
    ) -> Result<Vec<Slot>, Error> {
        if !self.hydrate {
            return Ok(entries.into_iter().map(Slot::Item).collect());
        }
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let schema = E::SCHEMA;
        let keys: Vec<AttributeMap> = entries
            .iter()
            .map(|entry| {
                [schema.partition_key.name, schema.sort_key.name]
                    .into_iter()
                    .filter_map(|name| Some((name.to_owned(), entry.get(name)?.clone())))
                    .collect()
            })
            .collect();
        let items = fetch(
            table,
            schema,
            keys,
            Fetch {
                consistent_read: self.consistent_read,
                // An index that does not project the TTL attribute cannot
                // filter on it: the items read are judged here (an expired
                // one reads as missing).
                now: match self.expiry {
                    crate::ops::expiry::Expiry::Include => None,
                    crate::ops::expiry::Expiry::LiveAt(now) => Some(now),
                    crate::ops::expiry::Expiry::Live => Some(table.now().timestamp()),
                },
                ..Fetch::default()
            },
        )
        .await?;
        let of_entity = |item: &AttributeMap| {
            !self.scoped
                || matches!(item.get(schema.type_attribute),
                    Some(AttributeValue::S(name)) if name == schema.type_name)
        };
        Ok(entries
            .into_iter()
            .zip(items)
            .filter_map(|(entry, item)| match item {
                None => Some(Slot::Missing),
                Some(item) if of_entity(&item) => Some(Slot::Hydrated { entry, item }),
                Some(_) => None,
            })
            .collect())
    }

    /// Takes items from a sharded query's merge into `raw` until it holds
    /// `cap` (all the merge knows when `None`), hydrating them when the
    /// query does, and counting the missing ones in `missing`. Every entry
    /// taken from the merge is returned or counted, so the merge's
    /// positions (the cursor) stay after the last one. Returns the number
    /// of entries taken.
    pub(super) async fn take_merged(
        &self,
        table: &Table,
        merge: &mut ShardMerge,
        cap: Option<usize>,
        raw: &mut Vec<AttributeMap>,
        missing: &mut u32,
    ) -> Result<usize, Error> {
        let mut taken = 0;
        loop {
            let mut entries = Vec::new();
            while cap.is_none_or(|cap| raw.len() + entries.len() < cap) {
                match self.pop(merge) {
                    Some(entry) => entries.push(entry),
                    None => break,
                }
            }
            if entries.is_empty() {
                return Ok(taken);
            }
            taken += entries.len();
            let mut kept = Vec::new();
            take(&mut kept, self.slots(table, entries).await?, None, missing);
            raw.extend(kept.into_iter().filter_map(Slot::into_item));
            if !self.hydrate {
                return Ok(taken);
            }
        }
    }
}
