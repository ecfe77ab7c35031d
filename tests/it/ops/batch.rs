//! Batch writes and gets against the local server: splitting, parallel
//! requests, retries of unprocessed items and throttled requests (injected
//! through an SDK interceptor), and exact reports of what was not written.

use crate::common;
use stamp::error::{DecodeError, Refusal};

use stamp::{BatchGet, BatchWrite};
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{AttributeValue, WriteRequest};
use common::FaultInjector;
use serde::{Deserialize, Serialize};
use stamp::{Entity, Error, Item, PrimaryKey, Table, TableDefinition, ops::BatchRetry};
use stamp_examples::Product;

/// Its own order entity: `note` sizes an item (up to over 400 KB) and `order_no` spreads keys.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_no>"]
struct Order {
    customer_id: String,
    order_no: u32,
    total_cents: u64,
    note: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Order>().entity::<Product>()
}

/// Order `n`, in a partition of its own (`CUST#c-n`), with a total and a
/// note that depend on `n`: keys spread over many partitions, as a bulk
/// load's are.
fn order(n: u32) -> Order {
    Order {
        customer_id: format!("c-{n}"),
        order_no: n,
        total_cents: 100 + u64::from(n) * 7,
        note: format!("order number {n}"),
    }
}

fn order_key(n: u32) -> PrimaryKey<Order> {
    Order::key(&format!("c-{n}"), &n).unwrap()
}

/// Retries fast enough for tests: up to `max_retries`, delays under 20 ms.
fn quick_retry(max_retries: u32) -> BatchRetry {
    BatchRetry {
        max_retries,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(20),
    }
}

/// `("put" | "delete", PK, SK)` of a write request.
fn describe(request: &WriteRequest) -> (&'static str, String, String) {
    let (kind, map) = match (&request.put_request, &request.delete_request) {
        (Some(put), _) => ("put", &put.item),
        (None, Some(delete)) => ("delete", &delete.key),
        (None, None) => unreachable!(),
    };
    let text = |name: &str| map[name].as_s().unwrap().clone();
    (kind, text("PK"), text("SK"))
}

fn sort_key_of(item: &std::collections::HashMap<String, AttributeValue>) -> &str {
    item["SK"].as_s().unwrap()
}

#[tokio::test]
async fn ten_thousand_items_survive_throttling_and_unprocessed_items() {
    // Every 7th call is throttled; every 5th item seen is reported
    // unprocessed (without the server seeing it), each key at most 3 times
    // (the retry allows 10 attempts), so the outcome does not depend on how
    // the 8 concurrent requests interleave.
    let injector = FaultInjector::new(
        |call| call % 7 == 0,
        common::at_most_per_key(3, |number| number % 5 == 2),
    );
    let (table, counter) =
        common::fresh_faulty_table("batch-fault", &definition(), injector.clone()).await;
    let orders: Vec<Order> = (0..10_000).map(order).collect();

    let started = Instant::now();
    let output = BatchWrite::new()
        .put_all(&orders)
        .max_concurrency(8)
        .retry(quick_retry(10))
        .send(&table)
        .await
        .unwrap();
    let elapsed = started.elapsed();

    let throttled = injector.throttled.load(Ordering::Relaxed);
    let dropped = injector.dropped.load(Ordering::Relaxed);
    let delivered = injector.delivered.load(Ordering::Relaxed);
    println!(
        "10,000 puts: {} requests ({} retries; {throttled} throttled, {dropped} items reported unprocessed) in {elapsed:?}",
        output.requests, output.retries
    );
    assert_eq!(output.written, 10_000);
    // Nothing written twice: each item reached the table exactly once.
    assert_eq!(delivered, 10_000);
    assert_eq!(output.throttled, throttled);
    assert!(
        throttled > 0 && dropped > 1000,
        "faults were injected: {throttled} throttled, {dropped} dropped"
    );
    assert_eq!(output.requests, counter.count("BatchWriteItem"));
    assert_eq!(output.requests, 400 + output.retries);

    // Read back with a plain scan: exactly the 10,000 items, equal.
    let stored = common::items_by_key(&table).await;
    assert_eq!(stored.len(), 10_000);
    for order in &orders {
        let key = order.primary_key().unwrap();
        let item = stored[&(key.partition_key().to_owned(), key.sort_key().to_owned())].clone();
        assert_eq!(&Order::from_item(item).unwrap(), order);
    }

    // And with batch gets through the same faults (throttled calls and
    // unprocessed keys): every item, in key order.
    counter.reset();
    let keys: Vec<PrimaryKey<Order>> = (0..10_000).map(order_key).collect();
    let read = BatchGet::new(keys)
        .max_concurrency(8)
        .retry(quick_retry(10))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(read.len(), 10_000);
    for (n, item) in read.into_iter().enumerate() {
        assert_eq!(item.as_ref(), Some(&orders[n]));
    }
    assert!(
        counter.count("BatchGetItem") > 100,
        "{} BatchGetItem requests",
        counter.count("BatchGetItem")
    );
}

#[tokio::test]
async fn when_retries_run_out_the_error_holds_exactly_the_requests_not_written() {
    // Items whose sort key ends in 3 are never processed.
    let injector = FaultInjector::new(|_| false, |_, item| sort_key_of(item).ends_with('3'));
    let (table, counter) =
        common::fresh_faulty_table("batch-exhausted", &definition(), injector.clone()).await;
    // Items 100..120 exist before; the batch deletes them.
    let plain = Table::new(common::client(), table.name());
    BatchWrite::new()
        .put_all(&(100..120).map(order).collect::<Vec<_>>())
        .send(&plain)
        .await
        .unwrap();

    let result = BatchWrite::new()
        .put_all(&(0..100).map(order).collect::<Vec<_>>())
        .delete_all((100..120).map(order_key))
        .retry(quick_retry(3))
        .send(&table)
        .await;
    let Err(Error::UnprocessedItems {
        written,
        unprocessed,
        attempts,
        cause,
        ..
    }) = result
    else {
        panic!("expected UnprocessedItems, got {result:?}");
    };
    let expected: BTreeSet<(&str, String, String)> = (0..100)
        .filter(|n| n % 10 == 3)
        .map(|n| ("put", n))
        .chain([("delete", 103), ("delete", 113)])
        .map(|(kind, n)| {
            let key = order_key(n);
            (
                kind,
                key.partition_key().to_owned(),
                key.sort_key().to_owned(),
            )
        })
        .collect();
    let got: BTreeSet<_> = unprocessed.iter().map(describe).collect();
    assert_eq!(got, expected);
    assert_eq!(unprocessed.len(), 12);
    assert_eq!(written, 120 - 12);
    assert_eq!(attempts, 4);
    assert!(cause.is_none());
    // The put requests returned are the items as they would be written.
    for request in &unprocessed {
        if let Some(put) = &request.put_request {
            let n = Order::from_item(put.item.clone()).unwrap().order_no;
            assert_eq!(Order::from_item(put.item.clone()).unwrap(), order(n));
        }
    }
    // 120 requests in 5 groups of at most 25, each with a doomed item: each
    // group sent its request and 3 retries.
    assert_eq!(counter.count("BatchWriteItem"), 5 * 4);

    // The table holds exactly what the error says: the 90 other puts, and
    // the two items whose delete was not done.
    let stored: BTreeSet<String> = common::items_by_key(&table)
        .await
        .into_keys()
        .map(|(_, sort_key)| sort_key)
        .collect();
    let expected: BTreeSet<String> = (0..100)
        .filter(|n| n % 10 != 3)
        .chain([103, 113])
        .map(|n| order_key(n).sort_key().to_owned())
        .collect();
    assert_eq!(stored, expected);
}

#[tokio::test]
async fn batch_get_returns_the_keys_it_could_not_read() {
    let injector = FaultInjector::new(|_| false, |_, key| sort_key_of(key).ends_with('7'));
    let (table, _counter) =
        common::fresh_faulty_table("batch-get-exhausted", &definition(), injector).await;
    // Orders 0..25 exist (single puts: the injector sees only batches); 25..30 do not.
    for n in 0..25 {
        table.put(&order(n)).await.unwrap();
    }
    let result = BatchGet::new((0..30).map(order_key))
        .retry(quick_retry(2))
        .send(&table)
        .await;
    let Err(Error::UnprocessedKeys {
        keys,
        attempts,
        entity,
        items,
        ..
    }) = result
    else {
        panic!("expected UnprocessedKeys, got {result:?}");
    };
    assert_eq!(entity, "Order");
    assert_eq!(attempts, 3);
    let got: BTreeSet<String> = keys.iter().map(|key| sort_key_of(key).to_owned()).collect();
    let expected: BTreeSet<String> = [7, 17, 27]
        .map(|n| order_key(n).sort_key().to_owned())
        .into();
    assert_eq!(got, expected);
    // What was read comes back too, in the order of the keys: every order
    // below 25 but 7 and 17 (25..30 have no item).
    let read: Vec<Order> = items
        .into_iter()
        .map(|item| Order::from_item(item).unwrap())
        .collect();
    let expected: Vec<Order> = (0..25).filter(|n| n % 10 != 7).map(order).collect();
    assert_eq!(read, expected);
}

#[tokio::test]
async fn a_request_that_fails_for_good_stops_the_batch_and_returns_every_unwritten_item() {
    let (client, counter) = common::counting_client();
    let table = Table::new(client, "stamp-batch-no-such-table");
    let result = BatchWrite::new()
        .put_all(&(0..60).map(order).collect::<Vec<_>>())
        .max_concurrency(1)
        .send(&table)
        .await;
    let Err(Error::UnprocessedItems {
        written,
        unprocessed,
        cause,
        ..
    }) = result
    else {
        panic!("expected UnprocessedItems, got {result:?}");
    };
    assert_eq!(written, 0);
    assert_eq!(unprocessed.len(), 60);
    assert!(
        matches!(
            cause.as_deref(),
            Some(aws_sdk_dynamodb::Error::ResourceNotFoundException(_))
        ),
        "{cause:?}"
    );
    // No request is started after the failure.
    assert_eq!(counter.operations(), ["BatchWriteItem"]);
}

#[tokio::test]
async fn mixed_entities_are_written_and_deleted_in_requests_of_25() {
    let (table, counter) = common::fresh_counted_table("batch-mixed", &definition()).await;
    let products: Vec<Product> = (0..30)
        .map(|i| Product {
            sku: format!("SKU-{i}"),
            stock: i,
            ..stamp_examples::examples::product()
        })
        .collect();
    let batch = BatchWrite::new()
        .put_all(&(0..40).map(order).collect::<Vec<_>>())
        .put_all(&products);
    assert_eq!(
        batch
            .requests(table.name())
            .unwrap()
            .iter()
            .map(|request| request
                .request_items()
                .and_then(|items| items.get(table.name()))
                .map_or(0, Vec::len))
            .collect::<Vec<_>>(),
        [25, 25, 20]
    );
    assert!(counter.operations().is_empty());
    let output = batch.send(&table).await.unwrap();
    assert_eq!(output.written, 70);
    assert_eq!(
        (output.requests, output.retries, output.throttled),
        (3, 0, 0)
    );
    assert_eq!(counter.count("BatchWriteItem"), 3);

    let output = BatchWrite::new()
        .delete_all((0..40).filter(|n| n % 2 == 0).map(order_key))
        .delete(Product::key("SKU-3").unwrap())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(output.written, 21);

    counter.reset();
    let read = BatchGet::new((0..40).map(order_key))
        .send(&table)
        .await
        .unwrap();
    let expected: Vec<Option<Order>> = (0..40).map(|n| (n % 2 == 1).then(|| order(n))).collect();
    assert_eq!(read, expected);
    let read = BatchGet::new(
        ["SKU-2", "SKU-3", "SKU-29", "SKU-404"].map(|sku| Product::key(sku).unwrap()),
    )
    .consistent_read()
    .send(&table)
    .await
    .unwrap();
    assert_eq!(
        read,
        [
            Some(products[2].clone()),
            None,
            Some(products[29].clone()),
            None
        ]
    );
    assert_eq!(counter.operations(), ["BatchGetItem", "BatchGetItem"]);
}

#[tokio::test]
async fn batch_get_reads_250_keys_in_three_requests_in_key_order() {
    let (table, counter) = common::fresh_counted_table("batch-get", &definition()).await;
    BatchWrite::new()
        .put_all(&(0..200).map(order).collect::<Vec<_>>())
        .send(&table)
        .await
        .unwrap();
    counter.reset();
    // Keys in reverse order, with 50 that do not exist.
    let read = BatchGet::new((0..250).rev().map(order_key))
        .send(&table)
        .await
        .unwrap();
    let expected: Vec<Option<Order>> = (0..250)
        .rev()
        .map(|n| (n < 200).then(|| order(n)))
        .collect();
    assert_eq!(read, expected);
    assert_eq!(counter.operations(), ["BatchGetItem"; 3]);
}

#[tokio::test]
async fn refusals_before_sending_send_nothing() {
    let (table, counter) = common::fresh_counted_table("batch-refusals", &definition()).await;

    // The same primary key twice: as two puts, as a put and a delete.
    let mut changed = order(1);
    changed.note = "changed".into();
    let result = BatchWrite::new()
        .put(&order(1))
        .put(&order(2))
        .put(&changed)
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::DuplicateBatchKey {
            operation: "BatchWriteItem",
            entity: "Order",
            key,
        })) => {
            assert_eq!(key.to_attribute_map(), order_key(1).to_attribute_map());
        }
        other => panic!("expected DuplicateBatchKey, got {other:?}"),
    }
    let result = BatchWrite::new()
        .put(&order(5))
        .delete(order_key(5))
        .send(&table)
        .await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::DuplicateBatchKey {
                operation: "BatchWriteItem",
                ..
            }))
        ),
        "{result:?}"
    );
    let result = BatchGet::new([order_key(1), order_key(2), order_key(1)])
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::DuplicateBatchKey {
            operation: "BatchGetItem",
            entity: "Order",
            key,
        })) => {
            assert_eq!(key.to_attribute_map(), order_key(1).to_attribute_map());
        }
        other => panic!("expected DuplicateBatchKey, got {other:?}"),
    }

    // An item over 400 KB, anywhere in the batch.
    let mut big = order(7);
    big.note = "x".repeat(400 * 1024);
    let result = BatchWrite::new()
        .put_all(
            &(0..30)
                .map(order)
                .filter(|o| o.order_no != 7)
                .collect::<Vec<_>>(),
        )
        .put(&big)
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::ItemTooLarge {
            entity: "Order",
            key,
            size,
            limit: 409_600,
        })) => {
            assert_eq!(key.to_attribute_map(), order_key(7).to_attribute_map());
            assert!(size > 409_600);
        }
        other => panic!("expected ItemTooLarge, got {other:?}"),
    }

    // Empty batches are done without a request.
    assert_eq!(
        BatchWrite::new().send(&table).await.unwrap(),
        stamp::ops::BatchWriteOutput::default()
    );
    assert_eq!(
        BatchGet::new(Vec::<PrimaryKey<Order>>::new())
            .send(&table)
            .await
            .unwrap(),
        []
    );

    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn requests_run_in_parallel_up_to_the_limit() {
    let (table, in_flight) = common::fresh_measured_table("batch-parallel", &definition()).await;
    let orders: Vec<Order> = (0..500).map(order).collect();
    let output = BatchWrite::new()
        .put_all(&orders)
        .max_concurrency(3)
        .send(&table)
        .await
        .unwrap();
    assert_eq!((output.written, output.requests), (500, 20));
    assert_eq!(in_flight.max.load(Ordering::SeqCst), 3);

    in_flight.max.store(0, Ordering::SeqCst);
    let read = BatchGet::new((0..500).map(order_key))
        .max_concurrency(1)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(read.into_iter().flatten().count(), 500);
    assert_eq!(in_flight.max.load(Ordering::SeqCst), 1);
}

/// Issue 22, point 16: the documented errors of `BatchWrite::send` and
/// `BatchGet::send` that no other test produced: items that cannot be
/// stored (`InvalidNumber`, `Serialize`, before anything is sent) and a
/// stored item that does not decode (the errors of `from_item`).
#[tokio::test]
async fn an_invalid_number_and_an_undecodable_item_in_a_batch() {
    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "READING#<id>"]
    #[sk = "READING"]
    struct Reading {
        id: String,
        value: f64,
    }
    let definition = definition().entity::<Reading>();
    let (table, counter) = common::fresh_counted_table("batch-documented", &definition).await;
    counter.reset();
    let nan = Reading {
        id: "r-1".into(),
        value: f64::NAN,
    };
    let result = BatchWrite::new()
        .put(&order(1))
        .put(&nan)
        .send(&table)
        .await;
    assert!(
        matches!(&result, Err(Error::Refused(Refusal::InvalidNumber { .. }))),
        "{result:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());

    /// A value whose `Serialize` fails.
    #[derive(Debug, Clone, PartialEq)]
    struct Broken;
    impl Serialize for Broken {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("this value has no stored form"))
        }
    }
    impl<'de> Deserialize<'de> for Broken {
        fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
            Ok(Broken)
        }
    }
    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "BROKEN#<id>"]
    #[sk = "BROKEN"]
    struct Holder {
        id: String,
        value: Broken,
    }
    let result = BatchWrite::new()
        .put(&order(1))
        .put(&Holder {
            id: "h".into(),
            value: Broken,
        })
        .send(&table)
        .await;
    match &result {
        Err(
            error @ Error::Refused(Refusal::Serialize {
                entity: "Holder", ..
            }),
        ) => assert!(
            error.to_string().ends_with("this value has no stored form"),
            "{error}"
        ),
        other => panic!("expected Serialize, got {other:?}"),
    }
    assert_eq!(counter.operations(), Vec::<String>::new());

    table.put(&order(1)).await.unwrap();
    common::client()
        .put_item()
        .table_name(table.name())
        .item("PK", AttributeValue::S("CUST#c-2".into()))
        .item("SK", AttributeValue::S("ORDER#0000000002".into()))
        .item("Type", AttributeValue::S("Order".into()))
        .item("customer_id", AttributeValue::S("c-2".into()))
        .item("order_no", AttributeValue::N("2".into()))
        .item("total_cents", AttributeValue::S("not a number".into()))
        .item("note", AttributeValue::S("n".into()))
        .send()
        .await
        .unwrap();
    let result = BatchGet::new([order_key(1), order_key(2)])
        .send(&table)
        .await;
    assert!(
        matches!(
            &result,
            Err(Error::Decode(DecodeError::Deserialize {
                entity: "Order",
                ..
            }))
        ),
        "{result:?}"
    );
}
