//! Point 4b: the cost of each request against the embedded DynamoDB, Stamp
//! and the same request written by hand with aws-sdk-dynamodb, alternated
//! one call each over the same period (a drift-free ratio on a shared
//! machine), for get, put, query page, update, transaction and batch load;
//! then requests per second of one client on one core (a current-thread
//! runtime; the embedded server answers on its own thread) for get, put and
//! query, alternating slices of 0.3 s. The hand-written calls encode with `serde_dynamo::to_item` +
//! `format!` keys and decode with `serde_dynamo::from_item`, as modyne users
//! write them.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
use stamp::{BatchWrite, Table, TableDefinition, TransactWrite};
use tokio::runtime::Runtime;

use crate::model::{self, Order};
use crate::{Facts, benchmarking, hand};

/// The customer whose partition the requests read and write.
const CUSTOMER: usize = 777_777;

/// Orders in that partition; the query reads the 10 newest.
const PARTITION_ORDERS: usize = 25;

/// Alternated pairs per single-item operation (fewer under `cargo test`).
fn pairs() -> u32 {
    if benchmarking() { 300 } else { 2 }
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
    runtime.block_on(async {
        table
            .create_table(&definition)
            .await
            .expect("create the table");
        BatchWrite::new()
            .put_all(&partition)
            .send(&table)
            .await
            .expect("seed");
    });
    let ops = Ops {
        client: &client,
        table: &table,
        read: &partition[3],
        written: model::order(CUSTOMER, PARTITION_ORDERS),
        counted: &partition[4],
    };
    runtime.block_on(ops.check());

    let pairs = pairs();
    macro_rules! alternate {
        ($name:literal, $stamp:expr, $sdk:expr) => {{
            let (stamp, sdk) = alternated(&runtime, pairs, || $stamp, || $sdk);
            facts.set(concat!("requests.", $name, ".stamp"), stamp);
            facts.set(concat!("requests.", $name, ".sdk"), sdk);
        }};
    }
    alternate!("get", ops.stamp_get(), ops.sdk_get());
    alternate!("put", ops.stamp_put(), ops.sdk_put());
    alternate!("query", ops.stamp_query(), ops.sdk_query());
    alternate!("update", ops.stamp_update(), ops.sdk_update());
    alternate!(
        "transaction",
        ops.stamp_transaction(),
        ops.sdk_transaction()
    );
    facts.set("requests.pairs", pairs);

    let (items, load_pairs) = load();
    let orders = model::orders(items, 400);
    let (stamp, sdk) = alternated(
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
    );
    facts.set("requests.batch_load.stamp", stamp);
    facts.set("requests.batch_load.sdk", sdk);
    facts.set("requests.batch_load.items", items);
    facts.set("requests.batch_load.pairs", load_pairs);

    macro_rules! rate {
        ($name:literal, $stamp:expr, $sdk:expr) => {{
            let (stamp, sdk) = per_second(&runtime, || $stamp, || $sdk);
            facts.set(concat!("rate.", $name, ".stamp"), stamp);
            facts.set(concat!("rate.", $name, ".sdk"), sdk);
        }};
    }
    rate!("get", ops.stamp_get(), ops.sdk_get());
    rate!("put", ops.stamp_put(), ops.sdk_put());
    rate!("query", ops.stamp_query(), ops.sdk_query());
    runtime.block_on(async { table.delete_table().await.expect("delete the table") });
}

/// Runs `a` then `b`, `pairs` times (after one warm-up pair), and returns
/// their median times in ns: the median, because on a shared machine a few
/// calls land on another process's burst and would carry a mean.
fn alternated<A, B, FA, FB>(runtime: &Runtime, pairs: u32, mut a: A, mut b: B) -> (f64, f64)
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
        (median(a_times), median(b_times))
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

/// The requests, both ways, on one table.
struct Ops<'a> {
    client: &'a Client,
    table: &'a Table,
    /// The order `get` reads.
    read: &'a Order,
    /// The order `put` and the transaction write.
    written: Order,
    /// The order `update` and the transaction count on.
    counted: &'a Order,
}

impl Ops<'_> {
    /// Both ways give the same answers before anything is timed.
    async fn check(&self) {
        assert_eq!(self.stamp_get().await, self.sdk_get().await);
        assert_eq!(self.stamp_query().await, self.sdk_query().await);
    }

    fn key(order: &Order) -> (AttributeValue, AttributeValue) {
        let item = hand::serde_order_to_item(order).unwrap();
        (item["PK"].clone(), item["SK"].clone())
    }

    async fn stamp_get(&self) -> Order {
        let read = self.read;
        let key = Order::key(&read.customer_id, &read.created_at, &read.order_id).unwrap();
        self.table.get(&key).await.unwrap().unwrap()
    }

    async fn sdk_get(&self) -> Order {
        let (pk, sk) = Self::key(self.read);
        let output = self
            .client
            .get_item()
            .table_name(self.table.name())
            .key("PK", pk)
            .key("SK", sk)
            .send()
            .await
            .unwrap();
        hand::serde_from_item(output.item.unwrap()).unwrap()
    }

    async fn stamp_put(&self) {
        self.table.put(&self.written).await.unwrap();
    }

    async fn sdk_put(&self) {
        self.client
            .put_item()
            .table_name(self.table.name())
            .set_item(Some(hand::serde_order_to_item(&self.written).unwrap()))
            .send()
            .await
            .unwrap();
    }

    async fn stamp_query(&self) -> Vec<Order> {
        Order::query(&format!("c-{CUSTOMER:06}"))
            .newest_first()
            .limit(10)
            .send(self.table)
            .await
            .unwrap()
            .items
    }

    async fn sdk_query(&self) -> Vec<Order> {
        crate::server::sdk_query_of(self.client, self.table.name(), CUSTOMER).await
    }

    fn stamp_count(&self) -> stamp::Update<Order> {
        let counted = self.counted;
        Order::update(&counted.customer_id, &counted.created_at, &counted.order_id)
            .add(Order::LINE_COUNT, &1)
    }

    /// `ADD line_count 1` on an existing order, as Stamp renders it.
    fn sdk_count(&self) -> Update {
        let (pk, sk) = Self::key(self.counted);
        Update::builder()
            .table_name(self.table.name())
            .key("PK", pk)
            .key("SK", sk)
            .update_expression("ADD #n0 :v0")
            .condition_expression("attribute_exists(#n1)")
            .expression_attribute_names("#n0", "line_count")
            .expression_attribute_names("#n1", "PK")
            .expression_attribute_values(":v0", AttributeValue::N("1".to_owned()))
            .build()
            .unwrap()
    }

    async fn stamp_update(&self) {
        self.stamp_count().send(self.table).await.unwrap();
    }

    async fn sdk_update(&self) {
        let update = self.sdk_count();
        self.client
            .update_item()
            .table_name(self.table.name())
            .set_key(Some(update.key))
            .update_expression(update.update_expression)
            .set_condition_expression(update.condition_expression)
            .set_expression_attribute_names(update.expression_attribute_names)
            .set_expression_attribute_values(update.expression_attribute_values)
            .send()
            .await
            .unwrap();
    }

    /// A put of one order and the count on another, in one transaction.
    async fn stamp_transaction(&self) {
        TransactWrite::new()
            .put(&self.written)
            .update(self.stamp_count())
            .send(self.table)
            .await
            .unwrap();
    }

    async fn sdk_transaction(&self) {
        let put = Put::builder()
            .table_name(self.table.name())
            .set_item(Some(hand::serde_order_to_item(&self.written).unwrap()))
            .build()
            .unwrap();
        self.client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(
                TransactWriteItem::builder()
                    .update(self.sdk_count())
                    .build(),
            )
            .send()
            .await
            .unwrap();
    }
}
