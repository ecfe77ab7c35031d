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

use crate::error::Error;
use crate::error::{KeyError, Refusal};
use crate::item::size::{attribute_value_size, item_size, number_size_of_digits};
use crate::item::stored::duplicate_element;
use crate::limits::{
    MAX_ITEM_SIZE_BYTES, MAX_NESTING_DEPTH, MAX_NUMBER_DIGITS, MAX_NUMBER_EXPONENT,
    MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, MIN_NUMBER_EXPONENT,
};
use crate::model::entity::{AttributeMap, Entity, EntitySchema};

mod number;

use crate::error::ItemKey;
use crate::model::entity::WriteTime;
use crate::model::multi_attribute::KeyAttributeType;
pub(crate) use number::{NumberProblem, check_number, number_digits};

/// The item a batch writes for `entity`, checked: [`Entity::to_item_at`]
/// with `updated_at` stamped at `now`, checked as [`check_item`] checks it
/// (counted while it is encoded, [`ItemBuilder`](crate::item::builder::ItemBuilder)).
/// Returns the item and its size in bytes.
///
/// # Errors
///
/// [`Refusal::VersionedBatchWrite`] for an entity with a `#[stamp(version)]`
/// field (a batch cannot check a version), [`Refusal::UniqueBatchWrite`]
/// for one with unique values (a batch cannot keep their guards); the
/// errors of
/// [`Entity::to_item`] and of [`check_item`].
pub(crate) fn item_for_write<E: Entity>(
    entity: &E,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(AttributeMap, usize), Error> {
    if entity.version().is_some() {
        return Err(Error::Refused(Refusal::VersionedBatchWrite {
            entity: E::SCHEMA.type_name,
        }));
    }
    if !E::SCHEMA.unique_values.is_empty() {
        return Err(Error::Refused(Refusal::UniqueBatchWrite {
            entity: E::SCHEMA.type_name,
        }));
    }
    entity
        .encode_item_at(
            Some(WriteTime {
                now,
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
            key: ItemKey::of_schema(schema, item),
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
pub(crate) fn valid_index_key_value(expected: KeyAttributeType, value: &AttributeValue) -> bool {
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
    expected: KeyAttributeType,
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

#[cfg(test)]
mod tests;
