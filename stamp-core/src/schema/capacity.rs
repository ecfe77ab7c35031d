//! What each access pattern costs in capacity units, from the entities'
//! example items, by DynamoDB's rules:
//!
//! - a read unit is one strongly consistent read of up to 4 KB per second
//!   (an eventually consistent read costs half, a transactional read twice);
//!   a `GetItem` rounds its item up to 4 KB, a `Query` page rounds the sum of
//!   the items it reads ("Read consistency" and "Read request units", Amazon
//!   DynamoDB Developer Guide, "DynamoDB throughput capacity");
//! - a write unit is one write of up to 1 KB; a put, update or delete is
//!   charged on the larger of the item before and after it, rounded up to
//!   1 KB;
//! - every GSI and LSI is charged on the change to what it stores, with the
//!   size of its entry (the table and index keys and the projected
//!   attributes) rounded up to 1 KB ("Provisioned throughput considerations
//!   for Global Secondary Indexes" and "… for Local Secondary Indexes",
//!   Amazon DynamoDB Developer Guide): an item that enters the index writes
//!   its entry once, one that leaves it (a delete, or a write that removes
//!   an index key attribute) once, a write that changes an index key value
//!   twice (a delete of the old entry and a put of the new one, each
//!   rounded on its own), a write that changes projected attributes only
//!   once (the larger entry), and a write that leaves the entry as it was
//!   (an identical overwrite, a change to attributes the index does not
//!   project, an item in the index neither before nor after) nothing. An
//!   LSI's units are consumed from the table's capacity, on the item's own
//!   partition;
//! - a transactional write (`TransactWriteItems`) costs twice on the table,
//!   and its index writes cost what they cost outside a transaction
//!   ("Capacity management for transactions");
//! - a query of an LSI that reads attributes the LSI does not project
//!   (`Select = ALL_ATTRIBUTES`, as entity, collection and projection queries of an
//!   `INCLUDE` or `KEYS_ONLY` LSI send) reads the index entries and also
//!   fetches each whole item from the table, charged as a table read
//!   ("Provisioned throughput considerations for Local Secondary Indexes",
//!   read capacity units);
//! - a hydrated query page ([`Query::hydrate`](crate::Query::hydrate))
//!   reads the index entries, then each item with `BatchGetItem`, charged
//!   as a `GetItem` of it (rounded up to 4 KB item by item).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/capacity-unit-calculations.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ThroughputConsiderations>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling>.

use std::fmt::Write as _;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{IndexProjection, Resolved, TableDefinition, TableIndex};
use crate::error::Error;
use crate::item::size::item_size;
use crate::limits::{READ_UNIT_BYTES, WRITE_UNIT_BYTES};
use crate::model::entity::{AttributeMap, EntitySchema};

/// The read units of reading `bytes` in one request: `bytes` rounded up to
/// 4 KB (at least one unit), halved for an eventually consistent read.
pub fn read_units(bytes: usize, consistent: bool) -> f64 {
    let units = bytes.div_ceil(READ_UNIT_BYTES).max(1) as f64;
    if consistent { units } else { units / 2.0 }
}

/// The write units of writing an item or index entry of `bytes`: `bytes`
/// rounded up to 1 KB, at least one unit.
pub fn write_units(bytes: usize) -> f64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1) as f64
}

/// Read units, eventually and strongly consistent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadUnits {
    /// An eventually consistent read (the default).
    pub eventual: f64,
    /// A strongly consistent read (`ConsistentRead = true`).
    pub strong: f64,
}

/// The write units of one write: on the table, and on each GSI and LSI it
/// writes.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteUnits {
    /// The units charged to the table.
    pub table: f64,
    /// The units charged to each GSI and LSI the write changes, by index
    /// name, in the table's index order (GSIs, then LSIs); an index whose
    /// entry the write leaves as it was is not listed. An LSI's units are
    /// consumed from the table's capacity.
    pub indexes: Vec<(&'static str, f64)>,
}

impl WriteUnits {
    /// Every unit of the write: the table's and its indexes'.
    pub fn total(&self) -> f64 {
        self.table + self.indexes.iter().map(|(_, units)| units).sum::<f64>()
    }

    /// Every unit of the same write as one action of a
    /// `TransactWriteItems`: twice the table's units, plus the indexes'
    /// (DynamoDB doubles the table write of a transaction, not its index
    /// writes). The units of a transaction are the sum over its actions.
    pub fn in_transaction(&self) -> f64 {
        2.0 * self.table + self.indexes.iter().map(|(_, units)| units).sum::<f64>()
    }
}

/// What the access patterns of one entity cost, from its example item
/// ([`TableDefinition::example`]).
#[derive(Debug, Clone, PartialEq)]
pub struct EntityCapacity {
    /// The entity's type name.
    pub entity: &'static str,
    /// The example item's size in bytes as DynamoDB bills it
    /// ([`item_size`], with a vector of a vector index of the table at 4
    /// bytes a dimension).
    pub item_bytes: usize,
    /// `GetItem` of one item (`Get`, `table.get`).
    pub get: ReadUnits,
    /// A `Query` page of [`PAGE_ITEMS`] such items on the table
    /// (`E::query`).
    pub query_page: ReadUnits,
    /// A `Query` page of [`PAGE_ITEMS`] such items on each GSI and LSI that
    /// holds the item, eventually consistent (GSIs have no strong reads; a
    /// strongly consistent LSI page costs twice): the read of the index
    /// entries. See [`index_query_fetches`](Self::index_query_fetches) for
    /// what an LSI page adds.
    pub index_query_pages: Vec<(&'static str, f64)>,
    /// For each LSI that holds the item but does not project all of its
    /// attributes, the table read units a page of
    /// [`index_query_pages`](Self::index_query_pages) adds, eventually
    /// consistent: an entity, collection or projection query asks for whole items
    /// (`Select = ALL_ATTRIBUTES`), and DynamoDB fetches each from the table
    /// and charges the read of the whole item. An LSI page costs its entry
    /// in `index_query_pages` plus this.
    pub index_query_fetches: Vec<(&'static str, f64)>,
    /// For each GSI and LSI that holds the item but does not project all
    /// of its attributes, the read units a [`hydrate`](crate::Query::hydrate)d
    /// page of [`PAGE_ITEMS`] items adds to the index read of
    /// [`index_query_pages`](Self::index_query_pages), eventually
    /// consistent: the `BatchGetItem` of the page's keys, which DynamoDB
    /// charges per item as a `GetItem`, each item rounded up to 4 KB
    /// ("Read request units", capacity unit calculations, and
    /// `BatchGetItem` in the API reference), on the table. The index read
    /// is charged by the entry whatever a `ProjectionExpression` asks.
    pub index_query_hydrations: Vec<(&'static str, f64)>,
    /// A put of a new item.
    pub put: WriteUnits,
    /// An update that changes attributes that are no index key and that no
    /// `INCLUDE` index projects: an `ALL` index rewrites its entry, an
    /// `INCLUDE` or `KEYS_ONLY` index is not written. When the entity has a
    /// `#[stamp(updated_at)]` field, every update stamps it too: an index
    /// whose key holds it moves (two writes), one that projects it is
    /// rewritten (one).
    pub update: WriteUnits,
    /// An update that changes the key of each index: two writes there.
    pub update_index_keys: WriteUnits,
    /// A delete of the item: the table, and each index the item is in.
    pub delete: WriteUnits,
    /// What keeping the guard items of the entity's unique values adds;
    /// `None` for an entity without unique values.
    pub unique: Option<UniqueCapacity>,
}

/// What the guard items of an entity's unique values
/// ([`UniqueValue`](crate::UniqueValue)) add to its writes. Every write of
/// such an entity is a `TransactWriteItems`, whose writes DynamoDB charges
/// twice (table and guards alike; the indexes once).
#[derive(Debug, Clone, PartialEq)]
pub struct UniqueCapacity {
    /// The guard items of the example item: one per unique value it holds.
    pub guards: usize,
    /// The write units of writing each guard once (outside a transaction;
    /// a guard is small, 1 unit each).
    pub guard_writes: f64,
    /// A create (or a put of a new item, at version 0): the item's put
    /// and a put of each guard, in one transaction.
    pub create: f64,
    /// The strongly consistent `GetItem` of the item that every write but
    /// a create sends first (to know the values it replaces), in read
    /// units.
    pub read_before_write: f64,
    /// What changing one value adds to a write's transaction: the put of
    /// the new guard and the delete of the old one, each charged twice.
    pub per_changed_value: f64,
}

impl EntityCapacity {
    /// The units of a put as one action of a `TransactWriteItems`: twice
    /// the table's units plus the indexes' ([`WriteUnits::in_transaction`]).
    pub fn transactional_put(&self) -> f64 {
        self.put.in_transaction()
    }
}

/// The items of the query page [`EntityCapacity::query_page`] prices.
pub const PAGE_ITEMS: usize = 25;

impl TableDefinition {
    /// What each access pattern of each entity with an example item costs
    /// in capacity units, by DynamoDB's rules (see the module): gets and
    /// query pages (eventually and strongly consistent, with the table
    /// fetch of an LSI that does not project every attribute), puts,
    /// updates and deletes with every GSI and LSI they write. Entities
    /// without an example are left out. These are the units of on-demand
    /// billing too (read and write request units).
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn capacity(&self) -> Result<Vec<EntityCapacity>, Error> {
        let resolved = self.resolve()?;
        Ok(self
            .entities
            .iter()
            .filter_map(|entity| {
                let example = self
                    .examples
                    .iter()
                    .find(|example| example.entity == entity.type_name)?;
                Some(entity_capacity(&resolved, entity, &example.item))
            })
            .collect())
    }

    /// The write units of one write that leaves `new` where `old` was
    /// (`None`: no item), by DynamoDB's rules (see the module): the table is
    /// charged on the larger of the two items (at least one unit: a delete
    /// of a missing item costs one), each GSI and LSI on the change to its
    /// entry, and an index whose entry the write leaves as it was is not
    /// listed. A put of a new item is `write_cost(None, Some(&item))`, a
    /// delete `write_cost(Some(&item), None)`, an update or a replacing put
    /// `write_cost(Some(&before), Some(&after))`, with the items as stored
    /// (`to_item`). In a transaction, see [`WriteUnits::in_transaction`].
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn write_cost(
        &self,
        old: Option<&AttributeMap>,
        new: Option<&AttributeMap>,
    ) -> Result<WriteUnits, Error> {
        let resolved = self.resolve()?;
        let table = match (old, new) {
            (None, None) => write_units(0),
            (old, new) => {
                let bytes = |item: Option<&AttributeMap>| {
                    item.map(|item| write_units(billed_size(&resolved, item)))
                };
                bytes(old).unwrap_or(0.0).max(bytes(new).unwrap_or(0.0))
            }
        };
        let indexes = priced_indexes(&resolved)
            .iter()
            .filter_map(|priced| {
                let entry = |item: Option<&AttributeMap>| {
                    item.and_then(|item| index_entry(&resolved, &priced.index, item))
                };
                let change = EntryChange::between(entry(old).as_ref(), entry(new).as_ref());
                Some((priced.index.name, change.units()?))
            })
            .collect();
        Ok(WriteUnits { table, indexes })
    }

    /// The catalogue's section of capacity units per access pattern.
    pub(super) fn capacity_section(&self, out: &mut String) -> Result<(), Error> {
        let capacity = self.capacity()?;
        if capacity.is_empty() {
            return Ok(());
        }
        let _ = writeln!(out, "\n## Capacity units\n");
        let _ = writeln!(
            out,
            "Per request, from each entity's example item, by DynamoDB's rules: a read unit reads 4 KB \
             (half for an eventually consistent read), a write unit writes 1 KB. Each GSI and LSI is \
             charged on the change to what it stores, with the size of its entry: a put writes the \
             entry once, a delete removes it once, a change of its key writes it twice, an update \
             rewrites an `ALL` entry once and leaves an `INCLUDE` or `KEYS_ONLY` one alone (an \
             `updated_at` the entity stamps counts as changed). A transaction doubles the table's \
             units, not the indexes'. A query page is {PAGE_ITEMS} items; on a sharded GSI it is one \
             request of up to {PAGE_ITEMS} items per shard (`×N`), whose units add up; on an LSI that \
             does not project every attribute, `+ table N` is the fetch of the whole items from the \
             table.\n"
        );
        if capacity
            .iter()
            .any(|entity| !entity.index_query_hydrations.is_empty())
        {
            let _ = writeln!(
                out,
                "On an index that does not project every attribute, `(hydrated: + batch get N)` is \
                 what a hydrated page (`Query::hydrate`) adds: a `BatchGetItem` of its items from the \
                 table, each rounded up to 4 KB.\n"
            );
        }
        let _ = writeln!(
            out,
            "| entity | item | get (eventual / strong) | query page (eventual / strong) | query page on indexes | put | update | update of index keys | delete | put in a transaction |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
        for entity in &capacity {
            let indexes = if entity.index_query_pages.is_empty() {
                "—".to_owned()
            } else {
                let shards = |index: &str| {
                    self.entities
                        .iter()
                        .find(|schema| schema.type_name == entity.entity)
                        .and_then(|schema| schema.index_named(index))
                        .and_then(IndexSchema::shards)
                };
                let fetch = |index: &str| {
                    entity
                        .index_query_fetches
                        .iter()
                        .find(|(name, _)| *name == index)
                        .map(|(_, units)| *units)
                };
                let hydration = |index: &str| {
                    entity
                        .index_query_hydrations
                        .iter()
                        .find(|(name, _)| *name == index)
                        .map(|(_, units)| *units)
                };
                entity
                    .index_query_pages
                    .iter()
                    .map(|(index, units)| {
                        let page = match (shards(index), fetch(index)) {
                            (Some(count), _) => {
                                format!("{index} {units} ×{count} = {}", units * f64::from(count))
                            }
                            (None, Some(fetched)) => format!("{index} {units} + table {fetched}"),
                            (None, None) => format!("{index} {units}"),
                        };
                        match hydration(index) {
                            Some(batch) => format!("{page} (hydrated: + batch get {batch})"),
                            None => page,
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(
                out,
                "| `{}` | {} B | {} / {} RCU | {} / {} RCU | {} | {} | {} | {} | {} | {} WCU |",
                entity.entity,
                entity.item_bytes,
                entity.get.eventual,
                entity.get.strong,
                entity.query_page.eventual,
                entity.query_page.strong,
                indexes,
                writes(&entity.put),
                writes(&entity.update),
                writes(&entity.update_index_keys),
                writes(&entity.delete),
                entity.transactional_put(),
            );
        }
        let unique: Vec<&EntityCapacity> = capacity
            .iter()
            .filter(|entity| entity.unique.is_some())
            .collect();
        if !unique.is_empty() {
            let _ = writeln!(
                out,
                "\nWith unique values, every write is a `TransactWriteItems` with the guard items (each \
                 write charged twice); every write but a create first reads the item, strongly consistent:\n"
            );
            let _ = writeln!(
                out,
                "| entity | guards | create with its guards | read before a write | per changed value |"
            );
            let _ = writeln!(out, "|---|---|---|---|---|");
            for entity in unique {
                let Some(guards) = &entity.unique else {
                    continue;
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} WCU | {} RCU | + {} WCU |",
                    entity.entity,
                    guards.guards,
                    guards.create,
                    guards.read_before_write,
                    guards.per_changed_value
                );
            }
        }
        self.vector_capacity_note(out);
        Ok(())
    }

    /// What the vector indexes cost, after the table of units: DynamoDB
    /// meters them apart from read and write units, in bytes, so none of
    /// the units above includes them.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html>.
    fn vector_capacity_note(&self, out: &mut String) {
        let vectors: Vec<String> = self
            .entities
            .iter()
            .flat_map(|entity| entity.indexes.iter())
            .filter_map(|index| {
                let vector = index.vector()?;
                Some(format!(
                    "`{}` ({} dimensions: {} bytes of vector per item at 32-bit precision)",
                    index.name,
                    vector.dimensions,
                    4 * vector.dimensions
                ))
            })
            .collect();
        if vectors.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "\nVector indexes {} are metered apart from these units, in bytes: a similarity search \
             (`SearchVectors`) in Vector Search bytes (`VectorSearchRequestBytes`), which grow with \
             the dimensions, the vectors the search examines (logarithmically with the items \
             indexed, less in one partition) and what it returns (the vector too when asked for); a \
             write that changes what a vector index stores in Vector Write bytes \
             (`VectorWriteRequestBytes`), with the size of what it replicates to the index; a write \
             that changes none of it costs none. Neither can be known before the request: \
             `SearchResults::search_request_bytes` hands back what a search consumed.",
            vectors.join(", ")
        );
    }
}

mod entity;
mod entries;

use crate::model::index::IndexSchema;
use entity::*;
use entries::*;
