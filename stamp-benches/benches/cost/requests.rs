//! Point 4b: the cost of each request against the embedded DynamoDB, Stamp
//! and the same request written by hand with aws-sdk-dynamodb, alternated
//! one call each over the same period (a drift-free ratio on a shared
//! machine), for get, put, query page, update, a transaction of two and one
//! of ten actions, the query of a GSI sharded 16 ways (Stamp's merged page
//! against 16 queries merged by hand), a 1 MB query page and a batch load,
//! with the spread of the pair ratios; then requests per second of one
//! client on one core (a current-thread runtime; the embedded server
//! answers on its own thread) for each request, alternating slices of a
//! tenth of the period; then, for point 7, the peak of the bytes allocated
//! by the 1 MB page and the merged page, both ways. The hand-written calls
//! encode with `serde_dynamo::to_item` + `format!` keys and decode with
//! `serde_dynamo::from_item`, as modyne users write them. They are the
//! requests Stamp sends: each asks for the consumed capacity
//! (`ReturnConsumedCapacity::Total`, which Stamp's metrics read), and each
//! transaction carries a `ClientRequestToken` (the SDK makes one for a
//! `TransactWriteItems` without one, as Stamp does), so the ratio is what
//! Stamp adds to the same request.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, Put, ReturnConsumedCapacity, TransactWriteItem, Update,
};
use futures::future::try_join_all;
use stamp::{AttributeMap, BatchWrite, Table, TableDefinition, TransactWrite};
use tokio::runtime::Runtime;

use crate::model::{self, Order, OrderStatus, ShardedOrder};
use crate::{Facts, alloc, benchmarking, hand};

mod ops;

use ops::Ops;

/// The customer whose partition the requests read and write.
const CUSTOMER: usize = 777_777;

/// Orders in that partition; the query reads the 10 newest.
const PARTITION_ORDERS: usize = 25;

/// The customer whose partition holds more than a 1 MB page of orders.
const PAGE_CUSTOMER: usize = 555_555;

/// Orders of [`PAGE_CUSTOMER`]: 1,100 of about 1,070 bytes, more than
/// DynamoDB's 1 MB page (fewer under `cargo test`).
fn page_orders() -> usize {
    if benchmarking() { 1_100 } else { 30 }
}

/// The shards of [`ShardedOrder`]'s GSI1.
const SHARDS: usize = 16;

/// The orders in the sharded index (all `PAID`), over 400 customers.
fn sharded_orders() -> usize {
    if benchmarking() { 1_600 } else { 64 }
}

/// The newest orders one merged page of the sharded index reads.
const SHARDED_PAGE: usize = 25;

/// Calls per side of each peak-memory measurement (the median is kept).
const PEAK_CALLS: usize = 5;

/// Alternated pairs per single-item operation (fewer under `cargo test`).
fn pairs() -> u32 {
    if benchmarking() { 300 } else { 2 }
}

/// Alternated pairs of the 1 MB page (tens of ms a call).
fn page_pairs() -> u32 {
    if benchmarking() { 60 } else { 1 }
}

/// Items of one alternated batch load, and the pairs of loads.
fn load() -> (usize, u32) {
    if benchmarking() { (2_000, 6) } else { (50, 1) }
}

/// How long each requests-per-second run lasts.
fn rate_period() -> Duration {
    if benchmarking() {
        Duration::from_secs(3)
    } else {
        Duration::from_millis(20)
    }
}

pub fn benches(facts: &mut Facts, endpoint: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a current-thread runtime");
    let client =
        runtime.block_on(async { Client::from_conf(stamp::local::config(endpoint).build()) });
    let definition = TableDefinition::new().entity::<Order>();
    let name = format!("stamp-bench-per-request-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client.clone(), name);
    let partition: Vec<Order> = (0..PARTITION_ORDERS)
        .map(|n| model::order(CUSTOMER, n))
        .collect();
    let sharded_table = Table::new(
        client.clone(),
        format!("stamp-bench-sharded-{}", uuid::Uuid::new_v4().simple()),
    );
    let page: Vec<Order> = (0..page_orders())
        .map(|n| model::order(PAGE_CUSTOMER, n))
        .collect();
    let sharded: Vec<ShardedOrder> = model::orders(sharded_orders(), 400)
        .into_iter()
        .map(ShardedOrder::from)
        .collect();
    runtime.block_on(async {
        table
            .create_table(&definition)
            .await
            .expect("create the table");
        sharded_table
            .create_table(&TableDefinition::new().entity::<ShardedOrder>())
            .await
            .expect("create the sharded table");
        BatchWrite::new()
            .put_all(&partition)
            .put_all(&page)
            .send(&table)
            .await
            .expect("seed");
        BatchWrite::new()
            .put_all(&sharded)
            .send(&sharded_table)
            .await
            .expect("seed the sharded index");
    });
    let ops = Ops {
        client: &client,
        table: &table,
        sharded_table: &sharded_table,
        read: &partition[3],
        written: model::order(CUSTOMER, PARTITION_ORDERS),
        counted: &partition[4],
        written_10: (1..=5)
            .map(|n| model::order(CUSTOMER, PARTITION_ORDERS + n))
            .collect(),
        counted_10: &partition[5..10],
    };
    let (page_items, page_bytes) = runtime.block_on(ops.check());
    facts.set("requests.page_1mb.items", page_items);
    facts.set("requests.page_1mb.bytes", page_bytes);
    facts.set("requests.sharded_query.shards", SHARDS);
    facts.set("requests.sharded_query.items", SHARDED_PAGE);
    facts.set("requests.sharded_query.orders", sharded.len());

    macro_rules! alternate {
        ($name:literal, $pairs:expr, $stamp:expr, $sdk:expr) => {{
            let pairs = $pairs;
            alternated(&runtime, pairs, || $stamp, || $sdk).record(facts, $name, pairs);
        }};
    }
    alternate!("get", pairs(), ops.stamp_get(), ops.sdk_get());
    alternate!("put", pairs(), ops.stamp_put(), ops.sdk_put());
    alternate!("query", pairs(), ops.stamp_query(), ops.sdk_query());
    alternate!("update", pairs(), ops.stamp_update(), ops.sdk_update());
    alternate!(
        "transaction",
        pairs(),
        ops.stamp_transaction(),
        ops.sdk_transaction()
    );
    alternate!(
        "transaction_10",
        pairs(),
        ops.stamp_transaction_10(),
        ops.sdk_transaction_10()
    );
    alternate!(
        "sharded_query",
        pairs(),
        ops.stamp_sharded_query(),
        ops.sdk_sharded_query()
    );
    alternate!("page_1mb", page_pairs(), ops.stamp_page(), ops.sdk_page());

    let (items, load_pairs) = load();
    let orders = model::orders(items, 400);
    alternated(
        &runtime,
        load_pairs,
        || async {
            let output = BatchWrite::new()
                .put_all(&orders)
                .send(&table)
                .await
                .unwrap();
            assert_eq!(output.written, orders.len());
        },
        || crate::server::sdk_batch_load(&client, table.name(), &orders),
    )
    .record(facts, "batch_load", load_pairs);
    facts.set("requests.batch_load.items", items);

    macro_rules! rate {
        ($name:literal, $stamp:expr, $sdk:expr) => {{
            let (stamp, sdk) = per_second(&runtime, || $stamp, || $sdk);
            facts.set(concat!("rate.", $name, ".stamp"), stamp);
            facts.set(concat!("rate.", $name, ".sdk"), sdk);
        }};
    }
    facts.set("rate.seconds", rate_period().as_secs_f64());
    rate!("get", ops.stamp_get(), ops.sdk_get());
    rate!("put", ops.stamp_put(), ops.sdk_put());
    rate!("query", ops.stamp_query(), ops.sdk_query());
    rate!("update", ops.stamp_update(), ops.sdk_update());
    rate!(
        "transaction",
        ops.stamp_transaction(),
        ops.sdk_transaction()
    );
    rate!(
        "transaction_10",
        ops.stamp_transaction_10(),
        ops.sdk_transaction_10()
    );
    rate!(
        "sharded_query",
        ops.stamp_sharded_query(),
        ops.sdk_sharded_query()
    );
    rate!("page_1mb", ops.stamp_page(), ops.sdk_page());

    // Point 7: the peak of the bytes allocated on this thread (the client's:
    // the runtime runs the SDK's connection tasks here) by one call.
    macro_rules! peak {
        ($name:literal, $stamp:expr, $sdk:expr) => {{
            let stamp = alloc::median_peak(PEAK_CALLS, || runtime.block_on($stamp));
            let sdk = alloc::median_peak(PEAK_CALLS, || runtime.block_on($sdk));
            facts.set(concat!("peak.", $name, ".stamp"), stamp);
            facts.set(concat!("peak.", $name, ".sdk"), sdk);
        }};
    }
    peak!("page_1mb", ops.stamp_page(), ops.sdk_page());
    peak!(
        "sharded_query",
        ops.stamp_sharded_query(),
        ops.sdk_sharded_query()
    );
    facts.set("peak.calls", PEAK_CALLS);

    runtime.block_on(async {
        for table in [&table, &sharded_table] {
            table.delete_table().await.expect("delete the table");
        }
    });
}

/// The times of `pairs` alternated calls of Stamp and of the SDK.
struct Alternated {
    stamp: Vec<Duration>,
    sdk: Vec<Duration>,
}

impl Alternated {
    /// Records the median call of each side in ns
    /// (`requests.NAME.stamp`, `.sdk`), the 25th and 75th percentiles of
    /// the pair ratios (`.ratio_p25`, `.ratio_p75`: each Stamp call over
    /// the SDK call after it) and the pairs.
    fn record(self, facts: &mut Facts, name: &str, pairs: u32) {
        let mut ratios: Vec<f64> = self
            .stamp
            .iter()
            .zip(&self.sdk)
            .map(|(stamp, sdk)| stamp.as_secs_f64() / sdk.as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        let key = |what: &str| format!("requests.{name}.{what}");
        facts.set(&key("stamp"), median(self.stamp));
        facts.set(&key("sdk"), median(self.sdk));
        facts.set(&key("ratio_p25"), ratios[ratios.len() / 4]);
        facts.set(&key("ratio_p75"), ratios[ratios.len() * 3 / 4]);
        facts.set(&key("pairs"), pairs);
    }
}

/// Runs `a` then `b`, `pairs` times (after one warm-up pair), and returns
/// their times (reported as medians: on a shared machine a few calls land
/// on another process's burst and would carry a mean).
fn alternated<A, B, FA, FB>(runtime: &Runtime, pairs: u32, mut a: A, mut b: B) -> Alternated
where
    A: FnMut() -> FA,
    B: FnMut() -> FB,
    FA: Future,
    FB: Future,
{
    runtime.block_on(async {
        a().await;
        b().await;
        let (mut a_times, mut b_times) = (Vec::new(), Vec::new());
        for _ in 0..pairs {
            let started = Instant::now();
            a().await;
            a_times.push(started.elapsed());
            let started = Instant::now();
            b().await;
            b_times.push(started.elapsed());
        }
        Alternated {
            stamp: a_times,
            sdk: b_times,
        }
    })
}

/// The median of some times, in ns.
fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_nanos() as f64
}

/// Sequential requests per second of `a` and of `b`, alternating slices of
/// a tenth of [`rate_period`] each, so both see the same machine load.
fn per_second<A, B, FA, FB>(runtime: &Runtime, mut a: A, mut b: B) -> (f64, f64)
where
    A: FnMut() -> FA,
    B: FnMut() -> FB,
    FA: Future,
    FB: Future,
{
    let slice = rate_period() / 10;
    runtime.block_on(async {
        let (mut a_done, mut b_done) = (0u32, 0u32);
        let (mut a_time, mut b_time) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..10 {
            let started = Instant::now();
            while started.elapsed() < slice {
                a().await;
                a_done += 1;
            }
            a_time += started.elapsed();
            let started = Instant::now();
            while started.elapsed() < slice {
                b().await;
                b_done += 1;
            }
            b_time += started.elapsed();
        }
        (
            f64::from(a_done) / a_time.as_secs_f64(),
            f64::from(b_done) / b_time.as_secs_f64(),
        )
    })
}
