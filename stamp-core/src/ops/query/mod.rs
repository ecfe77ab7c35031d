//! Typed queries on the table or a GSI: a partition key, a sort-key
//! condition on a leading prefix of the sort-key fields, options, pages with
//! cursors, and streams across pages.
//!
//! The builder is here, its sort-key conditions in [`sort`] and its other
//! options in [`options`]; [`range`] renders the sort-key condition, [`plan`]
//! the whole request (and checks a cursor), [`send`] sends pages and
//! streams; [`attributes`] holds the conditions of a multi-attribute GSI
//! (`sort_eq`, `sort_between`, …) and their cursor check.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html>.

use std::marker::PhantomData;

use crate::Refusal;
use crate::expression::Condition;
use crate::ops::cursor::Cursor;
use crate::{
    AttributeMap, BaseTable, Entity, Error, IndexId, IndexKeySchema, IndexSchema, KeyTemplate,
    Projection, QueryIndex,
};

mod attributes;
mod hydrate;
mod options;
mod plan;
mod projected;
mod range;
mod send;
mod shards;
mod sort;

pub use attributes::MultiAttributeQuery;
pub use range::{SortKeyPrefix, SortKeyText, prefix_upper_bound};
pub use send::Page;

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
}
