//! Typed queries on the table or a GSI: a partition key, a sort-key
//! condition on a leading prefix of the sort-key fields, options, pages with
//! opaque cursors, and streams across pages.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html>.

use std::collections::HashMap;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, Select};
use futures::{Stream, StreamExt, TryStreamExt, stream};
use tracing::Instrument;

use crate::expression::{Condition, Placeholders, check_expression_length};
use crate::ops::cursor::{Cursor, CursorKey, Fingerprint};
use crate::{Entity, Error, IndexSchema, Item, KeyTemplate, Table};

/// A value for a leading prefix of the sort-key fields of entity `E` in
/// index `INDEX` (0 is the table). `#[derive(Item)]` implements it for
/// `&T` (the first field; `&str` for a `String`) and for tuples of
/// references `(&A, &B, …)` (the first two, three, … fields).
pub trait SortKeyPrefix<E: Entity, const INDEX: u8> {
    /// The sort key text up to these fields.
    ///
    /// # Errors
    ///
    /// The errors of building a key: [`Error::EmptyKeyValue`],
    /// [`Error::KeyEncode`].
    fn sort_key_prefix(&self) -> Result<SortKeyText, Error>;
}

/// The text of a sort-key prefix, from [`SortKeyPrefix`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortKeyText {
    /// The key text: the literal prefix and fields, then the delimiter that
    /// follows the last field given, or the whole key when every field is
    /// given.
    pub text: String,
    /// Whether every field of the template is given, so `text` is a whole
    /// sort key.
    pub complete: bool,
}

/// One end of a sort-key range.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Bound {
    Included(String),
    Excluded(String),
}

/// The sort-key condition a query was given.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SortCondition {
    /// Only the entity's scope.
    Scope,
    Equals(String),
    BeginsWith(String),
    Range {
        lower: Option<Bound>,
        upper: Option<Bound>,
    },
}

/// The smallest string greater than every string that starts with `prefix`,
/// by UTF-8 byte order (which is code point order): the last character
/// moved to the next one. `None` when there is none (only `char::MAX`s).
pub fn prefix_upper_bound(prefix: &str) -> Option<String> {
    let mut text = prefix.to_owned();
    while let Some(last) = text.pop() {
        let next = match last {
            char::MAX => continue,
            '\u{D7FF}' => '\u{E000}',
            other => char::from_u32(other as u32 + 1).expect("the next code point is a char"),
        };
        text.push(next);
        return Some(text);
    }
    None
}

/// A page of results: up to one `Query` response (1 MB at most), or fewer
/// items when capped by [`Query::max_items`].
#[derive(Debug, Clone, PartialEq)]
pub struct Page<O> {
    /// The items, decoded, in sort-key order (as the query asked).
    pub items: Vec<O>,
    /// Where the next page starts; `None` after the last page.
    pub cursor: Option<Cursor>,
    /// Items DynamoDB evaluated before the filter (`ScannedCount`).
    pub scanned_count: u32,
}

/// A query of entity `E` on index `INDEX` (0: the table), decoding items
/// into `O`. Built by the generated `E::query(…)` / `E::query_gsiN(…)`;
/// nothing is sent until [`send`](Self::send), [`stream`](Self::stream) or
/// [`count`](Self::count).
///
/// The query is scoped to the entity: its sort key condition always stays
/// within the literal prefix of the entity's sort-key template (such as
/// `ORDER#`), and a filter on the type attribute (`Type = :type`) drops the
/// items of other entities whose keys share that prefix (`ORDER#…#ITEM#…`
/// beside `ORDER#…`) or the index partition. So other item types never come
/// back, and [`count`](Self::count) counts only this entity's items. As with
/// any filter, DynamoDB applies `Limit` before it: a page may be short, even
/// empty, and still carry a cursor.
///
/// Errors in building it (a bad key value, an invalid option) are kept and
/// returned by the call that would send it, before anything is sent.
pub struct Query<E, const INDEX: u8 = 0, O = E> {
    partition_key: Result<String, Error>,
    sort: Result<SortCondition, Error>,
    newest_first: bool,
    limit: Option<u32>,
    max_items: Option<usize>,
    consistent_read: bool,
    filter: Option<Condition<E>>,
    projection: Option<Vec<&'static str>>,
    start: Option<Cursor>,
    /// Whether the sort key stays within the entity's prefix (not for a
    /// collection, which reads the whole partition).
    scoped: bool,
    decode: fn(Item) -> Result<O, Error>,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity, const INDEX: u8> Query<E, INDEX, E> {
    /// A query of the partition `partition_key` (already built from the
    /// template). Generated code calls it.
    #[doc(hidden)]
    pub fn new(partition_key: Result<String, Error>) -> Self {
        Query {
            partition_key,
            sort: Ok(SortCondition::Scope),
            newest_first: false,
            limit: None,
            max_items: None,
            consistent_read: false,
            filter: None,
            projection: None,
            start: None,
            scoped: true,
            decode: E::from_item,
            entity: PhantomData,
        }
    }
}

impl<E: Entity, const INDEX: u8, O> Query<E, INDEX, O> {
    /// The index queried, `None` for the table.
    fn index() -> Option<&'static IndexSchema> {
        (INDEX != 0).then(|| {
            E::SCHEMA
                .index(INDEX)
                .expect("generated queries name an index of the entity")
        })
    }

    fn key_attributes() -> (
        &'static str,
        Option<&'static KeyTemplate>,
        Option<&'static str>,
    ) {
        match Self::index() {
            None => (
                E::SCHEMA.partition_key.name,
                Some(&E::SCHEMA.sort_key.template),
                Some(E::SCHEMA.sort_key.name),
            ),
            Some(index) => (
                index.partition_key.name,
                index.sort_key.as_ref().map(|key| &key.template),
                index.sort_key.as_ref().map(|key| key.name),
            ),
        }
    }

    fn with_sort(mut self, condition: impl FnOnce() -> Result<SortCondition, Error>) -> Self {
        if matches!(self.sort, Ok(SortCondition::Scope)) {
            self.sort = condition();
        } else if self.sort.is_ok() {
            self.sort = Err(Error::InvalidQuery {
                reason: "a query takes one sort-key condition".to_owned(),
            });
        }
        self
    }

    /// Sort key equal to a whole key, or, given a leading prefix of the
    /// sort-key fields, beginning with it (`begins_with(SK, "ORDER#<created_at>#")`).
    pub fn sort_key_eq(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
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
    pub fn sort_key_begins_with(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
        self.with_sort(|| Ok(SortCondition::BeginsWith(prefix.sort_key_prefix()?.text)))
    }

    /// Sort-key fields less than the given ones.
    pub fn sort_key_lt(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
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
    pub fn sort_key_le(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
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
    pub fn sort_key_gt(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
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
    pub fn sort_key_ge(self, prefix: impl SortKeyPrefix<E, INDEX>) -> Self {
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
        low: impl SortKeyPrefix<E, INDEX>,
        high: impl SortKeyPrefix<E, INDEX>,
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
    /// the filter and the entity's type scope. A page may hold fewer items
    /// when they drop some (items of other types under the same prefix).
    /// Must be at least 1 ([`Error::InvalidQuery`] otherwise).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// At most `max_items` items in all. [`send`](Self::send) returns at
    /// most this many, with a cursor at the last item returned, so that
    /// resuming skips nothing; [`stream`](Self::stream) stops after them.
    /// The request's `Limit` is capped at the items still wanted, so a page
    /// from `send` may hold fewer when the type scope or a filter drops
    /// some; its cursor then goes on from the last item evaluated.
    pub fn max_items(mut self, max_items: usize) -> Self {
        self.max_items = Some(max_items);
        self
    }

    /// A strongly consistent read. Not allowed on a GSI: sending such a
    /// query returns [`Error::ConsistentReadOnIndex`] before any request.
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

    /// Starts after the item a previous page's cursor points at.
    pub fn after(mut self, cursor: &Cursor) -> Self {
        self.start = Some(cursor.clone());
        self
    }

    /// Reads only `attributes` (a projection) and decodes each item into
    /// `P`. Key attributes are added to the projection so that cursors work.
    pub fn project<P: serde::de::DeserializeOwned>(
        self,
        attributes: &[&'static str],
    ) -> Query<E, INDEX, P> {
        Query {
            partition_key: self.partition_key,
            sort: self.sort,
            newest_first: self.newest_first,
            limit: self.limit,
            max_items: self.max_items,
            consistent_read: self.consistent_read,
            filter: self.filter,
            projection: Some(attributes.to_vec()),
            start: self.start,
            scoped: self.scoped,
            decode: |item| {
                serde_dynamo::from_item(item).map_err(|source| Error::Deserialize {
                    entity: E::SCHEMA.type_name,
                    source,
                })
            },
            entity: PhantomData,
        }
    }

    /// Reads the whole partition, every entity of collection `C` in it,
    /// decoding each item by its type attribute. A sort-key condition given
    /// on this query still applies (on the entity's template); without one,
    /// every item of the partition comes back.
    pub fn collection<C: crate::Collection>(self) -> Query<E, INDEX, C>
    where
        E: crate::CollectionMember<C>,
    {
        const {
            assert!(
                C::INDEX == INDEX,
                "the collection is of another index than the query"
            );
        }
        Query {
            partition_key: self.partition_key,
            sort: self.sort,
            newest_first: self.newest_first,
            limit: self.limit,
            max_items: self.max_items,
            consistent_read: self.consistent_read,
            filter: self.filter,
            projection: self.projection,
            start: self.start,
            scoped: false,
            decode: C::from_item,
            entity: PhantomData,
        }
    }

    /// The key attributes an item of this query carries, which a cursor holds.
    fn cursor_attributes() -> Vec<&'static str> {
        let mut names = vec![E::SCHEMA.partition_key.name, E::SCHEMA.sort_key.name];
        if let Some(index) = Self::index() {
            names.push(index.partition_key.name);
            names.extend(index.sort_key.as_ref().map(|key| key.name));
        }
        names
    }

    /// Checks that a cursor's key belongs to this query, as a cursor from an
    /// untrusted client must: exactly the key attributes an item of the
    /// query carries, the query's partition, and a sort key that the key
    /// condition admits. (Its keys need not be the entity's: DynamoDB's
    /// `LastEvaluatedKey` may be an item of another type that the type
    /// scope filtered out.)
    fn check_start(
        &self,
        key: &Item,
        partition_attribute: &str,
        partition_key: &str,
        sort_attribute: Option<&str>,
        accept: &SortAccept,
    ) -> Result<(), Error> {
        let invalid = |reason: String| Err(Error::InvalidCursor { reason });
        let expected = Self::cursor_attributes();
        if let Some(name) = key.keys().find(|name| !expected.contains(&name.as_str())) {
            return invalid(format!("unexpected attribute `{name}`"));
        }
        let text = |name: &str| match key.get(name) {
            Some(AttributeValue::S(text)) => Ok(text.as_str()),
            _ => Err(Error::InvalidCursor {
                reason: format!("key attribute `{name}` is missing"),
            }),
        };
        for name in &expected {
            text(name)?;
        }
        if text(partition_attribute)? != partition_key {
            return invalid(format!(
                "`{partition_attribute}` is not the query's partition"
            ));
        }
        if let Some(sort_attribute) = sort_attribute
            && !accept.admits(text(sort_attribute)?)
        {
            return invalid(format!(
                "`{sort_attribute}` is outside the query's sort-key condition"
            ));
        }
        Ok(())
    }

    /// Checks the options and renders the request, without a network.
    /// `signing` is the table's cursor key: it checks the cursor given to
    /// [`after`](Self::after) and signs the cursors of the response.
    fn plan(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        count_only: bool,
        limit: Option<u32>,
    ) -> Result<Plan, Error> {
        let partition_key = self.partition_key.as_ref().map_err(Clone::clone)?;
        let sort = self.sort.as_ref().map_err(Clone::clone)?;
        let index = Self::index();
        if let (true, Some(index)) = (self.consistent_read, index) {
            return Err(Error::ConsistentReadOnIndex { index: index.name });
        }
        if self.limit == Some(0) {
            return Err(Error::InvalidQuery {
                reason: "`limit` must be at least 1".to_owned(),
            });
        }
        let (partition_attribute, sort_template, sort_attribute) = Self::key_attributes();
        let mut placeholders = Placeholders::default();
        let mut key_condition = format!(
            "{} = {}",
            placeholders.name(partition_attribute),
            placeholders.add_value(AttributeValue::S(partition_key.clone()))
        );
        let mut excluded_sort_key = None;
        let mut accept = SortAccept::Any;
        if let (Some(template), Some(sort_attribute)) = (sort_template, sort_attribute) {
            let scope = if self.scoped { Some(template) } else { None };
            if let Some(text) = sort_key_condition(
                scope,
                template,
                sort,
                sort_attribute,
                &mut placeholders,
                &mut excluded_sort_key,
                &mut accept,
            )? {
                key_condition.push_str(" AND ");
                key_condition.push_str(&text);
            }
        }
        // A stable encoding of the key condition's values (all strings), not
        // `Debug` output, so that an SDK upgrade keeps live cursors valid.
        let mut key_values: Vec<String> = placeholders
            .values()
            .unwrap_or_default()
            .into_iter()
            .map(|(placeholder, value)| match value {
                AttributeValue::S(text) => format!("{placeholder}=S:{text}"),
                other => unreachable!("key condition values are strings, not {other:?}"),
            })
            .collect();
        key_values.sort();
        let fingerprint = Fingerprint::of(&[
            table_name,
            index.map_or("", |index| index.name),
            &key_condition,
            &key_values.join("\n"),
            if self.newest_first { "desc" } else { "asc" },
        ]);
        let user_filter = self
            .filter
            .as_ref()
            .map(|filter| filter.render(&mut placeholders))
            .transpose()?;
        // The entity's scope: other item types can share the partition and
        // the literal prefix (`ORDER#…#ITEM#…` beside `ORDER#…`), so an
        // entity query keeps only items of its type, as a scan does.
        let filter = if self.scoped {
            let scope = format!(
                "{} = {}",
                placeholders.name(E::SCHEMA.type_attribute),
                placeholders.add_value(AttributeValue::S(E::SCHEMA.type_name.to_owned()))
            );
            Some(match user_filter {
                Some(user) => format!("({scope}) AND ({user})"),
                None => scope,
            })
        } else {
            user_filter
        };
        let count_by_projection = count_only && excluded_sort_key.is_some();
        let projection = if count_by_projection {
            Some(vec![
                placeholders.name(sort_attribute.expect("a sort key was excluded")),
            ])
        } else {
            self.projection.as_ref().map(|attributes| {
                let mut names: Vec<String> = attributes
                    .iter()
                    .map(|name| placeholders.name(name))
                    .collect();
                for key in Self::cursor_attributes() {
                    let key = placeholders.name(key);
                    if !names.contains(&key) {
                        names.push(key);
                    }
                }
                names
            })
        };
        let start = self
            .start
            .as_ref()
            .map(|cursor| {
                let key = cursor.decode(&fingerprint, signing)?;
                self.check_start(
                    &key,
                    partition_attribute,
                    partition_key,
                    sort_attribute,
                    &accept,
                )?;
                Ok::<_, Error>(key)
            })
            .transpose()?;
        check_expression_length("key condition", &key_condition)?;
        if let Some(filter) = &filter {
            check_expression_length("filter", filter)?;
        }
        let projection = projection.map(|names| names.join(", "));
        if let Some(projection) = &projection {
            check_expression_length("projection", projection)?;
        }
        let input = QueryInput::builder()
            .table_name(table_name)
            .set_index_name(index.map(|index| index.name.to_owned()))
            .key_condition_expression(key_condition)
            .set_filter_expression(filter)
            .set_projection_expression(projection)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .scan_index_forward(!self.newest_first)
            .set_limit(limit.map(|limit| limit.min(i32::MAX as u32) as i32))
            .set_consistent_read(self.consistent_read.then_some(true))
            .set_select((count_only && !count_by_projection).then_some(Select::Count))
            .set_exclusive_start_key(start)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("QueryInput has no required fields");
        Ok(Plan {
            input,
            fingerprint,
            signing: signing.cloned(),
            excluded_sort_key: excluded_sort_key
                .map(|key| (sort_attribute.expect("a sort key was excluded"), key)),
        })
    }

    /// The limit of the next request: `Limit`, capped by the items still
    /// wanted.
    fn request_limit(&self, remaining: Option<usize>) -> Option<u32> {
        match (self.limit, remaining) {
            (Some(limit), Some(remaining)) => {
                Some(limit.min(remaining.min(u32::MAX as usize) as u32))
            }
            (limit, None) => limit,
            (None, Some(remaining)) => Some(remaining.min(u32::MAX as usize) as u32),
        }
    }

    /// The exact `Query` request the first page would send, without a
    /// network: expressions, placeholders, index, order, limit.
    ///
    /// Without a table there is no cursor key: a cursor's signature is not
    /// checked here (its payload is), while [`send`](Self::send),
    /// [`stream`](Self::stream) and [`count`](Self::count) check it with
    /// the table's key.
    ///
    /// # Errors
    ///
    /// The errors [`send`](Self::send) finds before sending.
    pub fn request(&self, table_name: &str) -> Result<QueryInput, Error> {
        Ok(self
            .plan(table_name, None, false, self.request_limit(self.max_items))?
            .input)
    }

    /// Sends one `Query` request and returns its page, truncated to
    /// [`max_items`](Self::max_items).
    ///
    /// # Errors
    ///
    /// Before sending: a key value error, [`Error::ConsistentReadOnIndex`],
    /// [`Error::InvalidQuery`], [`Error::InvalidSortKeyRange`],
    /// [`Error::InvalidCursor`] or [`Error::CursorMismatch`]. After:
    /// [`Error::DynamoDb`], and the errors of decoding an item.
    pub async fn send(&self, table: &Table) -> Result<Page<O>, Error> {
        let plan = self.plan(
            table.name(),
            table.cursor_key(),
            false,
            self.request_limit(self.max_items),
        )?;
        let response = execute::<E>(table, plan.input.clone(), Self::index()).await?;
        self.page(plan, response, self.max_items)
    }

    fn page(
        &self,
        plan: Plan,
        response: Response,
        remaining: Option<usize>,
    ) -> Result<Page<O>, Error> {
        let mut raw: Vec<Item> = response
            .items
            .into_iter()
            .filter(|item| !plan.excludes(item))
            .collect();
        let mut cursor = response
            .last_evaluated_key
            .map(|key| Cursor::encode(&plan.fingerprint, plan.signing.as_ref(), &key))
            .transpose()?;
        if let Some(remaining) = remaining {
            if raw.len() > remaining {
                raw.truncate(remaining);
            }
            if raw.len() == remaining
                && remaining > 0
                && (cursor.is_some() || raw.len() < response.count)
            {
                let last = raw.last().expect("remaining > 0");
                let key: Item = Self::cursor_attributes()
                    .into_iter()
                    .filter_map(|name| last.get(name).map(|value| (name.to_owned(), value.clone())))
                    .collect();
                cursor = Some(Cursor::encode(
                    &plan.fingerprint,
                    plan.signing.as_ref(),
                    &key,
                )?);
            }
        }
        let items = raw
            .into_iter()
            .map(self.decode)
            .collect::<Result<Vec<O>, Error>>()?;
        Ok(Page {
            items,
            cursor,
            scanned_count: response.scanned_count,
        })
    }

    /// Every matching item, across pages, one request per page. It goes on
    /// through empty pages that still carry a `LastEvaluatedKey` (which a
    /// filter with a limit produces) and stops at the end or after
    /// [`max_items`](Self::max_items).
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
        }
        let state = State {
            cursor: self.start.clone(),
            remaining: self.max_items,
            query: self,
            done: false,
        };
        stream::try_unfold(state, move |mut state| async move {
            if state.done || state.remaining == Some(0) {
                return Ok(None);
            }
            state.query.start = state.cursor.take();
            let limit = state.query.request_limit(state.remaining);
            let plan = state
                .query
                .plan(table.name(), table.cursor_key(), false, limit)?;
            let response = execute::<E>(table, plan.input.clone(), Self::index()).await?;
            let page = state.query.page(plan, response, state.remaining)?;
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
    /// types under the same prefix are not counted.
    ///
    /// # Errors
    ///
    /// The errors of [`send`](Self::send).
    pub async fn count(&self, table: &Table) -> Result<u64, Error> {
        let mut total = 0;
        // The first request's start is the checked cursor of `after`; the
        // next ones start at DynamoDB's own `LastEvaluatedKey`.
        let mut plan = self.plan(table.name(), table.cursor_key(), true, self.limit)?;
        loop {
            let response = execute::<E>(table, plan.input.clone(), Self::index()).await?;
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
}

/// `Included` for a whole key, otherwise everything that begins with the
/// prefix: `Excluded(upper bound of the prefix)`.
fn inclusive_upper(prefix: SortKeyText) -> Bound {
    if prefix.complete {
        Bound::Included(prefix.text)
    } else {
        match prefix_upper_bound(&prefix.text) {
            Some(bound) => Bound::Excluded(bound),
            None => Bound::Included(prefix.text),
        }
    }
}

/// Renders the sort-key part of the key condition, kept within the
/// entity's scope. A key condition has one sort-key comparison, so a range
/// inside the scope becomes `BETWEEN`; an excluded upper end is then
/// included by `BETWEEN` and dropped from the results by `excluded`.
fn sort_key_condition(
    scope_template: Option<&KeyTemplate>,
    template: &KeyTemplate,
    condition: &SortCondition,
    attribute: &str,
    placeholders: &mut Placeholders,
    excluded: &mut Option<String>,
    accept: &mut SortAccept,
) -> Result<Option<String>, Error> {
    let has_fields = template.fields().next().is_some();
    let scope = scope_template.map_or("", KeyTemplate::literal_prefix);
    if matches!(condition, SortCondition::Scope)
        && (scope_template.is_none() || (has_fields && scope.is_empty()))
    {
        return Ok(None);
    }
    let name = placeholders.name(attribute);
    let mut value = |text: &str| placeholders.add_value(AttributeValue::S(text.to_owned()));
    let condition = match condition {
        SortCondition::Scope if !has_fields => {
            *accept = SortAccept::Equals(scope.to_owned());
            return Ok(Some(format!("{name} = {}", value(scope))));
        }
        SortCondition::Scope => {
            *accept = SortAccept::Prefix(scope.to_owned());
            return Ok(Some(format!("begins_with({name}, {})", value(scope))));
        }
        SortCondition::Equals(key) => {
            *accept = SortAccept::Equals(key.clone());
            return Ok(Some(format!("{name} = {}", value(key))));
        }
        SortCondition::BeginsWith(prefix) => {
            *accept = SortAccept::Prefix(prefix.clone());
            return Ok(Some(format!("begins_with({name}, {})", value(prefix))));
        }
        SortCondition::Range { lower, upper } => (lower, upper),
    };
    let lower = match condition.0.clone() {
        Some(Bound::Excluded(text)) => Some(text + "\0"),
        Some(Bound::Included(text)) => Some(text),
        None if scope.is_empty() => None,
        None => Some(scope.to_owned()),
    };
    let upper = match condition.1.clone() {
        Some(bound) => Some(bound),
        None if scope.is_empty() => None,
        None => prefix_upper_bound(scope).map(Bound::Excluded),
    };
    *accept = SortAccept::Range {
        lower: lower.clone(),
        upper: upper.clone(),
    };
    Ok(Some(match (lower, upper) {
        (Some(lower), Some(upper)) => {
            let (Bound::Included(upper_text) | Bound::Excluded(upper_text)) = &upper;
            if lower.as_str() > upper_text.as_str() {
                return Err(Error::InvalidSortKeyRange {
                    lower,
                    upper: upper_text.clone(),
                });
            }
            if let Bound::Excluded(text) = &upper {
                *excluded = Some(text.clone());
            }
            format!("{name} BETWEEN {} AND {}", value(&lower), value(upper_text))
        }
        (Some(lower), None) => format!("{name} >= {}", value(&lower)),
        (None, Some(Bound::Included(upper))) => format!("{name} <= {}", value(&upper)),
        (None, Some(Bound::Excluded(upper))) => format!("{name} < {}", value(&upper)),
        (None, None) => return Ok(None),
    }))
}

/// The sort-key values a query's key condition admits: what the sort key
/// of a cursor must be for the cursor to belong to the query.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SortAccept {
    /// No condition on the sort key.
    Any,
    Equals(String),
    Prefix(String),
    /// At or above `lower` (included), below or at `upper`.
    Range {
        lower: Option<String>,
        upper: Option<Bound>,
    },
}

impl SortAccept {
    fn admits(&self, key: &str) -> bool {
        match self {
            SortAccept::Any => true,
            SortAccept::Equals(text) => key == text,
            SortAccept::Prefix(prefix) => key.starts_with(prefix.as_str()),
            SortAccept::Range { lower, upper } => {
                lower.as_deref().is_none_or(|lower| key >= lower)
                    && match upper {
                        None => true,
                        Some(Bound::Included(upper)) => key <= upper.as_str(),
                        Some(Bound::Excluded(upper)) => key < upper.as_str(),
                    }
            }
        }
    }
}

/// The longest cursor text accepted: the four key attributes at DynamoDB's
/// limits (2 × 2048 + 2 × 1024 bytes, escaped as JSON and in base64) fit
/// well within it.
pub const MAX_CURSOR_LEN: usize = 32 * 1024;

/// A rendered request and what is needed to read its response.
struct Plan {
    input: QueryInput,
    fingerprint: Fingerprint,
    /// The table's cursor key, which signs the response's cursors.
    signing: Option<CursorKey>,
    /// An item with this sort key is not a result (see `sort_key_condition`).
    excluded_sort_key: Option<(&'static str, String)>,
}

impl Plan {
    fn excludes(&self, item: &Item) -> bool {
        match &self.excluded_sort_key {
            Some((attribute, key)) => {
                matches!(item.get(*attribute), Some(AttributeValue::S(value)) if value == key)
            }
            None => false,
        }
    }
}

/// The parts of a `Query` response Stamp reads.
struct Response {
    items: Vec<Item>,
    last_evaluated_key: Option<HashMap<String, AttributeValue>>,
    count: usize,
    scanned_count: u32,
}

/// Sends one `Query` in a `stamp.request` span.
async fn execute<E: Entity>(
    table: &Table,
    input: QueryInput,
    index: Option<&'static IndexSchema>,
) -> Result<Response, Error> {
    let span = tracing::debug_span!(
        "stamp.request",
        operation = "Query",
        table = table.name(),
        entity = E::SCHEMA.type_name,
        index = index.map_or("", |index| index.name),
        item_count = tracing::field::Empty,
        consumed_capacity = tracing::field::Empty,
    );
    async {
        let output = table
            .client()
            .query()
            .set_table_name(input.table_name)
            .set_index_name(input.index_name)
            .set_key_condition_expression(input.key_condition_expression)
            .set_filter_expression(input.filter_expression)
            .set_projection_expression(input.projection_expression)
            .set_expression_attribute_names(input.expression_attribute_names)
            .set_expression_attribute_values(input.expression_attribute_values)
            .set_scan_index_forward(input.scan_index_forward)
            .set_limit(input.limit)
            .set_consistent_read(input.consistent_read)
            .set_select(input.select)
            .set_exclusive_start_key(input.exclusive_start_key)
            .set_return_consumed_capacity(input.return_consumed_capacity)
            .send()
            .await
            .map_err(|error| Error::dynamodb("Query", table.name(), error))?;
        let span = tracing::Span::current();
        span.record("item_count", output.count);
        if let Some(capacity) = output
            .consumed_capacity
            .as_ref()
            .and_then(|capacity| capacity.capacity_units)
        {
            span.record("consumed_capacity", capacity);
        }
        Ok(Response {
            count: output.count.max(0) as usize,
            scanned_count: output.scanned_count.max(0) as u32,
            items: output.items.unwrap_or_default(),
            last_evaluated_key: output.last_evaluated_key,
        })
    }
    .instrument(span)
    .await
}

#[cfg(test)]
mod tests {
    use super::prefix_upper_bound;

    #[test]
    fn the_upper_bound_of_a_prefix_moves_its_last_character() {
        assert_eq!(
            prefix_upper_bound("ORDER#2026-06-30#").as_deref(),
            Some("ORDER#2026-06-30$")
        );
        assert_eq!(
            prefix_upper_bound("a\u{D7FF}").as_deref(),
            Some("a\u{E000}")
        );
        assert_eq!(prefix_upper_bound("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(prefix_upper_bound("\u{10FFFF}"), None);
        assert_eq!(prefix_upper_bound("é").as_deref(), Some("ê"));
    }
}
