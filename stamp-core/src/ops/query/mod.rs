// Over 500 lines on purpose: `Query`'s inherent methods stay in this one module, so that a
// compile error of a user's call names `stamp::Query::<E, I, O>::method`, not a private module.
//! Typed queries on the table or a GSI: a partition key, a sort-key
//! condition on a leading prefix of the sort-key fields, options, pages with
//! cursors, and streams across pages.
//!
//! The builder is here; [`range`] renders the sort-key condition, [`plan`]
//! the whole request (and checks a cursor), [`send`] sends pages and
//! streams; [`attributes`] holds the conditions of a multi-attribute GSI
//! (`sort_eq`, `sort_between`, …) and their cursor check.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html>.

use std::marker::PhantomData;

use crate::error::Error;
use crate::error::Refusal;
use crate::expression::Condition;
use crate::key::template::KeyTemplate;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::{BaseTable, IndexId, IndexKeySchema, IndexSchema, QueryIndex};
use crate::model::projection::Projection;
use crate::ops::cursor::Cursor;

mod attributes;
mod hydrate;
mod plan;
mod projected;
mod range;
mod send;
mod shards;

pub use attributes::MultiAttributeQuery;
pub use range::{SortKeyPrefix, prefix_upper_bound};
pub use send::Page;

use crate::model::collection::Collection;
use crate::model::collection::CollectionMember;
use crate::ops::expiry::Expiry;
use projected::Needs;
use range::{Bound, SortCondition, inclusive_upper};

/// The longest cursor text accepted: the four key attributes at DynamoDB's
/// limits (2 × 2048 + 2 × 1024 bytes, escaped as JSON and in base64) fit
/// well within it.
pub const MAX_CURSOR_LEN: usize = 32 * 1024;

/// The most `Query` requests one [`Query::send`] with
/// [`max_items`](Query::max_items) sends by default, following DynamoDB's
/// pages until it has the items wanted (on a sharded index: the most
/// requests to each shard). Set another with
/// [`max_requests`](Query::max_requests).
pub const DEFAULT_MAX_REQUESTS: u32 = 10;

/// A query of entity `E` on index `I`, decoding items into `O`: `I` is
/// [`BaseTable`] (the default) for the table, [`Gsi<N>`](crate::Gsi) for
/// GSI N (of any key) and [`Lsi<N>`](crate::Lsi) for LSI N.
/// Built by the generated `E::query(…)` / `E::query_gsiN(…)` /
/// `E::query_lsiN(…)`;
/// nothing is sent until [`send`](Self::send), [`stream`](Self::stream) or
/// [`count`](Self::count).
///
/// The query is scoped to the entity: its sort key condition always stays
/// within the literal prefix of the entity's sort-key template (such as
/// `ORDER#`), and a filter on the type attribute (`Type = :type`) drops the
/// items of other entities whose keys share that prefix (`ORDER#…#ITEM#…`
/// beside `ORDER#…`) or the index partition. So other item types never come
/// back, and [`count`](Self::count) counts only this entity's items. As with
/// any filter, DynamoDB applies `Limit` before it: a page of one response
/// may be short, even empty, and still carry a cursor; with
/// [`max_items`](Self::max_items), `send` follows the pages until it has
/// the items.
///
/// Items whose TTL (`#[stamp(ttl)]`) has passed at the table's clock
/// ([`Table::now`](crate::Table::now)) are left out on the server, by a
/// filter AND-ed with the others: `(attribute_not_exists(#ttl) OR #ttl >
/// :now)` (for a [`collection`](Self::collection), one such term per TTL
/// attribute of its members). DynamoDB still reads, and charges, the
/// expired items the filter drops, so a page may hold fewer items than
/// `Limit` and carry a cursor. [`include_expired`](Self::include_expired)
/// returns them too. A GSI whose projection leaves out the TTL attribute
/// cannot be filtered on it: with a table that knows its definition, such
/// a query is refused before sending ([`Refusal::AttributesNotProjected`]
/// naming the index and the attribute) unless it includes expired items.
///
/// Errors in building it (a bad key value, an invalid option) are kept and
/// returned by the call that would send it, before anything is sent.
pub struct Query<E, I: QueryIndex = BaseTable, O = E> {
    partition_key: Result<String, Error>,
    /// On a multi-attribute index, the partition-key attribute values.
    partition_values: Vec<aws_sdk_dynamodb::types::AttributeValue>,
    sort: Result<SortCondition, Error>,
    newest_first: bool,
    limit: Option<u32>,
    max_items: Option<usize>,
    /// The request budget of `send` with `max_items` (`None`: the default).
    max_requests: Option<u32>,
    consistent_read: bool,
    /// The attributes decoding needs, checked against the table's index
    /// projections (`projected.rs`).
    needs: Needs,
    filter: Option<Condition<E>>,
    projection: Option<Vec<&'static str>>,
    start: Option<Cursor>,
    /// Whether the sort key stays within the entity's prefix (not for a
    /// collection, which reads the whole partition).
    scoped: bool,
    /// Whether each page's items are read whole from the table by their
    /// keys ([`hydrate`](Query::hydrate), `hydrate.rs`).
    hydrate: bool,
    decode: fn(AttributeMap) -> Result<O, Error>,
    /// Whether expired items are left out, and at what time
    /// ([`include_expired`](Self::include_expired)).
    expiry: Expiry,
    entity: PhantomData<fn() -> (E, I)>,
}

/// A query is a plain value: a clone sends the same requests (for
/// paging, counting and streaming one query). `E` need not be `Clone`.
impl<E, I: QueryIndex, O> Clone for Query<E, I, O> {
    fn clone(&self) -> Self {
        Query {
            partition_key: self.partition_key.clone(),
            partition_values: self.partition_values.clone(),
            sort: self.sort.clone(),
            newest_first: self.newest_first,
            limit: self.limit,
            max_items: self.max_items,
            max_requests: self.max_requests,
            consistent_read: self.consistent_read,
            needs: self.needs,
            filter: self.filter.clone(),
            projection: self.projection.clone(),
            start: self.start.clone(),
            scoped: self.scoped,
            hydrate: self.hydrate,
            decode: self.decode,
            expiry: self.expiry,
            entity: PhantomData,
        }
    }
}

impl<E: Entity, I: QueryIndex> Query<E, I, E> {
    /// A query of the partition `partition_key` (already built from the
    /// template). Generated code calls it.
    #[doc(hidden)]
    pub fn new(partition_key: Result<String, Error>) -> Self {
        // Resolved here, so that a query of an index the entity does not
        // write fails to compile where it is built.
        let _ = Self::INDEX;
        Query {
            partition_key,
            partition_values: Vec::new(),
            sort: Ok(SortCondition::Scope),
            newest_first: false,
            limit: None,
            max_items: None,
            max_requests: None,
            consistent_read: false,
            needs: Needs::Entity,
            filter: None,
            projection: None,
            start: None,
            scoped: true,
            hydrate: false,
            decode: E::from_item,
            expiry: Expiry::Live,
            entity: PhantomData,
        }
    }
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// The index queried, resolved once (at compile time) from `I`, `None`
    /// for the table: the one value the planner, request building, capacity
    /// and decoding read. A query of an index the entity does not write
    /// does not compile.
    const INDEX: Option<&'static IndexSchema> = {
        let index = E::SCHEMA.resolve(I::ID);
        assert!(
            matches!(I::ID, IndexId::Table) || index.is_some(),
            "the query names an index the entity does not write"
        );
        assert!(
            !matches!(I::ID, IndexId::Vector(_)),
            "a vector index is read by a similarity search (`search_similar_vectorN`), not by a query"
        );
        index
    };

    /// [`INDEX`](Self::INDEX): the index queried, `None` for the table.
    pub(super) fn index() -> Option<&'static IndexSchema> {
        Self::INDEX
    }

    /// The name of the GSI queried, of any kind (template, sharded or
    /// multi-attribute), `None` for the table or an LSI: the index whose
    /// reads are eventually consistent and which returns only what it
    /// projects. The one place that tells a GSI from the table and an LSI.
    pub(super) fn global_index_name() -> Option<&'static str> {
        Self::index()
            .filter(|index| index.is_global())
            .map(|index| index.name)
    }

    /// Whether the query reads an LSI: it then asks for whole items.
    pub(super) fn reads_local_index() -> bool {
        Self::index().is_some_and(IndexSchema::is_local)
    }

    /// The name of the index queried (GSI, LSI or multi-attribute GSI),
    /// `None` for the table.
    pub(super) fn index_name() -> Option<&'static str> {
        Self::index().map(|index| index.name)
    }

    /// The multi-attribute index queried, if the query is of one.
    pub(super) fn multi_attribute_index() -> Option<&'static IndexSchema> {
        Self::index().filter(|index| index.is_multi_attribute())
    }

    /// The partition key attribute, and the sort key template and attribute
    /// of a template key (the table's, a template GSI's, an LSI's); for a
    /// multi-attribute index, its first attributes and no template.
    pub(super) fn key_attributes() -> (
        &'static str,
        Option<&'static KeyTemplate>,
        Option<&'static str>,
    ) {
        let Some(index) = Self::index() else {
            return (
                E::SCHEMA.partition_key.name,
                Some(&E::SCHEMA.sort_key.template),
                Some(E::SCHEMA.sort_key.name),
            );
        };
        match &index.key {
            IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } => (
                partition_key.name,
                sort_key.as_ref().map(|key| &key.template),
                sort_key.as_ref().map(|key| key.name),
            ),
            IndexKeySchema::Attributes { .. } | IndexKeySchema::Unpartitioned => {
                (index.partition_key_name(), None, index.sort_key_name())
            }
        }
    }

    fn with_sort(mut self, condition: impl FnOnce() -> Result<SortCondition, Error>) -> Self {
        if matches!(self.sort, Ok(SortCondition::Scope)) {
            self.sort = condition();
        } else if self.sort.is_ok() {
            self.sort = Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::TwoSortConditions,
            }));
        }
        self
    }

    /// Sort key equal to a whole key, or, given a leading prefix of the
    /// sort-key fields, beginning with it (`begins_with(SK, "ORDER#<created_at>#")`).
    pub fn sort_key_eq(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(if prefix.complete {
                SortCondition::Equals(prefix.text)
            } else {
                SortCondition::BeginsWith(prefix.text)
            })
        })
    }

    /// Sort key beginning with the given leading fields: the same as
    /// [`sort_key_eq`](Self::sort_key_eq) for a prefix, and `begins_with`
    /// on the whole key text when every field is given.
    pub fn sort_key_begins_with(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| Ok(SortCondition::BeginsWith(prefix.sort_key_prefix()?.text)))
    }

    /// Sort-key fields less than the given ones.
    pub fn sort_key_lt(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: None,
                upper: Some(Bound::Excluded(prefix.text)),
            })
        })
    }

    /// Sort-key fields less than or equal to the given ones (a prefix
    /// includes every key that begins with it).
    pub fn sort_key_le(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: None,
                upper: Some(inclusive_upper(prefix)),
            })
        })
    }

    /// Sort-key fields greater than the given ones (a prefix excludes every
    /// key that begins with it).
    pub fn sort_key_gt(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            let lower = if prefix.complete {
                Bound::Excluded(prefix.text)
            } else {
                match prefix_upper_bound(&prefix.text) {
                    Some(bound) => Bound::Included(bound),
                    None => Bound::Excluded(prefix.text),
                }
            };
            Ok(SortCondition::Range {
                lower: Some(lower),
                upper: None,
            })
        })
    }

    /// Sort-key fields greater than or equal to the given ones.
    pub fn sort_key_ge(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: Some(Bound::Included(prefix.text)),
                upper: None,
            })
        })
    }

    /// Sort-key fields between `low` and `high`, both included. With a
    /// prefix as `high`, every key that begins with it is included: given
    /// two times of a `created_at` field, `low` at 00:00 of the first day
    /// and `high` at 23:59:59.999999999 of the last, it selects whole days.
    /// The upper bound is the real upper bound of the prefix (its last
    /// character moved to the next), not a sentinel character.
    pub fn sort_key_between(
        self,
        low: impl SortKeyPrefix<E, I>,
        high: impl SortKeyPrefix<E, I>,
    ) -> Self {
        self.with_sort(|| {
            let low = low.sort_key_prefix()?;
            let high = high.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: Some(Bound::Included(low.text)),
                upper: Some(inclusive_upper(high)),
            })
        })
    }

    /// Descending sort-key order (`ScanIndexForward = false`): newest first
    /// for time-ordered keys.
    pub fn newest_first(mut self) -> Self {
        self.newest_first = true;
        self
    }

    /// Ascending sort-key order, the default.
    pub fn oldest_first(mut self) -> Self {
        self.newest_first = false;
        self
    }

    /// DynamoDB's `Limit`: the number of items evaluated per request, before
    /// the filter and the entity's type scope. It is not a page size: a
    /// page may hold fewer items when they drop some (items of other types
    /// under the same prefix); for pages of `n` items (an HTTP API's page
    /// size), use [`max_items`](Self::max_items)`(n)`.
    /// On a sharded GSI it is the `Limit` of each shard's `Query`, so a page
    /// may evaluate up to shards × `limit` items (and hold more than
    /// `limit`); bound the items of a page with
    /// [`max_items`](Self::max_items).
    /// Must be at least 1 ([`Refusal::InvalidQuery`] otherwise).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// At most `max_items` items in all, at least 1 ([`Refusal::InvalidQuery`]
    /// before sending otherwise, from every call that sends).
    /// [`count`](Self::count) counts every matching item regardless.
    ///
    /// [`send`](Self::send) returns `max_items` items when the query has
    /// that many: DynamoDB applies `Limit` before the filter and the
    /// entity's type scope, so one response may hold fewer (even none,
    /// when the newest items of the partition are another entity's), and
    /// `send` then follows `LastEvaluatedKey` with further requests, up to
    /// [`max_requests`](Self::max_requests) ([`DEFAULT_MAX_REQUESTS`], 10,
    /// by default). The page holds fewer items only at the end of the
    /// query (no cursor) or when the budget runs out (a cursor after the
    /// last item evaluated). Its cursor is after the last item returned,
    /// so that resuming skips and repeats nothing.
    ///
    /// Each request's `Limit` is the items still wanted (capped by
    /// [`limit`](Self::limit)), doubled after each response that held
    /// fewer items than its `Limit`: few items are read past the last one
    /// returned, and a partition where most items are dropped takes few
    /// requests. [`stream`](Self::stream) sizes its requests the same way
    /// and stops after `max_items` items.
    pub fn max_items(mut self, max_items: usize) -> Self {
        self.max_items = Some(max_items);
        self
    }

    /// The most `Query` requests one [`send`](Self::send) with
    /// [`max_items`](Self::max_items) sends to find its items, at least 1
    /// ([`Refusal::InvalidQuery`] before sending otherwise); on a sharded
    /// index, the most requests to each shard. [`DEFAULT_MAX_REQUESTS`]
    /// (10) by default. Each request reads at most 1 MB. When the budget
    /// runs out, `send` returns the items found with a cursor that goes on
    /// from the last item evaluated. Without `max_items`, `send` sends one
    /// request (one per shard), and [`stream`](Self::stream) and
    /// [`count`](Self::count) read to the end.
    pub fn max_requests(mut self, max_requests: u32) -> Self {
        self.max_requests = Some(max_requests);
        self
    }

    /// A strongly consistent read (`ConsistentRead = true`), on the table or
    /// a local secondary index, at twice the read units of an eventually
    /// consistent one. Not allowed on a GSI, whose reads are always
    /// eventually consistent: sending such a query returns
    /// [`Refusal::ConsistentReadOnIndex`] before any request.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html>.
    pub fn consistent_read(mut self) -> Self {
        self.consistent_read = true;
        self
    }

    /// Keeps only items matching `filter`, applied by DynamoDB after the key
    /// condition and `Limit`. Filters given twice are combined with AND.
    pub fn filter(mut self, filter: Condition<E>) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(previous) => previous.and(filter),
            None => filter,
        });
        self
    }

    /// Returns items whose TTL (`#[stamp(ttl)]`) has passed and that
    /// DynamoDB has not deleted yet: no expiry filter is sent. By default
    /// they are left out on the server at the table's clock
    /// ([`Table::now`](crate::Table::now)).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(mut self) -> Self {
        self.expiry = Expiry::Include;
        self
    }

    /// The TTL attributes the expiry filter names: the entity's, or for a
    /// collection every member's (each once); none when the query
    /// includes expired items.
    pub(super) fn ttl_attributes(&self) -> Vec<&'static str> {
        if self.expiry == Expiry::Include {
            return Vec::new();
        }
        match self.needs {
            Needs::Members(members) => crate::ops::expiry::ttl_attributes(
                std::iter::once(E::SCHEMA).chain(members.iter().copied()),
            ),
            Needs::Entity | Needs::Attributes(_) => crate::ops::expiry::ttl_attributes([E::SCHEMA]),
        }
    }

    /// This query, judging expiry at `table`'s clock.
    pub(super) fn at_clock_of(mut self, table: &crate::request::table::Table) -> Self {
        self.expiry = self.expiry.at(table);
        self
    }

    /// Starts after the item a previous page's cursor points at. The
    /// cursor must come from the same query: the same table, index,
    /// partition, sort-key condition and order
    /// ([`Refusal::CursorMismatch`] otherwise, before sending); `limit`,
    /// `max_items`, the filter and the projection may differ from the
    /// previous page's. See [`Cursor`].
    pub fn after(mut self, cursor: &Cursor) -> Self {
        self.start = Some(cursor.clone());
        self
    }

    /// Reads only the attributes of projection `P` (a
    /// `ProjectionExpression` of [`Projection::ATTRIBUTES`], plus the key
    /// attributes that cursors need) and decodes each item into `P`. `P`
    /// is checked against `E` at compile time by `#[derive(Projection)]`.
    /// On an LSI, the query asks for whole items instead
    /// (`Select = ALL_ATTRIBUTES`, no `ProjectionExpression`): DynamoDB
    /// charges the fetch from the table by the whole item either way, and
    /// `P` decodes its fields from them.
    pub fn project<P: Projection<E>>(self) -> Query<E, I, P> {
        let mut query = self.decoding(P::from_item);
        query.projection = Some(P::ATTRIBUTES.to_vec());
        query.needs = Needs::Attributes(P::ATTRIBUTES);
        query
    }

    /// This query, decoding items with `decode`.
    fn decoding<P>(self, decode: fn(AttributeMap) -> Result<P, Error>) -> Query<E, I, P> {
        Query {
            partition_key: self.partition_key,
            partition_values: self.partition_values,
            sort: self.sort,
            newest_first: self.newest_first,
            limit: self.limit,
            max_items: self.max_items,
            max_requests: self.max_requests,
            consistent_read: self.consistent_read,
            needs: self.needs,
            filter: self.filter,
            projection: self.projection,
            start: self.start,
            scoped: self.scoped,
            hydrate: self.hydrate,
            decode,
            expiry: self.expiry,
            entity: PhantomData,
        }
    }

    /// Reads the whole partition, every entity of collection `C` in it,
    /// decoding each item by its type attribute. A sort-key condition given
    /// on this query still applies (on the entity's template); without one,
    /// every item of the partition comes back.
    pub fn collection<C: Collection>(self) -> Query<E, I, C>
    where
        E: CollectionMember<C>,
    {
        let members = crate::model::collection::members_read::<E, C, I>();
        let mut query = self.decoding(C::from_item);
        query.scoped = false;
        query.needs = Needs::Members(members);
        query
    }
}
