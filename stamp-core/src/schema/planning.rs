//! Planning past one partition, on paper: given a workload (requests per
//! second per access pattern), the capacity units each partition key value
//! of each template receives per second, against DynamoDB's limits of one
//! partition: 3,000 read units and 1,000 write units per second ("Best
//! practices for designing and using partition keys effectively", Amazon
//! DynamoDB Developer Guide). A template over the limit is a hot partition;
//! write sharding spreads it over `shards` partition key values. An LSI
//! lives in its table's partitions: its writes and reads count on the
//! table's partition key template ("Provisioned throughput considerations
//! for Local Secondary Indexes": an LSI consumes the table's capacity, and
//! an item collection, its table items and LSI entries, is one partition
//! key value).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html>.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{EntityCapacity, TableDefinition};
use crate::error::Error;
use crate::limits::{PARTITION_READ_UNITS, PARTITION_WRITE_UNITS};
use crate::model::entity::Entity;
use crate::model::entity::EntitySchema;
use crate::model::index::IndexSchema;
use crate::model::index::{IndexKeySchema, IndexKind};

/// A request of an access pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `GetItem`, eventually consistent.
    Get,
    /// A `Query` page ([`PAGE_ITEMS`](super::PAGE_ITEMS) items) on the
    /// table (0) or GSI `n`, eventually consistent.
    QueryPage(u8),
    /// A `Query` page ([`PAGE_ITEMS`](super::PAGE_ITEMS) items) of whole
    /// entities on LSI `n`, eventually consistent: the index read plus,
    /// when the LSI does not project every attribute, the fetch of the
    /// items from the table
    /// ([`EntityCapacity::index_query_fetches`](super::EntityCapacity::index_query_fetches)),
    /// both on the table's partition.
    LocalQueryPage(u8),
    /// A [`hydrate`](crate::Query::hydrate)d `Query` page
    /// ([`PAGE_ITEMS`](super::PAGE_ITEMS) items) on GSI `n`: the index
    /// read on the index's partition, and the `BatchGetItem` of the items
    /// ([`EntityCapacity::index_query_hydrations`](super::EntityCapacity::index_query_hydrations))
    /// on the table's.
    HydratedQueryPage(u8),
    /// A hydrated `Query` page on LSI `n`: the index read and the
    /// `BatchGetItem` of the items, both on the table's partition.
    HydratedLocalQueryPage(u8),
    /// A put of a new item.
    Put,
    /// An update that changes no index key.
    Update,
    /// A delete.
    Delete,
}

/// One access pattern of a [`Workload`]: `per_second` requests of one
/// kind on one entity.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// The entity's type name.
    pub entity: &'static str,
    /// What each request does.
    pub request: Access,
    /// Requests per second.
    pub per_second: f64,
}

impl Load {
    /// `per_second` requests of `request` on entity `E`.
    pub fn of<E: Entity>(request: Access, per_second: f64) -> Self {
        Load {
            entity: E::SCHEMA.type_name,
            request,
            per_second,
        }
    }
}

/// Requests per second per access pattern, and over how many partition key
/// values the requests of each partition key template spread evenly.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Workload {
    loads: Vec<Load>,
    spread: HashMap<String, f64>,
}

impl Workload {
    /// No load.
    pub fn new() -> Self {
        Workload::default()
    }

    /// Adds an access pattern.
    pub fn load(mut self, load: Load) -> Self {
        self.loads.push(load);
        self
    }

    /// States that the requests to partition key template `template` (its
    /// source, such as `CUST#<customer_id>`) spread evenly over `values`
    /// partition key values at once. A template not stated is taken as one
    /// value (every request on one key: the worst case), and marked so.
    pub fn spread(mut self, template: &str, values: f64) -> Self {
        self.spread.insert(template.to_owned(), values.max(1.0));
        self
    }
}

/// The expected peak of one partition key template: units per second per
/// partition key value.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionLoad {
    /// `table` or the GSI's name.
    pub index: &'static str,
    /// The partition key template's source.
    pub template: &'static str,
    /// The partition key values the load spreads over.
    pub values: f64,
    /// Whether `values` was stated ([`Workload::spread`]) or taken as one.
    pub stated: bool,
    /// The shards of each value: the index's `shards = N` for a sharded
    /// GSI's template (`STATUS#<status>#<shard>`), else 1. Writes divide
    /// over them; a query page reads every shard, so reads do not.
    pub shards: u16,
    /// Read units per second per partition key value (per shard).
    pub read_units: f64,
    /// Write units per second per partition key value (per shard).
    pub write_units: f64,
}

impl PartitionLoad {
    /// Whether one value receives more than a partition serves, in reads
    /// or in writes.
    pub fn hot(&self) -> bool {
        self.read_units > PARTITION_READ_UNITS || self.write_units > PARTITION_WRITE_UNITS
    }

    /// The shards (write sharding: partition key values per value) that
    /// keep each under the write limit, counting the writes of all
    /// [`shards`](Self::shards) together: 1 when one partition serves
    /// them. Only writes count: sharding spreads writes, and a sharded page
    /// reads every shard, so it does not spread reads; a read hot on its
    /// own needs caching or another key, which [`hot`](Self::hot) still
    /// shows.
    pub fn shards_needed(&self) -> u32 {
        let writes = (self.write_units * f64::from(self.shards) / PARTITION_WRITE_UNITS).ceil();
        writes.max(1.0) as u32
    }
}

impl TableDefinition {
    /// The expected peak units per partition key value of every partition
    /// key template that `workload` reaches, on the table and each GSI, from
    /// [`capacity`](Self::capacity): a write counts on the table and on each
    /// GSI that holds the item (example item), and its LSI entries count on
    /// the table's template (an LSI is in the table's partitions); a read
    /// counts where it reads (an LSI page, with its table fetch, on the
    /// table's template). In the order of the table, then the GSIs by name,
    /// then the template.
    /// A load on an entity without an example item counts nothing.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn plan(&self, workload: &Workload) -> Result<Vec<PartitionLoad>, Error> {
        let capacity = self.capacity()?;
        let mut plan: Vec<PartitionLoad> = Vec::new();
        for load in &workload.loads {
            let Some(entity) = self.entities.iter().find(|e| e.type_name == load.entity) else {
                continue;
            };
            let Some(cost) = capacity.iter().find(|c| c.entity == load.entity) else {
                continue;
            };
            for (index, template, reads, writes, shards) in charges(entity, cost, load.request) {
                let (values, stated) = match workload.spread.get(template) {
                    Some(values) => (*values, true),
                    None => (1.0, false),
                };
                let entry = match plan
                    .iter_mut()
                    .find(|entry| entry.index == index && entry.template == template)
                {
                    Some(entry) => entry,
                    None => {
                        plan.push(PartitionLoad {
                            index,
                            template,
                            values,
                            stated,
                            shards,
                            read_units: 0.0,
                            write_units: 0.0,
                        });
                        plan.last_mut().expect("pushed")
                    }
                };
                entry.read_units += load.per_second * reads / values;
                entry.write_units += load.per_second * writes / values / f64::from(shards);
            }
        }
        plan.sort_by(|a, b| {
            let rank =
                |entry: &PartitionLoad| (entry.index != "table", entry.index, entry.template);
            rank(a).cmp(&rank(b))
        });
        Ok(plan)
    }

    /// [`plan`](Self::plan) as a Markdown table, with the shards a hot
    /// template needs.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn plan_markdown(&self, workload: &Workload) -> Result<String, Error> {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| index | partition key | values | shards | RCU/s per partition | WCU/s per partition | hot | shards needed |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
        for entry in self.plan(workload)? {
            let values = if entry.stated {
                format!("{}", entry.values)
            } else {
                "1 (not stated)".to_owned()
            };
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} | {} | {} | {} | {} |",
                entry.index,
                entry.template,
                values,
                entry.shards,
                round(entry.read_units),
                round(entry.write_units),
                if entry.hot() { "**yes**" } else { "no" },
                entry.shards_needed(),
            );
        }
        Ok(out)
    }
}

/// `x` with at most two decimals.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The `(index, partition template, read units, write units, shards)` one
/// request charges.
fn charges(
    entity: &EntitySchema,
    cost: &EntityCapacity,
    request: Access,
) -> Vec<(&'static str, &'static str, f64, f64, u16)> {
    let table = ("table", entity.partition_key.template.source);
    // The partition an index's entries are charged to: an LSI's are in the
    // item's own partition of the table; a GSI's in its own, by its
    // partition template (a multi-attribute index's partition key is the
    // tuple of its fields, written `(tenant_id, region)`), times its shards.
    let partition = |index: &IndexSchema| match (index.kind, &index.key) {
        (IndexKind::Local, _) => (table.0, table.1, 1),
        (IndexKind::Global { shards }, IndexKeySchema::Templates { partition_key, .. }) => (
            index.name,
            partition_key.template.source,
            shards.unwrap_or(1),
        ),
        (
            IndexKind::Global { shards },
            IndexKeySchema::Attributes {
                partition_source, ..
            },
        ) => (index.name, *partition_source, shards.unwrap_or(1)),
        // A GSI always has a key; a vector index's writes are metered in
        // vector write bytes, not in the write units planned here (it is
        // never among `WriteUnits::indexes`).
        (IndexKind::Global { .. }, IndexKeySchema::Unpartitioned) | (IndexKind::Vector(_), _) => {
            (index.name, "", 1)
        }
    };
    let writes = |units: &super::WriteUnits| {
        let mut out = vec![(table.0, table.1, 0.0, units.table, 1)];
        for (name, units) in &units.indexes {
            if let Some((index, template, shards)) = entity.index_named(name).map(partition) {
                out.push((index, template, 0.0, *units, shards));
            }
        }
        out
    };
    // A query page of an index: its page, and (an LSI's) the fetch of the
    // attributes it does not project from the table.
    let query_page = |index: Option<&'static IndexSchema>| {
        index
            .and_then(|index| {
                let units = |list: &[(&'static str, f64)]| {
                    list.iter()
                        .find(|(known, _)| *known == index.name)
                        .map(|(_, units)| *units)
                };
                let page = units(&cost.index_query_pages)?;
                let fetch = units(&cost.index_query_fetches).unwrap_or(0.0);
                let (name, template, shards) = partition(index);
                Some(vec![(name, template, page + fetch, 0.0, shards)])
            })
            .unwrap_or_default()
    };
    // A hydrated page: the index read where the index is, and the batch
    // read of the items from the table.
    let hydrated_page = |index: Option<&'static IndexSchema>| {
        index
            .and_then(|index| {
                let units = |list: &[(&'static str, f64)]| {
                    list.iter()
                        .find(|(known, _)| *known == index.name)
                        .map(|(_, units)| *units)
                };
                let page = units(&cost.index_query_pages)?;
                let batch = units(&cost.index_query_hydrations).unwrap_or(0.0);
                let (name, template, shards) = partition(index);
                Some(vec![
                    (name, template, page, 0.0, shards),
                    (table.0, table.1, batch, 0.0, 1),
                ])
            })
            .unwrap_or_default()
    };
    match request {
        Access::Get => vec![(table.0, table.1, cost.get.eventual, 0.0, 1)],
        Access::QueryPage(0) => vec![(table.0, table.1, cost.query_page.eventual, 0.0, 1)],
        Access::QueryPage(number) => query_page(entity.gsi(number)),
        Access::LocalQueryPage(number) => query_page(entity.lsi(number)),
        Access::HydratedQueryPage(number) => hydrated_page(entity.gsi(number)),
        Access::HydratedLocalQueryPage(number) => hydrated_page(entity.lsi(number)),
        Access::Put => writes(&cost.put),
        Access::Update => writes(&cost.update),
        Access::Delete => writes(&cost.delete),
    }
}
