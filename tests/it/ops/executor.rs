//! The one request path: every request runs in one `stamp.request` span,
//! the consumed capacity DynamoDB reports reaches the caller through a
//! `CapacityLog`, and a table that knows its definition asks for
//! item-collection metrics on every write when the table has an LSI.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::BeforeSerializationInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::types::ReturnItemCollectionMetrics;
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{
    BatchGet, BatchWrite, Entity, Item, Table, TableDefinition, TransactGet, TransactWrite,
    capacity::{CapacityDetail, CapacityLog},
};
use stamp_examples::Order;
use stamp_examples::examples::order;

use crate::common;

/// Another entity of the same partitions, with a local secondary index.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "NOTE#<note_id>"]
#[lsi1(sk = "AT#<at>")]
struct Note {
    customer_id: String,
    note_id: String,
    at: u32,
}

/// The key of the reference model's order `n`.
fn key(n: u128) -> stamp::PrimaryKey<Order> {
    order(n).primary_key().unwrap()
}

/// Sets the total of the reference model's order `n`.
fn set_total(n: u128) -> stamp::Update<Order> {
    let order = order(n);
    Order::update(&order.customer_id, &order.created_at, &order.order_id)
        .set(Order::TOTAL_CENTS, &5)
}

/// The operation of every `stamp.request` span opened, in order.
/// The `stamp.request` spans opened on this thread while it records them.
///
/// The collector is the process's global subscriber (installed once),
/// recording per thread, rather than a thread's scoped one: tracing caches
/// a callsite's interest across threads, and a scoped subscriber can miss a
/// callsite that another thread registered at the same moment (spans then
/// never reach it). A global subscriber is asked for every callsite.
struct Spans;

thread_local! {
    static RECORDED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

impl Spans {
    /// Starts recording this thread's spans (installing the collector the
    /// first time; another global subscriber would be a test setup error).
    fn record() {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            tracing::subscriber::set_global_default(Spans).expect("no other global subscriber");
        });
        RECORDED.with(|recorded| *recorded.borrow_mut() = Some(Vec::new()));
    }

    /// The operations of the spans recorded on this thread.
    fn take() -> Vec<String> {
        RECORDED.with(|recorded| recorded.borrow_mut().take().unwrap_or_default())
    }
}

struct Operation(Option<String>);

impl tracing::field::Visit for Operation {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "operation" {
            self.0 = Some(value.to_owned());
        }
    }

    fn record_debug(&mut self, _field: &tracing::field::Field, _value: &dyn std::fmt::Debug) {}
}

impl tracing::Subscriber for Spans {
    fn register_callsite(
        &self,
        _metadata: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }

    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        metadata.is_span()
            && metadata.name() == "stamp.request"
            && RECORDED.with(|recorded| recorded.borrow().is_some())
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut operation = Operation(None);
        span.record(&mut operation);
        RECORDED.with(|recorded| {
            let mut recorded = recorded.borrow_mut();
            let spans = recorded.get_or_insert_with(Vec::new);
            spans.push(operation.0.unwrap_or_default());
            tracing::span::Id::from_u64(spans.len() as u64)
        })
    }

    fn record(&self, _span: &tracing::span::Id, _values: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _span: &tracing::span::Id, _follows: &tracing::span::Id) {}

    fn event(&self, _event: &tracing::Event<'_>) {}

    fn enter(&self, _span: &tracing::span::Id) {}

    fn exit(&self, _span: &tracing::span::Id) {}
}

#[tokio::test(flavor = "current_thread")]
async fn every_request_runs_in_one_span_of_its_operation() {
    Spans::record();
    let (client, counter) = common::counting_client();
    let name = format!("stamp-executor-spans-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client, name);
    let definition = TableDefinition::new().entity::<Order>();
    table.create_table(&definition).await.unwrap();
    table.put(&order(1)).await.unwrap();
    table.create(&order(2)).await.unwrap();
    let order_key = key(1);
    table.get(&order_key).await.unwrap();
    set_total(1).send(&table).await.unwrap();
    Order::query("c-0001").send(&table).await.unwrap();
    let _: Vec<Order> = Order::scan().stream(&table).try_collect().await.unwrap();
    BatchWrite::new()
        .put_all(&[order(3)])
        .send(&table)
        .await
        .unwrap();
    BatchGet::<Order>::new([order_key.clone()])
        .send(&table)
        .await
        .unwrap();
    TransactWrite::new()
        .put(&order(4))
        .send(&table)
        .await
        .unwrap();
    let mut get = TransactGet::new();
    get.get(&order_key);
    get.send(&table).await.unwrap();
    table.delete(&order_key).await.unwrap();
    table.verify(&definition).await.unwrap();
    table.delete_table().await.unwrap();
    let sent = counter.operations();
    assert_eq!(
        sent,
        [
            "CreateTable",
            "DescribeTable",
            "PutItem",
            "PutItem",
            "GetItem",
            "UpdateItem",
            "Query",
            "Scan",
            "BatchWriteItem",
            "BatchGetItem",
            "TransactWriteItems",
            "TransactGetItems",
            "DeleteItem",
            "DescribeTable",
            "DescribeTimeToLive",
            // The drift check of the table's tags (issue 44.1).
            "ListTagsOfResource",
            "DeleteTable",
        ]
    );
    assert_eq!(Spans::take(), sent, "one span per request");
}

#[tokio::test]
async fn a_capacity_log_gets_what_dynamodb_reports_for_every_operation() {
    // DynamoDB's units ("Read/write capacity mode", Developer Guide): a write
    // of an item up to 1 KB is 1 write unit, and 1 more for each GSI entry
    // it writes (the reference order, pending, is in GSI1 and GSI2: 3
    // units); an eventually consistent read of up to 4 KB is half a read
    // unit, for GetItem and for a Query page alike (the customer's
    // partition holds this one order).
    let table = common::fresh_table(
        "executor-capacity",
        &TableDefinition::new().entity::<Order>(),
    )
    .await;
    let log = CapacityLog::new();
    let table = table.with_capacity_log(&log, CapacityDetail::Indexes);
    table.put(&order(1)).await.unwrap();
    table.get(&key(1)).await.unwrap();
    Order::query("c-0001").send(&table).await.unwrap();
    let records = log.take();
    let seen: Vec<(&str, &str, f64)> = records
        .iter()
        .map(|record| (record.operation, record.entity, record.units()))
        .collect();
    assert_eq!(
        seen,
        [
            ("PutItem", "Order", 3.0),
            ("GetItem", "Order", 0.5),
            ("Query", "Order", 0.5),
        ]
    );
    let put = &records[0].consumed[0];
    assert_eq!(
        put.table.as_ref().and_then(|table| table.capacity_units),
        Some(1.0)
    );
    assert_eq!(
        put.global_secondary_indexes
            .as_ref()
            .and_then(|indexes| indexes.get("GSI1"))
            .and_then(|index| index.capacity_units),
        Some(1.0)
    );
    assert_eq!(
        put.global_secondary_indexes
            .as_ref()
            .and_then(|indexes| indexes.get("GSI2"))
            .and_then(|index| index.capacity_units),
        Some(1.0)
    );
    assert!(log.take().is_empty(), "take leaves the log empty");
}

/// Records the `ReturnItemCollectionMetrics` of every write the client sends.
#[derive(Debug, Clone, Default)]
struct MetricsAsked(Arc<Mutex<Vec<Asked>>>);

/// An operation and the `ReturnItemCollectionMetrics` it sent.
type Asked = (String, Option<ReturnItemCollectionMetrics>);

impl Intercept for MetricsAsked {
    fn name(&self) -> &'static str {
        "MetricsAsked"
    }

    fn read_before_serialization(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        use aws_sdk_dynamodb::operation::*;
        let input = context.input();
        let asked = if let Some(input) = input.downcast_ref::<put_item::PutItemInput>() {
            Some(("PutItem", input.return_item_collection_metrics.clone()))
        } else if let Some(input) = input.downcast_ref::<update_item::UpdateItemInput>() {
            Some(("UpdateItem", input.return_item_collection_metrics.clone()))
        } else if let Some(input) = input.downcast_ref::<delete_item::DeleteItemInput>() {
            Some(("DeleteItem", input.return_item_collection_metrics.clone()))
        } else if let Some(input) = input.downcast_ref::<batch_write_item::BatchWriteItemInput>() {
            Some((
                "BatchWriteItem",
                input.return_item_collection_metrics.clone(),
            ))
        } else {
            input
                .downcast_ref::<transact_write_items::TransactWriteItemsInput>()
                .map(|input| {
                    (
                        "TransactWriteItems",
                        input.return_item_collection_metrics.clone(),
                    )
                })
        };
        if let Some((operation, asked)) = asked {
            self.0.lock().unwrap().push((operation.to_owned(), asked));
        }
        Ok(())
    }
}

#[tokio::test]
async fn every_write_to_a_table_with_an_lsi_asks_for_item_collection_metrics() {
    // Order declares no LSI, but it shares the item collections of a table
    // that has one (Note's), and grows them as much: DynamoDB's 10 GB limit
    // counts every item of the partition key value.
    let definition = TableDefinition::new().entity::<Order>().entity::<Note>();
    let plain = common::fresh_table("executor-metrics", &definition).await;
    let asked = MetricsAsked::default();
    let config = stamp::local::config(&common::endpoint())
        .interceptor(asked.clone())
        .build();
    let table = Table::new(aws_sdk_dynamodb::Client::from_conf(config), plain.name())
        .with_definition(&definition)
        .unwrap();
    table.put(&order(1)).await.unwrap();
    set_total(1).send(&table).await.unwrap();
    BatchWrite::new()
        .put_all(&[order(2)])
        .send(&table)
        .await
        .unwrap();
    TransactWrite::new()
        .put(&order(3))
        .send(&table)
        .await
        .unwrap();
    table.delete(&key(1)).await.unwrap();
    let size = Some(ReturnItemCollectionMetrics::Size);
    assert_eq!(
        *asked.0.lock().unwrap(),
        [
            ("PutItem".to_owned(), size.clone()),
            ("UpdateItem".to_owned(), size.clone()),
            ("BatchWriteItem".to_owned(), size.clone()),
            ("TransactWriteItems".to_owned(), size.clone()),
            ("DeleteItem".to_owned(), size),
        ]
    );
    // A table that does not know its definition asks only for entities
    // that declare an LSI.
    asked.0.lock().unwrap().clear();
    let unknowing = Table::new(
        aws_sdk_dynamodb::Client::from_conf(
            stamp::local::config(&common::endpoint())
                .interceptor(asked.clone())
                .build(),
        ),
        plain.name(),
    );
    unknowing.put(&order(5)).await.unwrap();
    assert_eq!(*asked.0.lock().unwrap(), [("PutItem".to_owned(), None)]);
}
