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
use crate::QueryIndex;
use crate::expression::Placeholders;
use crate::{
    AttributeMap, Entity, Error, IndexKeyField, IndexSchema, SortAttributes, TextSortAttribute,
};
use crate::{CursorReason, QueryReason, Refusal};

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
    pub fn after(self, cursor: &crate::Cursor) -> Self {
        self.map(|query| query.after(cursor))
    }

    /// [`Query::project`]: reads only the attributes of projection `P`.
    pub fn project<P: crate::Projection<E>>(self) -> MultiAttributeQuery<E, I, P> {
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
        table: &'t crate::Table,
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
    pub async fn send(self, table: &crate::Table) -> Result<crate::Page<O>, Error> {
        self.query.send(table).await
    }

    /// [`Query::count`]: the number of items of the partition.
    ///
    /// # Errors
    ///
    /// As [`Query::count`].
    pub async fn count(self, table: &crate::Table) -> Result<u64, Error> {
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

/// The key condition of a query of `index`: `#p1 = :v AND … AND #s1 = :v
/// AND … AND <range>`, and what a cursor's key must hold.
pub(super) fn key_condition(
    index: &'static IndexSchema,
    partition: &[AttributeValue],
    sort: &SortCondition,
    placeholders: &mut Placeholders,
) -> Result<(String, AttributeAccept), Error> {
    let invalid = |reason: QueryReason| Err(Error::Refused(Refusal::InvalidQuery { reason }));
    let (partition_key, sort_key) = index
        .attributes()
        .expect("a multi-attribute query reads a multi-attribute index");
    if partition.len() != partition_key.len() {
        return invalid(QueryReason::PartitionKeyAttributes {
            index: index.name,
            expected: partition_key.len(),
            given: partition.len(),
        });
    }
    let (equal, range) = match sort {
        SortCondition::Scope => (&[][..], None),
        SortCondition::Attributes(AttributeSort { equal, range }) => {
            (equal.as_slice(), range.as_ref())
        }
        _ => return invalid(QueryReason::TemplateConditionOnMultiAttributeIndex),
    };
    let used = equal.len() + usize::from(range.is_some());
    if used > sort_key.len() {
        return invalid(QueryReason::SortKeyAttributes {
            index: index.name,
            expected: sort_key.len(),
            given: used,
        });
    }
    let mut parts = Vec::new();
    let mut equals = Vec::new();
    for (field, value) in partition_key
        .iter()
        .zip(partition)
        .chain(sort_key.iter().zip(equal))
    {
        check_type(index, field, value)?;
        parts.push(format!(
            "{} = {}",
            placeholders.name(field.attribute),
            placeholders.add_value(value.clone())
        ));
        equals.push((field.attribute, value.clone()));
    }
    let mut accept_range = None;
    if let Some(range) = range {
        let field = &sort_key[equal.len()];
        let name = placeholders.name(field.attribute);
        let mut value = |value: &AttributeValue| {
            check_type(index, field, value)?;
            Ok::<_, Error>(placeholders.add_value(value.clone()))
        };
        parts.push(match range {
            AttributeRange::Lt(v) => format!("{name} < {}", value(v)?),
            AttributeRange::Le(v) => format!("{name} <= {}", value(v)?),
            AttributeRange::Gt(v) => format!("{name} > {}", value(v)?),
            AttributeRange::Ge(v) => format!("{name} >= {}", value(v)?),
            AttributeRange::Between(low, high) => {
                format!("{name} BETWEEN {} AND {}", value(low)?, value(high)?)
            }
            AttributeRange::BeginsWith(v) => format!("begins_with({name}, {})", value(v)?),
        });
        accept_range = Some((field.attribute, range.clone()));
    }
    Ok((
        parts.join(" AND "),
        AttributeAccept {
            equals,
            range: accept_range,
        },
    ))
}

/// A value of the wrong type for its attribute: a bug in a hand-written
/// [`SortAttributes`], refused before sending.
fn check_type(
    index: &IndexSchema,
    field: &IndexKeyField,
    value: &AttributeValue,
) -> Result<(), Error> {
    if field.attribute_type.holds(value) {
        Ok(())
    } else {
        Err(Error::Refused(Refusal::InvalidQuery {
            reason: QueryReason::AttributeType {
                attribute: field.attribute,
                index: index.name,
                attribute_type: field.attribute_type.as_str(),
                value: Box::new(value.clone()),
            },
        }))
    }
}

/// The key attribute values a multi-attribute query admits: what a
/// cursor's key must hold to belong to it.
#[derive(Debug, Clone)]
pub(super) struct AttributeAccept {
    /// Attributes with `=`: the partition key and the equality run.
    equals: Vec<(&'static str, AttributeValue)>,
    /// The range, on the attribute after the run.
    range: Option<(&'static str, AttributeRange)>,
}

impl AttributeAccept {
    /// Checks a cursor's key: exactly `expected` attributes, the table's
    /// keys strings, the index attributes of their types, the equalities
    /// and the range held.
    pub(super) fn check(
        &self,
        index: &IndexSchema,
        table_keys: [&str; 2],
        expected: &[&'static str],
        key: &AttributeMap,
    ) -> Result<(), Error> {
        let invalid = |reason: CursorReason| Err(Error::Refused(Refusal::InvalidCursor { reason }));
        if let Some(name) = key.keys().find(|name| !expected.contains(&name.as_str())) {
            return invalid(CursorReason::UnexpectedAttribute {
                attribute: name.clone(),
            });
        }
        for name in table_keys {
            if !matches!(key.get(name), Some(AttributeValue::S(_))) {
                return invalid(CursorReason::MissingAttribute {
                    attribute: name.to_string(),
                });
            }
        }
        for field in index.key_fields() {
            match key.get(field.attribute) {
                Some(value) if field.attribute_type.holds(value) => {
                    if let AttributeValue::N(text) = value
                        && text.parse::<i128>().is_err()
                    {
                        return invalid(CursorReason::NotInteger {
                            attribute: field.attribute.to_owned(),
                        });
                    }
                }
                Some(_) => {
                    return invalid(CursorReason::WrongType {
                        attribute: field.attribute.to_owned(),
                        attribute_type: field.attribute_type.as_str(),
                    });
                }
                None => {
                    return invalid(CursorReason::MissingAttribute {
                        attribute: field.attribute.to_owned(),
                    });
                }
            }
        }
        for (name, value) in &self.equals {
            if compare(&key[*name], value) != Some(Ordering::Equal) {
                return invalid(CursorReason::OtherValue {
                    attribute: name.to_string(),
                });
            }
        }
        if let Some((name, range)) = &self.range {
            let found = &key[*name];
            let at = |bound: &AttributeValue| compare(found, bound);
            use Ordering::{Equal, Greater, Less};
            let admitted = match range {
                AttributeRange::Lt(v) => at(v) == Some(Less),
                AttributeRange::Le(v) => matches!(at(v), Some(Less | Equal)),
                AttributeRange::Gt(v) => at(v) == Some(Greater),
                AttributeRange::Ge(v) => matches!(at(v), Some(Greater | Equal)),
                AttributeRange::Between(low, high) => {
                    matches!(at(low), Some(Greater | Equal))
                        && matches!(at(high), Some(Less | Equal))
                }
                AttributeRange::BeginsWith(prefix) => match (found, prefix) {
                    (AttributeValue::S(text), AttributeValue::S(prefix)) => {
                        text.starts_with(prefix.as_str())
                    }
                    _ => false,
                },
            };
            if !admitted {
                return invalid(CursorReason::OutsideSortCondition {
                    attribute: name.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// The order of two key values of one type, as DynamoDB orders them: bytes
/// for S and B, numbers for N (integers, which is all Stamp writes).
fn compare(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
    match (a, b) {
        (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::B(a), AttributeValue::B(b)) => Some(a.as_ref().cmp(b.as_ref())),
        (AttributeValue::N(a), AttributeValue::N(b)) => {
            Some(a.parse::<i128>().ok()?.cmp(&b.parse::<i128>().ok()?))
        }
        _ => None,
    }
}

/// A key value as text, for an error message.
fn display(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) | AttributeValue::N(text) => text.clone(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_numerically_and_strings_by_bytes() {
        let n = |text: &str| AttributeValue::N(text.to_owned());
        let s = |text: &str| AttributeValue::S(text.to_owned());
        assert_eq!(compare(&n("2"), &n("10")), Some(Ordering::Less));
        assert_eq!(compare(&n("-10"), &n("-2")), Some(Ordering::Less));
        assert_eq!(compare(&s("10"), &s("2")), Some(Ordering::Less));
        assert_eq!(compare(&s("a"), &n("1")), None);
        assert_eq!(compare(&n("1.5"), &n("1")), None);
    }

    #[test]
    fn a_cursor_keeps_string_number_and_binary_attributes() {
        use crate::ops::cursor::{Cursor, Fingerprint};
        let fingerprint = Fingerprint::of(&["table", "GSI3"]);
        let key: AttributeMap = [
            ("PK", AttributeValue::S("MATCH#m-1".into())),
            ("tenant_id", AttributeValue::S("t-1".into())),
            ("round", AttributeValue::N("-12".into())),
            (
                "digest",
                AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![0, 255, 7])),
            ),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
        let cursor = Cursor::encode(&fingerprint, None, &key).unwrap();
        assert_eq!(cursor.decode(&fingerprint, None).unwrap(), key);
        // A key of strings only is written as before: no `n`, no `b`.
        let strings: AttributeMap = [("PK".to_owned(), AttributeValue::S("A".into()))].into();
        let cursor = Cursor::encode(&fingerprint, None, &strings).unwrap();
        use base64::Engine as _;
        let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(cursor.as_str())
            .unwrap();
        assert_eq!(
            String::from_utf8(json).unwrap(),
            format!(
                r#"{{"q":"{}","k":{{"PK":"A"}}}}"#,
                fingerprint_text(&fingerprint)
            )
        );
    }

    fn fingerprint_text(fingerprint: &crate::ops::cursor::Fingerprint) -> String {
        // The fingerprint's text is private to the cursor; read it back
        // from a cursor without attributes.
        let cursor =
            crate::ops::cursor::Cursor::encode(fingerprint, None, &AttributeMap::new()).unwrap();
        use base64::Engine as _;
        let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(cursor.as_str())
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        value["q"].as_str().unwrap().to_owned()
    }
}
