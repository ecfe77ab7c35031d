//! Checking a table definition: the key attributes and indexes the entities
//! agree on ([`TableDefinition::resolve`]), and key spaces that could collide.

use super::{IndexProjection, Resolved, TableDefinition, collision};
use crate::error::DefinitionError;
use crate::error::Error;
use crate::error::VectorError;
use crate::limits::{MAX_GSIS, MAX_LSIS, MAX_PROJECTED_ATTRIBUTES};
use crate::model::entity::{EntitySchema, FieldAttribute};

/// The type of a field's stored form: its own multi-attribute key type
/// when it is a key field of one of its entity's multi-attribute indexes
/// (known exactly), else what the derive read from its type.
fn field_type(entity: &EntitySchema, field: &FieldAttribute) -> Option<&'static str> {
    entity
        .indexes
        .iter()
        .flat_map(|index| index.key_fields())
        .find(|key| key.field == field.field)
        .map(|key| key.attribute_type.as_str())
        .or(field.stored_type)
}

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
            return Err(Error::Definition(DefinitionError::EmptyTableDefinition));
        }
        for (position, entity) in self.entities.iter().enumerate() {
            if self.entities[..position]
                .iter()
                .any(|earlier| earlier.type_name == entity.type_name)
            {
                return Err(Error::Definition(DefinitionError::DuplicateEntityType {
                    type_name: entity.type_name,
                }));
            }
        }
        for entity in &self.entities {
            for index in entity.indexes {
                super::create::check_name(index.name).map_err(|reason| {
                    Error::Definition(DefinitionError::InvalidIndexName {
                        entity: entity.type_name,
                        index: index.name,
                        reason,
                    })
                })?;
            }
        }
        let (partition_key, sort_key) = self.key_attributes()?;
        let time_to_live = self.time_to_live_attribute()?;
        let indexes = self.indexes()?;
        let (local, global): (Vec<&'static str>, Vec<&'static str>) = {
            let (local, global): (Vec<_>, Vec<_>) =
                indexes.iter().partition(|index| index.is_local());
            let names =
                |list: Vec<&super::TableIndex>| list.iter().map(|index| index.name).collect();
            (names(local), names(global))
        };
        if global.len() > MAX_GSIS {
            return Err(Error::Definition(DefinitionError::TooManyIndexes {
                count: global.len(),
                limit: MAX_GSIS,
                indexes: global,
            }));
        }
        if local.len() > MAX_LSIS {
            return Err(Error::Definition(DefinitionError::TooManyLocalIndexes {
                count: local.len(),
                limit: MAX_LSIS,
                indexes: local,
            }));
        }
        let index_names: Vec<&'static str> = indexes.iter().map(|index| index.name).collect();
        let mut projected = 0;
        for (index, projection) in &self.projections {
            if !index_names.contains(&index.as_str()) {
                return Err(Error::Definition(DefinitionError::UnknownIndex {
                    index: index.clone(),
                    known: index_names.clone(),
                }));
            }
            if let IndexProjection::Include(attributes) = projection {
                if attributes.is_empty() {
                    return Err(Error::Definition(DefinitionError::EmptyIncludeProjection {
                        index: index.clone(),
                    }));
                }
                projected += attributes.len();
            }
        }
        if projected > MAX_PROJECTED_ATTRIBUTES {
            return Err(Error::Definition(
                DefinitionError::TooManyProjectedAttributes {
                    count: projected,
                    limit: MAX_PROJECTED_ATTRIBUTES,
                },
            ));
        }
        let gsis: Vec<&'static str> = indexes
            .iter()
            .filter(|index| matches!(index.kind, crate::model::index::IndexKind::Global { .. }))
            .map(|index| index.name)
            .collect();
        self.settings.check(
            &gsis,
            matches!(self.billing, super::TableBilling::PayPerRequest),
        )?;
        if let Some(global) = &self.settings.global_table {
            let local: Vec<&'static str> = indexes
                .iter()
                .filter(|index| index.is_local())
                .map(|index| index.name)
                .collect();
            global.check(time_to_live, &local)?;
        }
        self.check_key_spaces()?;
        let declared: Vec<(&'static str, &'static crate::model::index::IndexSchema)> = self
            .entities
            .iter()
            .flat_map(|entity| entity.indexes.iter().map(|index| (entity.type_name, index)))
            .collect();
        let vector_indexes = super::vector::check_vector_indexes(self.billing, &declared)
            .map_err(VectorError::into_error)?;
        // One name per index of a table, of any kind.
        if let Some(vector) = vector_indexes
            .iter()
            .find(|vector| indexes.iter().any(|index| index.name == vector.name))
        {
            return Err(DefinitionError::DuplicateIndexName { index: vector.name }.into());
        }
        let resolved = Resolved {
            partition_key,
            sort_key,
            indexes,
            time_to_live,
            vector_indexes,
        };
        resolved.key_attribute_types()?;
        self.check_index_attribute_fields()?;
        Ok(resolved)
    }

    /// Refuses a field of any entity stored under a key attribute of an
    /// index that an entity writes, where DynamoDB would not take it (one
    /// rule for every index kind, [`DefinitionError::IndexAttributeCollision`]): any
    /// field under a key built from a template (an LSI's sort key, a
    /// template GSI's keys: index keys are table-wide, so that field's
    /// items would be in the index under whatever the field holds), and a
    /// field of another type under a multi-attribute key attribute, a
    /// vector index's vector attribute (a List) or one of its inline
    /// filters (every write of its items would be refused: "Type mismatch
    /// for Index Key", or for a vector "Invalid parameter type",
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>).
    /// The index's own fields, and fields of the same type, pass.
    fn check_index_attribute_fields(&self) -> Result<(), Error> {
        const BUILT: &str = "S, built from a template";
        const VECTOR_TYPE: &str = "L, a vector of Numbers";
        for writer in &self.entities {
            for index in writer.indexes {
                for key in index.written_keys() {
                    if let Some((other, field)) = self.field_stored_as(key.name) {
                        return Err(Error::Definition(
                            DefinitionError::IndexAttributeCollision {
                                field_entity: other.type_name,
                                field: field.field,
                                field_type: field_type(other, field).unwrap_or("any type"),
                                index_entity: writer.type_name,
                                index: index.name,
                                attribute: key.name,
                                key_type: BUILT,
                            },
                        ));
                    }
                }
                // The attributes the index reads with a type: a
                // multi-attribute key's, a vector index's vector (a List of
                // Numbers) and its inline filters (declared in
                // `AttributeDefinitions` as key attributes are).
                let mut typed: Vec<(&'static str, &'static str, &'static str)> = index
                    .key_fields()
                    .map(|key| {
                        let kind = key.attribute_type.as_str();
                        (key.attribute, kind, kind)
                    })
                    .collect();
                if let Some(vector) = index.vector() {
                    typed.push((vector.attribute, "L", VECTOR_TYPE));
                    typed.extend(vector.filters.iter().map(|filter| {
                        let kind = filter.attribute_type.as_str();
                        (filter.attribute, kind, kind)
                    }));
                }
                for (attribute, stored_type, key_type) in typed {
                    self.check_typed_attribute(writer, index, attribute, stored_type, key_type)?;
                }
            }
        }
        Ok(())
    }

    /// Refuses a field of any entity stored under `attribute`, which index
    /// `index` of `writer` reads as type `stored_type` (described as
    /// `key_type`), when the field's known type is another (`L` for a
    /// vector: the derive names no finer type).
    fn check_typed_attribute(
        &self,
        writer: &EntitySchema,
        index: &crate::model::index::IndexSchema,
        attribute: &'static str,
        stored_type: &'static str,
        key_type: &'static str,
    ) -> Result<(), Error> {
        for other in &self.entities {
            let Some(field) = other
                .field_attributes
                .iter()
                .find(|field| field.attribute == attribute)
            else {
                continue;
            };
            match field_type(other, field) {
                Some(stored) if stored != stored_type => {
                    return Err(Error::Definition(
                        DefinitionError::IndexAttributeCollision {
                            field_entity: other.type_name,
                            field: field.field,
                            field_type: stored,
                            index_entity: writer.type_name,
                            index: index.name,
                            attribute,
                            key_type,
                        },
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The first field of any entity stored under `attribute`.
    fn field_stored_as(
        &self,
        attribute: &str,
    ) -> Option<(&'static EntitySchema, &'static FieldAttribute)> {
        self.entities.iter().find_map(|entity| {
            entity
                .field_attributes
                .iter()
                .find(|field| field.attribute == attribute)
                .map(|field| (*entity, field))
        })
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
                    return Err(Error::Definition(DefinitionError::CollidingKeySpaces {
                        first_entity: first.type_name,
                        second_entity: second.type_name,
                        partition_key,
                        sort_key,
                    }));
                }
            }
        }
        // The guard items of unique values (both keys the same text)
        // against every entity's keys.
        for owner in &self.entities {
            for unique in owner.unique_values {
                let segments = unique.guard_segments(owner.type_name);
                for entity in &self.entities {
                    let shared =
                        collision::shared_guard_key(&segments, &entity.partition_key.template).zip(
                            collision::shared_guard_key(&segments, &entity.sort_key.template),
                        );
                    if let Some((partition_key, sort_key)) = shared {
                        return Err(Error::Definition(DefinitionError::GuardKeyCollision {
                            owner: owner.type_name,
                            fields: unique.fields,
                            entity: entity.type_name,
                            partition_key,
                            sort_key,
                        }));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::template::KeyTemplate;
    use crate::key::template::Segment;
    use crate::model::entity::KeyAttribute;
    use crate::model::index::{IndexKeySchema, IndexKind, IndexSchema};

    fn attribute(name: &'static str, literal: &'static str) -> KeyAttribute {
        KeyAttribute {
            name,
            template: KeyTemplate {
                source: literal,
                segments: Box::leak(Box::new([Segment::Literal(literal)])),
                escaped: KeyTemplate::ESCAPED,
            },
        }
    }

    /// An entity with one GSI named `index`, built by hand as a schema
    /// the derive would refuse.
    fn entity_with_index(index: &'static str) -> &'static EntitySchema {
        let indexes = Box::leak(Box::new([IndexSchema {
            number: 1,
            name: index,
            kind: IndexKind::Global { shards: None },
            key: IndexKeySchema::Templates {
                partition_key: attribute("GSI1PK", "ALL"),
                sort_key: None,
            },
            read_method: "query_gsi1",
        }]));
        Box::leak(Box::new(EntitySchema {
            type_name: "Thing",
            type_attribute: "Type",
            partition_key: attribute("PK", "THING"),
            sort_key: attribute("SK", "THING"),
            indexes,
            fields: &[],
            ttl_attribute: None,
            field_attributes: &[],
            version_attribute: None,
            created_at_attribute: None,
            updated_at_attribute: None,
            write_once_attributes: &[],
            unique_values: &[],
            previous_key: None,
            key_fields: &[],
            named_inputs: &[],
        }))
    }

    fn checked(index: &'static str) -> Result<(), Error> {
        TableDefinition {
            entities: vec![entity_with_index(index)],
            ..TableDefinition::default()
        }
        .check()
    }

    #[test]
    fn an_index_name_dynamodb_refuses_is_a_definition_error() {
        let refused = |index: &'static str, reason: crate::error::TableNameReason| {
            Err::<(), String>(
                Error::Definition(DefinitionError::InvalidIndexName {
                    entity: "Thing",
                    index,
                    reason,
                })
                .to_string(),
            )
        };
        let text = |result: Result<(), Error>| result.map_err(|error| error.to_string());
        assert_eq!(
            text(checked("ab")),
            refused("ab", crate::error::TableNameReason::Length { length: 2 })
        );
        let long: &'static str = "x".repeat(256).leak();
        assert_eq!(
            text(checked(long)),
            refused(long, crate::error::TableNameReason::Length { length: 256 })
        );
        assert_eq!(
            text(checked("by status")),
            refused(
                "by status",
                crate::error::TableNameReason::Character { character: ' ' }
            )
        );
        assert_eq!(
            Error::Definition(DefinitionError::InvalidIndexName {
                entity: "Thing",
                index: "ab",
                reason: crate::error::TableNameReason::Length { length: 2 },
            })
            .to_string(),
            "the index name `ab` of entity `Thing` is not valid (index names follow the rule of table names): it has 2 characters, and a table name has 3 to 255"
        );
        assert!(checked("by-status_2.v1").is_ok());
        let longest: &'static str = "x".repeat(255).leak();
        assert!(checked(longest).is_ok());
    }
}
