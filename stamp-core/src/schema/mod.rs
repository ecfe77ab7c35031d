//! Schema as code: [`TableDefinition`], the table that a set of entities
//! needs, checked before anything is sent, and what is made from it:
//!
//! - the `CreateTable` input ([`TableDefinition::request`], sent
//!   by [`Table::create_table`](crate::Table::create_table));
//! - a CloudFormation template in YAML and JSON
//!   ([`TableDefinition::cloudformation`]);
//! - a Markdown catalogue of the access patterns
//!   ([`TableDefinition::catalogue`]);
//! - the `ImportTable` input ([`TableDefinition::import_request`], sent by
//!   [`Table::start_import`](crate::Table::start_import)): an import from
//!   S3 into a new table made from the definition;
//! - a drift check of a live table ([`Table::verify`](crate::Table::verify)),
//!   which reports each [`SchemaDifference`].

#[cfg(feature = "schema-tooling")]
mod capacity;
#[cfg(feature = "schema-tooling")]
mod catalogue;
#[cfg(feature = "schema-tooling")]
mod cloudformation;
mod collision;
mod create;
mod describe;
mod difference;
mod global;
mod import;
mod multi_attribute;
mod options;
#[cfg(feature = "schema-tooling")]
mod planning;
mod resolve;
mod settings;
mod stream;
mod table;
mod vector;
pub(crate) mod verify;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::StreamViewType;

use crate::error::DefinitionError;
use crate::error::Error;
use crate::model::entity::{Entity, EntitySchema};

use crate::model::collection::Collection;
use crate::model::entity::AttributeMap;
use crate::model::entity::UniqueValue;
use crate::model::index::IndexId;
use crate::model::index::IndexKind;
use crate::model::index::IndexSchema;
use crate::model::index::QueryIndex;
use crate::model::index_projection::IndexProjection;
#[cfg(feature = "schema-tooling")]
pub use capacity::{
    EntityCapacity, PAGE_ITEMS, ReadUnits, UniqueCapacity, WriteUnits, read_units, write_units,
};
#[cfg(feature = "schema-tooling")]
pub use cloudformation::CloudFormationTemplate;
pub use difference::{KeyNames, SchemaDifference, Throughput};
pub use global::{
    GlobalTable, MultiRegionConsistency, Replica, STRONG_CONSISTENCY_REGION_SETS,
    STRONG_CONSISTENCY_REGIONS,
};
pub use import::ImportSource;
pub use options::TableBilling;
#[cfg(feature = "schema-tooling")]
pub use planning::{Access, Load, PartitionLoad, Workload};
pub use settings::{
    MAX_RESOURCE_POLICY_BYTES, MAX_TAG_KEY_CHARS, MAX_TAG_VALUE_CHARS, MAX_TAGS, MaxThroughput,
    TableClass, TableEncryption, TableSettings, WarmThroughput,
};

/// One secondary index of a table, of any kind (a GSI, a multi-attribute
/// GSI, an LSI), merged from the entities that write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableIndex {
    /// The index name, such as `GSI1` or `LSI1`.
    pub name: &'static str,
    /// N of `#[gsiN]` or `#[lsiN]`.
    pub number: u8,
    /// Its kind, as the first entity that writes it declares it (a shard
    /// count is the entity's: each entity's
    /// [`IndexSchema`](crate::IndexSchema) has its own). An LSI is created
    /// with the table (`LocalSecondaryIndexes` of `CreateTable`; it cannot
    /// be added later).
    pub kind: IndexKind,
    /// Its partition key attribute, such as `GSI1PK` (an LSI: the table's).
    pub partition_key: &'static str,
    /// Its sort key attribute, when any entity gives the index a sort key.
    pub sort_key: Option<&'static str>,
    /// What it projects, `ALL` unless set with
    /// [`TableDefinition::index_projection`].
    pub projection: IndexProjection,
    /// For a multi-attribute index (`#[gsiN(pk(…), sk(…))]`), the schema
    /// of the first entity that writes it, whose key fields every writer
    /// shares; [`partition_key`](Self::partition_key) and
    /// [`sort_key`](Self::sort_key) are then its first ones. `None` for a
    /// template index.
    pub multi_attribute: Option<&'static IndexSchema>,
}

impl TableIndex {
    /// The id that names it.
    pub fn id(&self) -> IndexId {
        match self.kind {
            IndexKind::Global { .. } => IndexId::Gsi(self.number),
            IndexKind::Local => IndexId::Lsi(self.number),
            IndexKind::Vector(_) => IndexId::Vector(self.number),
        }
    }

    /// Whether it is an LSI.
    pub fn is_local(&self) -> bool {
        match self.kind {
            IndexKind::Global { .. } | IndexKind::Vector(_) => false,
            IndexKind::Local => true,
        }
    }
}

/// A collection recorded with [`TableDefinition::collection`].
#[derive(Debug, Clone)]
pub(crate) struct CollectionSchema {
    pub(crate) name: &'static str,
    /// The table or the GSI it reads.
    pub(crate) index: IndexId,
    #[cfg_attr(not(feature = "schema-tooling"), allow(dead_code))]
    pub(crate) members: Vec<&'static EntitySchema>,
}

/// The key attribute values of one example item, by attribute name.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "schema-tooling"), allow(dead_code))]
struct Example {
    entity: &'static str,
    values: HashMap<&'static str, String>,
    /// The whole item, for the catalogue's drawing of the table.
    item: AttributeMap,
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
/// - without entities ([`DefinitionError::EmptyTableDefinition`]);
/// - with two different entities of one type name
///   ([`DefinitionError::DuplicateEntityType`]);
/// - with an index (GSI, LSI or vector) whose name DynamoDB refuses: not
///   3 to 255 characters of `a-z A-Z 0-9 _ . -`, the rule of table names
///   ([`DefinitionError::InvalidIndexName`]);
/// - whose entities name a key attribute differently
///   ([`DefinitionError::ConflictingKeyAttributes`]) or the TTL attribute
///   differently ([`DefinitionError::ConflictingTimeToLive`]);
/// - with more than [`MAX_GSIS`](crate::limits::MAX_GSIS) GSIs
///   ([`DefinitionError::TooManyIndexes`]), more than [`MAX_LSIS`](crate::limits::MAX_LSIS)
///   LSIs ([`DefinitionError::TooManyLocalIndexes`]), or a GSI and an LSI of one name
///   ([`DefinitionError::DuplicateIndexName`]);
/// - with a projection for an index no entity writes
///   ([`DefinitionError::UnknownIndex`]), an empty `INCLUDE`
///   ([`DefinitionError::EmptyIncludeProjection`]) or more than
///   [`MAX_PROJECTED_ATTRIBUTES`](crate::limits::MAX_PROJECTED_ATTRIBUTES) included attributes
///   ([`DefinitionError::TooManyProjectedAttributes`]);
/// - with two entities whose key templates can produce the same primary
///   key, so that one would overwrite the other's items
///   ([`DefinitionError::CollidingKeySpaces`], with an example key);
/// - with one attribute that is a key attribute of two types
///   ([`DefinitionError::ConflictingKeyAttributeTypes`]);
/// - with a field of any entity stored under an index key attribute that
///   DynamoDB would not take from it ([`DefinitionError::IndexAttributeCollision`]):
///   any field under a key built from a template (an LSI sort key, a
///   template GSI key), and a field of another type under a
///   multi-attribute key attribute (DynamoDB would refuse every write of
///   that entity: "Type mismatch for Index Key"). The type of a field is
///   known from its Rust type (`String` is `S`, integers `N`, …); a field
///   of another type (a nested struct, an enum, a serde `with`) passes.
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
    settings: TableSettings,
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
            settings: TableSettings::default(),
        }
    }
}

/// What [`TableDefinition::check`] finds: the merged keys, indexes and TTL.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub(crate) partition_key: &'static str,
    pub(crate) sort_key: &'static str,
    /// Every secondary index: the GSIs, then the LSIs.
    pub(crate) indexes: Vec<TableIndex>,
    pub(crate) time_to_live: Option<&'static str>,
    /// The vector indexes, merged by name, by number.
    pub(crate) vector_indexes: Vec<&'static IndexSchema>,
}

impl Resolved {
    /// Every key attribute of the table and its template indexes, each
    /// once, in the order: table keys, then each index's keys. (The
    /// attributes of a multi-attribute index are fields:
    /// [`key_attribute_types`](Self::key_attribute_types) has them.)
    #[cfg_attr(not(feature = "schema-tooling"), allow(dead_code))]
    pub(crate) fn key_attribute_names(&self) -> Vec<&'static str> {
        let mut names = vec![self.partition_key, self.sort_key];
        for index in self
            .indexes
            .iter()
            .filter(|index| index.multi_attribute.is_none())
        {
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

    /// Every unique value of the entities, in the order of the entities,
    /// with its entity's type name: each is a key space of guard items,
    /// keyed [`UniqueValue::guard_template`](crate::UniqueValue::guard_template)
    /// (partition and sort key alike), which [`check`](Self::check) keeps
    /// apart from every entity's keys.
    pub fn unique_values(&self) -> Vec<(&'static str, &'static UniqueValue)> {
        self.entities
            .iter()
            .flat_map(|entity| {
                entity
                    .unique_values
                    .iter()
                    .map(|unique| (entity.type_name, unique))
            })
            .collect()
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

    /// Sets what the GSI or LSI named `index` projects (`ALL` unless set);
    /// a later call for the same index replaces an earlier one.
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

    /// What the GSI or LSI named `index` projects.
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
    /// not in the definition yet). The catalogue (`catalogue`, feature
    /// `schema-tooling`) shows its keys, encoded as stored, as the example
    /// keys of `E`'s access patterns. Without an example, or for a GSI the example is not in (a
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
        attributes.extend(schema.index_key_attributes());
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
    /// adds its members that are not in the definition yet. The catalogue
    /// (`catalogue`, feature `schema-tooling`) lists it under its name;
    /// without any recorded collection it lists the groups of entities
    /// whose partition templates match instead. Recording `C` again replaces it. A
    /// table-wide change type (`#[stamp(any_partition)]`) only adds its
    /// members: it is not a collection a query reads.
    pub fn collection<C: Collection>(mut self) -> Self {
        for member in C::MEMBERS {
            if !self
                .entities
                .iter()
                .any(|entity| entity.type_name == member.type_name)
            {
                self.entities.push(member);
            }
        }
        if C::ANY_PARTITION {
            return self;
        }
        let index = <C::Index as QueryIndex>::ID;
        self.collections
            .retain(|collection| collection.name != C::NAME || collection.index != index);
        self.collections.push(CollectionSchema {
            name: C::NAME,
            index,
            members: C::MEMBERS.to_vec(),
        });
        self
    }
}
