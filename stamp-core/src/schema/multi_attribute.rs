//! Multi-attribute GSIs in a table definition: merging one index that
//! several entities write (they must agree on every key attribute, name and
//! type, in order), and the typed `AttributeDefinitions` of the table (one
//! type per attribute, whichever index uses it).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.

use super::{Resolved, TableIndex};
use crate::error::DefinitionError;
use crate::error::Error;
use crate::model::index::IndexSchema;
use crate::model::multi_attribute::{IndexKeyField, KeyAttributeType};

/// Refuses `second` (of `second_entity`) as the same index as `known` (of
/// `first_entity`) when either is multi-attribute: both must then be, with
/// the same key attributes, names and types, in the same order. An entity
/// whose items lacked one of the sort-key attributes would never be in the
/// index. Two template indexes pass (their names are compared by the
/// caller).
pub(super) fn check_same_index(
    known: &TableIndex,
    first_entity: &'static str,
    second: &'static IndexSchema,
    second_entity: &'static str,
) -> Result<(), Error> {
    let second_partition_key = second.partition_key_name();
    let second = second.attributes();
    let conflict = |role: String, first_name: &'static str, second_name: &'static str| {
        Err(Error::Definition(
            DefinitionError::ConflictingKeyAttributes {
                first_entity,
                second_entity,
                role,
                first_name,
                second_name,
            },
        ))
    };
    let first = known.multi_attribute.and_then(IndexSchema::attributes);
    let (first, second) = match (first, second) {
        (None, None) => return Ok(()),
        (Some(first), Some(second)) => (first, second),
        _ => {
            return conflict(
                format!(
                    "{} partition key (one entity names fields, `pk(…)`, the other a template)",
                    known.name
                ),
                known.partition_key,
                second_partition_key,
            );
        }
    };
    for (role, mine, theirs) in [
        ("partition key", first.0, second.0),
        ("sort key", first.1, second.1),
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
                return Err(Error::Definition(
                    DefinitionError::ConflictingKeyAttributeTypes {
                        attribute: a.attribute,
                        first_index: known.name,
                        first_type: a.attribute_type.as_str(),
                        second_index: known.name,
                        second_type: b.attribute_type.as_str(),
                    },
                ));
            }
        }
    }
    Ok(())
}

impl Resolved {
    /// Every key attribute of the table and its indexes with its type, each
    /// once: the table's keys, then each index's (a multi-attribute index's
    /// fields with their own types, template keys as strings).
    ///
    /// # Errors
    ///
    /// [`DefinitionError::ConflictingKeyAttributeTypes`] when one attribute would be
    /// of two types (DynamoDB defines each attribute once).
    pub(crate) fn key_attribute_types(
        &self,
    ) -> Result<Vec<(&'static str, KeyAttributeType)>, Error> {
        let mut found: Vec<(&'static str, KeyAttributeType, &'static str)> = Vec::new();
        let mut add = |name: &'static str,
                       attribute_type: KeyAttributeType,
                       owner: &'static str| {
            match found.iter().find(|(known, _, _)| *known == name) {
                Some((_, known_type, known_owner)) if *known_type != attribute_type => Err(
                    Error::Definition(DefinitionError::ConflictingKeyAttributeTypes {
                        attribute: name,
                        first_index: known_owner,
                        first_type: known_type.as_str(),
                        second_index: owner,
                        second_type: attribute_type.as_str(),
                    }),
                ),
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
        // A vector index's search schema: its partition element and inline
        // filters are declared too.
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
        Some(multi) => multi.key_schema(),
        None => std::iter::once((index.partition_key, true))
            .chain(index.sort_key.map(|name| (name, false)))
            .collect(),
    }
}
