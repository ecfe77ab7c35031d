//! Queries of a multi-attribute GSI (`#[gsiN(pk(…), sk(…))]`): every
//! partition-key attribute with `=`, `=` on a leading run of the sort-key
//! attributes and at most one range condition on the next one, each value
//! with its native type; and what a cursor's key must be to belong to such
//! a query.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.

use std::cmp::Ordering;

use aws_sdk_dynamodb::types::AttributeValue;

use super::Query;
use super::range::SortCondition;
use crate::error::Error;
use crate::error::{CursorReason, QueryReason, Refusal};
use crate::expression::Placeholders;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::IndexSchema;
use crate::model::index::QueryIndex;
use crate::model::multi_attribute::{IndexKeyField, SortAttributes, TextSortAttribute};

mod key;
#[cfg(test)]
mod tests;

use crate::model::projection::Projection;
use crate::ops::cursor::Cursor;
use crate::ops::query::Page;
use crate::request::table::Table;
pub(super) use key::{AttributeAccept, key_condition};
use key::{compare, display};

/// The one range condition of a multi-attribute sort key, on the attribute
/// after the equality run.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum AttributeRange {
    Lt(AttributeValue),
    Le(AttributeValue),
    Gt(AttributeValue),
    Ge(AttributeValue),
    Between(AttributeValue, AttributeValue),
    BeginsWith(AttributeValue),
}

/// The sort-key condition of a multi-attribute query.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AttributeSort {
    /// `=` on the first `equal.len()` sort-key attributes.
    pub(super) equal: Vec<AttributeValue>,
    /// A range on the next one.
    pub(super) range: Option<AttributeRange>,
}

// `AttributeValue` is not `Eq` (it holds no floats, but the SDK does not say
// so); the sort conditions only compare values the derive encoded.
impl Eq for AttributeSort {}

impl<E: Entity, I: QueryIndex> Query<E, I, E> {
    /// A query of a multi-attribute index with these partition-key
    /// attribute values, in key-schema order (already encoded as stored).
    fn new_multi_attribute(partition: Result<Vec<AttributeValue>, Error>) -> Self {
        let (values, error) = match partition {
            Ok(values) => (values, None),
            Err(error) => (Vec::new(), Some(error)),
        };
        let mut query = Query::new(match error {
            Some(error) => Err(error),
            None => Ok(String::new()),
        });
        query.partition_values = values;
        query
    }
}

/// A query of a multi-attribute GSI (`#[gsiN(pk(…), sk(…))]`) before its
/// sort-key condition, built by the generated `E::query_gsiN(…)`.
///
/// DynamoDB takes one sort-key condition in a query's key condition; so
/// does this type: `sort_eq`, `sort_lt`, `sort_le`, `sort_gt`, `sort_ge`,
/// `sort_between` and `sort_begins_with` consume it and return the
/// [`Query`], which has none of them, so a second condition does not
/// compile (`query_gsi3(..).sort_between(..).sort_gt(..)`). Every other
/// option of [`Query`] is here too (`newest_first`, `limit`, `filter`, …,
/// returning this type, so they may come before the condition), and it
/// sends as a `Query` does: [`send`](Self::send), [`count`](Self::count)
/// and [`stream`](Self::stream) here, [`request`](Query::request) through
/// `Deref`; [`into_query`](Self::into_query) (or `Query::from`) gives the
/// query with no sort-key condition.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.
pub struct MultiAttributeQuery<E, I: QueryIndex, O = E> {
    query: Query<E, I, O>,
}

impl<E, I: QueryIndex, O> Clone for MultiAttributeQuery<E, I, O> {
    fn clone(&self) -> Self {
        MultiAttributeQuery {
            query: self.query.clone(),
        }
    }
}

impl<E, I: QueryIndex, O> std::ops::Deref for MultiAttributeQuery<E, I, O> {
    type Target = Query<E, I, O>;

    fn deref(&self) -> &Query<E, I, O> {
        &self.query
    }
}

impl<E, I: QueryIndex, O> From<MultiAttributeQuery<E, I, O>> for Query<E, I, O> {
    fn from(query: MultiAttributeQuery<E, I, O>) -> Self {
        query.query
    }
}

impl<E: Entity, I: QueryIndex> MultiAttributeQuery<E, I, E> {
    /// A query of a multi-attribute index with these partition-key
    /// attribute values, in key-schema order (already encoded as stored).
    /// Generated code calls it.
    #[doc(hidden)]
    pub fn new(partition: Result<Vec<AttributeValue>, Error>) -> Self {
        MultiAttributeQuery {
            query: Query::new_multi_attribute(partition),
        }
    }
}

impl<E: Entity, I: QueryIndex, O> MultiAttributeQuery<E, I, O> {
    /// The query with no sort-key condition: every item of the partition.
    pub fn into_query(self) -> Query<E, I, O> {
        self.query
    }

    fn map(self, change: impl FnOnce(Query<E, I, O>) -> Query<E, I, O>) -> Self {
        MultiAttributeQuery {
            query: change(self.query),
        }
    }

    /// [`Query::newest_first`]: descending order of the sort-key attributes.
    pub fn newest_first(self) -> Self {
        self.map(Query::newest_first)
    }

    /// [`Query::oldest_first`]: ascending order, the default.
    pub fn oldest_first(self) -> Self {
        self.map(Query::oldest_first)
    }

    /// [`Query::limit`]: DynamoDB's `Limit`, items evaluated per request.
    pub fn limit(self, limit: u32) -> Self {
        self.map(|query| query.limit(limit))
    }

    /// [`Query::max_items`]: at most this many items in all.
    pub fn max_items(self, max_items: usize) -> Self {
        self.map(|query| query.max_items(max_items))
    }

    /// [`Query::consistent_read`]: refused on a GSI
    /// ([`Refusal::ConsistentReadOnIndex`] before sending), as on any GSI.
    pub fn consistent_read(self) -> Self {
        self.map(Query::consistent_read)
    }

    /// [`Query::filter`]: keeps only the items matching `filter`.
    pub fn filter(self, filter: crate::expression::Condition<E>) -> Self {
        self.map(|query| query.filter(filter))
    }

    /// [`Query::include_expired`]: returns items whose TTL has passed too.
    pub fn include_expired(self) -> Self {
        self.map(Query::include_expired)
    }

    /// [`Query::after`]: starts after a previous page's cursor.
    pub fn after(self, cursor: &Cursor) -> Self {
        self.map(|query| query.after(cursor))
    }

    /// [`Query::project`]: reads only the attributes of projection `P`.
    pub fn project<P: Projection<E>>(self) -> MultiAttributeQuery<E, I, P> {
        MultiAttributeQuery {
            query: self.query.project::<P>(),
        }
    }

    /// [`Query::stream`]: every matching item, across pages.
    ///
    /// # Errors
    ///
    /// As [`Query::stream`].
    pub fn stream<'t>(
        self,
        table: &'t Table,
    ) -> impl futures::Stream<Item = Result<O, Error>> + Send + 't
    where
        E: Send + 't,
        O: Send + 't,
    {
        self.query.stream(table)
    }

    /// [`Query::send`]: the first page of every item of the partition.
    ///
    /// # Errors
    ///
    /// As [`Query::send`].
    pub async fn send(self, table: &Table) -> Result<Page<O>, Error> {
        self.query.send(table).await
    }

    /// [`Query::count`]: the number of items of the partition.
    ///
    /// # Errors
    ///
    /// As [`Query::count`].
    pub async fn count(self, table: &Table) -> Result<u64, Error> {
        self.query.count(table).await
    }

    /// On a multi-attribute index: `=` on a leading run of the sort-key
    /// attributes, `(&a,)`, `(&a, &b)`, … (`&str` for a `String`).
    /// A run that skips an attribute does not compile.
    pub fn sort_eq<P: SortAttributes<E, I>>(self, equal: P) -> Query<E, I, O> {
        self.query.with_attributes(|| Ok((equal.values()?, None)))
    }

    /// On a multi-attribute index: `=` on the leading run `equal` (`()` for
    /// none) and the next sort-key attribute `<` `value`.
    pub fn sort_lt<P: SortAttributes<E, I>>(self, equal: P, value: &P::Next) -> Query<E, I, O> {
        self.query.with_attributes(|| {
            Ok((
                equal.values()?,
                Some(AttributeRange::Lt(P::next_value(value)?)),
            ))
        })
    }

    /// On a multi-attribute index: `=` on the leading run `equal` and the
    /// next sort-key attribute `<=` `value`.
    pub fn sort_le<P: SortAttributes<E, I>>(self, equal: P, value: &P::Next) -> Query<E, I, O> {
        self.query.with_attributes(|| {
            Ok((
                equal.values()?,
                Some(AttributeRange::Le(P::next_value(value)?)),
            ))
        })
    }

    /// On a multi-attribute index: `=` on the leading run `equal` and the
    /// next sort-key attribute `>` `value`.
    pub fn sort_gt<P: SortAttributes<E, I>>(self, equal: P, value: &P::Next) -> Query<E, I, O> {
        self.query.with_attributes(|| {
            Ok((
                equal.values()?,
                Some(AttributeRange::Gt(P::next_value(value)?)),
            ))
        })
    }

    /// On a multi-attribute index: `=` on the leading run `equal` and the
    /// next sort-key attribute `>=` `value`.
    pub fn sort_ge<P: SortAttributes<E, I>>(self, equal: P, value: &P::Next) -> Query<E, I, O> {
        self.query.with_attributes(|| {
            Ok((
                equal.values()?,
                Some(AttributeRange::Ge(P::next_value(value)?)),
            ))
        })
    }

    /// On a multi-attribute index: `=` on the leading run `equal` and the
    /// next sort-key attribute between `low` and `high`, both included, in
    /// the values' own order (numeric for integers). `low` above `high` is
    /// [`Refusal::InvalidSortKeyRange`] before anything is sent.
    pub fn sort_between<P: SortAttributes<E, I>>(
        self,
        equal: P,
        low: &P::Next,
        high: &P::Next,
    ) -> Query<E, I, O> {
        self.query.with_attributes(|| {
            let (low, high) = (P::next_value(low)?, P::next_value(high)?);
            if compare(&low, &high) == Some(Ordering::Greater) {
                return Err(Error::Refused(Refusal::InvalidSortKeyRange {
                    lower: display(&low),
                    upper: display(&high),
                }));
            }
            Ok((equal.values()?, Some(AttributeRange::Between(low, high))))
        })
    }

    /// On a multi-attribute index: `=` on the leading run `equal` and the
    /// next sort-key attribute, a `String`, beginning with `prefix`.
    pub fn sort_begins_with<P>(self, equal: P, prefix: &P::Next) -> Query<E, I, O>
    where
        P: SortAttributes<E, I>,
        P::Next: TextSortAttribute,
    {
        self.query.with_attributes(|| {
            Ok((
                equal.values()?,
                Some(AttributeRange::BeginsWith(P::next_value(prefix)?)),
            ))
        })
    }
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    fn with_attributes(
        self,
        condition: impl FnOnce() -> Result<(Vec<AttributeValue>, Option<AttributeRange>), Error>,
    ) -> Self {
        self.with_sort(|| {
            let (equal, range) = condition()?;
            Ok(SortCondition::Attributes(AttributeSort { equal, range }))
        })
    }
}
