//! What a [`TableDefinition`] derives from its entities: the table's key
//! attributes, its indexes, its TTL attribute.

use super::*;

impl TableDefinition {
    /// The partition key and sort key attribute names, such as `("PK", "SK")`.
    ///
    /// # Errors
    ///
    /// [`DefinitionError::EmptyTableDefinition`] without entities;
    /// [`DefinitionError::ConflictingKeyAttributes`] when two entities name them
    /// differently.
    pub fn key_attributes(&self) -> Result<(&'static str, &'static str), Error> {
        let first = *self
            .entities
            .first()
            .ok_or(Error::Definition(DefinitionError::EmptyTableDefinition))?;
        for other in &self.entities[1..] {
            for (role, mine, theirs) in [
                (
                    "partition key",
                    first.partition_key.name,
                    other.partition_key.name,
                ),
                ("sort key", first.sort_key.name, other.sort_key.name),
            ] {
                if mine != theirs {
                    return Err(Error::Definition(
                        DefinitionError::ConflictingKeyAttributes {
                            first_entity: first.type_name,
                            second_entity: other.type_name,
                            role: role.to_owned(),
                            first_name: mine,
                            second_name: theirs,
                        },
                    ));
                }
            }
        }
        Ok((first.partition_key.name, first.sort_key.name))
    }

    /// The secondary indexes the entities write, of every kind, merged by
    /// index name: the GSIs, then the LSIs, each ordered by index number and
    /// then name (`GSI1`, `GSI2`, …, `GSI10`, `LSI1`), each with its
    /// projection.
    ///
    /// # Errors
    ///
    /// [`DefinitionError::ConflictingKeyAttributes`] when two entities give one index
    /// different key attribute names (or one a template key, the other
    /// fields), [`DefinitionError::ConflictingKeyAttributeTypes`] when they give one
    /// multi-attribute key attribute two types, and
    /// [`DefinitionError::DuplicateIndexName`] when a GSI and an LSI have one name.
    pub fn indexes(&self) -> Result<Vec<TableIndex>, Error> {
        struct Merged {
            index: TableIndex,
            first_entity: &'static str,
            sort_key_entity: Option<&'static str>,
        }
        let mut merged: Vec<Merged> = Vec::new();
        for entity in &self.entities {
            // A vector index is created, verified and drawn as its own kind
            // (`VectorIndexes` of `CreateTable`): `Resolved::vector_indexes`.
            for index in entity.indexes.iter().filter(|index| !index.is_vector()) {
                let sort_key = index.sort_key_name();
                let Some(known) = merged
                    .iter_mut()
                    .find(|known| known.index.name == index.name)
                else {
                    merged.push(Merged {
                        index: TableIndex {
                            name: index.name,
                            number: index.number,
                            kind: index.kind,
                            partition_key: index.partition_key_name(),
                            sort_key,
                            projection: self.projection(index.name).clone(),
                            multi_attribute: index.is_multi_attribute().then_some(index),
                        },
                        first_entity: entity.type_name,
                        sort_key_entity: sort_key.map(|_| entity.type_name),
                    });
                    continue;
                };
                if known.index.is_local() != index.is_local() {
                    return Err(Error::Definition(DefinitionError::DuplicateIndexName {
                        index: index.name,
                    }));
                }
                multi_attribute::check_same_index(
                    &known.index,
                    known.first_entity,
                    index,
                    entity.type_name,
                )?;
                if index.is_multi_attribute() {
                    continue;
                }
                if known.index.partition_key != index.partition_key_name() {
                    return Err(Error::Definition(
                        DefinitionError::ConflictingKeyAttributes {
                            first_entity: known.first_entity,
                            second_entity: entity.type_name,
                            role: format!("{} partition key", index.name),
                            first_name: known.index.partition_key,
                            second_name: index.partition_key_name(),
                        },
                    ));
                }
                match (known.index.sort_key, sort_key, known.sort_key_entity) {
                    (Some(mine), Some(theirs), Some(first_entity)) if mine != theirs => {
                        return Err(Error::Definition(
                            DefinitionError::ConflictingKeyAttributes {
                                first_entity,
                                second_entity: entity.type_name,
                                role: format!("{} sort key", index.name),
                                first_name: mine,
                                second_name: theirs,
                            },
                        ));
                    }
                    (None, Some(theirs), _) => {
                        known.index.sort_key = Some(theirs);
                        known.sort_key_entity = Some(entity.type_name);
                    }
                    _ => {}
                }
            }
        }
        merged.sort_by(|a, b| {
            let key = |index: &TableIndex| (index.is_local(), index.number, index.name);
            key(&a.index).cmp(&key(&b.index))
        });
        Ok(merged.into_iter().map(|merged| merged.index).collect())
    }

    /// The attribute DynamoDB's TTL reads, from the entities' `#[stamp(ttl)]`
    /// fields; `None` when no entity has one.
    ///
    /// # Errors
    ///
    /// [`DefinitionError::ConflictingTimeToLive`] when two entities name different
    /// attributes: a table has one TTL attribute.
    pub fn time_to_live_attribute(&self) -> Result<Option<&'static str>, Error> {
        let mut found: Option<(&'static str, &'static str)> = None;
        for entity in &self.entities {
            let Some(attribute) = entity.ttl_attribute else {
                continue;
            };
            match found {
                None => found = Some((entity.type_name, attribute)),
                Some((first_entity, first_attribute)) if first_attribute != attribute => {
                    return Err(Error::Definition(DefinitionError::ConflictingTimeToLive {
                        first_entity,
                        first_attribute,
                        second_entity: entity.type_name,
                        second_attribute: attribute,
                    }));
                }
                Some(_) => {}
            }
        }
        Ok(found.map(|(_, attribute)| attribute))
    }
}
