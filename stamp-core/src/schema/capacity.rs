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
use crate::limits::{READ_UNIT_BYTES, WRITE_UNIT_BYTES};
use crate::{AttributeMap, EntitySchema, Error, item_size};

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

/// A GSI or LSI, as capacity sees it: an LSI is an index whose partition
/// key is the table's.
#[derive(Debug, Clone)]
struct PricedIndex {
    index: TableIndex,
    local: bool,
}

/// The table's GSIs, then its LSIs.
fn priced_indexes(resolved: &Resolved) -> Vec<PricedIndex> {
    resolved
        .indexes
        .iter()
        .cloned()
        .map(|index| PricedIndex {
            local: index.is_local(),
            index,
        })
        .collect()
}

/// The key attributes of `index` (a multi-attribute index's every
/// attribute).
fn index_key_attributes(index: &TableIndex) -> Vec<&'static str> {
    match index.multi_attribute {
        Some(multi) => multi.key_fields().map(|field| field.attribute).collect(),
        None => std::iter::once(index.partition_key)
            .chain(index.sort_key)
            .collect(),
    }
}

/// One index's entry of an item: its index key values and what it stores.
struct Entry {
    key: Vec<AttributeValue>,
    stored: AttributeMap,
}

impl Entry {
    fn bytes(&self) -> usize {
        item_size(&self.stored)
    }
}

/// The entry of `item` in `index`, or `None` when the item is not in it
/// (it lacks an index key attribute).
fn index_entry(resolved: &Resolved, index: &TableIndex, item: &AttributeMap) -> Option<Entry> {
    let index_keys = index_key_attributes(index);
    let key = index_keys
        .iter()
        .map(|name| item.get(*name).cloned())
        .collect::<Option<Vec<_>>>()?;
    let is_key = |name: &str| {
        name == resolved.partition_key || name == resolved.sort_key || index_keys.contains(&name)
    };
    let stored: AttributeMap = match &index.projection {
        IndexProjection::All => item.clone(),
        IndexProjection::KeysOnly => item
            .iter()
            .filter(|(name, _)| is_key(name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
        IndexProjection::Include(included) => item
            .iter()
            .filter(|(name, _)| is_key(name) || included.iter().any(|kept| kept == *name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
    };
    Some(Entry { key, stored })
}

/// How one write changes one index's entry of an item, with the entry
/// sizes in bytes: the one place of DynamoDB's index write rules.
#[derive(Debug, Clone, Copy, PartialEq)]
enum EntryChange {
    /// In the index neither before nor after, or in it as it was.
    Unchanged,
    /// Enters the index: one write of the new entry.
    Added(usize),
    /// Leaves the index: one write of the old entry.
    Removed(usize),
    /// Its index key changes: a delete of the old entry and a put of the
    /// new one, each rounded up on its own.
    Moved(usize, usize),
    /// Same key, other projected values: one write of the larger entry.
    Rewritten(usize, usize),
}

impl EntryChange {
    /// What `old` becoming `new` is.
    fn between(old: Option<&Entry>, new: Option<&Entry>) -> Self {
        match (old, new) {
            (None, None) => EntryChange::Unchanged,
            (None, Some(new)) => EntryChange::Added(new.bytes()),
            (Some(old), None) => EntryChange::Removed(old.bytes()),
            (Some(old), Some(new)) if !same_values(&old.key, &new.key) => {
                EntryChange::Moved(old.bytes(), new.bytes())
            }
            (Some(old), Some(new)) if same_item(&old.stored, &new.stored) => EntryChange::Unchanged,
            (Some(old), Some(new)) => EntryChange::Rewritten(old.bytes(), new.bytes()),
        }
    }

    /// The write units of the change, `None` when the index is not written.
    fn units(self) -> Option<f64> {
        match self {
            EntryChange::Unchanged => None,
            EntryChange::Added(bytes) | EntryChange::Removed(bytes) => Some(write_units(bytes)),
            EntryChange::Moved(old, new) => Some(write_units(old) + write_units(new)),
            EntryChange::Rewritten(old, new) => Some(write_units(old).max(write_units(new))),
        }
    }
}

/// Whether two items hold the same values (sets compare as sets).
fn same_item(a: &AttributeMap, b: &AttributeMap) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(name, value)| b.get(name).is_some_and(|other| same_value(value, other)))
}

fn same_values(a: &[AttributeValue], b: &[AttributeValue]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
}

fn same_value(a: &AttributeValue, b: &AttributeValue) -> bool {
    fn same_set<T: Ord>(a: &[T], b: &[T]) -> bool {
        let mut a: Vec<&T> = a.iter().collect();
        let mut b: Vec<&T> = b.iter().collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }
    match (a, b) {
        (AttributeValue::Ss(a), AttributeValue::Ss(b))
        | (AttributeValue::Ns(a), AttributeValue::Ns(b)) => same_set(a, b),
        (AttributeValue::Bs(a), AttributeValue::Bs(b)) => {
            let a: Vec<&[u8]> = a.iter().map(|blob| blob.as_ref()).collect();
            let b: Vec<&[u8]> = b.iter().map(|blob| blob.as_ref()).collect();
            same_set(&a, &b)
        }
        (AttributeValue::L(a), AttributeValue::L(b)) => same_values(a, b),
        (AttributeValue::M(a), AttributeValue::M(b)) => same_item(a, b),
        _ => a == b,
    }
}

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
                        .and_then(crate::IndexSchema::shards)
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

/// The names of the indexes whose key holds `entity`'s
/// `#[stamp(updated_at)]` attribute, which every update stamps.
fn indexes_keyed_by_updated_at(entity: &EntitySchema) -> Vec<&'static str> {
    let Some(attribute) = entity.updated_at_attribute else {
        return Vec::new();
    };
    let field = entity
        .field_attributes
        .iter()
        .find(|field| field.attribute == attribute)
        .map(|field| field.field);
    let in_template = |template: &crate::KeyTemplate| {
        field.is_some_and(|field| template.fields().any(|name| name == field))
    };
    entity
        .indexes
        .iter()
        .filter(|index| {
            index
                .written_keys()
                .iter()
                .any(|key| in_template(&key.template))
                || index.key_fields().any(|key| key.attribute == attribute)
        })
        .map(|index| index.name)
        .collect()
}

/// The size DynamoDB bills a write or a table read of `item` at: its
/// [`item_size`], except that an attribute a vector index of the table
/// reads, holding a vector of that index's dimensions, costs its name plus
/// 4 bytes a dimension (the vector's 32-bit width, whatever numbers it
/// holds), once however many indexes read it. The 400 KB item limit still
/// counts its numbers.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.
fn billed_size(resolved: &Resolved, item: &AttributeMap) -> usize {
    if resolved.vector_indexes.is_empty() {
        return item_size(item);
    }
    item.iter()
        .map(|(name, value)| {
            let vector = resolved
                .vector_indexes
                .iter()
                .filter_map(|index| index.vector())
                .find(|vector| {
                    vector.attribute == name
                        && value.as_l().is_ok_and(|elements| {
                            elements.len() == vector.dimensions as usize
                                && elements.iter().all(|element| element.as_n().is_ok())
                        })
                });
            name.len()
                + vector.map_or_else(
                    || crate::attribute_value_size(value),
                    |vector| 4 * vector.dimensions as usize,
                )
        })
        .sum()
}

/// The costs of one entity's access patterns for its example `item`.
fn entity_capacity(
    resolved: &Resolved,
    entity: &EntitySchema,
    item: &AttributeMap,
) -> EntityCapacity {
    let bytes = billed_size(resolved, item);
    let indexes = priced_indexes(resolved);
    let entries: Vec<(&PricedIndex, Entry)> = indexes
        .iter()
        .filter_map(|priced| Some((priced, index_entry(resolved, &priced.index, item)?)))
        .collect();
    let stamped = entity.updated_at_attribute;
    let keyed_by_stamp = indexes_keyed_by_updated_at(entity);
    // Each pattern as the change it makes to each entry the item has.
    let per_index =
        |change: &dyn Fn(&PricedIndex, usize) -> EntryChange| -> Vec<(&'static str, f64)> {
            entries
                .iter()
                .filter_map(|(priced, entry)| {
                    Some((priced.index.name, change(priced, entry.bytes()).units()?))
                })
                .collect()
        };
    let update = |priced: &PricedIndex, entry: usize| {
        let projects_stamp = stamped.is_some_and(|attribute| match &priced.index.projection {
            IndexProjection::All => true,
            IndexProjection::KeysOnly => false,
            IndexProjection::Include(kept) => kept.iter().any(|kept| kept == attribute),
        });
        if keyed_by_stamp.contains(&priced.index.name) {
            EntryChange::Moved(entry, entry)
        } else if matches!(priced.index.projection, IndexProjection::All) || projects_stamp {
            EntryChange::Rewritten(entry, entry)
        } else {
            EntryChange::Unchanged
        }
    };
    let table = write_units(bytes);
    EntityCapacity {
        entity: entity.type_name,
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
            .map(|(priced, entry)| {
                (
                    priced.index.name,
                    read_units(PAGE_ITEMS * entry.bytes(), false),
                )
            })
            .collect(),
        // An LSI entry without every attribute of the item: the page
        // fetches the whole items from the table.
        index_query_fetches: entries
            .iter()
            .filter(|(priced, entry)| priced.local && entry.stored.len() < item.len())
            .map(|(priced, _)| (priced.index.name, read_units(PAGE_ITEMS * bytes, false)))
            .collect(),
        // An entry without every attribute of the item: a hydrated page
        // reads each item with `BatchGetItem`, rounded up item by item.
        index_query_hydrations: entries
            .iter()
            .filter(|(_, entry)| entry.stored.len() < item.len())
            .map(|(priced, _)| {
                (
                    priced.index.name,
                    PAGE_ITEMS as f64 * read_units(bytes, false),
                )
            })
            .collect(),
        put: WriteUnits {
            table,
            indexes: per_index(&|_, entry| EntryChange::Added(entry)),
        },
        update: WriteUnits {
            table,
            indexes: per_index(&update),
        },
        update_index_keys: WriteUnits {
            table,
            indexes: per_index(&|_, entry| EntryChange::Moved(entry, entry)),
        },
        delete: WriteUnits {
            table,
            indexes: per_index(&|_, entry| EntryChange::Removed(entry)),
        },
    }
}
