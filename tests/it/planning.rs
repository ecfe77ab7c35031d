//! Planning past one partition (issue 16, point 6): the reference service
//! at 10,000 orders placed per second, on paper. Units per request come
//! from `TableDefinition::capacity` (tests/capacity.rs); the limits of one
//! partition are DynamoDB's 3,000 read and 1,000 write units per second.

use stamp::{Access, Load, PartitionLoad, TableDefinition, Workload};
use stamp_examples::{Customer, LineItem, Order};

fn definition() -> TableDefinition {
    stamp_examples::examples::definition().unwrap()
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
    values: f64,
    reads: f64,
    writes: f64,
) -> PartitionLoad {
    PartitionLoad {
        index,
        template,
        values,
        stated: values != 1.0,
        read_units: reads,
        write_units: writes,
    }
}

#[test]
fn the_status_index_runs_hot_at_ten_thousand_orders_per_second() {
    let plan = definition()
        .plan(&ten_thousand_orders_per_second())
        .unwrap();
    // Units per request (catalogue, "Capacity units"): an order put writes
    // 1 unit on the table, GSI1 and GSI2 each; a line item 1 on the table
    // and GSI2; a customer update 1; a GSI1 page of 25 orders reads 1.5.
    assert_eq!(
        plan,
        [
            // 10,000 × 1 + 10,000 × 1 over 100,000 customers.
            entry("table", "CUST#<customer_id>", 100_000.0, 0.0, 0.2),
            // 20,000 line items over 10,000 orders.
            entry("table", "ORDER#<order_id>", 10_000.0, 0.0, 2.0),
            // Every order on STATUS#PENDING: 10,000 write units per second
            // on one partition key value, 10 times what a partition takes.
            entry("GSI1", "STATUS#<status>", 1.0, 150.0, 10_000.0),
            entry("GSI2", "ORDER#<order_id>", 10_000.0, 0.0, 3.0),
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
fn a_sharded_status_index_stays_under_the_limit() {
    // The same load with the status spread over 16 shards (16 partition
    // key values): 625 write units per second on each.
    let plan = definition()
        .plan(&ten_thousand_orders_per_second().spread("STATUS#<status>", 16.0))
        .unwrap();
    let status = plan
        .iter()
        .find(|entry| entry.template == "STATUS#<status>")
        .unwrap();
    assert_eq!(status.write_units, 625.0);
    assert!(!status.hot());
    assert_eq!(status.shards_needed(), 1);
}

#[test]
fn the_plan_is_a_markdown_table() {
    let text = definition()
        .plan_markdown(&ten_thousand_orders_per_second())
        .unwrap();
    assert_eq!(
        text,
        "| index | partition key | values | RCU/s per value | WCU/s per value | hot | shards needed |\n\
         |---|---|---|---|---|---|---|\n\
         | table | `CUST#<customer_id>` | 100000 | 0 | 0.2 | no | 1 |\n\
         | table | `ORDER#<order_id>` | 10000 | 0 | 2 | no | 1 |\n\
         | GSI1 | `STATUS#<status>` | 1 (not stated) | 150 | 10000 | **yes** | 10 |\n\
         | GSI2 | `ORDER#<order_id>` | 10000 | 0 | 3 | no | 1 |\n"
    );
}
