//! Item sizes by DynamoDB's rules, and the size limits of items, batches
//! and transactions.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>.

use aws_sdk_dynamodb::types::AttributeValue;

pub use crate::limits::{
    MAX_BATCH_GET_KEYS, MAX_BATCH_WRITE_BYTES, MAX_BATCH_WRITE_ITEMS, MAX_TRANSACTION_ACTIONS,
    MAX_TRANSACTION_BYTES,
};
use crate::model::entity::AttributeMap;

/// The size of `item` in bytes, by DynamoDB's rules: for each attribute,
/// the UTF-8 length of its name plus the size of its value
/// ([`attribute_value_size`]). This is the size that the 400 KB item limit
/// ([`MAX_ITEM_SIZE_BYTES`](crate::limits::MAX_ITEM_SIZE_BYTES)) and capacity units are counted in.
///
/// DynamoDB calls the rule for numbers approximate, so this is an estimate
/// for items with numbers; it is exact for strings, binaries, booleans and
/// nulls.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>.
///
/// # Example
///
/// ```
/// use stamp_core::aws_sdk_dynamodb::types::AttributeValue;
/// let item = stamp_core::AttributeMap::from([
///     ("PK".to_owned(), AttributeValue::S("CUST#1".to_owned())), // 2 + 6
///     ("n".to_owned(), AttributeValue::N("12345".to_owned())),   // 1 + 3 + 1
/// ]);
/// assert_eq!(stamp_core::item_size(&item), 13);
/// ```
pub fn item_size(item: &AttributeMap) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + attribute_value_size(value))
        .sum()
}

/// The size of one attribute value in bytes, without its name:
///
/// | type | size |
/// |---|---|
/// | `S` | UTF-8 bytes |
/// | `N` | 1 byte per two significant digits (leading and trailing zeros trimmed), rounded up, plus 1 |
/// | `B` | raw bytes (not base64) |
/// | `BOOL`, `NULL` | 1 |
/// | `SS`, `NS`, `BS` | the sum of the elements' sizes |
/// | `L` | 3, plus each element's size plus 1 |
/// | `M` | 3, plus for each entry its name's UTF-8 bytes, its value's size and 1 |
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>.
pub fn attribute_value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(text) => text.len(),
        AttributeValue::N(number) => number_size(number),
        AttributeValue::B(bytes) => bytes.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(texts) => texts.iter().map(String::len).sum(),
        AttributeValue::Ns(numbers) => numbers.iter().map(|number| number_size(number)).sum(),
        AttributeValue::Bs(binaries) => binaries.iter().map(|bytes| bytes.as_ref().len()).sum(),
        AttributeValue::L(values) => {
            3 + values
                .iter()
                .map(|value| attribute_value_size(value) + 1)
                .sum::<usize>()
        }
        AttributeValue::M(entries) => {
            3 + entries
                .iter()
                .map(|(name, value)| name.len() + attribute_value_size(value) + 1)
                .sum::<usize>()
        }
        // A type this SDK version does not know: count its debug text, an
        // over-estimate rather than nothing.
        other => format!("{other:?}").len(),
    }
}

/// The size of a Number: `ceil(significant digits / 2) + 1`, with at least
/// one digit (zero).
fn number_size(number: &str) -> usize {
    number_size_of_digits(significant_digits(number))
}

/// The size of a Number of `digits` significant digits.
pub(crate) fn number_size_of_digits(digits: usize) -> usize {
    digits.max(1).div_ceil(2) + 1
}

/// The significant digits of a number's text: its mantissa digits without
/// leading and trailing zeros. An exponent (`1.5E+3`) is not counted.
pub(crate) fn significant_digits(number: &str) -> usize {
    let mantissa = number
        .split(['e', 'E'])
        .next()
        .unwrap_or_default()
        .trim_start_matches(['-', '+']);
    // Positions among the digits of the first and last non-zero digit,
    // counted without allocating (every Number of a written item is sized).
    let mut first = None;
    let mut last = 0;
    for (position, digit) in mantissa.bytes().filter(u8::is_ascii_digit).enumerate() {
        if digit != b'0' {
            first.get_or_insert(position);
            last = position;
        }
    }
    first.map_or(0, |first| last - first + 1)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use aws_sdk_dynamodb::primitives::Blob;

    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.to_owned())
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.to_owned())
    }

    #[test]
    fn scalars_count_their_bytes() {
        assert_eq!(attribute_value_size(&s("")), 0);
        assert_eq!(attribute_value_size(&s("héllo")), 6);
        assert_eq!(
            attribute_value_size(&AttributeValue::B(Blob::new(vec![0u8; 10]))),
            10
        );
        assert_eq!(attribute_value_size(&AttributeValue::Bool(true)), 1);
        assert_eq!(attribute_value_size(&AttributeValue::Null(true)), 1);
    }

    #[test]
    fn numbers_count_half_their_significant_digits_plus_one() {
        assert_eq!(significant_digits("0"), 0);
        assert_eq!(significant_digits("-0012.3400"), 4);
        assert_eq!(significant_digits("1000"), 1);
        assert_eq!(significant_digits("0.000120"), 2);
        assert_eq!(significant_digits("1.25E+100"), 3);
        assert_eq!(attribute_value_size(&n("0")), 2);
        assert_eq!(attribute_value_size(&n("7")), 2);
        assert_eq!(attribute_value_size(&n("12")), 2);
        assert_eq!(attribute_value_size(&n("123")), 3);
        assert_eq!(attribute_value_size(&n("-1234.5000")), 4);
        assert_eq!(attribute_value_size(&n("18446744073709551615")), 11);
    }

    #[test]
    fn sets_lists_and_maps_have_their_overheads() {
        let set = AttributeValue::Ss(vec!["ab".into(), "cde".into()]);
        assert_eq!(attribute_value_size(&set), 5);
        assert_eq!(
            attribute_value_size(&AttributeValue::Ns(vec!["1".into(), "123".into()])),
            5
        );
        assert_eq!(attribute_value_size(&AttributeValue::L(vec![])), 3);
        assert_eq!(attribute_value_size(&AttributeValue::M(HashMap::new())), 3);
        // 3 + (2 + 1) + (1 + 1)
        assert_eq!(
            attribute_value_size(&AttributeValue::L(vec![
                s("ab"),
                AttributeValue::Bool(false)
            ])),
            8
        );
        // 3 + ("k" 1 + "v" 1 + 1) + ("nn" 2 + N 2 + 1)
        let map = AttributeValue::M(HashMap::from([
            ("k".to_owned(), s("v")),
            ("nn".to_owned(), n("5")),
        ]));
        assert_eq!(attribute_value_size(&map), 11);
    }

    #[test]
    fn an_item_is_its_names_and_values() {
        let item = AttributeMap::from([
            ("PK".to_owned(), s("CUST#1")),
            ("SK".to_owned(), s("PROFILE")),
            ("age".to_owned(), n("42")),
        ]);
        assert_eq!(item_size(&item), 2 + 6 + 2 + 7 + 3 + 2);
    }
}
