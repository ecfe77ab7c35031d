//! Points 4 and 5: requests end to end against the embedded DynamoDB
//! (`stamp::local`, or the endpoint in `STAMP_DYNAMODB_ENDPOINT`), Stamp
//! against the hand-written SDK calls on the same client, table and data, in
//! the same run.

use stamp::BatchWrite;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, ReturnConsumedCapacity, WriteRequest};
use criterion::{Criterion, SamplingMode};
use futures::{StreamExt, TryStreamExt, stream};
use stamp::{Table, TableDefinition, ops::DEFAULT_BATCH_CONCURRENCY};
use tokio::runtime::Runtime;

use crate::model::{self, Order};
use crate::{Facts, benchmarking, hand};

/// The customer whose orders the query reads.
const CUSTOMER: usize = 999_999;

/// Orders in the queried partition; the query reads the 10 newest.
const PARTITION_ORDERS: usize = 25;

/// Items per query page.
const QUERY_LIMIT: i32 = 10;

/// The items loaded in batches (fewer in test mode, to keep `cargo test` short).
fn load_items() -> usize {
    if benchmarking() { 10_000 } else { 250 }
}

pub fn benches(criterion: &mut Criterion, facts: &mut Facts) {
    let runtime = Runtime::new().expect("a tokio runtime");
    let embedded = match std::env::var("STAMP_DYNAMODB_ENDPOINT") {
        Ok(url) if !url.is_empty() => None,
        _ => Some(
            stamp::local::LocalDynamoDb::start_in_background()
                .expect("start the embedded DynamoDB"),
        ),
    };
    let endpoint = match &embedded {
        Some(server) => server.endpoint().to_owned(),
        None => std::env::var("STAMP_DYNAMODB_ENDPOINT").expect("set"),
    };
    let client = Client::from_conf(stamp::local::config(&endpoint).build());
    let definition = TableDefinition::new().entity::<Order>();
    let name = |what: &str| format!("stamp-bench-{what}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client.clone(), name("requests"));
    let load_table = Table::new(client.clone(), name("load"));
    runtime.block_on(async {
        table
            .create_table(&definition)
            .await
            .expect("create the table");
        load_table
            .create_table(&definition)
            .await
            .expect("create the load table");
        let partition: Vec<Order> = (0..PARTITION_ORDERS)
            .map(|n| model::order(CUSTOMER, n))
            .collect();
        BatchWrite::new()
            .put_all(&partition)
            .send(&table)
            .await
            .expect("seed the partition");
        // Both read the same page.
        let stamp = stamp_query(&table).await;
        assert_eq!(stamp.len(), QUERY_LIMIT as usize);
        assert_eq!(stamp, sdk_query(&client, table.name()).await);
    });
    facts.set("server.endpoint", &endpoint);
    facts.set("server.query_items", QUERY_LIMIT);
    facts.set("server.load_items", load_items());
    facts.set("server.batch_concurrency", DEFAULT_BATCH_CONCURRENCY);

    let mut group = criterion.benchmark_group("server_query");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("stamp", |b| {
        b.to_async(&runtime).iter(|| stamp_query(&table))
    });
    group.bench_function("sdk", |b| {
        b.to_async(&runtime)
            .iter(|| sdk_query(&client, table.name()))
    });
    group.finish();

    let order = model::order(CUSTOMER, PARTITION_ORDERS);
    let mut group = criterion.benchmark_group("server_put");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("stamp", |b| {
        b.to_async(&runtime)
            .iter(|| async { table.put(&order).await.unwrap() })
    });
    group.bench_function("sdk", |b| {
        b.to_async(&runtime)
            .iter(|| sdk_put(&client, table.name(), &order))
    });
    group.finish();

    // Criterion measures Stamp, then the SDK: on a shared machine the
    // server's speed can drift between the two. Alternating the two calls
    // over the same period gives a second, drift-free ratio.
    if benchmarking() {
        let (stamp, sdk) = interleaved(
            &runtime,
            INTERLEAVED_PAIRS,
            || stamp_query(&table),
            || sdk_query(&client, table.name()),
        );
        facts.set("interleaved.server_query.stamp", stamp);
        facts.set("interleaved.server_query.sdk", sdk);
        let (stamp, sdk) = interleaved(
            &runtime,
            INTERLEAVED_PAIRS,
            || async { table.put(&order).await.unwrap() },
            || sdk_put(&client, table.name(), &order),
        );
        facts.set("interleaved.server_put.stamp", stamp);
        facts.set("interleaved.server_put.sdk", sdk);
        facts.set("interleaved.pairs", INTERLEAVED_PAIRS);
    }

    let orders = model::orders(load_items(), 400);
    // Both measure overwrites of existing items: the first load into the
    // empty table is not timed.
    runtime.block_on(sdk_batch_load(&client, load_table.name(), &orders));
    let mut group = criterion.benchmark_group("server_batch_load");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(30));
    group.bench_function("stamp", |b| {
        b.to_async(&runtime).iter(|| async {
            let output = BatchWrite::new()
                .put_all(&orders)
                .send(&load_table)
                .await
                .unwrap();
            assert_eq!(output.written, orders.len());
        })
    });
    group.bench_function("sdk", |b| {
        b.to_async(&runtime)
            .iter(|| sdk_batch_load(&client, load_table.name(), &orders))
    });
    group.finish();

    crate::requests::benches(facts, &endpoint);

    runtime.block_on(async {
        for table in [&table, &load_table] {
            table.delete_table().await.expect("delete the table");
        }
    });
}

/// Request pairs of the interleaved check.
const INTERLEAVED_PAIRS: u32 = 100;

/// Runs `a` then `b`, `pairs` times, and returns their mean times in ns.
fn interleaved<A, B, FA, FB>(runtime: &Runtime, pairs: u32, mut a: A, mut b: B) -> (f64, f64)
where
    A: FnMut() -> FA,
    B: FnMut() -> FB,
    FA: Future,
    FB: Future,
{
    let (mut a_total, mut b_total) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..pairs {
        let started = Instant::now();
        runtime.block_on(a());
        a_total += started.elapsed();
        let started = Instant::now();
        runtime.block_on(b());
        b_total += started.elapsed();
    }
    let mean = |total: Duration| total.as_nanos() as f64 / f64::from(pairs);
    (mean(a_total), mean(b_total))
}

async fn stamp_query(table: &Table) -> Vec<Order> {
    Order::query(&format!("c-{CUSTOMER:06}"))
        .newest_first()
        .limit(QUERY_LIMIT as u32)
        .send(table)
        .await
        .unwrap()
        .items
}

/// The same access pattern by hand: the customer's newest orders.
async fn sdk_query(client: &Client, table: &str) -> Vec<Order> {
    sdk_query_of(client, table, CUSTOMER).await
}

/// The 10 newest orders of customer `customer`, by hand.
pub(crate) async fn sdk_query_of(client: &Client, table: &str, customer: usize) -> Vec<Order> {
    let output = client
        .query()
        .table_name(table)
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_names("#sk", "SK")
        .expression_attribute_values(":pk", AttributeValue::S(format!("CUST#c-{customer:06}")))
        .expression_attribute_values(":sk", AttributeValue::S("ORDER#".to_owned()))
        .scan_index_forward(false)
        .limit(QUERY_LIMIT)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    output
        .items
        .unwrap_or_default()
        .into_iter()
        .map(hand::serde_from_item)
        .collect::<Result<_, _>>()
        .unwrap()
}

async fn sdk_put(client: &Client, table: &str, order: &Order) {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(hand::serde_order_to_item(order).unwrap()))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
}

/// A hand-written batch load: groups of 25, `DEFAULT_BATCH_CONCURRENCY`
/// requests at once, unprocessed items sent again after a short pause.
pub(crate) async fn sdk_batch_load(client: &Client, table: &str, orders: &[Order]) {
    stream::iter(orders.chunks(25))
        .map(|chunk| async move {
            let mut requests: Vec<WriteRequest> = chunk
                .iter()
                .map(|order| {
                    let item = hand::serde_order_to_item(order).unwrap();
                    WriteRequest::builder()
                        .put_request(PutRequest::builder().set_item(Some(item)).build().unwrap())
                        .build()
                })
                .collect();
            let mut retry = 0;
            loop {
                let output = client
                    .batch_write_item()
                    .request_items(table, requests)
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send()
                    .await?;
                match output
                    .unprocessed_items
                    .and_then(|mut unprocessed| unprocessed.remove(table))
                    .filter(|rest| !rest.is_empty())
                {
                    None => return Ok::<_, aws_sdk_dynamodb::Error>(()),
                    Some(rest) => {
                        requests = rest;
                        retry += 1;
                        tokio::time::sleep(Duration::from_millis(50 << retry.min(6))).await;
                    }
                }
            }
        })
        .buffer_unordered(DEFAULT_BATCH_CONCURRENCY)
        .try_collect::<()>()
        .await
        .unwrap();
}
