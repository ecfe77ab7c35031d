//! What each access pattern costs in capacity units, from the entities'
//! example items, by DynamoDB's rules:
//!
//! - a read unit is one strongly consistent read of up to 4 KB per second
//!   (an eventually consistent read costs half, a transactional read twice);
//!   a `GetItem` rounds its item up to 4 KB, a `Query` page rounds the sum of
//!   the items it reads ("Read consistency" and "Read request units", Amazon
//!   DynamoDB Developer Guide, "DynamoDB throughput capacity");
//! - a write unit is one write of up to 1 KB (a transactional write costs
//!   twice); a put or delete rounds its item up to 1 KB;
//! - every GSI that holds the item is written too, with the size of its
//!   entry (the table and index keys and the projected attributes) rounded
//!   up to 1 KB; an update that changes an index key attribute costs that
//!   index two writes, a delete of the old entry and a put of the new one
//!   ("Provisioned throughput considerations for Global Secondary
//!   Indexes", Amazon DynamoDB Developer Guide);
//! - every LSI that holds the item is written the same way, in the table's
//!   own capacity ("Provisioned throughput considerations for Local
//!   Secondary Indexes": a put writes one entry, an update that changes the
//!   LSI sort key two, a write whose item has no LSI key none).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/capacity-unit-calculations.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations>.

use std::fmt::Write as _;

use super::{IndexProjection, Resolved, TableDefinition, TableIndex};
use crate::{Error, Item, item_size};

/// Bytes per read unit.
const READ_UNIT_BYTES: usize = 4096;
/// Bytes per write unit.
const WRITE_UNIT_BYTES: usize = 1024;

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

/// The write units of one write: on the table, and on each GSI it touches.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteUnits {
    /// The units charged to the table.
    pub table: f64,
    /// The units charged to each GSI and LSI the write touches, by index
    /// name (an LSI's are consumed from the table's capacity).
    pub indexes: Vec<(&'static str, f64)>,
}

impl WriteUnits {
    /// Every unit of the write: the table's and its indexes'.
    pub fn total(&self) -> f64 {
        self.table + self.indexes.iter().map(|(_, units)| units).sum::<f64>()
    }
}

/// What the access patterns of one entity cost, from its example item
/// ([`TableDefinition::example`]).
#[derive(Debug, Clone, PartialEq)]
pub struct EntityCapacity {
    /// The entity's type name.
    pub entity: &'static str,
    /// The example item's size in bytes, by DynamoDB's rules
    /// ([`item_size`]).
    pub item_bytes: usize,
    /// `GetItem` of one item (`table.get`, `table.get_consistent`).
    pub get: ReadUnits,
    /// A `Query` page of [`PAGE_ITEMS`] such items on the table
    /// (`E::query`).
    pub query_page: ReadUnits,
    /// A `Query` page of [`PAGE_ITEMS`] such items on each GSI and LSI that
    /// holds the item, eventually consistent (GSIs have no strong reads; a
    /// strongly consistent LSI page costs twice).
    pub index_query_pages: Vec<(&'static str, f64)>,
    /// A put of a new item, or one that replaces an item of the same size
    /// and index keys.
    pub put: WriteUnits,
    /// An update that changes attributes but no index key (projected
    /// attributes: a `KEYS_ONLY` index is not written).
    pub update: WriteUnits,
    /// An update that changes the key of each index: two writes there.
    pub update_index_keys: WriteUnits,
    /// A delete of the item.
    pub delete: WriteUnits,
}

impl EntityCapacity {
    /// The units of a put in a `TransactWriteItems`: twice a put's.
    pub fn transactional_put(&self) -> f64 {
        2.0 * self.put.total()
    }
}

/// The items of the query page [`EntityCapacity::query_page`] prices.
pub const PAGE_ITEMS: usize = 25;

/// Whether `item` is in `index` (it has the index's key attributes), and
/// the size of its entry there.
fn index_entry(resolved: &Resolved, index: &TableIndex, item: &Item) -> Option<usize> {
    let has = |name: &str| item.contains_key(name);
    // A multi-attribute index holds the items that have all its attributes.
    let index_keys: Vec<&str> = match index.multi_attribute {
        Some(multi) => multi.key_fields().map(|field| field.attribute).collect(),
        None => std::iter::once(index.partition_key)
            .chain(index.sort_key)
            .collect(),
    };
    if !index_keys.iter().all(|name| has(name)) {
        return None;
    }
    let keys: Vec<Option<&str>> = [Some(resolved.partition_key), Some(resolved.sort_key)]
        .into_iter()
        .chain(index_keys.into_iter().map(Some))
        .collect();
    let entry: Item = match &index.projection {
        IndexProjection::All => return Some(item_size(item)),
        IndexProjection::KeysOnly => item
            .iter()
            .filter(|(name, _)| keys.contains(&Some(name.as_str())))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
        IndexProjection::Include(included) => item
            .iter()
            .filter(|(name, _)| {
                keys.contains(&Some(name.as_str())) || included.iter().any(|kept| kept == *name)
            })
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
    };
    Some(item_size(&entry))
}

impl TableDefinition {
    /// What each access pattern of each entity with an example item costs
    /// in capacity units, by DynamoDB's rules (see the module): gets and
    /// query pages (eventually and strongly consistent), puts, updates and
    /// deletes with every GSI they touch. Entities without an example are
    /// left out. These are the units of on-demand billing too (read and
    /// write request units).
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
                Some(entity_capacity(&resolved, entity.type_name, &example.item))
            })
            .collect())
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
             (half for an eventually consistent read), a write unit writes 1 KB, each GSI that holds \
             the item is written too, and a transaction costs twice. A query page is {PAGE_ITEMS} items; \
             on a sharded GSI it is one request of up to {PAGE_ITEMS} items per shard (`×N`), whose \
             units add up.\n"
        );
        let _ = writeln!(
            out,
            "| entity | item | get (eventual / strong) | query page (eventual / strong) | query page on GSIs | put | update | update of index keys | delete | put in a transaction |"
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
                        .and_then(|schema| schema.indexes.iter().find(|gsi| gsi.name == index))
                        .and_then(|gsi| gsi.shards)
                };
                entity
                    .index_query_pages
                    .iter()
                    .map(|(index, units)| match shards(index) {
                        Some(count) => {
                            format!("{index} {units} ×{count} = {}", units * f64::from(count))
                        }
                        None => format!("{index} {units}"),
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
        Ok(())
    }
}

/// `3 WCU (table 1, GSI1 1, GSI2 1)`.
fn writes(units: &WriteUnits) -> String {
    if units.indexes.is_empty() {
        return format!("{} WCU", units.total());
    }
    let parts: Vec<String> = units
        .indexes
        .iter()
        .map(|(index, units)| format!("{index} {units}"))
        .collect();
    format!(
        "{} WCU (table {}, {})",
        units.total(),
        units.table,
        parts.join(", ")
    )
}

/// The costs of one entity's access patterns for its example `item`.
fn entity_capacity(resolved: &Resolved, entity: &'static str, item: &Item) -> EntityCapacity {
    let bytes = item_size(item);
    // An LSI entry is written like a GSI entry (its key is the table's
    // partition key and the index sort key), so it is priced the same way.
    let indexes: Vec<TableIndex> = resolved
        .indexes
        .iter()
        .cloned()
        .chain(resolved.local_indexes.iter().map(|local| TableIndex {
            name: local.name,
            partition_key: resolved.partition_key,
            sort_key: Some(local.sort_key),
            projection: local.projection.clone(),
            multi_attribute: None,
        }))
        .collect();
    let entries: Vec<(&TableIndex, usize)> = indexes
        .iter()
        .filter_map(|index| Some((index, index_entry(resolved, index, item)?)))
        .collect();
    // `keys_only`: a change of attributes that are not keys writes no
    // entry of a `KEYS_ONLY` index.
    let per_index = |factor: f64, skip_keys_only: bool| -> Vec<(&'static str, f64)> {
        entries
            .iter()
            .filter(|(index, _)| {
                !(skip_keys_only && matches!(index.projection, IndexProjection::KeysOnly))
            })
            .map(|(index, entry)| (index.name, factor * write_units(*entry)))
            .collect()
    };
    let table = write_units(bytes);
    EntityCapacity {
        entity,
        item_bytes: bytes,
        get: ReadUnits {
            eventual: read_units(bytes, false),
            strong: read_units(bytes, true),
        },
        query_page: ReadUnits {
            eventual: read_units(PAGE_ITEMS * bytes, false),
            strong: read_units(PAGE_ITEMS * bytes, true),
        },
        index_query_pages: entries
            .iter()
            .map(|(index, entry)| (index.name, read_units(PAGE_ITEMS * entry, false)))
            .collect(),
        put: WriteUnits {
            table,
            indexes: per_index(1.0, false),
        },
        update: WriteUnits {
            table,
            indexes: per_index(1.0, true),
        },
        update_index_keys: WriteUnits {
            table,
            indexes: per_index(2.0, false),
        },
        delete: WriteUnits {
            table,
            indexes: per_index(1.0, false),
        },
    }
}
