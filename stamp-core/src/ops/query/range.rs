//! The sort-key condition of a query: a leading prefix of the sort-key
//! fields ([`SortKeyPrefix`]), the condition asked for, rendered within the
//! entity's scope as one key-condition comparison, and what a cursor's sort
//! key must be to belong to the query ([`SortAccept`]).

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Error;
use crate::error::Refusal;
use crate::expression::Placeholders;
use crate::key::prefix::SortKeyText;
use crate::key::template::KeyTemplate;
use crate::model::entity::Entity;
use crate::model::index::BaseTable;
use crate::model::index::QueryIndex;

/// A value for a leading prefix of the sort-key fields of entity `E` in
/// index `I` ([`BaseTable`](crate::BaseTable), [`Gsi<N>`](crate::Gsi),
/// [`Lsi<N>`](crate::Lsi)). `#[derive(Item)]` implements it for `&T` (the
/// first field; `&str` for a `String`) and for tuples of references
/// `(&A, &B, …)` (the first two, three, … fields).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a leading prefix of the sort-key fields of `{E}` on index `{I}`",
    label = "not the sort-key fields of this key, in order",
    note = "give `&T` for the first sort-key field (`&str` for a `String`, not `&String`), or a tuple `(&A, &B, …)` of the first fields in template order"
)]
pub trait SortKeyPrefix<E: Entity, I: QueryIndex = BaseTable> {
    /// The sort key text up to these fields.
    ///
    /// # Errors
    ///
    /// The errors of building a key: [`KeyError::EmptyKeyValue`](crate::KeyError::EmptyKeyValue),
    /// [`KeyError::KeyEncode`](crate::KeyError::KeyEncode).
    fn sort_key_prefix(&self) -> Result<SortKeyText, Error>;
}

/// One end of a sort-key range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Bound {
    Included(String),
    Excluded(String),
}

/// The sort-key condition a query was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum SortCondition {
    /// Only the entity's scope.
    Scope,
    Equals(String),
    BeginsWith(String),
    Range {
        lower: Option<Bound>,
        upper: Option<Bound>,
    },
    /// On a multi-attribute index: `=` on a leading run of the sort-key
    /// attributes, and at most one range on the next one.
    Attributes(super::attributes::AttributeSort),
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

/// `Included` for a whole key, otherwise everything that begins with the
/// prefix: `Excluded(upper bound of the prefix)`.
pub(super) fn inclusive_upper(prefix: SortKeyText) -> Bound {
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
pub(super) fn sort_key_condition(
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
        SortCondition::Attributes(_) => {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::AttributeConditionNeedsMultiAttributeIndex,
            }));
        }
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
                return Err(Error::Refused(Refusal::InvalidSortKeyRange {
                    lower,
                    upper: upper_text.clone(),
                }));
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
pub(super) enum SortAccept {
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
    pub(super) fn admits(&self, key: &str) -> bool {
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
