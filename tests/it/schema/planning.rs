//! Planning past one partition (issue 16, point 6): the reference service
//! at 10,000 orders placed per second, on paper. Units per request come
//! from `TableDefinition::capacity` (tests/capacity.rs); the limits of one
//! partition are DynamoDB's 3,000 read and 1,000 write units per second.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use stamp::{
    Item, TableDefinition,
    capacity::{Access, Load, PartitionLoad, Workload},
};
use stamp_examples::{Customer, LineItem, Order, OrderStatus};
use uuid::Uuid;

/// The reference model, whose status index is sharded over 16 shards.
fn definition() -> TableDefinition {
    stamp_examples::examples::definition().unwrap()
}

/// The reference order before its status index was sharded.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
#[gsi2(pk = "ORDER#<order_id>", sk = "ORDER")]
#[stamp(type_name = "Order")]
struct UnshardedOrder {
    customer_id: String,
    order_id: Uuid,
    created_at: DateTime<Utc>,
    status: Option<OrderStatus>,
    updated_at: DateTime<Utc>,
    total_cents: u64,
    line_count: u32,
}

/// The reference model with [`UnshardedOrder`] in place of `Order`.
fn unsharded_definition() -> TableDefinition {
    let order = stamp_examples::examples::order(1);
    let unsharded = UnshardedOrder {
        customer_id: order.customer_id,
        order_id: order.order_id,
        created_at: order.created_at,
        status: order.status,
        updated_at: order.updated_at,
        total_cents: order.total_cents,
        line_count: order.line_count,
    };
    TableDefinition::new()
        .entity::<Customer>()
        .entity::<UnshardedOrder>()
        .entity::<LineItem>()
        .example(&stamp_examples::examples::customer())
        .unwrap()
        .example(&unsharded)
        .unwrap()
        .example(&stamp_examples::examples::line_item())
        .unwrap()
}

/// 10,000 orders placed per second, two lines each, each counted on its
/// customer; 100 pages per second of the newest pending orders; 100,000
/// customers ordering at once. Every new order is `PENDING`: the status
/// template is left at one value, which is the truth here.
fn ten_thousand_orders_per_second() -> Workload {
    Workload::new()
        .load(Load::of::<Order>(Access::Put, 10_000.0))
        .load(Load::of::<LineItem>(Access::Put, 20_000.0))
        .load(Load::of::<Customer>(Access::Update, 10_000.0))
        .load(Load::of::<Order>(Access::QueryPage(1), 100.0))
        .spread("CUST#<customer_id>", 100_000.0)
        .spread("ORDER#<order_id>", 10_000.0)
}

fn entry(
    index: &'static str,
    template: &'static str,
    (values, shards): (f64, u16),
    reads: f64,
    writes: f64,
) -> PartitionLoad {
    PartitionLoad {
        index,
        template,
        values,
        stated: values != 1.0,
        shards,
        read_units: reads,
        write_units: writes,
    }
}

#[test]
fn the_unsharded_status_index_runs_hot_at_ten_thousand_orders_per_second() {
    let plan = unsharded_definition()
        .plan(&ten_thousand_orders_per_second())
        .unwrap();
    // Units per request (catalogue, "Capacity units"): an order put writes
    // 1 unit on the table, GSI1 and GSI2 each; a line item 1 on the table
    // and GSI2; a customer update 1; a GSI1 page of 25 orders reads 1.5.
    assert_eq!(
        plan,
        [
            // 10,000 × 1 + 10,000 × 1 over 100,000 customers.
            entry("table", "CUST#<customer_id>", (100_000.0, 1), 0.0, 0.2),
            // 20,000 line items over 10,000 orders.
            entry("table", "ORDER#<order_id>", (10_000.0, 1), 0.0, 2.0),
            // Every order on STATUS#PENDING: 10,000 write units per second
            // on one partition key value, 10 times what a partition takes.
            entry("GSI1", "STATUS#<status>", (1.0, 1), 150.0, 10_000.0),
            entry("GSI2", "ORDER#<order_id>", (10_000.0, 1), 0.0, 3.0),
        ]
    );
    let hot: Vec<(&str, u32)> = plan
        .iter()
        .filter(|entry| entry.hot())
        .map(|entry| (entry.template, entry.shards_needed()))
        .collect();
    assert_eq!(hot, [("STATUS#<status>", 10)]);
}

#[test]
fn the_sharded_status_index_of_the_reference_model_stays_under_the_limit() {
    // The reference model's GSI1 is sharded over 16 partition keys per
    // status: 625 write units per second on each, and 10 shards would do.
    let plan = definition()
        .plan(&ten_thousand_orders_per_second())
        .unwrap();
    let status = plan.iter().find(|entry| entry.index == "GSI1").unwrap();
    assert_eq!(
        *status,
        // A page reads every shard: 200 read units per second on each (a
        // page of orders, 623 bytes each with their 64-element vector, is 2
        // read units).
        entry("GSI1", "STATUS#<status>#<shard>", (1.0, 16), 200.0, 625.0)
    );
    assert!(!status.hot());
    assert_eq!(status.shards_needed(), 10);
    assert!(plan.iter().all(|entry| !entry.hot()));
}

#[test]
fn the_plan_is_a_markdown_table() {
    let text = unsharded_definition()
        .plan_markdown(&ten_thousand_orders_per_second())
        .unwrap();
    assert_eq!(
        text,
        "| index | partition key | values | shards | RCU/s per partition | WCU/s per partition | hot | shards needed |\n\
         |---|---|---|---|---|---|---|---|\n\
         | table | `CUST#<customer_id>` | 100000 | 1 | 0 | 0.2 | no | 1 |\n\
         | table | `ORDER#<order_id>` | 10000 | 1 | 0 | 2 | no | 1 |\n\
         | GSI1 | `STATUS#<status>` | 1 (not stated) | 1 | 150 | 10000 | **yes** | 10 |\n\
         | GSI2 | `ORDER#<order_id>` | 10000 | 1 | 0 | 3 | no | 1 |\n"
    );
    let sharded = definition()
        .plan_markdown(&ten_thousand_orders_per_second())
        .unwrap();
    assert!(
        sharded.contains(
            "| GSI1 | `STATUS#<status>#<shard>` | 1 (not stated) | 16 | 200 | 625 | no | 10 |\n"
        ),
        "{sharded}"
    );
}

// ---------------------------------------------------------------------------
// Issue 22, point 8: an LSI is in its table's partitions, and sharding is
// about writes.

/// A sensor's readings, by time on the table and by value on an LSI that
/// projects the keys only.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SENSOR#<sensor>"]
#[sk = "AT#<at>"]
#[lsi1(sk = "VALUE#<value>")]
struct Reading {
    sensor: String,
    at: u64,
    value: u32,
    unit: String,
}

fn readings() -> TableDefinition {
    TableDefinition::new()
        .entity::<Reading>()
        .index_projection("LSI1", stamp::schema::IndexProjection::KeysOnly)
        .example(&Reading {
            sensor: "s-1".into(),
            at: 1_700_000_000,
            value: 21,
            unit: "celsius".into(),
        })
        .unwrap()
}

#[test]
fn lsi_writes_count_on_the_tables_partition() {
    // 600 puts per second on one sensor: each writes the item (1 unit) and
    // its LSI entry (1 unit), both in the sensor's partition: 1,200 write
    // units per second there, over the 1,000 a partition serves.
    let workload = Workload::new().load(Load::of::<Reading>(Access::Put, 600.0));
    let plan = readings().plan(&workload).unwrap();
    assert_eq!(
        plan,
        [entry("table", "SENSOR#<sensor>", (1.0, 1), 0.0, 1_200.0)]
    );
    assert!(plan[0].hot());
    assert_eq!(plan[0].shards_needed(), 2);
}

#[test]
fn an_lsi_page_reads_on_the_tables_partition_with_its_table_fetch() {
    let definition = readings();
    let cost = definition.capacity().unwrap().remove(0);
    // A page of 25 entries (keys only) and the fetch of the 25 items.
    let page = cost.index_query_pages[0];
    let fetch = cost.index_query_fetches[0];
    assert_eq!(page, ("LSI1", 0.5));
    assert_eq!(fetch, ("LSI1", 0.5));
    let workload = Workload::new().load(Load::of::<Reading>(Access::LocalQueryPage(1), 100.0));
    let plan = definition.plan(&workload).unwrap();
    assert_eq!(
        plan,
        [entry("table", "SENSOR#<sensor>", (1.0, 1), 100.0, 0.0)]
    );
}

#[test]
fn shards_needed_counts_writes_only() {
    // 10,000 gets per second of one customer: 5,000 read units per second
    // on one partition key value, hot; write sharding does not spread
    // reads, so it needs no shards (but caching or another key).
    let workload = Workload::new().load(Load::of::<Customer>(Access::Get, 10_000.0));
    let plan = definition().plan(&workload).unwrap();
    assert_eq!(
        plan,
        [entry("table", "CUST#<customer_id>", (1.0, 1), 5_000.0, 0.0)]
    );
    assert!(plan[0].hot());
    assert_eq!(plan[0].shards_needed(), 1);
}
