//! Shared set-up of the server tests: the DynamoDB they talk to, and a
//! fresh table per test.

#![allow(dead_code)]

use std::sync::LazyLock;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use stamp::local::LocalDynamoDb;
use stamp::{Table, TableDefinition};

/// The variable that points every server test at another server (DynamoDB
/// Local, ministack, AWS) instead of the embedded one.
pub const ENDPOINT_ENV: &str = "STAMP_DYNAMODB_ENDPOINT";

/// The embedded DynamoDB of this test binary, started on first use on a
/// thread of its own (so that it outlives each `#[tokio::test]`'s runtime).
static EMBEDDED: LazyLock<LocalDynamoDb> = LazyLock::new(|| {
    LocalDynamoDb::start_in_background().unwrap_or_else(|error| {
        panic!(
            "{error}. The server tests run on an embedded DynamoDB (dynoxide); set \
             {ENDPOINT_ENV} to use another server, e.g. http://localhost:8000 after \
             `docker compose up`."
        )
    })
});

/// The endpoint of the DynamoDB the tests use: `$STAMP_DYNAMODB_ENDPOINT`
/// when set, else this binary's embedded server.
pub fn endpoint() -> String {
    match std::env::var(ENDPOINT_ENV) {
        Ok(url) if !url.is_empty() => url,
        _ => EMBEDDED.endpoint().to_owned(),
    }
}

/// Which implementation answers: `"dynoxide"` (embedded), or the value of
/// `$STAMP_DYNAMODB_SERVER` that `cargo xtask test` sets with the endpoint
/// (`"ministack"`), else `"other"`. Only for documented deviations
/// (docs/design-notes.md, "Servers"); an expected value never depends on it.
pub fn server() -> String {
    match std::env::var(ENDPOINT_ENV) {
        Ok(url) if !url.is_empty() => {
            std::env::var("STAMP_DYNAMODB_SERVER").unwrap_or_else(|_| "other".to_owned())
        }
        _ => "dynoxide".to_owned(),
    }
}

/// How many randomized runs a long test makes: `on_embedded` on the
/// embedded server, `elsewhere` on any other (ministack in the second pass
/// of `cargo xtask test`, about six times slower; DynamoDB Local; AWS,
/// which bills each request). A size only: what each run expects never
/// depends on it.
pub fn repetitions(on_embedded: u64, elsewhere: u64) -> u64 {
    if server() == "dynoxide" {
        on_embedded
    } else {
        elsewhere
    }
}

/// A client for [`endpoint`], with SDK retries turned off so that every
/// failure shows.
pub fn client() -> Client {
    Client::from_conf(
        stamp::local::config(&endpoint())
            .retry_config(RetryConfig::disabled())
            .build(),
    )
}

/// A new table with a unique name, created from `definition`.
pub async fn fresh_table(test: &str, definition: &TableDefinition) -> Table {
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client(), name);
    table
        .create_table(definition)
        .await
        .expect("create the test table");
    table
}

/// Counts the HTTP requests a client sends, by operation (`X-Amz-Target`,
/// such as `DynamoDB_20120810.Query`), through an SDK interceptor.
#[derive(Debug, Clone, Default)]
pub struct RequestCounter {
    operations: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl RequestCounter {
    /// The operations sent so far, in order (`Query`, `PutItem`, …).
    pub fn operations(&self) -> Vec<String> {
        self.operations.lock().unwrap().clone()
    }

    /// How many requests of `operation` were sent.
    pub fn count(&self, operation: &str) -> usize {
        self.operations()
            .iter()
            .filter(|sent| *sent == operation)
            .count()
    }

    /// Forgets what was counted.
    pub fn reset(&self) {
        self.operations.lock().unwrap().clear();
    }
}

impl aws_sdk_dynamodb::config::Intercept for RequestCounter {
    fn name(&self) -> &'static str {
        "RequestCounter"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let target = context
            .request()
            .headers()
            .get("x-amz-target")
            .unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        self.operations.lock().unwrap().push(operation);
        Ok(())
    }
}

/// A client for [`endpoint`] that counts its requests.
pub fn counting_client() -> (Client, RequestCounter) {
    let counter = RequestCounter::default();
    let config = stamp::local::config(&endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(counter.clone())
        .build();
    (Client::from_conf(config), counter)
}

/// A new table for `definition` on a counting client.
pub async fn fresh_counted_table(
    test: &str,
    definition: &TableDefinition,
) -> (Table, RequestCounter) {
    let (client, counter) = counting_client();
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client, name);
    table
        .create_table(definition)
        .await
        .expect("create the test table");
    counter.reset();
    (table, counter)
}

// ---------------------------------------------------------------------------
// Fault injection for batch requests, through the SDK's interceptor API.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeDeserializationInterceptorContextRef,
    BeforeSerializationInterceptorContextMut, FinalizerInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::batch_get_item::{BatchGetItemInput, BatchGetItemOutput};
use aws_sdk_dynamodb::operation::batch_write_item::{BatchWriteItemInput, BatchWriteItemOutput};
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes, WriteRequest};
use aws_smithy_types::config_bag::{Storable, StoreReplace};

/// The table name a throttled request is redirected to, so that the server
/// answers it without writing anything; its answer is then replaced.
const NOWHERE: &str = "stamp-fault-injection-nowhere";

/// Decides which `BatchWriteItem`/`BatchGetItem` calls are throttled, by
/// call number (1, 2, …, counted over both operations).
pub type ThrottleRule = Arc<dyn Fn(usize) -> bool + Send + Sync>;

/// Decides which write requests or keys are reported unprocessed, by
/// running number (0, 1, …, over every request and key seen) and the
/// item (the put item, or the key of a delete or get).
pub type DropRule = Arc<dyn Fn(usize, &HashMap<String, AttributeValue>) -> bool + Send + Sync>;

/// An SDK interceptor that makes batch requests fail the way DynamoDB can:
///
/// - a **throttled** call is sent to a table that does not exist (so the
///   server writes nothing) and its response is replaced, before the SDK
///   reads it, by a `400 ProvisionedThroughputExceededException`;
/// - an **unprocessed** write request or key is removed from the request
///   before it is serialized (so the server never sees it) and added to the
///   response's `UnprocessedItems` / `UnprocessedKeys` after it is parsed.
///   When every item of a call is dropped, the call goes to the missing
///   table and its response is replaced by an empty success.
///
/// So the server's state is exactly what the client is told it is.
#[derive(Clone)]
pub struct FaultInjector {
    throttle: ThrottleRule,
    drop: DropRule,
    calls: Arc<AtomicUsize>,
    items: Arc<AtomicUsize>,
    /// Calls answered with a throttling error.
    pub throttled: Arc<AtomicUsize>,
    /// Write requests and keys reported unprocessed.
    pub dropped: Arc<AtomicUsize>,
    /// Write requests and keys that reached the real table.
    pub delivered: Arc<AtomicUsize>,
}

impl std::fmt::Debug for FaultInjector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaultInjector")
            .field("throttled", &self.throttled.load(Ordering::Relaxed))
            .field("dropped", &self.dropped.load(Ordering::Relaxed))
            .finish()
    }
}

/// What the injector did to one call, kept in the call's config bag from
/// serialization to completion.
#[derive(Debug, Clone, Default)]
struct Injected {
    table: String,
    throttle: bool,
    empty_success: bool,
    writes: Vec<WriteRequest>,
    keys: Vec<HashMap<String, AttributeValue>>,
}

impl Storable for Injected {
    type Storer = StoreReplace<Self>;
}

impl FaultInjector {
    /// An injector with these rules.
    pub fn new(
        throttle: impl Fn(usize) -> bool + Send + Sync + 'static,
        drop: impl Fn(usize, &HashMap<String, AttributeValue>) -> bool + Send + Sync + 'static,
    ) -> Self {
        FaultInjector {
            throttle: Arc::new(throttle),
            drop: Arc::new(drop),
            calls: Arc::default(),
            items: Arc::default(),
            throttled: Arc::default(),
            dropped: Arc::default(),
            delivered: Arc::default(),
        }
    }

    /// Calls seen so far.
    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::Relaxed)
    }

    fn keep<T>(
        &self,
        items: Vec<T>,
        item_of: impl Fn(&T) -> &HashMap<String, AttributeValue>,
    ) -> (Vec<T>, Vec<T>) {
        let (kept, dropped): (Vec<T>, Vec<T>) = items.into_iter().partition(|item| {
            let number = self.items.fetch_add(1, Ordering::Relaxed);
            !(self.drop)(number, item_of(item))
        });
        self.delivered.fetch_add(kept.len(), Ordering::Relaxed);
        (kept, dropped)
    }
}

fn write_item(request: &WriteRequest) -> &HashMap<String, AttributeValue> {
    match (&request.put_request, &request.delete_request) {
        (Some(put), _) => &put.item,
        (None, Some(delete)) => &delete.key,
        (None, None) => panic!("a write request is a put or a delete"),
    }
}

impl Intercept for FaultInjector {
    fn name(&self) -> &'static str {
        "FaultInjector"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let input = context.input_mut();
        let mut injected = Injected::default();
        if let Some(input) = input.downcast_mut::<BatchWriteItemInput>() {
            let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
            let items = input
                .request_items
                .as_mut()
                .expect("a batch write has items");
            let table = items.keys().next().expect("one table").clone();
            injected.table = table.clone();
            if (self.throttle)(call) {
                injected.throttle = true;
                let requests = items.remove(&table).unwrap();
                items.insert(NOWHERE.to_owned(), requests);
            } else {
                let requests = items.remove(&table).unwrap();
                let (kept, dropped) = self.keep(requests, write_item);
                injected.empty_success = kept.is_empty();
                items.insert(
                    if kept.is_empty() {
                        NOWHERE.to_owned()
                    } else {
                        table
                    },
                    if kept.is_empty() {
                        dropped.clone()
                    } else {
                        kept
                    },
                );
                injected.writes = dropped;
            }
        } else if let Some(input) = input.downcast_mut::<BatchGetItemInput>() {
            let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
            let items = input.request_items.as_mut().expect("a batch get has keys");
            let table = items.keys().next().expect("one table").clone();
            injected.table = table.clone();
            let mut request = items.remove(&table).unwrap();
            if (self.throttle)(call) {
                injected.throttle = true;
                items.insert(NOWHERE.to_owned(), request);
            } else {
                let (kept, dropped) = self.keep(std::mem::take(&mut request.keys), |key| key);
                injected.empty_success = kept.is_empty();
                request.keys = if kept.is_empty() {
                    dropped.clone()
                } else {
                    kept
                };
                items.insert(
                    if injected.empty_success {
                        NOWHERE.to_owned()
                    } else {
                        table
                    },
                    request,
                );
                injected.keys = dropped;
            }
        } else {
            return Ok(());
        }
        cfg.interceptor_state().store_put(injected);
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(injected) = cfg.load::<Injected>() else {
            return Ok(());
        };
        let (status, body) = if injected.throttle {
            self.throttled.fetch_add(1, Ordering::Relaxed);
            (
                400,
                r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded (injected by the test)"}"#,
            )
        } else if injected.empty_success {
            (200, "{}")
        } else {
            return Ok(());
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

    fn modify_before_completion(
        &self,
        context: &mut FinalizerInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(injected) = cfg.load::<Injected>().cloned() else {
            return Ok(());
        };
        if injected.writes.is_empty() && injected.keys.is_empty() {
            return Ok(());
        }
        let Some(Ok(output)) = context.output_or_error_mut() else {
            return Ok(());
        };
        if let Some(output) = output.downcast_mut::<BatchWriteItemOutput>() {
            self.dropped
                .fetch_add(injected.writes.len(), Ordering::Relaxed);
            output
                .unprocessed_items
                .get_or_insert_with(HashMap::new)
                .entry(injected.table)
                .or_default()
                .extend(injected.writes);
        } else if let Some(output) = output.downcast_mut::<BatchGetItemOutput>() {
            self.dropped
                .fetch_add(injected.keys.len(), Ordering::Relaxed);
            let unprocessed = output.unprocessed_keys.get_or_insert_with(HashMap::new);
            match unprocessed.get_mut(&injected.table) {
                Some(keys) => keys.keys.extend(injected.keys),
                None => {
                    unprocessed.insert(
                        injected.table,
                        KeysAndAttributes::builder()
                            .set_keys(Some(injected.keys))
                            .build()
                            .unwrap(),
                    );
                }
            }
        }
        Ok(())
    }
}

/// A drop rule that reports the item with running number `n` unprocessed
/// when `rule(n)` holds, but each key (its `PK` and `SK`) at most `times`
/// times: deterministic per key, whatever the concurrency, so a retry loop
/// with more than `times` attempts always gets every item through.
pub fn at_most_per_key(
    times: usize,
    rule: impl Fn(usize) -> bool + Send + Sync + 'static,
) -> impl Fn(usize, &HashMap<String, AttributeValue>) -> bool + Send + Sync + 'static {
    let dropped: std::sync::Mutex<HashMap<String, usize>> = std::sync::Mutex::default();
    move |number, item| {
        if !rule(number) {
            return false;
        }
        let key = format!("{:?}/{:?}", item.get("PK"), item.get("SK"));
        let mut dropped = dropped.lock().unwrap();
        let count = dropped.entry(key).or_default();
        *count += 1;
        *count <= times
    }
}

/// A client for [`endpoint`] with `injector` and a request counter (SDK
/// retries off, so every injected fault reaches Stamp).
pub fn faulty_client(injector: FaultInjector) -> (Client, RequestCounter) {
    let counter = RequestCounter::default();
    let config = stamp::local::config(&endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(counter.clone())
        .interceptor(injector)
        .build();
    (Client::from_conf(config), counter)
}

/// A new table for `definition` on a client with `injector`; the table is
/// created on a plain client, so the injector sees only the test's calls.
pub async fn fresh_faulty_table(
    test: &str,
    definition: &TableDefinition,
    injector: FaultInjector,
) -> (Table, RequestCounter) {
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    Table::new(client(), name.clone())
        .create_table(definition)
        .await
        .expect("create the test table");
    let (client, counter) = faulty_client(injector);
    (Table::new(client, name), counter)
}

/// Measures how many requests a client has in flight at once, from the
/// start of each execution to its end.
#[derive(Debug, Clone, Default)]
pub struct InFlight {
    now: Arc<AtomicUsize>,
    /// The most requests in flight at one time.
    pub max: Arc<AtomicUsize>,
}

impl Intercept for InFlight {
    fn name(&self) -> &'static str {
        "InFlight"
    }

    fn read_before_execution(
        &self,
        _context: &aws_sdk_dynamodb::config::interceptors::BeforeSerializationInterceptorContextRef<
            '_,
        >,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(now, Ordering::SeqCst);
        Ok(())
    }

    fn read_after_execution(
        &self,
        _context: &aws_sdk_dynamodb::config::interceptors::FinalizerInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.now.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}

/// A new table for `definition` on a client that measures its requests in
/// flight.
pub async fn fresh_measured_table(test: &str, definition: &TableDefinition) -> (Table, InFlight) {
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    Table::new(client(), name.clone())
        .create_table(definition)
        .await
        .expect("create the test table");
    let in_flight = InFlight::default();
    let config = stamp::local::config(&endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(in_flight.clone())
        .build();
    (Table::new(Client::from_conf(config), name), in_flight)
}

/// The reference model's `Order` without its vector index (`VECTOR2`): the
/// same keys, GSIs and fields, for the tests of a provisioned table, which
/// DynamoDB does not allow a vector index.
#[derive(stamp::Item, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>#<shard>", sk = "<updated_at>", shards = 16)]
#[gsi2(pk = "ORDER#<order_id>", sk = "ORDER")]
#[stamp(type_name = "Order")]
pub struct OrderWithoutVector {
    customer_id: String,
    order_id: uuid::Uuid,
    created_at: chrono::DateTime<chrono::Utc>,
    created_month: String,
    status: Option<stamp_examples::OrderStatus>,
    updated_at: chrono::DateTime<chrono::Utc>,
    total_cents: u64,
    line_count: u32,
    #[serde(rename = "order_embedding")]
    embedding: Vec<f32>,
}

/// The reference model without its vector indexes (no `Product`, the
/// `Order` of [`OrderWithoutVector`]): what a provisioned table of it can be.
pub fn reference_without_vector_indexes() -> TableDefinition {
    TableDefinition::new()
        .entity::<stamp_examples::Customer>()
        .entity::<OrderWithoutVector>()
        .entity::<stamp_examples::LineItem>()
        .entity::<stamp_examples::Session>()
}

// ---------------------------------------------------------------------------
// Killing a job at a chosen request (the kill-and-resume tests).

/// An SDK interceptor that counts the requests sent through every client it
/// is given (DynamoDB, DynamoDB Streams, S3: one trait), and kills the job
/// it [`run`](KillAt::run)s as the `kill_at`-th goes out. That request is
/// sent: the server may apply it, as when a process dies mid-request. From
/// then on the job is dead to the servers: no answer reaches it (that
/// request's included) and no later request leaves it, and its task is
/// aborted, so it stops at its next `.await`. (A task runs on past its
/// abort until it yields, and an answer from a local server can be ready
/// without a yield: aborting alone would let it go on.)
#[derive(Debug, Clone)]
pub struct KillAt {
    kill_at: usize,
    sent: Arc<AtomicUsize>,
    dead: Arc<std::sync::atomic::AtomicBool>,
    task: Arc<std::sync::Mutex<Option<tokio::task::AbortHandle>>>,
}

impl KillAt {
    /// Kills at the `kill_at`-th request (1 for the first); `usize::MAX`
    /// never does, and counts.
    pub fn new(kill_at: usize) -> Self {
        KillAt {
            kill_at,
            sent: Arc::default(),
            dead: Arc::default(),
            task: Arc::default(),
        }
    }

    /// The requests sent so far (the kill point's included, none after).
    pub fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst).min(self.kill_at)
    }

    /// Runs `job` in a task of its own, killed at the `kill_at`-th request:
    /// `None` when it was killed (what it may have returned after its kill,
    /// from the refused requests, is not its own), else what it returned.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl std::future::Future<Output = T> + Send + 'static,
    ) -> Option<T> {
        let start = Arc::new(tokio::sync::Notify::new());
        let task = tokio::spawn({
            let start = start.clone();
            async move {
                start.notified().await;
                job.await
            }
        });
        *self.task.lock().unwrap() = Some(task.abort_handle());
        start.notify_one();
        let finished = match task.await {
            Ok(finished) => Some(finished),
            Err(error) if error.is_cancelled() => None,
            Err(error) => panic!("the job panicked: {error}"),
        };
        finished.filter(|_| !self.dead.load(Ordering::SeqCst))
    }

    /// A DynamoDB client of the test server without SDK retries, counted
    /// (and killed) by this interceptor.
    pub fn client(&self) -> Client {
        Client::from_conf(
            stamp::local::config(&endpoint())
                .retry_config(RetryConfig::disabled())
                .interceptor(self.clone())
                .build(),
        )
    }

    /// A DynamoDB Streams client of the test server without SDK retries,
    /// counted (and killed) by this interceptor.
    pub fn streams_client(&self) -> stamp::streams::StreamsClient {
        stamp::streams::StreamsClient::from_conf(
            stamp::local::streams_config(&endpoint())
                .retry_config(RetryConfig::disabled())
                .interceptor(self.clone())
                .build(),
        )
    }
}

impl Intercept for KillAt {
    fn name(&self) -> &'static str {
        "KillAt"
    }

    fn read_before_transmit(
        &self,
        _context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.dead.load(Ordering::SeqCst) {
            return Err("killed: the request is not sent".into());
        }
        if self.sent.fetch_add(1, Ordering::SeqCst) + 1 == self.kill_at {
            self.dead.store(true, Ordering::SeqCst);
            if let Some(task) = self.task.lock().unwrap().take() {
                task.abort();
            }
        }
        Ok(())
    }

    fn read_after_transmit(
        &self,
        _context: &BeforeDeserializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.dead.load(Ordering::SeqCst) {
            return Err("killed: the answer is not read".into());
        }
        Ok(())
    }
}

/// Every item of `table`, read page by page with a plain client (no
/// faults, whatever client the table has), by `(PK, SK)`.
pub async fn items_by_key(
    table: &Table,
) -> std::collections::BTreeMap<(String, String), stamp::AttributeMap> {
    let client = client();
    let mut items = std::collections::BTreeMap::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table.name())
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        for item in page.items.unwrap_or_default() {
            let text = |name: &str| item[name].as_s().unwrap().clone();
            items.insert((text("PK"), text("SK")), item);
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return items;
        }
    }
}
