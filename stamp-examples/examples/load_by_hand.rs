//! Where the demo's load spends its time: the demo's 25,555 items loaded by
//! Stamp (`scenario::load`, as `cargo xtask demo` does) and by hand through
//! the SDK (`BatchWriteItem` of 25 items, 8 requests at once, the items
//! encoded by `Entity::to_item` beforehand), and by hand again without the
//! vectors (orders' `order_embedding`, products' `embedding`), each into a
//! fresh table of one embedded DynamoDB in this process.
//!
//! The client runs on this thread (a current-thread runtime) and the server
//! on its own (`LocalDynamoDb::start_in_background`), so each thread's CPU
//! time (`/proc/self/task/*/schedstat`) says who did the work; CPU time,
//! unlike wall time, holds on a machine busy with other work.
//!
//! `cargo run -p stamp-examples --example load_by_hand`

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use futures::StreamExt;
use stamp::local::LocalDynamoDb;
use stamp::{AttributeMap, Entity, Table};
use stamp_examples::data::{self, Size};
use stamp_examples::{scenario, table_definition};

/// CPU time of this thread (the client) and of all the others (the server).
fn cpu() -> (Duration, Duration) {
    let me = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns = |text: &str| {
        text.split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let client = ns(&me);
    let mut all = 0;
    for task in std::fs::read_dir("/proc/self/task").into_iter().flatten() {
        let path = task.map(|t| t.path().join("schedstat"));
        if let Ok(text) = path.and_then(std::fs::read_to_string) {
            all += ns(&text);
        }
    }
    (
        Duration::from_nanos(client),
        Duration::from_nanos(all.saturating_sub(client)),
    )
}

/// Runs `load` and prints its wall time and the CPU time of each side.
async fn measure<F: Future<Output = ()>>(label: &str, load: F) {
    let (client, server) = cpu();
    let started = Instant::now();
    load.await;
    let wall = started.elapsed();
    let (client_after, server_after) = cpu();
    println!(
        "{label:<28} wall {:>6.2} s   client CPU {:>6.2} s   server CPU {:>6.2} s",
        wall.as_secs_f64(),
        (client_after - client).as_secs_f64(),
        (server_after - server).as_secs_f64()
    );
}

async fn fresh(server: &LocalDynamoDb, name: &str) -> Table {
    let table = server.table(name);
    table
        .create_table(&table_definition())
        .await
        .expect("create");
    table
}

/// `BatchWriteItem` by hand: 25 puts a request, 8 requests at once,
/// unprocessed items sent again.
async fn by_hand(table: &Table, items: &[AttributeMap]) {
    let requests: Vec<Vec<WriteRequest>> = items
        .chunks(25)
        .map(|chunk| {
            chunk
                .iter()
                .map(|item| {
                    WriteRequest::builder()
                        .put_request(
                            PutRequest::builder()
                                .set_item(Some(item.clone()))
                                .build()
                                .expect("an item"),
                        )
                        .build()
                })
                .collect()
        })
        .collect();
    futures::stream::iter(requests)
        .map(|mut batch| async move {
            while !batch.is_empty() {
                let answer = table
                    .client()
                    .batch_write_item()
                    .request_items(table.name(), batch)
                    .send()
                    .await
                    .expect("BatchWriteItem");
                batch = answer
                    .unprocessed_items
                    .and_then(|mut left| left.remove(table.name()))
                    .unwrap_or_default();
            }
        })
        .buffer_unordered(8)
        .collect::<Vec<()>>()
        .await;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = LocalDynamoDb::start_in_background().expect("the embedded DynamoDB");
    let data = data::generate(data::SEED, Size::DEMO);
    println!("{} items", data.len());

    let (client, _) = cpu();
    let mut items: Vec<AttributeMap> = Vec::with_capacity(data.len());
    items.extend(data.products.iter().map(|p| p.to_item().expect("item")));
    items.extend(data.customers.iter().map(|c| c.to_item().expect("item")));
    items.extend(data.orders.iter().map(|o| o.to_item().expect("item")));
    items.extend(data.line_items.iter().map(|l| l.to_item().expect("item")));
    items.extend(data.sessions.iter().map(|s| s.to_item().expect("item")));
    println!(
        "{:<28} client CPU {:>6.2} s",
        "encode (Entity::to_item)",
        (cpu().0 - client).as_secs_f64()
    );
    let without_vectors: Vec<AttributeMap> = items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            item.remove("order_embedding");
            item.remove("embedding");
            item
        })
        .collect();

    let plain = fresh(&server, "by-hand-no-vectors").await;
    measure("SDK by hand, no vectors", by_hand(&plain, &without_vectors)).await;
    let hand = fresh(&server, "by-hand").await;
    measure("SDK by hand", by_hand(&hand, &items)).await;
    let stamped = fresh(&server, "stamp").await;
    measure("Stamp (scenario::load)", async {
        scenario::load(&stamped, &data, 1_000, |_| {})
            .await
            .expect("load");
    })
    .await;
}
