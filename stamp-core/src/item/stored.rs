//! Values as DynamoDB stores them, the one place that says when two
//! attribute values are the same stored value, and which values DynamoDB
//! cannot store because of their shape:
//!
//! - a Number is a decimal value, not its text: `1`, `1.0`, `1.00E0` and
//!   `+1` are one Number (DynamoDB "trims leading and trailing zeroes" and
//!   returns a Number in its own form);
//! - a set (`SS`, `NS`, `BS`) has no order, and cannot hold two equal
//!   elements (for `NS`, equal as numbers);
//! - a map has no order of its keys;
//! - lists and maps nest at most
//!   [`MAX_NESTING_DEPTH`](crate::limits::MAX_NESTING_DEPTH) levels.
//!
//! [`same_item`] is what a conditional write retried by the SDK compares
//! the stored item with (`request/failure.rs`); [`duplicate_element`] and
//! the nesting limit are what `item::check` refuses.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html>.

use std::collections::HashSet;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::model::entity::AttributeMap;

/// A valid Number as a value: its sign, its significant digits (no
/// leading or trailing zero; empty for zero) and the decimal exponent of
/// its first significant digit. Two texts are the same Number exactly when
/// their `Decimal`s are equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Decimal {
    /// The Number `text` means, `None` when it is not a decimal number
    /// (`[+-]digits[.digits][e[+-]digits]`, at least one digit).
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let negative = text.starts_with('-');
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => (&unsigned[..at], unsigned[at + 1..].parse::<i64>().ok()?),
            None => (unsigned, 0),
        };
        let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
        if integer.len() + fraction.len() == 0 || !digits(integer) || !digits(fraction) {
            return None;
        }
        let all = format!("{integer}{fraction}");
        let Some(first) = all.find(|digit| digit != '0') else {
            return Some(Decimal {
                negative: false,
                digits: String::new(),
                exponent: 0,
            });
        };
        let last = all.rfind(|digit| digit != '0').unwrap_or(first);
        Some(Decimal {
            negative,
            digits: all[first..=last].to_owned(),
            exponent: exponent.saturating_add(integer.len() as i64 - 1 - first as i64),
        })
    }
}

/// Whether the Numbers `a` and `b` are equal as numbers (their texts when
/// either is not a number).
pub(crate) fn same_number(a: &str, b: &str) -> bool {
    match (Decimal::parse(a), Decimal::parse(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// Whether `a` and `b` are the same stored value: equal Numbers as numbers,
/// sets as sets, maps by key, lists element by element in order, the rest
/// as they are.
pub(crate) fn same_value(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::N(a), V::N(b)) => same_number(a, b),
        (V::Ss(a), V::Ss(b)) => {
            a.iter().collect::<HashSet<_>>() == b.iter().collect::<HashSet<_>>()
        }
        (V::Bs(a), V::Bs(b)) => {
            let bytes = |set: &[aws_sdk_dynamodb::primitives::Blob]| {
                set.iter()
                    .map(|blob| blob.as_ref().to_vec())
                    .collect::<HashSet<_>>()
            };
            bytes(a) == bytes(b)
        }
        (V::Ns(a), V::Ns(b)) => {
            fn numbers(set: &[String]) -> HashSet<Result<Decimal, &str>> {
                set.iter()
                    .map(|text| Decimal::parse(text).ok_or(text.as_str()))
                    .collect()
            }
            numbers(a) == numbers(b)
        }
        (V::L(a), V::L(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b)),
        (V::M(a), V::M(b)) => same_item(a, b),
        (a, b) => a == b,
    }
}

/// Whether an attribute, present or absent in two items, is the same in
/// both: absent from both, or present in both with the same stored value
/// ([`same_value`]).
pub(crate) fn same_attribute(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same_value(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// Whether the items (or maps) `a` and `b` hold the same attributes with
/// the same stored values ([`same_value`]).
pub(crate) fn same_item(a: &AttributeMap, b: &AttributeMap) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(name, value)| b.get(name).is_some_and(|other| same_value(value, other)))
}

/// The first element of the set `value` (`SS`, `NS` or `BS`) equal to an
/// element before it (Numbers equal as numbers), as an error names it;
/// `None` when every element is distinct, or `value` is not a set.
/// DynamoDB refuses a set with duplicates ("Input collection contains
/// duplicates").
pub(crate) fn duplicate_element(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::Ss(set) => {
            let mut seen = HashSet::with_capacity(set.len());
            set.iter()
                .find(|element| !seen.insert(element.as_str()))
                .map(|element| format!("{element:?}"))
        }
        AttributeValue::Ns(set) => {
            let mut seen = HashSet::with_capacity(set.len());
            set.iter()
                .find(|text| !seen.insert(Decimal::parse(text).ok_or(text.as_str())))
                .map(|text| text.to_owned())
        }
        AttributeValue::Bs(set) => {
            let mut seen: HashSet<&[u8]> = HashSet::with_capacity(set.len());
            set.iter()
                .map(|blob| blob.as_ref())
                .find(|bytes| !seen.insert(bytes))
                .map(|bytes| format!("{bytes:?}"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::primitives::Blob;

    #[test]
    fn numbers_are_the_same_when_they_are_equal_as_numbers() {
        for (a, b) in [
            ("1", "1.0"),
            ("1", "1.00E0"),
            ("1", "+1"),
            ("100", "1E2"),
            ("100", "1e+2"),
            ("0.0012", "1.2E-3"),
            ("0.0012", "00.001200"),
            ("-17.5", "-175e-1"),
            ("0", "-0"),
            ("0", "0.000"),
            ("0", "0e10"),
            ("1200", "12E2"),
            ("120.5", "1205e-1"),
        ] {
            assert!(same_number(a, b), "{a} = {b}");
            assert!(same_number(b, a), "{b} = {a}");
        }
        for (a, b) in [
            ("1", "-1"),
            ("1", "10"),
            ("1", "0.1"),
            ("12", "21"),
            ("1.2", "12"),
            ("0.0012", "0.012"),
            ("1", "NaN"),
            ("101", "11"),
        ] {
            assert!(!same_number(a, b), "{a} != {b}");
        }
    }

    #[test]
    fn sets_are_the_same_in_any_order_and_maps_by_key() {
        let ss = |elements: &[&str]| {
            AttributeValue::Ss(elements.iter().map(|&e| e.to_owned()).collect())
        };
        let ns = |elements: &[&str]| {
            AttributeValue::Ns(elements.iter().map(|&e| e.to_owned()).collect())
        };
        assert!(same_value(&ss(&["b", "a"]), &ss(&["a", "b"])));
        assert!(!same_value(&ss(&["a", "b"]), &ss(&["a", "c"])));
        assert!(same_value(&ns(&["10", "2.0"]), &ns(&["2", "1E1"])));
        assert!(!same_value(&ns(&["10", "2"]), &ns(&["2", "11"])));
        let bs = |elements: &[&[u8]]| {
            AttributeValue::Bs(elements.iter().map(|&e| Blob::new(e)).collect())
        };
        assert!(same_value(&bs(&[b"y", b"x"]), &bs(&[b"x", b"y"])));
        let list = |values: Vec<AttributeValue>| AttributeValue::L(values);
        assert!(same_value(
            &list(vec![ss(&["b", "a"]), AttributeValue::N("1.0".into())]),
            &list(vec![ss(&["a", "b"]), AttributeValue::N("1".into())])
        ));
        // A list keeps its order.
        assert!(!same_value(
            &list(vec![
                AttributeValue::N("1".into()),
                AttributeValue::N("2".into())
            ]),
            &list(vec![
                AttributeValue::N("2".into()),
                AttributeValue::N("1".into())
            ])
        ));
        let map = |entries: Vec<(&str, AttributeValue)>| {
            AttributeValue::M(
                entries
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value))
                    .collect(),
            )
        };
        assert!(same_value(
            &map(vec![
                ("n", AttributeValue::N("5".into())),
                ("s", ss(&["z", "y"]))
            ]),
            &map(vec![
                ("s", ss(&["y", "z"])),
                ("n", AttributeValue::N("5.0".into()))
            ])
        ));
        assert!(!same_value(
            &map(vec![("n", AttributeValue::N("5".into()))]),
            &map(vec![
                ("n", AttributeValue::N("5".into())),
                ("m", AttributeValue::Null(true))
            ])
        ));
        // Types differ: a String is not a Number.
        assert!(!same_value(
            &AttributeValue::S("1".into()),
            &AttributeValue::N("1".into())
        ));
    }

    #[test]
    fn a_set_with_equal_elements_is_found() {
        let ss = AttributeValue::Ss(vec!["a".into(), "b".into(), "a".into()]);
        assert_eq!(duplicate_element(&ss).as_deref(), Some("\"a\""));
        let ns = AttributeValue::Ns(vec!["1".into(), "2".into(), "1.0".into()]);
        assert_eq!(duplicate_element(&ns).as_deref(), Some("1.0"));
        let bs = AttributeValue::Bs(vec![Blob::new(vec![1]), Blob::new(vec![1])]);
        assert_eq!(duplicate_element(&bs).as_deref(), Some("[1]"));
        let distinct = AttributeValue::Ns(vec!["1".into(), "10".into(), "0.1".into()]);
        assert_eq!(duplicate_element(&distinct), None);
    }
}
