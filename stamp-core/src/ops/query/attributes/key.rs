//! The key condition of a multi-attribute query ([`key_condition`]) and
//! the cursor keys it admits ([`AttributeAccept`]), with DynamoDB's order of
//! key values.

use super::*;

/// The key condition of a query of `index`: `#p1 = :v AND … AND #s1 = :v
/// AND … AND <range>`, and what a cursor's key must hold.
pub(in crate::ops::query) fn key_condition(
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
pub(in crate::ops::query) struct AttributeAccept {
    /// Attributes with `=`: the partition key and the equality run.
    equals: Vec<(&'static str, AttributeValue)>,
    /// The range, on the attribute after the run.
    range: Option<(&'static str, AttributeRange)>,
}

impl AttributeAccept {
    /// Checks a cursor's key: exactly `expected` attributes, the table's
    /// keys strings, the index attributes of their types, the equalities
    /// and the range held.
    pub(in crate::ops::query) fn check(
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
pub(super) fn compare(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
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
pub(super) fn display(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) | AttributeValue::N(text) => text.clone(),
        other => format!("{other:?}"),
    }
}
