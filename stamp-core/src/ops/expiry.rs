//! TTL-aware reads (issue 42, point 5): which items have expired, on the
//! client ([`is_expired`]) and on the server ([`live_filter`]).
//!
//! DynamoDB deletes an item whose TTL attribute (a Number of epoch seconds)
//! has passed some time later, typically within a few days; until then
//! every read returns it ("Time to Live (TTL)", Amazon DynamoDB Developer
//! Guide). Stamp leaves such items out of every read by default, at the
//! time of the table's clock ([`Table::now`](crate::Table::now)):
//!
//! - queries and scans on the server, with the filter DynamoDB's
//!   "Working with expired items" page shows, AND-ed with the entity's
//!   scope and the caller's filter:
//!   `(attribute_not_exists(#ttl) OR #ttl > :now)`. An item whose TTL
//!   equals the current second is expired, as that page's filter has it
//!   ("items where the TTL time is equal to or less than the current
//!   time"). Expired items are still read (and charged) before the filter
//!   drops them, so a page may hold fewer items than its `Limit` and still
//!   carry a cursor;
//! - gets, batch gets, transaction gets and similarity searches on the
//!   client, by the same rule, from the item returned (a search's
//!   condition accepts only the index's inline filters, see
//!   [`SimilaritySearch::filter`](crate::SimilaritySearch::filter)).
//!
//! Each read builder has `include_expired()` to read them all. The change
//! feed is not a read of items: it delivers TTL deletions as such.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TTL.html>.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expression::Placeholders;
use crate::model::entity::{AttributeMap, EntitySchema};
use crate::request::table::Table;

/// Whether `item`, an item of the entity `schema` describes, has expired at
/// `now` (epoch seconds): its TTL attribute is a Number at or before `now`.
/// An entity without a TTL, an item without the attribute (a `None` TTL)
/// or with a value that is not a Number never expires, as DynamoDB's TTL
/// process ignores such items.
pub(crate) fn is_expired(item: &AttributeMap, schema: &EntitySchema, now: i64) -> bool {
    schema
        .ttl_attribute
        .is_some_and(|attribute| expired_value(item.get(attribute), now))
}

/// Whether a stored TTL value has passed at `now`.
fn expired_value(value: Option<&AttributeValue>, now: i64) -> bool {
    let Some(AttributeValue::N(text)) = value else {
        return false;
    };
    match text.parse::<i64>() {
        Ok(seconds) => seconds <= now,
        // A Number with a fraction or an exponent (written by hand).
        Err(_) => text
            .parse::<f64>()
            .is_ok_and(|seconds| seconds <= now as f64),
    }
}

/// The server-side filter that keeps the live items of entities with TTL
/// attributes `attributes` (each once, in order) at `now` (epoch seconds):
/// `(attribute_not_exists(#ttl) OR #ttl > :now)` for each, joined with
/// `AND`, through `placeholders`; `None` when there is none.
pub(crate) fn live_filter(
    attributes: &[&str],
    now: i64,
    placeholders: &mut Placeholders,
) -> Option<String> {
    if attributes.is_empty() {
        return None;
    }
    let now = placeholders.add_value(AttributeValue::N(now.to_string()));
    let terms: Vec<String> = attributes
        .iter()
        .map(|attribute| {
            let name = placeholders.name(attribute);
            format!("(attribute_not_exists({name}) OR {name} > {now})")
        })
        .collect();
    Some(terms.join(" AND "))
}

/// `filter` AND `live`, each in parentheses when joined.
pub(crate) fn and_live(filter: Option<String>, live: Option<String>) -> Option<String> {
    match (filter, live) {
        (Some(filter), Some(live)) => Some(format!("({filter}) AND {live}")),
        (filter, None) => filter,
        (None, live) => live,
    }
}

/// The TTL attributes of `schemas`, each once, in order.
pub(crate) fn ttl_attributes<'a>(
    schemas: impl IntoIterator<Item = &'a EntitySchema>,
) -> Vec<&'static str> {
    let mut attributes = Vec::new();
    for schema in schemas {
        if let Some(attribute) = schema.ttl_attribute
            && !attributes.contains(&attribute)
        {
            attributes.push(attribute);
        }
    }
    attributes
}

/// Whether a read leaves expired items out, and the time it judges by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Expiry {
    /// Expired items are left out, judged at the table's clock when sent
    /// (or at the given epoch seconds, once a send has read the clock).
    #[default]
    Live,
    /// Live as of `now` (epoch seconds).
    LiveAt(i64),
    /// Every item, expired or not (`include_expired()`).
    Include,
}

impl Expiry {
    /// The epoch seconds this read judges expiry by, `None` when it
    /// includes expired items: the time fixed by a send, or the system
    /// clock (for a `request()` without a table).
    pub(crate) fn now(self) -> Option<i64> {
        match self {
            Expiry::Live => Some(chrono::Utc::now().timestamp()),
            Expiry::LiveAt(now) => Some(now),
            Expiry::Include => None,
        }
    }

    /// This expiry, fixed at `table`'s clock unless it includes expired
    /// items.
    pub(crate) fn at(self, table: &Table) -> Self {
        match self {
            Expiry::Include => Expiry::Include,
            Expiry::Live | Expiry::LiveAt(_) => Expiry::LiveAt(table.now().timestamp()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ttl_at_or_before_now_has_expired() {
        let n = |text: &str| Some(AttributeValue::N(text.to_owned()));
        assert!(expired_value(n("99").as_ref(), 100));
        assert!(expired_value(n("100").as_ref(), 100));
        assert!(!expired_value(n("101").as_ref(), 100));
        assert!(expired_value(n("99.5").as_ref(), 100));
        assert!(!expired_value(n("1e3").as_ref(), 100));
        assert!(!expired_value(None, 100));
        assert!(!expired_value(
            Some(&AttributeValue::S("1".to_owned())),
            100
        ));
    }

    #[test]
    fn the_filter_joins_each_attribute() {
        let mut placeholders = Placeholders::default();
        let filter = live_filter(&["expires_at"], 1_000, &mut placeholders).unwrap();
        assert_eq!(filter, "(attribute_not_exists(#n0) OR #n0 > :v0)");
        assert_eq!(
            placeholders.values().unwrap()[":v0"],
            AttributeValue::N("1000".to_owned())
        );
        assert_eq!(live_filter(&[], 1, &mut placeholders), None);
    }
}
