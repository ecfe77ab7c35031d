//! The index attributes an update rewrites or removes, rebuilt from the
//! values it knows.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::values::Action;
use crate::error::Error;
use crate::error::Refusal;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::typed_key::PrimaryKey;

/// The index attributes to set (with their values) and to remove.
type IndexChanges = (Vec<(&'static str, String)>, Vec<&'static str>);

/// The index attributes an update writes (`SET`, with their values) and
/// removes, rebuilt from what it knows: the values it sets or removes, and
/// `known` (the primary-key fields of `E::update(…)` and `given` values)
/// and the primary key `key` (stored `PK` and `SK`, from which a sharded
/// index's shard follows).
///
/// For each index (GSI or LSI) that the update touches (it changes a field of one of its
/// templates):
///
/// - when a field of the index is `None` after the update, both attributes
///   are removed (the item leaves the sparse index);
/// - for a sparse index (one with an `Option` field), every `Option` field
///   must be known, since otherwise the item may or may not be in the index
///   and writing one attribute could leave it half in;
/// - the attributes built from a changed field are rebuilt, and both of
///   them when an `Option` field is set (the item may be entering the
///   index): every field they use must be known.
///
/// (About 120 lines: one loop over the indexes whose three rules above
/// read in order; split, they would need the same five locals passed
/// around.)
///
/// An upsert also writes the primary-key fields (`key_fields`, empty for
/// an update), which the stored item already has: an index they touch is
/// written whole when every value it needs is known (so that an item the
/// upsert creates is in it, as a put would put it), and left alone
/// otherwise when nothing else touches it (a stored item keeps its
/// attributes, and a created one lacks the unknown `Option` fields, so
/// it is in no sparse index built from them). Every index an upsert
/// touches is rewritten whole, never one attribute of the pair.
pub(super) fn rebuild_indexes<E: Entity>(
    actions: &[Action],
    known_before: &AttributeMap,
    key: &PrimaryKey<E>,
    key_fields: &[&str],
) -> Result<IndexChanges, Error> {
    let schema = E::SCHEMA;
    let invalid = |reason: crate::error::UpdateReason| {
        Error::Refused(Refusal::InvalidUpdate {
            entity: schema.type_name,
            reason,
        })
    };
    // The fields this update gives a value, by attribute; NULL for removed ones.
    let mut changed: AttributeMap = HashMap::new();
    let mut unknown: Vec<&'static str> = Vec::new();
    for action in actions {
        match action {
            // A path below the attribute: its new value depends on the
            // stored one.
            other if other.path().is_nested() => unknown.push(other.attribute()),
            Action::Set(path, value) => {
                let value = value
                    .clone()
                    .map_err(|detail| Error::Refused(Refusal::InvalidExpressionValue { detail }))?;
                changed.insert(path.top_name().to_owned(), value);
            }
            Action::Remove(path) => {
                changed.insert(path.top_name().to_owned(), AttributeValue::Null(true));
            }
            other => unknown.push(other.attribute()),
        }
    }
    let mut known = known_before.clone();
    for (attribute, value) in [
        (schema.partition_key.name, key.partition_key()),
        (schema.sort_key.name, key.sort_key()),
    ] {
        known.insert(attribute.to_owned(), AttributeValue::S(value.to_owned()));
    }
    known.extend(
        changed
            .iter()
            .map(|(name, value)| (name.clone(), value.clone())),
    );
    let attribute_of = |field: &str| {
        schema
            .field_attributes
            .iter()
            .find(|known| known.field == field)
    };
    let optional = |attribute: &str| {
        schema
            .field_attributes
            .iter()
            .any(|known| known.attribute == attribute && known.optional)
    };
    let mut index_sets: Vec<(&'static str, String)> = Vec::new();
    let mut index_removes: Vec<&'static str> = Vec::new();
    // Each index with the keys it builds from templates (an LSI's
    // partition key is the table's, which no update changes; a
    // multi-attribute index's keys are fields, set by the update itself),
    // and the optional vector of a vector index, which makes it sparse as
    // an `Option` field of a template does.
    let indexes = schema.indexes.iter().map(|index| {
        let sparse_by = index
            .vector()
            .filter(|vector| vector.optional)
            .map(|vector| vector.attribute);
        (index.name, index.written_keys(), sparse_by)
    });
    for (index_name, keys, sparse_by) in indexes {
        let parts: Vec<(&'static str, Vec<&'static str>)> = keys
            .into_iter()
            .map(|key| {
                let fields = key
                    .template
                    .fields()
                    .filter_map(|field| attribute_of(field).map(|known| known.attribute));
                (key.name, fields.collect())
            })
            .collect();
        let mut all_fields: Vec<&'static str> = Vec::new();
        for field in parts
            .iter()
            .flat_map(|(_, fields)| fields.iter().copied())
            .chain(sparse_by)
        {
            if !all_fields.contains(&field) {
                all_fields.push(field);
            }
        }
        if let Some(field) = unknown.iter().find(|name| all_fields.contains(name)) {
            return Err(invalid(crate::error::UpdateReason::KeyFieldNotSet {
                field: field.to_string(),
                index: index_name,
            }));
        }
        let touched: Vec<&(&'static str, Vec<&'static str>)> = parts
            .iter()
            .filter(|(_, fields)| fields.iter().any(|field| changed.contains_key(*field)))
            .collect();
        if touched.is_empty() && !sparse_by.is_some_and(|vector| changed.contains_key(vector)) {
            continue;
        }
        let optional_fields: Vec<&'static str> = all_fields
            .iter()
            .copied()
            .filter(|field| optional(field))
            .collect();
        if optional_fields
            .iter()
            .any(|field| matches!(known.get(*field), Some(AttributeValue::Null(_))))
        {
            index_removes.extend(parts.iter().map(|(name, _)| *name));
            continue;
        }
        let enters_index = optional_fields
            .iter()
            .any(|field| changed.contains_key(*field));
        let upsert = !key_fields.is_empty();
        let by_key_fields_only = upsert
            && !sparse_by.is_some_and(|vector| changed.contains_key(vector))
            && !all_fields
                .iter()
                .any(|field| changed.contains_key(*field) && !key_fields.contains(field));
        let rebuilt: Vec<&(&'static str, Vec<&'static str>)> = if enters_index || upsert {
            parts.iter().collect()
        } else {
            touched
        };
        let mut missing: Vec<String> = Vec::new();
        for field in optional_fields.iter().copied().chain(
            rebuilt
                .iter()
                .flat_map(|(_, fields)| fields.iter().copied()),
        ) {
            if !known.contains_key(field) && !missing.iter().any(|known| known == field) {
                missing.push(field.to_owned());
            }
        }
        if !missing.is_empty() && by_key_fields_only {
            continue;
        }
        if !missing.is_empty() {
            return Err(Error::Refused(Refusal::IncompleteIndexUpdate {
                entity: schema.type_name,
                index: index_name,
                missing,
            }));
        }
        for (name, _) in rebuilt {
            match E::key_attribute_from_values(name, &known)? {
                Some(value) => index_sets.push((name, value)),
                None => index_removes.extend(parts.iter().map(|(name, _)| *name)),
            }
        }
    }
    index_removes.dedup();
    Ok((index_sets, index_removes))
}
