//! The options of a [`Query`]: order, `Limit` and page following, consistency,
//! filter, expiry, the cursor to start after, and what items decode into.

use super::*;

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
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
    pub(super) fn at_clock_of(mut self, table: &crate::Table) -> Self {
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
    pub fn collection<C: crate::Collection>(self) -> Query<E, I, C>
    where
        E: crate::CollectionMember<C>,
    {
        let members = crate::model::collection::members_read::<E, C, I>();
        let mut query = self.decoding(C::from_item);
        query.scoped = false;
        query.needs = Needs::Members(members);
        query
    }
}
