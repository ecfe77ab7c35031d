//! Multi-attribute GSIs in a table definition: merging one index that
//! several entities write (they must agree on every key attribute, name and
//! type, in order), and the typed `AttributeDefinitions` of the table (one
//! type per attribute, whichever index uses it).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.

use super::{Resolved, TableIndex};
use crate::{Error, IndexKeyField, KeyAttributeType, MultiAttributeIndexSchema};

/// Refuses `second` (of `second_entity`) as the same index as `known` (of
/// `first_entity`): both must be multi-attribute with the same key
/// attributes, names and types, in the same order. An entity whose items
/// lacked one of the sort-key attributes would never be in the index.
pub(super) fn check_same_index(
    known: &TableIndex,
    first_entity: &'static str,
    second: Option<&'static MultiAttributeIndexSchema>,
    second_entity: &'static str,
    second_partition_key: &'static str,
) -> Result<(), Error> {
    let conflict = |role: String, first_name: &'static str, second_name: &'static str| {
        Err(Error::ConflictingKeyAttributes {
            first_entity,
            second_entity,
            role,
            first_name,
            second_name,
        })
    };
    let (first, second) = match (known.multi_attribute, second) {
        (None, None) => return Ok(()),
        (Some(first), Some(second)) => (first, second),
        (first, _) => {
            return conflict(
                format!(
                    "{} partition key (one entity names fields, `pk(…)`, the other a template)",
                    known.name
                ),
                first.map_or(known.partition_key, |index| {
                    index.partition_key[0].attribute
                }),
                second.map_or(second_partition_key, |index| {
                    index.partition_key[0].attribute
                }),
            );
        }
    };
    for (role, mine, theirs) in [
        ("partition key", first.partition_key, second.partition_key),
        ("sort key", first.sort_key, second.sort_key),
    ] {
        for position in 0..mine.len().max(theirs.len()) {
            let name =
                |fields: &[IndexKeyField]| fields.get(position).map_or("(none)", |f| f.attribute);
            let (a, b) = (mine.get(position), theirs.get(position));
            let same = matches!((a, b), (Some(a), Some(b)) if a.attribute == b.attribute);
            if !same {
                return conflict(
                    format!("{} {role} #{}", known.name, position + 1),
                    name(mine),
                    name(theirs),
                );
            }
            let (a, b) = (a.expect("both are there"), b.expect("both are there"));
            if a.attribute_type != b.attribute_type {
                return Err(Error::ConflictingKeyAttributeTypes {
                    attribute: a.attribute,
                    first_index: known.name,
                    first_type: a.attribute_type.as_str(),
                    second_index: known.name,
                    second_type: b.attribute_type.as_str(),
                });
            }
        }
    }
    Ok(())
}

/// A merged index entry for a multi-attribute index.
pub(super) fn table_index(
    index: &'static MultiAttributeIndexSchema,
    projection: super::IndexProjection,
) -> TableIndex {
    TableIndex {
        name: index.name,
        partition_key: index.partition_key[0].attribute,
        sort_key: index.sort_key.first().map(|field| field.attribute),
        projection,
        multi_attribute: Some(index),
    }
}

impl Resolved {
    /// Every key attribute of the table and its indexes with its type, each
    /// once: the table's keys, each GSI's (a multi-attribute index's fields
    /// with their own types, template keys as strings), then each LSI's
    /// sort key.
    ///
    /// # Errors
    ///
    /// [`Error::ConflictingKeyAttributeTypes`] when one attribute would be
    /// of two types (DynamoDB defines each attribute once).
    pub(crate) fn key_attribute_types(
        &self,
    ) -> Result<Vec<(&'static str, KeyAttributeType)>, Error> {
        let mut found: Vec<(&'static str, KeyAttributeType, &'static str)> = Vec::new();
        let mut add = |name: &'static str,
                       attribute_type: KeyAttributeType,
                       owner: &'static str| {
            match found.iter().find(|(known, _, _)| *known == name) {
                Some((_, known_type, known_owner)) if *known_type != attribute_type => {
                    Err(Error::ConflictingKeyAttributeTypes {
                        attribute: name,
                        first_index: known_owner,
                        first_type: known_type.as_str(),
                        second_index: owner,
                        second_type: attribute_type.as_str(),
                    })
                }
                Some(_) => Ok(()),
                None => {
                    found.push((name, attribute_type, owner));
                    Ok(())
                }
            }
        };
        add(self.partition_key, KeyAttributeType::S, "the table")?;
        add(self.sort_key, KeyAttributeType::S, "the table")?;
        for index in &self.indexes {
            match index.multi_attribute {
                None => {
                    add(index.partition_key, KeyAttributeType::S, index.name)?;
                    if let Some(sort_key) = index.sort_key {
                        add(sort_key, KeyAttributeType::S, index.name)?;
                    }
                }
                Some(multi) => {
                    for field in multi.key_fields() {
                        add(field.attribute, field.attribute_type, index.name)?;
                    }
                }
            }
        }
        for index in &self.local_indexes {
            add(index.sort_key, KeyAttributeType::S, index.name)?;
        }
        for index in &self.vector_indexes {
            for (name, attribute_type) in super::vector::attribute_definitions(&[index]) {
                add(name, attribute_type, index.name)?;
            }
        }
        Ok(found
            .into_iter()
            .map(|(name, attribute_type, _)| (name, attribute_type))
            .collect())
    }
}

/// The key schema of an index: `HASH` for each partition-key attribute,
/// then `RANGE` for each sort-key attribute; a template index has one of
/// each at most.
pub(crate) fn key_schema_names(index: &TableIndex) -> Vec<(&'static str, bool)> {
    match index.multi_attribute {
        Some(multi) => multi
            .partition_key
            .iter()
            .map(|field| (field.attribute, true))
            .chain(multi.sort_key.iter().map(|field| (field.attribute, false)))
            .collect(),
        None => std::iter::once((index.partition_key, true))
            .chain(index.sort_key.map(|name| (name, false)))
            .collect(),
    }
}
