//! Values as a snapshot compares them: sets sorted, keys in DynamoDB's order.

use super::*;

/// `item` with the elements of every set sorted (strings and binary by
/// their bytes, numbers by value): DynamoDB keeps no order in a set, so a
/// set read back compares equal to the set written.
pub(super) fn canonical(item: AttributeMap) -> AttributeMap {
    item.into_iter()
        .map(|(name, value)| (name, canonical_value(value)))
        .collect()
}

fn canonical_value(value: AttributeValue) -> AttributeValue {
    match value {
        AttributeValue::Ss(mut values) => {
            values.sort();
            AttributeValue::Ss(values)
        }
        AttributeValue::Ns(mut values) => {
            values.sort_by(|a, b| {
                compare_key(
                    Some(&AttributeValue::N(a.clone())),
                    Some(&AttributeValue::N(b.clone())),
                )
            });
            AttributeValue::Ns(values)
        }
        AttributeValue::Bs(mut values) => {
            values.sort_by(|a, b| a.as_ref().cmp(b.as_ref()));
            AttributeValue::Bs(values)
        }
        AttributeValue::L(values) => {
            AttributeValue::L(values.into_iter().map(canonical_value).collect())
        }
        AttributeValue::M(map) => AttributeValue::M(canonical(map)),
        other => other,
    }
}

/// DynamoDB's order of key values: strings and binary by their bytes,
/// numbers by value; an absent value first.
pub(super) fn compare_key(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> Ordering {
    match (a, b) {
        (Some(AttributeValue::S(a)), Some(AttributeValue::S(b))) => a.as_bytes().cmp(b.as_bytes()),
        (Some(AttributeValue::B(a)), Some(AttributeValue::B(b))) => a.as_ref().cmp(b.as_ref()),
        (Some(AttributeValue::N(a)), Some(AttributeValue::N(b))) => {
            match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                _ => a.cmp(b),
            }
        }
        (a, b) => a.is_some().cmp(&b.is_some()),
    }
}
