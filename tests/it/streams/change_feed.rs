//! The live change feed (`Table::changes`, feature `streams`) on a real
//! server: the embedded one, and ministack in `cargo xtask test`'s second
//! pass. Expected changes follow the DynamoDB documentation of stream
//! records: an `INSERT` carries the new image, a `MODIFY` both, a `REMOVE`
//! the old one (view type `NEW_AND_OLD_IMAGES`), and the records of one
//! item come in the order of its writes.

use crate::common;
use stamp::error::JobError;

use std::collections::HashSet;
use std::time::Duration;

use aws_sdk_dynamodb::types::{AttributeValue, StreamViewType};
use chrono::{DateTime, TimeZone, Utc};
use futures::StreamExt;
use stamp::streams::{Change, ChangeFeed, ChangeKind, Checkpoint, ViewType};
use stamp::{Entity, Error, Table, TableDefinition};
use stamp_examples::{Customer, CustomerWithOrders, Order, OrderStatus, Product};
use uuid::Uuid;

fn definition() -> TableDefinition {
    stamp_examples::table_definition().stream(StreamViewType::NewAndOldImages)
}

pub(super) fn time(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_780_000_000 + seconds, 0).unwrap()
}

pub(super) fn customer(id: &str, name: &str) -> Customer {
    Customer {
        customer_id: id.to_owned(),
        name: name.to_owned(),
        email: format!("{id}@example.com"),
        order_count: 0,
        created_at: time(0),
    }
}

pub(super) fn order(customer_id: &str, n: u128, status: Option<OrderStatus>) -> Order {
    Order {
        customer_id: customer_id.to_owned(),
        order_id: Uuid::from_u128(n),
        created_at: time(n as i64),
        created_month: Order::month_of(time(n as i64)),
        status,
        updated_at: time(n as i64 + 1),
        total_cents: 1_000 + n as u64,
        line_count: 1,
        embedding: stamp_examples::embedding::order([&product("GEAR")]),
    }
}

fn product(sku: &str) -> Product {
    Product::new(sku, &format!("Product {sku}"), "home", 250, 7)
}

/// A feed of `table` through a Streams client of the test server, polling
/// quickly.
/// Stores a customer by the raw client, without the guard item of its
/// unique e-mail that `table.put` adds: the tests that use it count the
/// feed's changes of the writes they make, one change each
/// ([`a_guard_change_comes_as_unknown_with_its_type`] shows a guard's).
pub(super) async fn put_plain(table: &Table, customer: &Customer) {
    table
        .client()
        .put_item()
        .table_name(table.name())
        .set_item(Some(stamp::Entity::to_item(customer).unwrap()))
        .send()
        .await
        .unwrap();
}

fn feed(table: &Table) -> ChangeFeed<CustomerWithOrders> {
    table
        .changes::<CustomerWithOrders>(stamp::local::streams_client(&common::endpoint()))
        .idle_backoff(Duration::from_millis(10), Duration::from_millis(50))
}

/// Every change the stream has now, but the guard items of the customers'
/// unique e-mails (type `UniqueValue`): these tests are about the feed;
/// [`a_guard_change_comes_as_unknown_with_its_type`] shows the guards'.
async fn drain(feed: &mut ChangeFeed<CustomerWithOrders>) -> Vec<Change<CustomerWithOrders>> {
    drain_all(feed)
        .await
        .into_iter()
        .filter(|change| change.entity_type.as_deref() != Some("UniqueValue"))
        .collect()
}

/// Every change the stream has now.
async fn drain_all(feed: &mut ChangeFeed<CustomerWithOrders>) -> Vec<Change<CustomerWithOrders>> {
    let mut changes = Vec::new();
    while let Some(change) = feed.next_ready().await.expect("read the stream") {
        changes.push(change);
    }
    changes
}

/// A customer's create writes the guard of its unique e-mail in the same
/// transaction: the feed delivers it as a change of an item no member
/// decodes, typed `UniqueValue`, right after the customer's.
#[tokio::test]
async fn a_guard_change_comes_as_unknown_with_its_type() {
    let table = common::fresh_table("feed-guard", &definition()).await;
    table.create(&customer("c-1", "Ada")).await.unwrap();
    let changes = drain_all(&mut feed(&table)).await;
    let types: Vec<Option<&str>> = changes.iter().map(|c| c.entity_type.as_deref()).collect();
    assert_eq!(types, [Some("Customer"), Some("UniqueValue")]);
    let guard = "UNIQUE#Customer#email#c-1@example.com";
    assert_eq!(changes[1].keys, key(guard, guard));
    assert_eq!(changes[1].kind, ChangeKind::Insert);
    assert_eq!(
        changes[1].new,
        Some(CustomerWithOrders::Unknown(stamp::AttributeMap::from([
            ("PK".to_owned(), AttributeValue::S(guard.to_owned())),
            ("SK".to_owned(), AttributeValue::S(guard.to_owned())),
            (
                "Type".to_owned(),
                AttributeValue::S("UniqueValue".to_owned())
            ),
            (
                "OwnerPK".to_owned(),
                AttributeValue::S("CUST#c-1".to_owned())
            ),
            (
                "OwnerSK".to_owned(),
                AttributeValue::S("PROFILE".to_owned())
            ),
        ])))
    );
}

fn key(pk: &str, sk: &str) -> stamp::AttributeMap {
    stamp::AttributeMap::from([
        ("PK".to_owned(), AttributeValue::S(pk.to_owned())),
        ("SK".to_owned(), AttributeValue::S(sk.to_owned())),
    ])
}

/// What [`six_changes`] wrote: a customer, its order placed then paid, a
/// product outside the collection, the customer renamed.
struct Written {
    ada: Customer,
    placed: Order,
    paid: Order,
    renamed: Customer,
    lamp: Product,
}

/// In a fresh table: puts a customer, an order, the order paid and a
/// product, renames the customer with an update, deletes the order; then
/// drains the feed of those six changes.
async fn six_changes(
    test: &str,
) -> (
    Table,
    ChangeFeed<CustomerWithOrders>,
    Vec<Change<CustomerWithOrders>>,
    Written,
) {
    let table = common::fresh_table(test, &definition()).await;
    let ada = customer("c-1", "Ada");
    let placed = order("c-1", 1, Some(OrderStatus::Pending));
    let paid = Order {
        status: Some(OrderStatus::Paid),
        ..placed.clone()
    };
    let renamed = Customer {
        name: "Ada L.".to_owned(),
        ..ada.clone()
    };
    let lamp = product("LAMP");

    table.put(&ada).await.unwrap();
    table.put(&placed).await.unwrap();
    table.put(&paid).await.unwrap();
    table.put(&lamp).await.unwrap();
    Customer::update("c-1")
        .set(Customer::NAME, &"Ada L.".to_owned())
        .send(&table)
        .await
        .unwrap();
    table.delete(&placed.primary_key().unwrap()).await.unwrap();

    let mut feed = feed(&table);
    let changes = drain(&mut feed).await;
    let written = Written {
        ada,
        placed,
        paid,
        renamed,
        lamp,
    };
    (table, feed, changes, written)
}

#[tokio::test]
async fn puts_updates_and_deletes_of_several_entities_come_in_order_with_their_images() {
    let (_table, _feed, changes, written) = six_changes("feed-order").await;
    let seen: Vec<(
        ChangeKind,
        Option<CustomerWithOrders>,
        Option<CustomerWithOrders>,
    )> = changes
        .iter()
        .map(|change| (change.kind, change.old.clone(), change.new.clone()))
        .collect();
    let lamp_item = written.lamp.to_item().unwrap();
    assert_eq!(
        seen,
        [
            (
                ChangeKind::Insert,
                None,
                Some(CustomerWithOrders::Customer(written.ada.clone()))
            ),
            (
                ChangeKind::Insert,
                None,
                Some(CustomerWithOrders::Order(written.placed.clone()))
            ),
            (
                ChangeKind::Modify,
                Some(CustomerWithOrders::Order(written.placed.clone())),
                Some(CustomerWithOrders::Order(written.paid.clone()))
            ),
            (
                ChangeKind::Insert,
                None,
                Some(CustomerWithOrders::Unknown(lamp_item))
            ),
            (
                ChangeKind::Modify,
                Some(CustomerWithOrders::Customer(written.ada)),
                Some(CustomerWithOrders::Customer(written.renamed))
            ),
            (
                ChangeKind::Remove,
                Some(CustomerWithOrders::Order(written.paid)),
                None
            ),
        ]
    );
}

#[tokio::test]
async fn each_change_names_its_entity_type_its_keys_and_its_collection_member() {
    let (_table, _feed, changes, _written) = six_changes("feed-order-types").await;
    let types: Vec<Option<&str>> = changes.iter().map(|c| c.entity_type.as_deref()).collect();
    assert_eq!(
        types,
        [
            Some("Customer"),
            Some("Order"),
            Some("Order"),
            Some("Product"),
            Some("Customer"),
            Some("Order")
        ]
    );
    assert_eq!(changes[0].keys, key("CUST#c-1", "PROFILE"));
    assert_eq!(changes[3].keys, key("PRODUCT#LAMP", "PRODUCT"));
    assert_eq!(
        changes[3].key_entity, None,
        "Product is not in the collection"
    );
    assert_eq!(changes[5].key_entity, Some("Order"));
}

#[tokio::test]
async fn each_change_has_both_images_an_event_id_and_a_rising_sequence_number() {
    let (_table, _feed, changes, _written) = six_changes("feed-order-numbers").await;
    for change in &changes {
        assert_eq!(change.view_type, Some(ViewType::NewAndOldImages));
        assert!(!change.removed_by_ttl);
        assert!(!change.event_id.is_empty());
    }
    let numbers: Vec<u128> = changes
        .iter()
        .map(|c| c.sequence_number.as_deref().unwrap().parse().unwrap())
        .collect();
    assert!(
        numbers.windows(2).all(|pair| pair[0] < pair[1]),
        "{numbers:?}"
    );
}

#[tokio::test]
async fn a_drained_feed_has_nothing_more_and_then_sees_the_next_write() {
    let (table, mut feed, _changes, _written) = six_changes("feed-order-later").await;
    // Nothing more, and the next write is the next change.
    assert!(feed.next_ready().await.unwrap().is_none());
    let later = order("c-1", 2, None);
    table.put(&later).await.unwrap();
    let next = tokio::time::timeout(Duration::from_secs(10), feed.next())
        .await
        .expect("the feed sees a later write")
        .unwrap()
        .unwrap();
    assert_eq!(next.kind, ChangeKind::Insert);
    assert_eq!(next.new, Some(CustomerWithOrders::Order(later)));
}

/// The event ids of `feed`'s next `count` changes.
async fn take(feed: &mut ChangeFeed<CustomerWithOrders>, count: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..count {
        let change = tokio::time::timeout(Duration::from_secs(10), feed.next())
            .await
            .expect("a change within 10 s")
            .unwrap()
            .unwrap();
        ids.push(change.event_id);
    }
    ids
}

#[tokio::test]
async fn a_feed_restarted_from_its_checkpoint_sees_every_record_exactly_once() {
    let table = common::fresh_table("feed-restart", &definition()).await;
    for n in 0..30 {
        table
            .put(&order("c-9", n, Some(OrderStatus::Pending)))
            .await
            .unwrap();
    }

    // Stop after 12 changes (in the middle of a GetRecords page) and keep
    // only the checkpoint's JSON.
    let mut first = feed(&table);
    let mut seen = take(&mut first, 12).await;
    let saved = first.checkpoint().unwrap().to_json();
    drop(first);

    for n in 30..40 {
        table
            .put(&order("c-9", n, Some(OrderStatus::Pending)))
            .await
            .unwrap();
    }
    let mut second = feed(&table).resume(Checkpoint::from_json(&saved).unwrap());
    let rest = drain(&mut second).await;
    assert_eq!(rest.len(), 28, "40 writes, 12 read before the restart");
    let ids: Vec<u128> = rest
        .iter()
        .map(|change| match &change.new {
            Some(CustomerWithOrders::Order(order)) => order.order_id.as_u128(),
            other => panic!("not an order: {other:?}"),
        })
        .collect();
    assert_eq!(
        ids,
        (12..40).collect::<Vec<u128>>(),
        "in write order, from the 13th"
    );
    seen.extend(rest.iter().map(|change| change.event_id.clone()));
    let unique: HashSet<&String> = seen.iter().collect();
    assert_eq!((seen.len(), unique.len()), (40, 40));

    // Resuming from the last checkpoint gives nothing again.
    let last = second.checkpoint().unwrap().clone();
    let mut third = feed(&table).resume(last);
    assert!(third.next_ready().await.unwrap().is_none());
}

#[tokio::test]
async fn the_feed_is_a_send_stream_with_a_checkpoint_per_change() {
    let table = common::fresh_table("feed-stream", &definition()).await;
    put_plain(&table, &customer("c-2", "Grace")).await;
    put_plain(&table, &customer("c-3", "Edsger")).await;
    let stream = feed(&table).into_stream();
    let taken = tokio::spawn(async move { stream.take(2).collect::<Vec<_>>().await })
        .await
        .unwrap();
    let (first, after_first) = taken[0].as_ref().unwrap();
    let (second, after_second) = taken[1].as_ref().unwrap();
    assert_eq!(first.keys, key("CUST#c-2", "PROFILE"));
    assert_eq!(second.keys, key("CUST#c-3", "PROFILE"));
    let position = |checkpoint: &Checkpoint| {
        let shards: Vec<_> = checkpoint.shards().values().collect();
        assert_eq!(shards.len(), 1);
        shards[0].after.clone()
    };
    assert_eq!(position(after_first), first.sequence_number);
    assert_eq!(position(after_second), second.sequence_number);
}

/// A checkpoint of `table`'s stream, after its first change.
async fn real_checkpoint(table: &Table) -> Checkpoint {
    put_plain(table, &customer("c-5", "Barbara")).await;
    let mut feed = feed(table);
    take(&mut feed, 1).await;
    feed.checkpoint().unwrap().clone()
}

#[tokio::test]
async fn a_forged_or_expired_checkpoint_is_a_typed_error() {
    let table = common::fresh_table("feed-forged", &definition()).await;
    let real = real_checkpoint(&table).await;
    let arn = real.stream_arn().to_owned();
    let (shard, position) = real.shards().iter().next().unwrap();
    let after = position.after.clone().unwrap();
    let forged = |shard: &str, after: &str| {
        format!(r#"{{"stream_arn":"{arn}","shards":{{"{shard}":{{"after":"{after}"}}}}}}"#)
    };

    // Not a checkpoint, or not a sequence number: refused when read.
    for text in [
        "{}".to_owned(),
        "not json".to_owned(),
        forged(shard, "12345"),
        forged(shard, &"9".repeat(41)),
        forged(shard, "10000000000000000000x"),
    ] {
        let error = Checkpoint::from_json(&text).unwrap_err();
        assert!(
            matches!(error, Error::Job(JobError::InvalidCheckpoint { .. })),
            "{text}: {error:?}"
        );
    }

    // The checkpoint of another table's stream.
    let other = common::fresh_table("feed-other", &definition()).await;
    let error = feed(&other)
        .resume(real.clone())
        .next_ready()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::InvalidCheckpoint { shard_id: None, reason: stamp::error::CheckpointReason::OtherStream { checkpoint_stream, .. }, .. }) if *checkpoint_stream == arn),
        "{error:?}"
    );

    // A shard the stream does not have (trimmed after 24 hours, or made up).
    let gone = Checkpoint::from_json(&forged("shardId-00000001-gone", &after)).unwrap();
    let error = feed(&table).resume(gone).next_ready().await.unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::CheckpointExpired { shard_id, sequence_number, .. })
            if shard_id == "shardId-00000001-gone" && sequence_number.as_deref() == Some(after.as_str())),
        "{error:?}"
    );

    // A sequence number after any the shard issued: refused by Stamp when
    // the shard's range says so (dynoxide), else by the server (ministack
    // answers TrimmedDataAccessException); never a change.
    let beyond = format!("{}", after.parse::<u128>().unwrap() + 1_000_000);
    let error = feed(&table)
        .resume(Checkpoint::from_json(&forged(shard, &beyond)).unwrap())
        .next_ready()
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Job(JobError::InvalidCheckpoint { .. })
                | Error::Job(JobError::CheckpointExpired { .. })
        ),
        "{error:?}"
    );
    if common::server() == "dynoxide" {
        assert!(
            matches!(error, Error::Job(JobError::InvalidCheckpoint { .. })),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn a_malformed_checkpoint_is_refused_before_any_request() {
    let (client, counter) = common::counting_client();
    let table = Table::new(client, "stamp-feed-never-created");
    // Deserialized without `from_json`, so its sequence number is unchecked.
    let checkpoint: Checkpoint = serde_json::from_str(
        r#"{"stream_arn":"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1","shards":{"s":{"after":"x"}}}"#,
    )
    .unwrap();
    let error = feed(&table)
        .resume(checkpoint)
        .next_ready()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::InvalidCheckpoint { shard_id: Some(shard), .. }) if shard == "s"),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn a_table_without_a_stream_has_no_feed() {
    let table = common::fresh_table("feed-none", &stamp_examples::table_definition()).await;
    let error = feed(&table).next_ready().await.unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::StreamNotEnabled { table: name }) if name == table.name()),
        "{error:?}"
    );
}

#[tokio::test]
async fn verify_reports_a_stream_that_differs_from_the_definition() {
    let table = common::fresh_table("feed-verify", &definition()).await;
    assert_eq!(table.verify(&definition()).await.unwrap(), []);
    assert_eq!(
        table
            .verify(&stamp_examples::table_definition())
            .await
            .unwrap(),
        [stamp::schema::SchemaDifference::Stream {
            expected: None,
            found: Some("NEW_AND_OLD_IMAGES".to_owned()),
        }]
    );
    let keys_only = stamp_examples::table_definition().stream(StreamViewType::KeysOnly);
    let differences = table.verify(&keys_only).await.unwrap();
    assert_eq!(
        differences,
        [stamp::schema::SchemaDifference::Stream {
            expected: Some("KEYS_ONLY".to_owned()),
            found: Some("NEW_AND_OLD_IMAGES".to_owned()),
        }]
    );
    assert_eq!(
        differences[0].to_string(),
        "the stream is on with `NEW_AND_OLD_IMAGES`, expected on with `KEYS_ONLY`"
    );
}

// ---------------------------------------------------------------------------
// Fault injection on the Streams client, through the SDK's interceptor API.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::config_bag::{Storable, StoreReplace};

/// Rewrites the answers of `GetRecords` the way DynamoDB may give them:
/// the next `empty_pages` calls answer an empty page whose
/// `NextShardIterator` is the iterator asked with (so no record is lost:
/// the next call reads from the same place), and while `failing` is set
/// every call answers `400 LimitExceededException`.
#[derive(Debug, Clone, Default)]
struct StreamsFaults {
    empty_pages: Arc<AtomicUsize>,
    failing: Arc<AtomicBool>,
}

#[derive(Debug, Clone)]
enum Rewrite {
    Empty(String),
    Fail,
}

impl Storable for Rewrite {
    type Storer = StoreReplace<Self>;
}

impl Intercept for StreamsFaults {
    fn name(&self) -> &'static str {
        "StreamsFaults"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request();
        if request.headers().get("x-amz-target") != Some("DynamoDBStreams_20120810.GetRecords") {
            return Ok(());
        }
        if self.failing.load(Ordering::SeqCst) {
            cfg.interceptor_state().store_put(Rewrite::Fail);
            return Ok(());
        }
        let take = self
            .empty_pages
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                left.checked_sub(1)
            });
        if take.is_ok() {
            let body: serde_json::Value =
                serde_json::from_slice(request.body().bytes().expect("a JSON body")).unwrap();
            let iterator = body["ShardIterator"].as_str().unwrap().to_owned();
            cfg.interceptor_state().store_put(Rewrite::Empty(iterator));
        }
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (status, body) = match cfg.load::<Rewrite>() {
            None => return Ok(()),
            Some(Rewrite::Empty(iterator)) => (
                200,
                serde_json::json!({"Records": [], "NextShardIterator": iterator}).to_string(),
            ),
            Some(Rewrite::Fail) => (
                400,
                r#"{"__type":"com.amazonaws.dynamodb.v20120810#LimitExceededException","message":"Rate exceeded for shard (injected by the test)"}"#.to_owned(),
            ),
        };
        let mut response = aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
            aws_smithy_types::body::SdkBody::from(body),
        );
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
}

/// A Streams client of the test server (the type Stamp re-exports), with
/// SDK retries off, that counts its requests and has `faults`.
fn faulty_streams(
    faults: &StreamsFaults,
) -> (stamp::streams::StreamsClient, common::RequestCounter) {
    let counter = common::RequestCounter::default();
    let config = stamp::local::streams_config(&common::endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(counter.clone())
        .interceptor(faults.clone())
        .build();
    (stamp::streams::StreamsClient::from_conf(config), counter)
}

fn faulty_feed(
    table: &Table,
    faults: &StreamsFaults,
) -> (ChangeFeed<CustomerWithOrders>, common::RequestCounter) {
    let (client, counter) = faulty_streams(faults);
    let feed = table
        .changes::<CustomerWithOrders>(client)
        .idle_backoff(Duration::from_millis(10), Duration::from_millis(50));
    (feed, counter)
}

fn customer_of(change: &Change<CustomerWithOrders>) -> String {
    match &change.new {
        Some(CustomerWithOrders::Customer(customer)) => customer.customer_id.clone(),
        other => panic!("not a customer: {other:?}"),
    }
}

#[tokio::test]
async fn a_checkpoint_marking_an_open_shard_finished_is_refused_before_any_read() {
    let table = common::fresh_table("feed-open-finished", &definition()).await;
    let real = real_checkpoint(&table).await;
    let arn = real.stream_arn().to_owned();
    let (shard, position) = real.shards().iter().next().unwrap();
    let after = position.after.clone().unwrap();
    // The shard is open: later writes go to it, and a feed that took the
    // checkpoint's word would never read them.
    put_plain(&table, &customer("c-6", "Frances")).await;
    let forged = Checkpoint::from_json(&format!(
        r#"{{"stream_arn":"{arn}","shards":{{"{shard}":{{"after":"{after}","finished":true}}}}}}"#
    ))
    .unwrap();
    let (feed, counter) = faulty_feed(&table, &StreamsFaults::default());
    let error = feed.resume(forged).next_ready().await.unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::InvalidCheckpoint { shard_id: Some(id), reason: stamp::error::CheckpointReason::FinishedShardOpen, .. })
            if id == shard),
        "{error:?}"
    );
    assert_eq!(counter.operations(), ["DescribeStream"]);
}

#[tokio::test]
async fn next_ready_follows_empty_pages_of_an_open_shard_up_to_its_bound() {
    use stamp::streams::DEFAULT_PAGES_PER_SHARD;
    assert_eq!(DEFAULT_PAGES_PER_SHARD, 3);

    let table = common::fresh_table("feed-empty-pages", &definition()).await;
    put_plain(&table, &customer("c-2", "Grace")).await;
    put_plain(&table, &customer("c-3", "Edsger")).await;
    let faults = StreamsFaults::default();
    let (mut feed, counter) = faulty_feed(&table, &faults);

    // Two empty pages before the records: followed, within one call.
    faults.empty_pages.store(2, Ordering::SeqCst);
    let first = feed.next_ready().await.unwrap().expect("the first record");
    assert_eq!(customer_of(&first), "c-2");
    assert_eq!(counter.count("GetRecords"), 3);
    let second = feed.next_ready().await.unwrap().expect("the second record");
    assert_eq!(customer_of(&second), "c-3");
    assert_eq!(counter.count("GetRecords"), 3, "from the same page");

    // More empty pages than the bound: one call stops after the bound,
    // and the next goes on from the same place.
    put_plain(&table, &customer("c-4", "Alan")).await;
    faults.empty_pages.store(5, Ordering::SeqCst);
    counter.reset();
    assert!(feed.next_ready().await.unwrap().is_none());
    assert_eq!(counter.count("GetRecords"), 3);
    let third = feed.next_ready().await.unwrap().expect("the third record");
    assert_eq!(customer_of(&third), "c-4");
    assert_eq!(counter.count("GetRecords"), 6);
    assert_eq!(
        counter.count("GetShardIterator"),
        0,
        "one iterator, followed"
    );

    // `pages_per_shard` sets the bound.
    let (feed, counter) = faulty_feed(&table, &faults);
    let mut feed = feed.pages_per_shard(1);
    faults.empty_pages.store(1, Ordering::SeqCst);
    assert!(feed.next_ready().await.unwrap().is_none());
    assert_eq!(counter.count("GetRecords"), 1);
    assert_eq!(
        customer_of(&feed.next_ready().await.unwrap().unwrap()),
        "c-2"
    );
}

#[tokio::test]
async fn into_stream_waits_after_an_error_before_asking_again() {
    let table = common::fresh_table("feed-error-backoff", &definition()).await;
    put_plain(&table, &customer("c-7", "Barbara")).await;
    let faults = StreamsFaults::default();
    faults.failing.store(true, Ordering::SeqCst);

    // An hour after the first error: no second request in the next half
    // second, where a stream that does not wait asks again at once.
    let (feed, counter) = faulty_feed(&table, &faults);
    let stream = feed
        .error_backoff(Duration::from_secs(3_600), Duration::from_secs(3_600))
        .into_stream();
    let mut stream = Box::pin(stream);
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(
        matches!(&error, Error::DynamoDbStreams { operation: "GetRecords", code: Some(code), .. }
            if code == "LimitExceededException"),
        "{error:?}"
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(500), stream.next())
            .await
            .is_err(),
        "the stream waits out its backoff"
    );
    assert_eq!(counter.count("GetRecords"), 1);

    // With a short backoff, the stream goes on once the service answers,
    // from where it stood.
    let (feed, counter) = faulty_feed(&table, &faults);
    let mut stream = Box::pin(
        feed.error_backoff(Duration::from_millis(20), Duration::from_millis(40))
            .into_stream(),
    );
    assert!(stream.next().await.unwrap().is_err());
    assert!(stream.next().await.unwrap().is_err());
    faults.failing.store(false, Ordering::SeqCst);
    let (change, checkpoint) = stream.next().await.unwrap().unwrap();
    assert_eq!(customer_of(&change), "c-7");
    assert_eq!(
        checkpoint.shards().values().next().unwrap().after,
        change.sequence_number
    );
    assert_eq!(counter.count("GetRecords"), 3);
    assert_eq!(counter.count("GetShardIterator"), 1, "the iterator is kept");
}

/// A table-wide change type: a customer, an order (one partition) and a
/// product (another).
#[derive(stamp::Collection, Debug, Clone, PartialEq)]
#[stamp(any_partition)]
enum Everything {
    Customer(Customer),
    Order(Order),
    Product(Product),
    Unknown(stamp::AttributeMap),
}

#[tokio::test]
async fn a_table_wide_feed_decodes_entities_of_every_partition() {
    use stamp::Collection as _;
    const { assert!(Everything::ANY_PARTITION) };
    assert_eq!(Everything::MEMBERS.len(), 3);

    let table = common::fresh_table("feed-table-wide", &definition()).await;
    let ada = customer("c-1", "Ada");
    let placed = order("c-1", 1, None);
    let lamp = product("LAMP");
    put_plain(&table, &ada).await;
    table.put(&lamp).await.unwrap();
    table.put(&placed).await.unwrap();
    let client: stamp::streams::StreamsClient = stamp::local::streams_client(&common::endpoint());
    let mut feed = table.changes::<Everything>(client);
    let mut seen = Vec::new();
    while let Some(change) = feed.next_ready().await.unwrap() {
        seen.push((change.kind, change.new, change.key_entity));
    }
    assert_eq!(
        seen,
        [
            (
                ChangeKind::Insert,
                Some(Everything::Customer(ada)),
                Some("Customer")
            ),
            (
                ChangeKind::Insert,
                Some(Everything::Product(lamp)),
                Some("Product")
            ),
            (
                ChangeKind::Insert,
                Some(Everything::Order(placed)),
                Some("Order")
            ),
        ]
    );

    // Its members join a definition; it is not a query collection there.
    let definition = TableDefinition::new().collection::<Everything>();
    let names: Vec<&str> = definition.entities().iter().map(|e| e.type_name).collect();
    assert_eq!(names, ["Customer", "Order", "Product"]);
    assert!(
        !definition.catalogue().unwrap().contains("Everything"),
        "not listed as a collection"
    );
}
