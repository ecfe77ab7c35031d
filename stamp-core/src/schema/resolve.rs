//! Checking a table definition: the key attributes and indexes the entities
//! agree on ([`TableDefinition::resolve`]), and key spaces that could collide.

use super::{
    IndexProjection, MAX_GLOBAL_SECONDARY_INDEXES, MAX_LOCAL_SECONDARY_INDEXES,
    MAX_PROJECTED_ATTRIBUTES, Resolved, TableDefinition, collision,
};
use crate::Error;

impl TableDefinition {
    /// Runs every check (see [Checks](Self#checks)) without building
    /// anything.
    ///
    /// # Errors
    ///
    /// The first refusal found, in the order the checks are listed.
    pub fn check(&self) -> Result<(), Error> {
        self.resolve().map(|_| ())
    }

    /// Checks the definition and returns the merged keys, indexes and TTL.
    pub(crate) fn resolve(&self) -> Result<Resolved, Error> {
        if self.entities.is_empty() {
            return Err(Error::EmptyTableDefinition);
        }
        for (position, entity) in self.entities.iter().enumerate() {
            if self.entities[..position]
                .iter()
                .any(|earlier| earlier.type_name == entity.type_name)
            {
                return Err(Error::DuplicateEntityType {
                    type_name: entity.type_name,
                });
            }
        }
        let (partition_key, sort_key) = self.key_attributes()?;
        let time_to_live = self.time_to_live_attribute()?;
        let indexes = self.indexes()?;
        if indexes.len() > MAX_GLOBAL_SECONDARY_INDEXES {
            return Err(Error::TooManyIndexes {
                count: indexes.len(),
                limit: MAX_GLOBAL_SECONDARY_INDEXES,
                indexes: indexes.iter().map(|index| index.name).collect(),
            });
        }
        let local_indexes = self.local_indexes()?;
        if local_indexes.len() > MAX_LOCAL_SECONDARY_INDEXES {
            return Err(Error::TooManyLocalIndexes {
                count: local_indexes.len(),
                limit: MAX_LOCAL_SECONDARY_INDEXES,
                indexes: local_indexes.iter().map(|index| index.name).collect(),
            });
        }
        if let Some(local) = local_indexes
            .iter()
            .find(|local| indexes.iter().any(|index| index.name == local.name))
        {
            return Err(Error::DuplicateIndexName { index: local.name });
        }
        let index_names: Vec<&'static str> = indexes
            .iter()
            .map(|index| index.name)
            .chain(local_indexes.iter().map(|index| index.name))
            .collect();
        let mut projected = 0;
        for (index, projection) in &self.projections {
            if !index_names.contains(&index.as_str()) {
                return Err(Error::UnknownIndex {
                    index: index.clone(),
                    known: index_names.clone(),
                });
            }
            if let IndexProjection::Include(attributes) = projection {
                if attributes.is_empty() {
                    return Err(Error::EmptyIncludeProjection {
                        index: index.clone(),
                    });
                }
                projected += attributes.len();
            }
        }
        if projected > MAX_PROJECTED_ATTRIBUTES {
            return Err(Error::TooManyProjectedAttributes {
                count: projected,
                limit: MAX_PROJECTED_ATTRIBUTES,
            });
        }
        self.check_key_spaces()?;
        self.check_local_index_attributes()?;
        let resolved = Resolved {
            partition_key,
            sort_key,
            indexes,
            local_indexes,
            time_to_live,
        };
        resolved.key_attribute_types()?;
        Ok(resolved)
    }

    /// Refuses an entity field stored under another entity's LSI sort key
    /// attribute: an LSI key is table-wide, so that field's items would be
    /// in the index, under whatever the field holds.
    fn check_local_index_attributes(&self) -> Result<(), Error> {
        for writer in &self.entities {
            for index in writer.local_indexes {
                for other in &self.entities {
                    if let Some(field) = other
                        .field_attributes
                        .iter()
                        .find(|field| field.attribute == index.sort_key.name)
                    {
                        return Err(Error::LocalIndexAttributeCollision {
                            field_entity: other.type_name,
                            index_entity: writer.type_name,
                            index: index.name,
                            attribute: field.attribute,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Refuses two entities whose primary key templates can produce one key.
    fn check_key_spaces(&self) -> Result<(), Error> {
        for (position, first) in self.entities.iter().enumerate() {
            for second in &self.entities[position + 1..] {
                let shared = collision::shared_key(
                    &first.partition_key.template,
                    &second.partition_key.template,
                )
                .zip(collision::shared_key(
                    &first.sort_key.template,
                    &second.sort_key.template,
                ));
                if let Some((partition_key, sort_key)) = shared {
                    return Err(Error::CollidingKeySpaces {
                        first_entity: first.type_name,
                        second_entity: second.type_name,
                        partition_key,
                        sort_key,
                    });
                }
            }
        }
        Ok(())
    }
}
