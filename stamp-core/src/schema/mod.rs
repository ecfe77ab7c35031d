//! Schema as code: [`TableDefinition`], the table that a set of entities
//! needs, checked before anything is sent, and what is made from it:
//!
//! - the `CreateTable` input ([`TableDefinition::create_table_input`], sent
//!   by [`Table::create_table`](crate::Table::create_table));
//! - a CloudFormation template in YAML and JSON
//!   ([`TableDefinition::cloudformation`]);
//! - a Markdown catalogue of the access patterns
//!   ([`TableDefinition::catalogue`]);
//! - a drift check of a live table ([`Table::verify`](crate::Table::verify)),
//!   which reports each [`SchemaDifference`].

mod catalogue;
mod cloudformation;
mod collision;
mod stream;
mod verify;

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ProvisionedThroughput, ScalarAttributeType, StreamViewType,
};

use crate::{Entity, EntitySchema, Error, KeyAttribute, KeyBuilder, Segment};

pub use cloudformation::CloudFormationTemplate;
pub use verify::{KeyNames, SchemaDifference, Throughput};

/// How many GSIs one table may have: DynamoDB's default quota.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#gsi-limits>.
pub const MAX_GLOBAL_SECONDARY_INDEXES: usize = 20;

/// How many non-key attributes the `INCLUDE` projections of one table may
/// name in total.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>.
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;

/// How the table is billed: DynamoDB's `BillingMode` with, for provisioned
/// capacity, the read and write capacity units of the table, which every
/// GSI gets as well.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/capacity-mode.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableBilling {
    /// On-demand capacity, `PAY_PER_REQUEST` (the default).
    #[default]
    PayPerRequest,
    /// Provisioned capacity, `PROVISIONED`.
    Provisioned {
        /// Read capacity units (strongly consistent 4 KB reads per second).
        read_capacity_units: NonZeroU32,
        /// Write capacity units (1 KB writes per second).
        write_capacity_units: NonZeroU32,
    },
}

impl TableBilling {
    /// The SDK's billing mode.
    pub fn billing_mode(&self) -> BillingMode {
        match self {
            TableBilling::PayPerRequest => BillingMode::PayPerRequest,
            TableBilling::Provisioned { .. } => BillingMode::Provisioned,
        }
    }

    /// The provisioned capacity, `None` on demand.
    pub fn throughput(&self) -> Option<Throughput> {
        match *self {
            TableBilling::PayPerRequest => None,
            TableBilling::Provisioned {
                read_capacity_units,
                write_capacity_units,
            } => Some(Throughput {
                read_capacity_units: i64::from(read_capacity_units.get()),
                write_capacity_units: i64::from(write_capacity_units.get()),
            }),
        }
    }

    fn provisioned_throughput(&self) -> Option<ProvisionedThroughput> {
        self.throughput().map(|throughput| {
            ProvisionedThroughput::builder()
                .read_capacity_units(throughput.read_capacity_units)
                .write_capacity_units(throughput.write_capacity_units)
                .build()
                .expect("both capacities are set")
        })
    }
}

/// Which attributes a GSI copies from the table: DynamoDB's `Projection`.
/// The index keys and the table keys are always projected.
///
/// Typed queries decode whole items, so they need `All` (the default); on a
/// `KeysOnly` or `Include` index, read the attributes it holds or get the
/// items from the table.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum IndexProjection {
    /// Every attribute, `ALL` (the default).
    #[default]
    All,
    /// Only the index and table keys, `KEYS_ONLY`.
    KeysOnly,
    /// The keys and these non-key attributes, `INCLUDE`.
    Include(Vec<String>),
}

impl IndexProjection {
    /// DynamoDB's name of the projection type: `ALL`, `KEYS_ONLY` or
    /// `INCLUDE`.
    pub fn projection_type(&self) -> ProjectionType {
        match self {
            IndexProjection::All => ProjectionType::All,
            IndexProjection::KeysOnly => ProjectionType::KeysOnly,
            IndexProjection::Include(_) => ProjectionType::Include,
        }
    }

    /// The non-key attributes of an `INCLUDE` projection; empty otherwise.
    pub fn non_key_attributes(&self) -> &[String] {
        match self {
            IndexProjection::Include(attributes) => attributes,
            _ => &[],
        }
    }

    /// DynamoDB's name of the projection type, as a string.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            IndexProjection::All => "ALL",
            IndexProjection::KeysOnly => "KEYS_ONLY",
            IndexProjection::Include(_) => "INCLUDE",
        }
    }

    fn to_sdk(&self) -> Projection {
        let attributes = self.non_key_attributes();
        Projection::builder()
            .projection_type(self.projection_type())
            .set_non_key_attributes((!attributes.is_empty()).then(|| attributes.to_vec()))
            .build()
    }
}

/// `ALL`, `KEYS_ONLY`, or `INCLUDE (a, b)`.
impl fmt::Display for IndexProjection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexProjection::Include(attributes) => {
                write!(f, "INCLUDE ({})", attributes.join(", "))
            }
            other => f.write_str(other.type_name()),
        }
    }
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
    /// What it projects, `ALL` unless set with
    /// [`TableDefinition::index_projection`].
    pub projection: IndexProjection,
}

/// A collection recorded with [`TableDefinition::collection`].
#[derive(Debug, Clone)]
pub(crate) struct CollectionSchema {
    pub(crate) name: &'static str,
    /// 0 for the table, else the GSI number.
    pub(crate) index: u8,
    pub(crate) members: Vec<&'static EntitySchema>,
}

/// The key attribute values of one example item, by attribute name.
#[derive(Debug, Clone)]
struct Example {
    entity: &'static str,
    values: HashMap<&'static str, String>,
    /// The whole item, for the catalogue's drawing of the table.
    item: crate::Item,
}

/// The table a set of entities is stored in: the entities, and the options
/// DynamoDB needs besides the keys. From it Stamp derives the key
/// attributes and GSIs, checks that the entities fit in one table, and
/// makes the `CreateTable` input, a CloudFormation template and a catalogue
/// of the access patterns.
///
/// Defaults: on-demand billing, every GSI projecting `ALL`, point-in-time
/// recovery on.
///
/// # Checks
///
/// [`check`](Self::check), which every output runs first, refuses a
/// definition
///
/// - without entities ([`Error::EmptyTableDefinition`]);
/// - with two different entities of one type name
///   ([`Error::DuplicateEntityType`]);
/// - whose entities name a key attribute differently
///   ([`Error::ConflictingKeyAttributes`]) or the TTL attribute
///   differently ([`Error::ConflictingTimeToLive`]);
/// - with more than [`MAX_GLOBAL_SECONDARY_INDEXES`] GSIs
///   ([`Error::TooManyIndexes`]);
/// - with a projection for an index no entity writes
///   ([`Error::UnknownIndex`]), an empty `INCLUDE`
///   ([`Error::EmptyIncludeProjection`]) or more than
///   [`MAX_PROJECTED_ATTRIBUTES`] included attributes
///   ([`Error::TooManyProjectedAttributes`]);
/// - with two entities whose key templates can produce the same primary
///   key, so that one would overwrite the other's items
///   ([`Error::CollidingKeySpaces`], with an example key).
///
/// # Example
///
/// ```
/// # use stamp_core::{IndexProjection, TableBilling, TableDefinition};
/// # use std::num::NonZeroU32;
/// let definition = TableDefinition::new()
///     .billing(TableBilling::Provisioned {
///         read_capacity_units: NonZeroU32::new(5).unwrap(),
///         write_capacity_units: NonZeroU32::new(5).unwrap(),
///     })
///     .index_projection("GSI1", IndexProjection::KeysOnly)
///     .point_in_time_recovery(false);
/// assert!(definition.entities().is_empty());
/// assert!(!definition.point_in_time_recovery_enabled());
/// ```
#[derive(Debug, Clone)]
pub struct TableDefinition {
    entities: Vec<&'static EntitySchema>,
    billing: TableBilling,
    projections: Vec<(String, IndexProjection)>,
    point_in_time_recovery: bool,
    examples: Vec<Example>,
    collections: Vec<CollectionSchema>,
    stream: Option<StreamViewType>,
}

impl Default for TableDefinition {
    fn default() -> Self {
        TableDefinition {
            entities: Vec::new(),
            billing: TableBilling::PayPerRequest,
            projections: Vec::new(),
            point_in_time_recovery: true,
            examples: Vec::new(),
            collections: Vec::new(),
            stream: None,
        }
    }
}

/// What [`TableDefinition::check`] finds: the merged keys, indexes and TTL.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub(crate) partition_key: &'static str,
    pub(crate) sort_key: &'static str,
    pub(crate) indexes: Vec<TableIndex>,
    pub(crate) time_to_live: Option<&'static str>,
}

impl Resolved {
    /// Every key attribute of the table and its indexes, each once, in the
    /// order: table keys, then each index's keys.
    pub(crate) fn key_attribute_names(&self) -> Vec<&'static str> {
        let mut names = vec![self.partition_key, self.sort_key];
        for index in &self.indexes {
            names.push(index.partition_key);
            names.extend(index.sort_key);
        }
        let mut seen = Vec::new();
        names.retain(|name| {
            let new = !seen.contains(name);
            seen.push(*name);
            new
        });
        names
    }
}

impl TableDefinition {
    /// An empty definition with the defaults: on-demand billing, `ALL`
    /// projections, point-in-time recovery on.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds entity `E`. Adding the same entity again changes nothing.
    pub fn entity<E: Entity>(mut self) -> Self {
        if !self.entities.iter().any(|known| **known == *E::SCHEMA) {
            self.entities.push(E::SCHEMA);
        }
        self
    }

    /// The entities, in the order they were added.
    pub fn entities(&self) -> &[&'static EntitySchema] {
        &self.entities
    }

    /// Sets the billing mode (on demand unless set).
    pub fn billing(mut self, billing: TableBilling) -> Self {
        self.billing = billing;
        self
    }

    /// The billing mode.
    pub fn billing_mode(&self) -> TableBilling {
        self.billing
    }

    /// Sets what the GSI named `index` projects (`ALL` unless set); a later
    /// call for the same index replaces an earlier one.
    pub fn index_projection(
        mut self,
        index: impl Into<String>,
        projection: IndexProjection,
    ) -> Self {
        let index = index.into();
        self.projections.retain(|(name, _)| *name != index);
        self.projections.push((index, projection));
        self
    }

    /// What the GSI named `index` projects.
    pub fn projection(&self, index: &str) -> &IndexProjection {
        const ALL: &IndexProjection = &IndexProjection::All;
        self.projections
            .iter()
            .find(|(name, _)| name == index)
            .map_or(ALL, |(_, projection)| projection)
    }

    /// Turns point-in-time recovery (continuous backups) on or off; it is on
    /// unless turned off. It goes into the CloudFormation template;
    /// [`Table::create_table`](crate::Table::create_table) leaves it alone,
    /// because DynamoDB Local does not support it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Point-in-time-recovery.html>.
    pub fn point_in_time_recovery(mut self, enabled: bool) -> Self {
        self.point_in_time_recovery = enabled;
        self
    }

    /// Whether point-in-time recovery is on.
    pub fn point_in_time_recovery_enabled(&self) -> bool {
        self.point_in_time_recovery
    }

    /// Records `value` as the example of entity `E` (and adds `E` if it is
    /// not in the definition yet). The [catalogue](Self::catalogue) shows
    /// its keys, encoded as stored, as the example keys of `E`'s access
    /// patterns. Without an example, or for a GSI the example is not in (a
    /// sparse index), each field is shown as `<field>-1`.
    ///
    /// # Errors
    ///
    /// The errors of [`Entity::to_item`] for `value`.
    pub fn example<E: Entity>(self, value: &E) -> Result<Self, Error> {
        let item = value.to_item()?;
        let mut definition = self.entity::<E>();
        let schema = E::SCHEMA;
        let mut attributes = vec![schema.partition_key.name, schema.sort_key.name];
        for index in schema.indexes {
            attributes.push(index.partition_key.name);
            attributes.extend(index.sort_key.map(|key| key.name));
        }
        let values = attributes
            .into_iter()
            .filter_map(|name| Some((name, item.get(name)?.as_s().ok()?.clone())))
            .collect();
        definition
            .examples
            .retain(|example| example.entity != schema.type_name);
        definition.examples.push(Example {
            entity: schema.type_name,
            values,
            item,
        });
        Ok(definition)
    }

    /// Records collection `C` (a `#[derive(Collection)]` enum: entities
    /// sharing a partition key template, read together by one query), and
    /// adds its members that are not in the definition yet. The
    /// [catalogue](Self::catalogue) lists it under its name; without any
    /// recorded collection it lists the groups of entities whose partition
    /// templates match instead. Recording `C` again replaces it.
    pub fn collection<C: crate::Collection>(mut self) -> Self {
        for member in C::MEMBERS {
            if !self
                .entities
                .iter()
                .any(|entity| entity.type_name == member.type_name)
            {
                self.entities.push(member);
            }
        }
        self.collections
            .retain(|collection| collection.name != C::NAME || collection.index != C::INDEX);
        self.collections.push(CollectionSchema {
            name: C::NAME,
            index: C::INDEX,
            members: C::MEMBERS.to_vec(),
        });
        self
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

    /// The GSIs the entities write, merged by index name, ordered by index
    /// number and then name (`GSI1`, `GSI2`, …, `GSI10`), each with its
    /// projection.
    ///
    /// # Errors
    ///
    /// [`Error::ConflictingKeyAttributes`] when two entities give one index
    /// different key attribute names.
    pub fn indexes(&self) -> Result<Vec<TableIndex>, Error> {
        struct Merged {
            index: TableIndex,
            number: u8,
            first_entity: &'static str,
            sort_key_entity: Option<&'static str>,
        }
        let mut merged: Vec<Merged> = Vec::new();
        for entity in &self.entities {
            for index in entity.indexes {
                let sort_key = index.sort_key.map(|key| key.name);
                let Some(known) = merged
                    .iter_mut()
                    .find(|known| known.index.name == index.name)
                else {
                    merged.push(Merged {
                        index: TableIndex {
                            name: index.name,
                            partition_key: index.partition_key.name,
                            sort_key,
                            projection: self.projection(index.name).clone(),
                        },
                        number: index.number,
                        first_entity: entity.type_name,
                        sort_key_entity: sort_key.map(|_| entity.type_name),
                    });
                    continue;
                };
                if known.index.partition_key != index.partition_key.name {
                    return Err(Error::ConflictingKeyAttributes {
                        first_entity: known.first_entity,
                        second_entity: entity.type_name,
                        role: format!("{} partition key", index.name),
                        first_name: known.index.partition_key,
                        second_name: index.partition_key.name,
                    });
                }
                match (known.index.sort_key, sort_key, known.sort_key_entity) {
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
                        known.index.sort_key = Some(theirs);
                        known.sort_key_entity = Some(entity.type_name);
                    }
                    _ => {}
                }
            }
        }
        merged.sort_by(|a, b| (a.number, a.index.name).cmp(&(b.number, b.index.name)));
        Ok(merged.into_iter().map(|merged| merged.index).collect())
    }

    /// The attribute DynamoDB's TTL reads, from the entities' `#[stamp(ttl)]`
    /// fields; `None` when no entity has one.
    ///
    /// # Errors
    ///
    /// [`Error::ConflictingTimeToLive`] when two entities name different
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
                    return Err(Error::ConflictingTimeToLive {
                        first_entity,
                        first_attribute,
                        second_entity: entity.type_name,
                        second_attribute: attribute,
                    });
                }
                Some(_) => {}
            }
        }
        Ok(found.map(|(_, attribute)| attribute))
    }

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
        let mut projected = 0;
        for (index, projection) in &self.projections {
            if !indexes.iter().any(|known| known.name == index) {
                return Err(Error::UnknownIndex {
                    index: index.clone(),
                    known: indexes.iter().map(|index| index.name).collect(),
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
        Ok(Resolved {
            partition_key,
            sort_key,
            indexes,
            time_to_live,
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

    /// An example value of key attribute `key` of `entity`: the recorded
    /// [example](Self::example)'s, or else each field's
    /// [`KeyPart::example`](crate::KeyPart::example) encoded and escaped as
    /// the key builder does, and the placeholder `<field>` for a type
    /// without one.
    pub(crate) fn example_key(
        &self,
        entity: &'static EntitySchema,
        key: &'static KeyAttribute,
    ) -> String {
        let recorded = self
            .examples
            .iter()
            .find(|example| example.entity == entity.type_name)
            .and_then(|example| example.values.get(key.name));
        if let Some(value) = recorded {
            return value.clone();
        }
        let mut builder = KeyBuilder::new(entity.type_name, &key.template, 0);
        for segment in key.template.segments {
            match segment {
                Segment::Literal(text) => builder.literal(text),
                Segment::Field(name) => match (entity.key_example)(name) {
                    Some(encoded) => builder
                        .str_field(name, &encoded)
                        .expect("an example encoding is not empty"),
                    None => builder.literal(&format!("<{name}>")),
                },
            }
        }
        builder.finish()
    }

    /// The `CreateTable` input for a table named `table_name`: the key
    /// attributes (all of type `S`), the key schema, every GSI with its
    /// projection, and the billing mode, with the provisioned throughput of
    /// the table and each GSI when provisioned.
    ///
    /// TTL and point-in-time recovery are not part of `CreateTable`;
    /// [`Table::create_table`](crate::Table::create_table) sends
    /// `UpdateTimeToLive` after it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn create_table_input(&self, table_name: &str) -> Result<CreateTableInput, Error> {
        let resolved = self.resolve()?;
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
        let global_secondary_indexes: Vec<GlobalSecondaryIndex> = resolved
            .indexes
            .iter()
            .map(|index| {
                GlobalSecondaryIndex::builder()
                    .index_name(index.name)
                    .set_key_schema(Some(key_schema(index.partition_key, index.sort_key)))
                    .projection(index.projection.to_sdk())
                    .set_provisioned_throughput(self.billing.provisioned_throughput())
                    .build()
                    .expect("name, key schema and projection are set")
            })
            .collect();
        Ok(CreateTableInput::builder()
            .table_name(table_name)
            .set_attribute_definitions(Some(
                resolved
                    .key_attribute_names()
                    .into_iter()
                    .map(string_attribute)
                    .collect(),
            ))
            .set_key_schema(Some(key_schema(
                resolved.partition_key,
                Some(resolved.sort_key),
            )))
            .set_global_secondary_indexes(
                (!global_secondary_indexes.is_empty()).then_some(global_secondary_indexes),
            )
            .billing_mode(self.billing.billing_mode())
            .set_provisioned_throughput(self.billing.provisioned_throughput())
            .set_stream_specification(self.stream_specification())
            .build()
            .expect("CreateTableInput has no required fields"))
    }
}
