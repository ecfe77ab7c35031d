//! What you inspect is what is sent: each operation's `request(…)` equals
//! the SDK input that its `send` puts on the wire, as an SDK interceptor
//! captures it.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::BeforeSerializationInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemInput;
use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemInput;
use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsInput;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{
    BatchGet, BatchWrite, Delete, Get, Item, Put, Table, TableDefinition, TransactGet,
    TransactWrite,
};

use crate::common;

/// Its own order entity: a GSI1 sharded over 4, the request counts follow from it.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[gsi1(pk = "STATUS#<status>#<shard>", sk = "<order_id>", shards = 4)]
struct Order {
    customer_id: String,
    order_id: u32,
    status: String,
    total_cents: u64,
}

fn order(id: u32) -> Order {
    Order {
        customer_id: "c-1".into(),
        order_id: id,
        status: "PENDING".into(),
        total_cents: 100,
    }
}

/// Every SDK input the client serializes, as sent.
#[derive(Debug, Clone, Default)]
struct Wire(Arc<Mutex<Vec<Sent>>>);

#[derive(Debug, Clone, PartialEq)]
enum Sent {
    CreateTable(CreateTableInput),
    Get(GetItemInput),
    Put(PutItemInput),
    Delete(DeleteItemInput),
    BatchWrite(BatchWriteItemInput),
    BatchGet(BatchGetItemInput),
    TransactGet(TransactGetItemsInput),
    Query(QueryInput),
    Scan(ScanInput),
    Update(UpdateItemInput),
    Transaction(TransactWriteItemsInput),
    Other,
}

impl Wire {
    fn take(&self) -> Vec<Sent> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl Intercept for Wire {
    fn name(&self) -> &'static str {
        "Wire"
    }

    fn read_before_serialization(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let input = context.input();
        let sent = if let Some(input) = input.downcast_ref::<CreateTableInput>() {
            Sent::CreateTable(input.clone())
        } else if let Some(input) = input.downcast_ref::<GetItemInput>() {
            Sent::Get(input.clone())
        } else if let Some(input) = input.downcast_ref::<PutItemInput>() {
            Sent::Put(input.clone())
        } else if let Some(input) = input.downcast_ref::<DeleteItemInput>() {
            Sent::Delete(input.clone())
        } else if let Some(input) = input.downcast_ref::<BatchWriteItemInput>() {
            Sent::BatchWrite(input.clone())
        } else if let Some(input) = input.downcast_ref::<BatchGetItemInput>() {
            Sent::BatchGet(input.clone())
        } else if let Some(input) = input.downcast_ref::<TransactGetItemsInput>() {
            Sent::TransactGet(input.clone())
        } else if let Some(input) = input.downcast_ref::<QueryInput>() {
            Sent::Query(input.clone())
        } else if let Some(input) = input.downcast_ref::<ScanInput>() {
            Sent::Scan(input.clone())
        } else if let Some(input) = input.downcast_ref::<UpdateItemInput>() {
            Sent::Update(input.clone())
        } else if let Some(input) = input.downcast_ref::<TransactWriteItemsInput>() {
            Sent::Transaction(input.clone())
        } else {
            Sent::Other
        };
        self.0.lock().unwrap().push(sent);
        Ok(())
    }
}

async fn table_on_the_wire(test: &str) -> (Table, Wire, TableDefinition) {
    let wire = Wire::default();
    let config = stamp::local::config(&common::endpoint())
        .interceptor(wire.clone())
        .build();
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(aws_sdk_dynamodb::Client::from_conf(config), name);
    let definition = TableDefinition::new().entity::<Order>();
    (table, wire, definition)
}

#[tokio::test]
async fn create_table_sends_its_request() {
    let (table, wire, definition) = table_on_the_wire("requests-create").await;
    table.create_table(&definition).await.unwrap();
    let sent = wire.take();
    assert_eq!(
        sent[0],
        Sent::CreateTable(definition.request(table.name()).unwrap())
    );
}

#[tokio::test]
async fn a_query_and_a_sharded_query_send_their_requests() {
    let (table, wire, definition) = table_on_the_wire("requests-query").await;
    table.create_table(&definition).await.unwrap();
    table.put(&order(1)).await.unwrap();
    wire.take();
    let query = Order::query("c-1").newest_first().limit(5);
    query.clone().send(&table).await.unwrap();
    assert_eq!(
        wire.take(),
        [Sent::Query(query.request(table.name()).unwrap())]
    );
    // A sharded GSI: one Query per shard, in shard order.
    let sharded = Order::query_gsi1("PENDING").limit(5);
    sharded.clone().send(&table).await.unwrap();
    let mut sent = wire.take();
    let mut expected: Vec<Sent> = sharded
        .requests(table.name())
        .unwrap()
        .into_iter()
        .map(Sent::Query)
        .collect();
    let shard_of = |sent: &Sent| match sent {
        Sent::Query(input) => format!(
            "{:?}",
            input
                .expression_attribute_values
                .as_ref()
                .and_then(|values| values.get(":v0"))
        ),
        _ => String::new(),
    };
    // The shards are sent together; compare them in one order.
    sent.sort_by_key(shard_of);
    expected.sort_by_key(shard_of);
    assert_eq!(sent, expected);
}

#[tokio::test]
async fn a_scan_sends_its_request_per_segment() {
    let (table, wire, definition) = table_on_the_wire("requests-scan").await;
    table.create_table(&definition).await.unwrap();
    wire.take();
    let scan = Order::scan();
    let [expected] = <[_; 1]>::try_from(scan.requests(table.name()).unwrap()).unwrap();
    let _: Vec<Order> = scan.stream(&table).try_collect().await.unwrap();
    assert_eq!(wire.take(), [Sent::Scan(expected)]);
}

#[tokio::test]
async fn an_update_sends_its_request() {
    let (table, wire, definition) = table_on_the_wire("requests-update").await;
    table.create_table(&definition).await.unwrap();
    table.put(&order(1)).await.unwrap();
    wire.take();
    // Order has no time stamps, so the request does not depend on `now`.
    let update = Order::update("c-1", &1).add(Order::TOTAL_CENTS, &5);
    let expected = update.request(table.name()).unwrap();
    update.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Update(expected)]);
}

#[tokio::test]
async fn a_transaction_sends_its_actions_with_a_client_request_token() {
    let (table, wire, definition) = table_on_the_wire("requests-transaction").await;
    table.create_table(&definition).await.unwrap();
    wire.take();
    let transaction = TransactWrite::new()
        .create(&order(2))
        .client_request_token("token-1");
    let expected = transaction.request(table.name()).unwrap();
    transaction.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Transaction(expected.clone())]);
    assert_eq!(expected.client_request_token.as_deref(), Some("token-1"));
    // Without a token of the caller's, each send has its own.
    TransactWrite::new()
        .create(&order(3))
        .send(&table)
        .await
        .unwrap();
    let sent = wire.take();
    let [Sent::Transaction(input)] = sent.as_slice() else {
        panic!("expected one TransactWriteItems, got {sent:?}");
    };
    let token = input.client_request_token.as_deref().expect("a token");
    assert_eq!(token.len(), 36, "a UUID: {token}");
}

/// An entity with time stamps and a version: its put and update requests
/// depend on the time, which `at` fixes.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "NOTE#<note_id>"]
#[sk = "NOTE"]
struct Note {
    note_id: String,
    text: String,
    #[stamp(version)]
    version: u64,
    #[stamp(created_at)]
    created_at: chrono::DateTime<chrono::Utc>,
    #[stamp(updated_at)]
    updated_at: chrono::DateTime<chrono::Utc>,
}

#[tokio::test]
async fn get_put_and_delete_send_their_requests() {
    let (table, wire, _) = table_on_the_wire("requests-items").await;
    let definition = TableDefinition::new().entity::<Note>();
    table.create_table(&definition).await.unwrap();
    wire.take();
    let at = chrono::DateTime::parse_from_rfc3339("2026-12-02T01:02:03Z")
        .unwrap()
        .to_utc();
    let note = Note {
        note_id: "n-1".into(),
        text: "first".into(),
        version: 0,
        created_at: at,
        updated_at: at,
    };

    let create = Put::create(&note).at(at);
    let expected = create.request(table.name()).unwrap();
    assert_eq!(
        expected.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    create.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Put(expected)]);

    let stored = Note {
        version: 1,
        ..note.clone()
    };
    let replace = Put::new(&stored)
        .condition(Note::TEXT.eq(&"first".to_owned()))
        .at(at);
    let expected = replace.request(table.name()).unwrap();
    assert_eq!(
        expected.condition_expression.as_deref(),
        Some("#n0 = :v0 AND (#n1 = :v1)")
    );
    replace.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Put(expected)]);

    let update = Note::update("n-1")
        .set(Note::TEXT, &"second".to_owned())
        .expect_version(2)
        .at(at);
    let expected = update.request(table.name()).unwrap();
    update.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Update(expected)]);

    let get = Get::new(Note::key("n-1").unwrap()).consistent_read();
    let expected = get.request(table.name()).unwrap();
    assert_eq!(expected.consistent_read, Some(true));
    let read = get.send(&table).await.unwrap().expect("the note");
    assert_eq!((read.text.as_str(), read.version), ("second", 3));
    assert_eq!(wire.take(), [Sent::Get(expected)]);

    let delete = Delete::new(Note::key("n-1").unwrap()).expect_version(3);
    let expected = delete.request(table.name()).unwrap();
    assert_eq!(expected.condition_expression.as_deref(), Some("#n0 = :v0"));
    delete.send(&table).await.unwrap();
    assert_eq!(wire.take(), [Sent::Delete(expected)]);
    assert_eq!(table.get(&Note::key("n-1").unwrap()).await.unwrap(), None);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn batches_and_transactional_reads_send_their_requests() {
    let (table, wire, definition) = table_on_the_wire("requests-batches").await;
    table.create_table(&definition).await.unwrap();
    wire.take();
    let orders: Vec<Order> = (1..=30).map(order).collect();
    let batch = BatchWrite::new().put_all(&orders);
    let expected = batch.requests(table.name()).unwrap();
    assert_eq!(expected.len(), 2, "25 writes, then 5");
    batch.send(&table).await.unwrap();
    // The groups go out concurrently: compare as a set, in key order.
    let mut sent: Vec<BatchWriteItemInput> = wire
        .take()
        .into_iter()
        .map(|sent| match sent {
            Sent::BatchWrite(input) => input,
            other => panic!("expected BatchWriteItem, got {other:?}"),
        })
        .collect();
    let first_key = |input: &BatchWriteItemInput| {
        input.request_items().unwrap()[table.name()][0]
            .put_request()
            .unwrap()
            .item()["SK"]
            .clone()
    };
    sent.sort_by_key(|input| format!("{:?}", first_key(input)));
    let mut expected = expected;
    expected.sort_by_key(|input| format!("{:?}", first_key(input)));
    assert_eq!(sent, expected);

    let keys: Vec<_> = (1..=3).map(|id| Order::key("c-1", &id).unwrap()).collect();
    let read = BatchGet::new(keys.clone()).consistent_read();
    let [expected] = <[_; 1]>::try_from(read.requests(table.name()).unwrap()).unwrap();
    let found = read.send(&table).await.unwrap();
    assert_eq!(found, [Some(order(1)), Some(order(2)), Some(order(3))]);
    assert_eq!(wire.take(), [Sent::BatchGet(expected)]);

    let mut read = TransactGet::new();
    let first = read.get(&keys[0]);
    let expected = read.request(table.name()).unwrap();
    let mut output = read.send(&table).await.unwrap();
    assert_eq!(output.take(first).unwrap(), Some(order(1)));
    assert_eq!(wire.take(), [Sent::TransactGet(expected)]);
    table.delete_table().await.unwrap();
}
