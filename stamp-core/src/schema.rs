//! [`TableDefinition`]: the table that a set of entities needs, and its
//! `CreateTable` input.

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType,
};

use crate::{Entity, EntitySchema, Error};

/// The entities stored in one table. From them Stamp derives the table's key
/// attributes and GSIs.
///
/// # Example
///
/// ```
/// # use stamp_core::TableDefinition;
/// let definition = TableDefinition::new();
/// assert!(definition.entities().is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct TableDefinition {
    entities: Vec<&'static EntitySchema>,
}

/// One GSI of a table, merged from the entities that write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableIndex {
    /// The index name, such as `GSI1`.
    pub name: &'static str,
    /// Its partition key attribute, such as `GSI1PK`.
    pub partition_key: &'static str,
    /// Its sort key attribute, when any entity gives the index a sort key.
    pub sort_key: Option<&'static str>,
}

impl TableDefinition {
    /// An empty definition.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds entity `E`.
    pub fn entity<E: Entity>(mut self) -> Self {
        self.entities.push(E::SCHEMA);
        self
    }

    /// The entities, in the order they were added.
    pub fn entities(&self) -> &[&'static EntitySchema] {
        &self.entities
    }

    /// The partition key and sort key attribute names, such as `("PK", "SK")`.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyTableDefinition`] without entities;
    /// [`Error::ConflictingKeyAttributes`] when two entities name them
    /// differently.
    pub fn key_attributes(&self) -> Result<(&'static str, &'static str), Error> {
        let first = *self.entities.first().ok_or(Error::EmptyTableDefinition)?;
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
                    return Err(Error::ConflictingKeyAttributes {
                        first_entity: first.type_name,
                        second_entity: other.type_name,
                        role: role.to_owned(),
                        first_name: mine,
                        second_name: theirs,
                    });
                }
            }
        }
        Ok((first.partition_key.name, first.sort_key.name))
    }

    /// The GSIs the entities write, merged by index name and sorted by name.
    ///
    /// # Errors
    ///
    /// [`Error::ConflictingKeyAttributes`] when two entities give one index
    /// different key attribute names.
    pub fn indexes(&self) -> Result<Vec<TableIndex>, Error> {
        let mut merged: Vec<(TableIndex, &'static str, Option<&'static str>)> = Vec::new();
        for entity in &self.entities {
            for index in entity.indexes {
                let sort_key = index.sort_key.map(|key| key.name);
                match merged
                    .iter_mut()
                    .find(|(known, _, _)| known.name == index.name)
                {
                    None => merged.push((
                        TableIndex {
                            name: index.name,
                            partition_key: index.partition_key.name,
                            sort_key,
                        },
                        entity.type_name,
                        sort_key.map(|_| entity.type_name),
                    )),
                    Some((known, first_entity, sort_key_entity)) => {
                        if known.partition_key != index.partition_key.name {
                            return Err(Error::ConflictingKeyAttributes {
                                first_entity,
                                second_entity: entity.type_name,
                                role: format!("{} partition key", index.name),
                                first_name: known.partition_key,
                                second_name: index.partition_key.name,
                            });
                        }
                        match (known.sort_key, sort_key, *sort_key_entity) {
                            (Some(mine), Some(theirs), Some(first_entity)) if mine != theirs => {
                                return Err(Error::ConflictingKeyAttributes {
                                    first_entity,
                                    second_entity: entity.type_name,
                                    role: format!("{} sort key", index.name),
                                    first_name: mine,
                                    second_name: theirs,
                                });
                            }
                            (None, Some(theirs), _) => {
                                known.sort_key = Some(theirs);
                                *sort_key_entity = Some(entity.type_name);
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        let mut indexes: Vec<TableIndex> = merged.into_iter().map(|(index, _, _)| index).collect();
        indexes.sort_by(|a, b| a.name.cmp(b.name));
        Ok(indexes)
    }

    /// The `CreateTable` input for a table named `table_name`: the key
    /// attributes (all of type `S`), the key schema, every GSI with
    /// projection `ALL`, and on-demand (`PAY_PER_REQUEST`) billing.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`key_attributes`](Self::key_attributes) and
    /// [`indexes`](Self::indexes).
    pub fn create_table_input(&self, table_name: &str) -> Result<CreateTableInput, Error> {
        let (partition_key, sort_key) = self.key_attributes()?;
        let indexes = self.indexes()?;
        let mut attributes = vec![partition_key, sort_key];
        for index in &indexes {
            attributes.push(index.partition_key);
            attributes.extend(index.sort_key);
        }
        let mut seen = Vec::new();
        attributes.retain(|name| {
            let new = !seen.contains(name);
            seen.push(*name);
            new
        });
        let string_attribute = |name: &str| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .expect("name and type are set")
        };
        let key_element = |name: &str, key_type: KeyType| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(key_type)
                .build()
                .expect("name and key type are set")
        };
        let key_schema = |partition_key: &str, sort_key: Option<&str>| {
            let mut schema = vec![key_element(partition_key, KeyType::Hash)];
            schema.extend(sort_key.map(|name| key_element(name, KeyType::Range)));
            schema
        };
        let global_secondary_indexes: Vec<GlobalSecondaryIndex> = indexes
            .iter()
            .map(|index| {
                GlobalSecondaryIndex::builder()
                    .index_name(index.name)
                    .set_key_schema(Some(key_schema(index.partition_key, index.sort_key)))
                    .projection(
                        Projection::builder()
                            .projection_type(ProjectionType::All)
                            .build(),
                    )
                    .build()
                    .expect("name, key schema and projection are set")
            })
            .collect();
        Ok(CreateTableInput::builder()
            .table_name(table_name)
            .set_attribute_definitions(Some(attributes.into_iter().map(string_attribute).collect()))
            .set_key_schema(Some(key_schema(partition_key, Some(sort_key))))
            .set_global_secondary_indexes(
                (!global_secondary_indexes.is_empty()).then_some(global_secondary_indexes),
            )
            .billing_mode(BillingMode::PayPerRequest)
            .build()
            .expect("CreateTableInput has no required fields"))
    }
}
