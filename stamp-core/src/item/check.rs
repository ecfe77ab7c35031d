//! The checks every written item passes before it is sent: what DynamoDB
//! would refuse, or store differently from what the entity meant, is
//! refused (or, for empty sets, left out) here, with a typed error.
//!
//! [`Table::put`](crate::Table::put), batch writes and transactions check
//! each item from [`Entity::to_item`] as [`check_item`] does; they count
//! its size and checks while it is encoded
//! ([`ItemBuilder`](crate::item::builder::ItemBuilder)), and only an item
//! with something to refuse or leave out is walked by `check_item` itself.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::item::size::{attribute_value_size, item_size, number_size_of_digits};
use crate::item::stored::duplicate_element;
use crate::limits::{
    MAX_ITEM_SIZE_BYTES, MAX_NESTING_DEPTH, MAX_NUMBER_DIGITS, MAX_NUMBER_EXPONENT,
    MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, MIN_NUMBER_EXPONENT,
};
use crate::{AttributeMap, Entity, EntitySchema, Error};
use crate::{KeyError, Refusal};

/// The item a batch writes for `entity`, checked: [`Entity::to_item_at`]
/// with `updated_at` stamped now, checked as [`check_item`] checks it
/// (counted while it is encoded, [`ItemBuilder`](crate::item::builder::ItemBuilder)).
/// Returns the item and its size in bytes.
///
/// # Errors
///
/// [`Refusal::VersionedBatchWrite`] for an entity with a `#[stamp(version)]`
/// field (a batch cannot check a version); the errors of
/// [`Entity::to_item`] and of [`check_item`].
pub(crate) fn item_for_write<E: Entity>(entity: &E) -> Result<(AttributeMap, usize), Error> {
    if entity.version().is_some() {
        return Err(Error::Refused(Refusal::VersionedBatchWrite {
            entity: E::SCHEMA.type_name,
        }));
    }
    entity
        .encode_item_at(
            Some(crate::WriteTime {
                now: chrono::Utc::now(),
                creating: false,
            }),
            true,
        )?
        .checked(E::SCHEMA)
}

/// Checks an item of the entity `schema` describes before it is written,
/// and returns its size in bytes ([`item_size`]):
///
/// - a top-level empty set (`SS`, `NS` or `BS` with no element, which
///   `serde_dynamo`'s set helpers produce for an empty collection) is left
///   out, as DynamoDB has no empty sets; such a field reads back as absent,
///   so give it `#[serde(default)]`;
/// - every Number, at any depth and in number sets, must be one DynamoDB
///   stores: at most 38 significant digits, a magnitude from `1E-130` to
///   `9.99…E+125` (or zero), and no `NaN` or infinity;
/// - no set (`SS`, `NS`, `BS`), at any depth, holds two equal elements
///   (Numbers equal as numbers: `1` and `1.0`), which DynamoDB refuses;
/// - no value nests deeper than [`MAX_NESTING_DEPTH`](crate::limits::MAX_NESTING_DEPTH)
///   (32) levels of lists and maps, the attribute's value being the first;
/// - the key attributes must be non-empty strings, and an index attribute,
///   when present, too (never `NULL`);
/// - the whole item must fit in [`MAX_ITEM_SIZE_BYTES`] (400 KB).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html>.
///
/// # Errors
///
/// [`Refusal::InvalidNumber`], [`Refusal::EmptySet`] (an empty set inside a map
/// or list, which cannot be left out without changing its container),
/// [`Refusal::DuplicateSetElement`], [`Refusal::NestedTooDeep`],
/// [`KeyError::InvalidKeyAttribute`] (also for the attribute of a
/// multi-attribute index key that is present but empty or of another type),
/// [`KeyError::KeyAttributeTooLong`] (such an attribute longer than DynamoDB's
/// key limit) and [`Refusal::ItemTooLarge`].
pub fn check_item(schema: &EntitySchema, item: &mut AttributeMap) -> Result<usize, Error> {
    // One pass: leave out the empty sets, and check and size every other
    // value together. Only an item with a bad value is walked again, to
    // find and name the problem.
    let mut size = 0;
    let mut valid = true;
    item.retain(|name, value| {
        if is_empty_set(value) {
            return false;
        }
        match checked_size(value) {
            Some(value_size) => size += name.len() + value_size,
            None => valid = false,
        }
        true
    });
    if !valid {
        for (name, value) in item.iter() {
            check_value(schema.type_name, name, value)?;
        }
        // `checked_size` and `check_value` agree; should they not, the
        // item is sized by the one rule.
        size = item_size(item);
    }
    check_key_attribute(schema, item, schema.partition_key.name, true)?;
    check_key_attribute(schema, item, schema.sort_key.name, true)?;
    for name in schema.index_key_attributes() {
        check_key_attribute(schema, item, name, false)?;
    }
    for field in schema.indexes.iter().flat_map(|index| index.key_fields()) {
        if let Some(value) = item.get(field.attribute) {
            check_index_key_value(schema, field.attribute, field.attribute_type, value)?;
        }
    }
    debug_assert_eq!(size, item_size(item));
    check_item_size(schema, item, size)?;
    Ok(size)
}

/// Refuses an item of `schema` whose size, `size` bytes, is over
/// [`MAX_ITEM_SIZE_BYTES`].
///
/// # Errors
///
/// [`Refusal::ItemTooLarge`].
pub(crate) fn check_item_size(
    schema: &EntitySchema,
    item: &AttributeMap,
    size: usize,
) -> Result<(), Error> {
    if size > MAX_ITEM_SIZE_BYTES {
        return Err(Error::Refused(Refusal::ItemTooLarge {
            entity: schema.type_name,
            key: crate::ItemKey::of_schema(schema, item),
            size,
            limit: MAX_ITEM_SIZE_BYTES,
        }));
    }
    Ok(())
}

/// The primary-key attributes of an item of `schema` (those present).
pub(crate) fn key_of(schema: &EntitySchema, item: &AttributeMap) -> AttributeMap {
    [schema.partition_key.name, schema.sort_key.name]
        .into_iter()
        .filter_map(|name| item.get(name).map(|value| (name.to_owned(), value.clone())))
        .collect()
}

pub(crate) fn is_empty_set(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::Ss(set) | AttributeValue::Ns(set) => set.is_empty(),
        AttributeValue::Bs(set) => set.is_empty(),
        _ => false,
    }
}

/// Whether `value` can be the value of a multi-attribute key attribute of
/// type `expected`: that type, and not an empty string or binary, which
/// DynamoDB refuses in a key.
pub(crate) fn valid_index_key_value(
    expected: crate::KeyAttributeType,
    value: &AttributeValue,
) -> bool {
    expected.holds(value)
        && match value {
            AttributeValue::S(text) => !text.is_empty(),
            AttributeValue::B(bytes) => !bytes.as_ref().is_empty(),
            _ => true,
        }
}

/// Checks a value of the multi-attribute key attribute `attribute` of
/// `schema`, for items, update values and query values alike: of type
/// `expected`, not empty ([`valid_index_key_value`]), and a String or Binary
/// no longer than DynamoDB's key attribute limit, 2048 bytes in a partition
/// key, 1024 in a sort key (the smaller when the attribute is in the sort
/// key of any of the entity's multi-attribute indexes).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html>.
///
/// # Errors
///
/// [`KeyError::InvalidKeyAttribute`] and [`KeyError::KeyAttributeTooLong`].
pub(crate) fn check_index_key_value(
    schema: &EntitySchema,
    attribute: &'static str,
    expected: crate::KeyAttributeType,
    value: &AttributeValue,
) -> Result<(), Error> {
    if !valid_index_key_value(expected, value) {
        return Err(Error::Key(KeyError::InvalidKeyAttribute {
            entity: schema.type_name,
            attribute,
            found: describe_key_value(value),
        }));
    }
    let length = match value {
        AttributeValue::S(text) => text.len(),
        AttributeValue::B(bytes) => bytes.as_ref().len(),
        _ => return Ok(()),
    };
    let in_sort_key = schema
        .index_key_field(attribute)
        .is_some_and(|(_, in_sort_key)| in_sort_key);
    let limit = if in_sort_key {
        MAX_SORT_KEY_BYTES
    } else {
        MAX_PARTITION_KEY_BYTES
    };
    if length > limit {
        return Err(Error::Key(KeyError::KeyAttributeTooLong {
            entity: schema.type_name,
            attribute,
            length,
            limit,
        }));
    }
    Ok(())
}

/// A key value as an error message shows it.
pub(crate) fn describe_key_value(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) if text.is_empty() => "an empty string".to_owned(),
        AttributeValue::B(bytes) if bytes.as_ref().is_empty() => "an empty binary".to_owned(),
        other => format!("{other:?}"),
    }
}

fn check_key_attribute(
    schema: &EntitySchema,
    item: &AttributeMap,
    name: &'static str,
    required: bool,
) -> Result<(), Error> {
    let found = match item.get(name) {
        Some(AttributeValue::S(value)) if !value.is_empty() => return Ok(()),
        None if !required => return Ok(()),
        None => "nothing".to_owned(),
        Some(AttributeValue::S(_)) => "an empty string".to_owned(),
        Some(other) => format!("{other:?}"),
    };
    Err(Error::Key(KeyError::InvalidKeyAttribute {
        entity: schema.type_name,
        attribute: name,
        found,
    }))
}

/// Checks one attribute value of entity `entity` at `path` (such as
/// `price`, `dimensions.width` or `scores[2]`): its Numbers, at any depth,
/// that no set inside it is empty or holds two equal elements, and that
/// it nests at most 32 levels. For values written by an update expression
/// as well as for items.
///
/// # Errors
///
/// [`Refusal::InvalidNumber`], [`Refusal::EmptySet`],
/// [`Refusal::DuplicateSetElement`] and [`Refusal::NestedTooDeep`] (the
/// value is taken as an attribute's, at the first level).
pub fn check_value(entity: &'static str, path: &str, value: &AttributeValue) -> Result<(), Error> {
    // Nearly every value is valid: check without building the paths of
    // nested values (a `format!` per list element and map entry), and only
    // then find the problem with its path.
    if is_valid(value, 1) {
        return Ok(());
    }
    check_value_at(entity, path, value, 1)
}

/// Whether [`check_value`] accepts `value` at nesting level `level` (1
/// for an attribute's value), without naming anything.
fn is_valid(value: &AttributeValue, level: usize) -> bool {
    if level > MAX_NESTING_DEPTH {
        return false;
    }
    match value {
        AttributeValue::N(number) => check_number(number).is_ok(),
        AttributeValue::Ns(numbers) => {
            !numbers.is_empty()
                && numbers.iter().all(|number| check_number(number).is_ok())
                && duplicate_element(value).is_none()
        }
        AttributeValue::Ss(set) => !set.is_empty() && duplicate_element(value).is_none(),
        AttributeValue::Bs(set) => !set.is_empty() && duplicate_element(value).is_none(),
        AttributeValue::L(values) => values.iter().all(|value| is_valid(value, level + 1)),
        AttributeValue::M(entries) => entries.values().all(|value| is_valid(value, level + 1)),
        _ => true,
    }
}

/// The size of `value` ([`attribute_value_size`]) when [`check_value`]
/// accepts it as an attribute's value, `None` when it does not: both walks
/// in one.
pub(crate) fn checked_size(value: &AttributeValue) -> Option<usize> {
    checked_size_at(value, 1)
}

/// [`checked_size`] of a value at nesting level `level`.
fn checked_size_at(value: &AttributeValue, level: usize) -> Option<usize> {
    if level > MAX_NESTING_DEPTH {
        return None;
    }
    Some(match value {
        AttributeValue::S(text) => text.len(),
        AttributeValue::N(number) => number_size_of_digits(number_digits(number).ok()?),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ns(numbers) => {
            if numbers.is_empty() {
                return None;
            }
            let mut total = 0;
            for number in numbers {
                total += number_size_of_digits(number_digits(number).ok()?);
            }
            if duplicate_element(value).is_some() {
                return None;
            }
            total
        }
        AttributeValue::Ss(set) if set.is_empty() => return None,
        AttributeValue::Bs(set) if set.is_empty() => return None,
        AttributeValue::Ss(_) | AttributeValue::Bs(_) if duplicate_element(value).is_some() => {
            return None;
        }
        AttributeValue::L(values) => {
            let mut total = 3;
            for value in values {
                total += checked_size_at(value, level + 1)? + 1;
            }
            total
        }
        AttributeValue::M(entries) => {
            let mut total = 3;
            for (name, value) in entries {
                total += name.len() + checked_size_at(value, level + 1)? + 1;
            }
            total
        }
        // `S`, `B`, non-empty `SS` and `BS` without duplicates, and types
        // this SDK version does not know, which `check_value` accepts.
        other => attribute_value_size(other),
    })
}

/// [`check_value`] of a value at nesting level `level`, naming the path of
/// the first problem.
fn check_value_at(
    entity: &'static str,
    path: &str,
    value: &AttributeValue,
    level: usize,
) -> Result<(), Error> {
    if level > MAX_NESTING_DEPTH {
        return Err(Error::Refused(Refusal::NestedTooDeep {
            entity,
            attribute: path.to_owned(),
            limit: MAX_NESTING_DEPTH,
        }));
    }
    if let Some(element) = duplicate_element(value) {
        return Err(Error::Refused(Refusal::DuplicateSetElement {
            entity,
            attribute: path.to_owned(),
            element,
        }));
    }
    let number_error = |value: &str, reason: NumberProblem| {
        Error::Refused(Refusal::InvalidNumber {
            entity,
            attribute: path.to_owned(),
            value: value.to_owned(),
            reason: reason.text(),
        })
    };
    match value {
        AttributeValue::N(number) => {
            check_number(number).map_err(|reason| number_error(number, reason))
        }
        AttributeValue::Ns(numbers) if numbers.is_empty() => {
            Err(Error::Refused(Refusal::EmptySet {
                entity,
                attribute: path.to_owned(),
            }))
        }
        AttributeValue::Ns(numbers) => numbers.iter().try_for_each(|number| {
            check_number(number).map_err(|reason| number_error(number, reason))
        }),
        AttributeValue::Ss(set) if set.is_empty() => Err(Error::Refused(Refusal::EmptySet {
            entity,
            attribute: path.to_owned(),
        })),
        AttributeValue::Bs(set) if set.is_empty() => Err(Error::Refused(Refusal::EmptySet {
            entity,
            attribute: path.to_owned(),
        })),
        AttributeValue::L(values) => values.iter().enumerate().try_for_each(|(position, value)| {
            check_value_at(entity, &format!("{path}[{position}]"), value, level + 1)
        }),
        AttributeValue::M(entries) => entries.iter().try_for_each(|(name, value)| {
            check_value_at(entity, &format!("{path}.{name}"), value, level + 1)
        }),
        _ => Ok(()),
    }
}

/// Why a Number's text is not one DynamoDB stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberProblem {
    NotANumber,
    TooManyDigits,
    TooLarge,
    TooSmall,
}

impl NumberProblem {
    fn text(self) -> &'static str {
        match self {
            NumberProblem::NotANumber => {
                "it is not a decimal number (NaN and infinities have no DynamoDB Number)"
            }
            NumberProblem::TooManyDigits => "it has more than 38 significant digits",
            NumberProblem::TooLarge => {
                "its magnitude is above 9.9999999999999999999999999999999999999E+125"
            }
            NumberProblem::TooSmall => "its magnitude is below 1E-130 (and it is not zero)",
        }
    }
}

/// Checks a Number's text by DynamoDB's rules: `[+-]digits[.digits][e[+-]digits]`
/// with at least one digit, at most 38 significant digits, and a magnitude
/// of zero or from `1E-130` to `9.99…E+125`.
pub(crate) fn check_number(text: &str) -> Result<(), NumberProblem> {
    number_digits(text).map(|_| ())
}

/// [`check_number`], returning the significant digits of a valid Number
/// (those [`significant_digits`](crate::item::size::significant_digits)
/// counts, 0 for zero), which its size is counted in.
pub(crate) fn number_digits(text: &str) -> Result<usize, NumberProblem> {
    // Runs of digits rather than `str` searches and a second count (every
    // Number of every written item comes through here).
    let is_digit = |byte: &&u8| byte.is_ascii_digit();
    let sign = usize::from(matches!(text.as_bytes().first(), Some(b'-' | b'+')));
    let rest = &text.as_bytes()[sign..];
    // An integer of at most 38 digits, what every Rust integer type
    // writes, is valid whatever its digits: one pass over them, then its
    // significant digits from the first to the last non-zero one.
    if !rest.is_empty() && rest.len() <= MAX_NUMBER_DIGITS && rest.iter().all(u8::is_ascii_digit) {
        let nonzero = |digit: &u8| *digit != b'0';
        let Some(first) = rest.iter().position(nonzero) else {
            return Ok(0); // zero
        };
        let last = rest.iter().rposition(nonzero).unwrap_or(first);
        return Ok(last - first + 1);
    }
    let integer = &rest[..rest.iter().take_while(is_digit).count()];
    let mut at = integer.len();
    let mut fraction: &[u8] = &[];
    if rest.get(at) == Some(&b'.') {
        let after = &rest[at + 1..];
        fraction = &after[..after.iter().take_while(is_digit).count()];
        at += 1 + fraction.len();
    }
    let exponent_text = match rest.get(at) {
        None => None,
        // `e` is ASCII: the exponent starts on a character boundary.
        Some(b'e' | b'E') => Some(&text[sign + at + 1..]),
        Some(_) => return Err(NumberProblem::NotANumber),
    };
    if integer.len() + fraction.len() == 0 {
        return Err(NumberProblem::NotANumber);
    }
    let exponent: i64 = match exponent_text {
        None => 0,
        Some(exponent) => {
            let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(NumberProblem::NotANumber);
            }
            // An exponent too long for i64 is far outside the range either way.
            match exponent.parse::<i64>() {
                Ok(exponent) => exponent,
                Err(_) if exponent.starts_with('-') => i64::MIN / 2,
                Err(_) => i64::MAX / 2,
            }
        }
    };
    // The positions, among the digits without the point, of the first and
    // last significant digit.
    let nonzero = |digit: &u8| *digit != b'0';
    let first = match integer.iter().position(nonzero) {
        Some(first) => first,
        None => match fraction.iter().position(nonzero) {
            Some(first) => integer.len() + first,
            None => return Ok(0), // zero
        },
    };
    let last = match fraction.iter().rposition(nonzero) {
        Some(last) => integer.len() + last,
        None => integer.iter().rposition(nonzero).unwrap_or(first),
    };
    let digits = last - first + 1;
    if digits > MAX_NUMBER_DIGITS {
        return Err(NumberProblem::TooManyDigits);
    }
    // The decimal exponent of the first significant digit.
    let magnitude = integer.len() as i64 - 1 - first as i64 + exponent;
    if magnitude > MAX_NUMBER_EXPONENT {
        Err(NumberProblem::TooLarge)
    } else if magnitude < MIN_NUMBER_EXPONENT {
        Err(NumberProblem::TooSmall)
    } else {
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_rust_writes_are_accepted() {
        for text in [
            "0",
            "-0",
            "42",
            "-17",
            "18446744073709551615",
            "-9223372036854775808",
            "0.30000000000000004",
            "1.7976931348623157e125",
            "123456789012345678901234567890123456780000",
            "0.00000000000000000000000000000000000000000000000000000001",
            "1E-130",
            "9.9999999999999999999999999999999999999E+125",
            "+5",
            ".5",
            "5.",
        ] {
            assert_eq!(check_number(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn numbers_dynamodb_refuses_are_refused() {
        assert_eq!(check_number("NaN"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("inf"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("-inf"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number(""), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("-"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("1e"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("1 000"), Err(NumberProblem::NotANumber));
        assert_eq!(check_number("0x10"), Err(NumberProblem::NotANumber));
        // 39 significant digits (u128::MAX).
        assert_eq!(
            check_number("340282366920938463463374607431768211455"),
            Err(NumberProblem::TooManyDigits)
        );
        assert_eq!(
            check_number("1.00000000000000000000000000000000000001"),
            Err(NumberProblem::TooManyDigits)
        );
        assert_eq!(check_number("1E126"), Err(NumberProblem::TooLarge));
        assert_eq!(
            check_number(&1e300f64.to_string()),
            Err(NumberProblem::TooLarge)
        );
        assert_eq!(
            check_number(&f64::MAX.to_string()),
            Err(NumberProblem::TooLarge)
        );
        assert_eq!(check_number("1E-131"), Err(NumberProblem::TooSmall));
        assert_eq!(
            check_number(&1e-200f64.to_string()),
            Err(NumberProblem::TooSmall)
        );
        assert_eq!(
            check_number("1e-99999999999999999999999"),
            Err(NumberProblem::TooSmall)
        );
        assert_eq!(
            check_number("1e99999999999999999999999"),
            Err(NumberProblem::TooLarge)
        );
        assert_eq!(
            check_number(&f64::NAN.to_string()),
            Err(NumberProblem::NotANumber)
        );
        assert_eq!(
            check_number(&f64::INFINITY.to_string()),
            Err(NumberProblem::NotANumber)
        );
    }

    /// The two-pass reading of a Number that `number_digits` replaced (by
    /// `str` searches, then `significant_digits`), as the oracle.
    fn reference_number_digits(text: &str) -> Result<usize, NumberProblem> {
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
            None => (unsigned, None),
        };
        let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
        if integer.len() + fraction.len() == 0 || !all_digits(integer) || !all_digits(fraction) {
            return Err(NumberProblem::NotANumber);
        }
        let exponent: i64 = match exponent {
            None => 0,
            Some(exponent) => {
                let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
                if digits.is_empty() || !all_digits(digits) {
                    return Err(NumberProblem::NotANumber);
                }
                // An exponent too long for i64 is far outside the range either way.
                match exponent.parse::<i64>() {
                    Ok(exponent) => exponent,
                    Err(_) if exponent.starts_with('-') => i64::MIN / 2,
                    Err(_) => i64::MAX / 2,
                }
            }
        };
        // The digits, without the point (and without allocating: every Number
        // of every written item comes through here).
        let Some(first) = integer
            .bytes()
            .chain(fraction.bytes())
            .position(|digit| digit != b'0')
        else {
            return Ok(0); // zero
        };
        let digits = crate::item::size::significant_digits(mantissa);
        if digits > MAX_NUMBER_DIGITS {
            return Err(NumberProblem::TooManyDigits);
        }
        // The decimal exponent of the first significant digit.
        let magnitude = integer.len() as i64 - 1 - first as i64 + exponent;
        if magnitude > MAX_NUMBER_EXPONENT {
            Err(NumberProblem::TooLarge)
        } else if magnitude < MIN_NUMBER_EXPONENT {
            Err(NumberProblem::TooSmall)
        } else {
            Ok(digits)
        }
    }

    #[test]
    fn the_one_pass_number_reading_agrees_with_the_two_pass_one() {
        let alphabet = ["0", "1", "9", ".", "e", "E", "-", "+", "x", "é"];
        let mut texts = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            texts = texts
                .iter()
                .flat_map(|text| alphabet.iter().map(move |c| format!("{text}{c}")))
                .collect();
            all.extend(texts.iter().cloned());
        }
        all.extend(
            [
                "340282366920938463463374607431768211455",
                "1.00000000000000000000000000000000000001",
                "12345678901234567890123456789012345678",
                "0.000000000000000000000000000000000000000000000000012300",
                "1e-99999999999999999999999",
                "1e99999999999999999999999",
                "9.9999999999999999999999999999999999999E+125",
                "1E-130",
                "1E-131",
                "-0.0e-0",
                "18446744073709551615",
            ]
            .map(str::to_owned),
        );
        for text in &all {
            assert_eq!(
                number_digits(text),
                reference_number_digits(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_one_pass_check_agrees_with_the_check_and_the_size() {
        use aws_sdk_dynamodb::primitives::Blob;
        let n = |text: &str| AttributeValue::N(text.to_owned());
        let numbers = [
            "0",
            "-0",
            "42",
            "-17.50",
            "0.000120",
            "1E-130",
            "1E-131",
            "1E126",
            "NaN",
            "inf",
            "",
            "1e",
            "+5",
            ".5",
            "5.",
            "1.5e+3",
            "00012300",
            "340282366920938463463374607431768211455",
        ];
        let mut values: Vec<AttributeValue> = numbers.iter().map(|text| n(text)).collect();
        values.extend([
            AttributeValue::S(String::new()),
            AttributeValue::S("café".to_owned()),
            AttributeValue::Bool(true),
            AttributeValue::Null(true),
            AttributeValue::B(Blob::new(vec![1, 2, 3])),
            AttributeValue::Ss(vec![]),
            AttributeValue::Ss(vec!["a".to_owned(), "bc".to_owned()]),
            AttributeValue::Ns(vec![]),
            AttributeValue::Ns(vec!["1".to_owned(), "250".to_owned()]),
            AttributeValue::Ns(vec!["1".to_owned(), "NaN".to_owned()]),
            AttributeValue::Bs(vec![]),
            AttributeValue::Bs(vec![Blob::new(vec![0; 4])]),
        ]);
        let nested: Vec<AttributeValue> = values
            .iter()
            .flat_map(|value| {
                [
                    AttributeValue::L(vec![n("1"), value.clone()]),
                    AttributeValue::M(
                        [
                            ("a".to_owned(), value.clone()),
                            ("bb".to_owned(), AttributeValue::L(vec![value.clone()])),
                        ]
                        .into(),
                    ),
                ]
            })
            .collect();
        values.extend(nested);
        for value in &values {
            let expected = is_valid(value, 1).then(|| attribute_value_size(value));
            assert_eq!(checked_size(value), expected, "{value:?}");
        }
    }

    #[test]
    fn nested_values_name_their_path() {
        let value = AttributeValue::M(
            [(
                "scores".to_owned(),
                AttributeValue::L(vec![
                    AttributeValue::N("1".into()),
                    AttributeValue::N("NaN".into()),
                ]),
            )]
            .into(),
        );
        let error = check_value("Thing", "stats", &value).unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::InvalidNumber { entity: "Thing", attribute, value, .. }) if attribute == "stats.scores[1]" && value == "NaN"),
            "{error:?}"
        );
        let nested_empty = AttributeValue::L(vec![AttributeValue::Ss(vec![])]);
        let error = check_value("Thing", "tags", &nested_empty).unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::EmptySet { attribute, .. }) if attribute == "tags[0]"),
            "{error:?}"
        );
    }
}
