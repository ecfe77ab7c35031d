//! The service examples of `stamp-examples`, run for real: the web API
//! ([`stamp_examples::web`]) on a free loopback port over the embedded
//! DynamoDB, called with an HTTP client; and the Lambda consumer
//! ([`stamp_examples::lambda`]) invoked with the events of the server's
//! DynamoDB Stream. Both through Stamp's test kit (`stamp::testing`):
//! faults and request counts from `Faults`, the Lambda events from
//! `LambdaEvents`.

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::types::StreamViewType;
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use stamp::streams::{Event, EventRecord};
use stamp::testing::{Fault, Faults, LambdaEvents, On};
use stamp::{BatchWrite, Table, TransactWrite};
use stamp_examples::web::{ErrorBody, OrdersPage, Placed};
use stamp_examples::{Customer, Order, OrderStatus, Product, lambda, table_definition, web};
use uuid::Uuid;

/// This binary's embedded DynamoDB, on a thread of its own so that it
/// outlives each test's runtime.
static EMBEDDED: std::sync::LazyLock<stamp::local::LocalDynamoDb> =
    std::sync::LazyLock::new(|| {
        stamp::local::LocalDynamoDb::start_in_background()
            .unwrap_or_else(|error| panic!("{error}; or set STAMP_DYNAMODB_ENDPOINT"))
    });

/// `$STAMP_DYNAMODB_ENDPOINT` when set, else the embedded server.
fn endpoint() -> String {
    match std::env::var("STAMP_DYNAMODB_ENDPOINT") {
        Ok(url) if !url.is_empty() => url,
        _ => EMBEDDED.endpoint().to_owned(),
    }
}

const CURSOR_KEY: &[u8] = b"the web tests' cursor key, 32+ bytes long";

fn epoch() -> DateTime<Utc> {
    "2026-06-01T00:00:00Z".parse().unwrap()
}

/// Order `n` of `customer_id`, placed `n` hours after the epoch; pending
/// when `n` is odd, else paid; updated `n` minutes after it was placed
/// plus `n` hours, so `updated_at` grows with `n` across customers.
fn order(customer_id: &str, n: u128) -> Order {
    let created_at = epoch() + Duration::hours(n as i64);
    Order {
        customer_id: customer_id.into(),
        order_id: Uuid::from_u128(n),
        created_at,
        created_month: Order::month_of(created_at),
        status: Some(if n % 2 == 1 {
            OrderStatus::Pending
        } else {
            OrderStatus::Paid
        }),
        updated_at: created_at + Duration::minutes(n as i64),
        total_cents: 100 * n as u64,
        line_count: 1,
        embedding: stamp_examples::embedding::order([&product("SKU-1", 10)]),
    }
}

fn customer(customer_id: &str) -> Customer {
    Customer {
        customer_id: customer_id.into(),
        name: "Ada Lovelace".into(),
        email: format!("{customer_id}@example.com"),
        order_count: 0,
        created_at: epoch(),
    }
}

fn product(sku: &str, stock: u32) -> Product {
    Product::new(sku, "Analytical engine gear", "workshop", 1_500, stock)
}

/// A fresh table with the reference data: customer `c-1` with orders 1 to
/// 7, customer `c-2` with orders 11 to 13, product `SKU-1` (stock 10).
async fn loaded(test: &str, table: Table) -> Table {
    let table = Table::new(
        table.client().clone(),
        format!("stamp-{test}-{}", Uuid::new_v4().simple()),
    )
    .with_cursor_key(CURSOR_KEY);
    table.create_table(&table_definition()).await.unwrap();
    let orders: Vec<Order> = (1..=7)
        .map(|n| order("c-1", n))
        .chain((11..=13).map(|n| order("c-2", n)))
        .collect();
    // Unique e-mails: customers are created in a transaction, never batched.
    TransactWrite::new()
        .create(&customer("c-1"))
        .create(&customer("c-2"))
        .send(&table)
        .await
        .unwrap();
    BatchWrite::new()
        .put_all(&orders)
        .put_all(&[product("SKU-1", 10)])
        .send(&table)
        .await
        .unwrap();
    table
}

/// Serves the API over `table` on a free port of 127.0.0.1; its base URL.
async fn serve(table: Table) -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(web::serve(listener, table));
    base
}

/// The API over a loaded table, its base URL and the kit's `Faults` the
/// API's requests go through (none scripted: it counts them).
async fn api(test: &str) -> (Table, String, Faults) {
    let loaded = loaded(
        test,
        Table::new(stamp::local::client(&endpoint()), "unused"),
    )
    .await;
    let faults = Faults::new();
    let table = faults.table(&loaded);
    let base = serve(table.clone()).await;
    (table, base, faults)
}

/// The web API (`web_api::` is the filter of these tests).
mod web_api {
    use super::*;

    /// Every page of `path` with `limit`, following the cursors to the end:
    /// the order ids of each page.
    async fn all_pages(
        http: &reqwest::Client,
        base: &str,
        path: &str,
        limit: usize,
    ) -> Vec<Vec<u128>> {
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut request = http
                .get(format!("{base}{path}"))
                .query(&[("limit", limit.to_string())]);
            if let Some(cursor) = &cursor {
                request = request.query(&[("cursor", cursor)]);
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), reqwest::StatusCode::OK);
            let page: OrdersPage = response.json().await.unwrap();
            pages.push(
                page.orders
                    .iter()
                    .map(|order| order.order_id.as_u128())
                    .collect(),
            );
            match page.cursor {
                Some(next) => cursor = Some(next),
                None => return pages,
            }
            assert!(pages.len() < 10, "the pages end");
        }
    }

    #[tokio::test]
    async fn a_customers_orders_page_newest_first_to_the_end_through_cursors() {
        let (_table, base, _) = api("web-pages").await;
        let http = reqwest::Client::new();
        assert_eq!(
            all_pages(&http, &base, "/customers/c-1/orders", 3).await,
            [vec![7, 6, 5], vec![4, 3, 2], vec![1]]
        );
        assert_eq!(
            all_pages(&http, &base, "/customers/c-2/orders", 20).await,
            [vec![13, 12, 11]]
        );
    }

    #[tokio::test]
    async fn the_newest_pending_orders_of_all_customers_page_across_the_shards() {
        let (_table, base, _) = api("web-pending").await;
        let http = reqwest::Client::new();
        // Pending: the odd ones, newest `updated_at` first, of both customers.
        assert_eq!(
            all_pages(&http, &base, "/orders/pending", 2).await,
            [vec![13, 11], vec![7, 5], vec![3, 1]]
        );
    }

    #[tokio::test]
    async fn a_tampered_cursor_is_refused_with_400_before_anything_is_sent() {
        let (_table, base, faults) = api("web-tampered").await;
        let http = reqwest::Client::new();
        let first: OrdersPage = http
            .get(format!("{base}/customers/c-1/orders?limit=3"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let cursor = first.cursor.expect("a next page");
        // Change one character of the payload (before the `.signature`).
        let mut tampered: Vec<char> = cursor.chars().collect();
        tampered[3] = if tampered[3] == 'A' { 'B' } else { 'A' };
        let tampered: String = tampered.into_iter().collect();
        for forged in [
            tampered.as_str(),
            "not-a-cursor",
            cursor.split('.').next().unwrap(),
        ] {
            let before = faults.counts().requests;
            let response = http
                .get(format!("{base}/customers/c-1/orders"))
                .query(&[("limit", "3"), ("cursor", forged)])
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                reqwest::StatusCode::BAD_REQUEST,
                "{forged}"
            );
            let body: ErrorBody = response.json().await.unwrap();
            assert_eq!(body.error, "invalid_cursor", "{forged}: {}", body.message);
            // Error::client_message: nothing of the table, the key or the signature.
            assert_eq!(body.message, "the cursor is not valid for this request");
            assert_eq!(
                faults.counts().requests,
                before,
                "nothing sent for {forged}"
            );
        }
        // The cursor of another customer's query is refused the same way.
        let before = faults.counts().requests;
        let response = http
            .get(format!("{base}/customers/c-2/orders"))
            .query(&[("limit", "3"), ("cursor", cursor.as_str())])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::BAD_REQUEST);
        assert_eq!(faults.counts().requests, before);
    }

    #[tokio::test]
    async fn a_double_submit_places_one_order() {
        let (table, base, _) = api("web-double-submit").await;
        let http = reqwest::Client::new();
        let order_id = Uuid::from_u128(0x5f0c_2a4e);
        let url = format!("{base}/customers/c-1/orders/{order_id}");
        let body = json!({"lines": [{"sku": "SKU-1", "quantity": 2}]});
        let first = http.put(&url).json(&body).send().await.unwrap();
        assert_eq!(first.status(), reqwest::StatusCode::CREATED);
        assert_eq!(
            first.json::<Placed>().await.unwrap(),
            Placed {
                order_id,
                total_cents: 3_000
            }
        );
        // The same submit again, a moment later: its order key (which holds
        // the time of placement) differs, and still nothing is placed.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let second = http.put(&url).json(&body).send().await.unwrap();
        assert_eq!(second.status(), reqwest::StatusCode::CONFLICT);
        let error: ErrorBody = second.json().await.unwrap();
        assert_eq!(error.error, "already_exists", "{}", error.message);

        let pages = all_pages(&http, &base, "/customers/c-1/orders", 20).await;
        assert_eq!(pages, [vec![order_id.as_u128(), 7, 6, 5, 4, 3, 2, 1]]);
        let stored: Product = table
            .get(&Product::key("SKU-1").unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.stock, 8, "taken from stock once");
        let stored: Customer = table
            .get(&Customer::key("c-1").unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.order_count, 1, "counted once");

        // An unknown product is 404, an empty order 400, too many units 409.
        let unknown = http
            .put(format!(
                "{base}/customers/c-1/orders/{}",
                Uuid::from_u128(99)
            ))
            .json(&json!({"lines": [{"sku": "SKU-404", "quantity": 1}]}))
            .send()
            .await
            .unwrap();
        assert_eq!(unknown.status(), reqwest::StatusCode::NOT_FOUND);
        let empty = http
            .put(format!(
                "{base}/customers/c-1/orders/{}",
                Uuid::from_u128(98)
            ))
            .json(&json!({"lines": []}))
            .send()
            .await
            .unwrap();
        assert_eq!(empty.status(), reqwest::StatusCode::BAD_REQUEST);
        let too_many = http
            .put(format!(
                "{base}/customers/c-1/orders/{}",
                Uuid::from_u128(97)
            ))
            .json(&json!({"lines": [{"sku": "SKU-1", "quantity": 9}]}))
            .send()
            .await
            .unwrap();
        assert_eq!(too_many.status(), reqwest::StatusCode::CONFLICT);
        assert_eq!(
            too_many.json::<ErrorBody>().await.unwrap().error,
            "out_of_stock"
        );
    }

    #[tokio::test]
    async fn a_status_change_is_404_when_absent_and_409_when_stale() {
        let (_table, base, _) = api("web-status").await;
        let http = reqwest::Client::new();
        let one = order("c-1", 1);
        let url = |order: &Order| {
            format!(
                "{base}/customers/c-1/orders/{}/{}/status",
                order.created_at.to_rfc3339(),
                order.order_id
            )
        };
        let paid = json!({"status": "PAID", "if_updated_at": one.updated_at});
        let response = http.put(url(&one)).json(&paid).send().await.unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::OK);
        let stored: Order = response.json().await.unwrap();
        assert_eq!(stored.status, Some(OrderStatus::Paid));
        assert_eq!(
            all_pages(&http, &base, "/orders/pending", 10).await,
            [vec![13, 11, 7, 5, 3]],
            "order 1 left the pending orders"
        );
        // The same change from a client that read the order before it.
        let stale = http.put(url(&one)).json(&paid).send().await.unwrap();
        assert_eq!(stale.status(), reqwest::StatusCode::CONFLICT);
        let body: ErrorBody = stale.json().await.unwrap();
        assert_eq!(body.error, "condition_failed", "{}", body.message);
        assert_eq!(
            body.message,
            "the item is not in the state the request requires"
        );
        // An order that does not exist.
        let absent = http
            .put(url(&order("c-1", 50)))
            .json(&paid)
            .send()
            .await
            .unwrap();
        assert_eq!(absent.status(), reqwest::StatusCode::NOT_FOUND);
        let body: ErrorBody = absent.json().await.unwrap();
        assert_eq!(body.error, "not_found", "{}", body.message);
        assert_eq!(body.message, "the item does not exist");
    }

    #[tokio::test]
    async fn a_throttled_query_is_503_with_retry_after() {
        // No SDK retries, so that the one throttled answer reaches the API.
        let client = aws_sdk_dynamodb::Client::from_conf(
            stamp::local::config(&endpoint())
                .retry_config(RetryConfig::disabled())
                .build(),
        );
        let plain = loaded("web-throttled", Table::new(client, "x")).await;
        let faults = Faults::new();
        faults.next(
            On::operation("Query").table(plain.name()),
            Fault::throttled("TableReadKeyRangeThroughputExceeded"),
        );
        let base = serve(faults.table(&plain)).await;
        let response = reqwest::get(format!("{base}/customers/c-1/orders"))
            .await
            .unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            response
                .headers()
                .get("retry-after")
                .map(|value| value.to_str().unwrap()),
            Some("1")
        );
        let body: ErrorBody = response.json().await.unwrap();
        assert_eq!(body.error, "throttled", "{}", body.message);
        // Not DynamoDB's message, nor the table's ARN in its reasons.
        assert_eq!(body.message, "the service is busy; retry later");
        assert_eq!(faults.counts().requests_of("Query"), 1);
        assert_eq!(faults.pending(), 0);
    }
}

/// The Lambda consumer (`lambda_consumer::` is the filter of these tests).
mod lambda_consumer {
    use super::*;

    fn event(records: &[EventRecord]) -> Event {
        let mut event = Event::default();
        event.records = records.to_vec();
        event
    }

    /// A table with a stream, and its records after writing customer `c-1`
    /// and orders 1 to 4, in that order: one Lambda event.
    async fn stream_records(test: &str) -> Vec<EventRecord> {
        let table = Table::new(
            stamp::local::client(&endpoint()),
            format!("stamp-{test}-{}", Uuid::new_v4().simple()),
        );
        table
            .create_table(&table_definition().stream(StreamViewType::NewAndOldImages))
            .await
            .unwrap();
        table.put(&customer("c-1")).await.unwrap();
        for n in 1..=4 {
            table.put(&order("c-1", n)).await.unwrap();
        }
        let streams = stamp::local::streams_client(&endpoint());
        let mut events = LambdaEvents::new(&table, streams).batch_size(10);
        let mut batches = events.batches().await.unwrap();
        assert_eq!(batches.len(), 1, "{batches:#?}");
        let records = batches.remove(0).records;
        assert_eq!(records.len(), 6, "{records:#?}");
        // The customer's put also inserted the guard of its unique e-mail:
        // the consumer sees it as an item of another type and skips it.
        let (guards, records): (Vec<EventRecord>, Vec<EventRecord>) =
            records.into_iter().partition(|record| {
                serde_json::to_value(record).unwrap()["dynamodb"]["Keys"]["PK"]["S"]
                    == json!("UNIQUE#Customer#email#c-1@example.com")
            });
        assert_eq!(guards.len(), 1, "{guards:#?}");
        let (processed, response) = invoke(&guards, None).await;
        assert_eq!(processed, Vec::<String>::new());
        assert_eq!(response, json!({"batchItemFailures": []}));
        records
    }

    fn sequence_number(record: &EventRecord) -> String {
        record.change.sequence_number.clone().unwrap()
    }

    /// Runs the handler over `records`; the lines `describe` gave for the
    /// changes processed, and the response as Lambda reads it.
    async fn invoke(records: &[EventRecord], fail_order: Option<u128>) -> (Vec<String>, Value) {
        let mut processed = Vec::new();
        let response = lambda::handle(event(records), |change| {
            let failed = matches!(
                (&change.new, fail_order),
                (Some(stamp_examples::CustomerWithOrders::Order(order)), Some(n)) if order.order_id == Uuid::from_u128(n)
            );
            if !failed {
                processed.extend(lambda::describe(&change));
            }
            async move {
                if failed {
                    Err("the downstream system refused it")
                } else {
                    Ok(())
                }
            }
        })
        .await;
        (processed, serde_json::to_value(response).unwrap())
    }

    fn placed(n: u128) -> String {
        format!(
            "order {} placed by c-1: {} cents",
            Uuid::from_u128(n),
            100 * n
        )
    }

    #[tokio::test]
    async fn a_batch_of_good_records_is_processed_whole() {
        let records = stream_records("lambda-whole").await;
        let (processed, response) = invoke(&records, None).await;
        assert_eq!(
            processed,
            [
                "customer c-1 joined".to_owned(),
                placed(1),
                placed(2),
                placed(3),
                placed(4)
            ]
        );
        assert_eq!(response, json!({"batchItemFailures": []}));
    }

    #[tokio::test]
    async fn an_undecodable_record_is_reported_by_sequence_number_and_the_records_before_it_processed()
     {
        let mut records = stream_records("lambda-undecodable").await;
        // Order 2's new image with a total that is not a number: Order cannot
        // read it.
        let mut record = serde_json::to_value(&records[2]).unwrap();
        record["dynamodb"]["NewImage"]["total_cents"] = json!({"S": "lots"});
        records[2] = serde_json::from_value(record).unwrap();
        let (processed, response) = invoke(&records, None).await;
        assert_eq!(processed, ["customer c-1 joined".to_owned(), placed(1)]);
        assert_eq!(
            response,
            json!({"batchItemFailures": [{"itemIdentifier": sequence_number(&records[2])}]})
        );
        // Lambda retries from the reported record: the records before it are
        // not delivered again; the records after it are processed once the
        // bad one is past (here: the batch after it).
        let (processed, response) = invoke(&records[3..], None).await;
        assert_eq!(processed, [placed(3), placed(4)]);
        assert_eq!(response, json!({"batchItemFailures": []}));
    }

    #[tokio::test]
    async fn a_record_whose_processing_fails_is_reported_and_processing_stops_there() {
        let records = stream_records("lambda-processing").await;
        let (processed, response) = invoke(&records, Some(3)).await;
        assert_eq!(
            processed,
            ["customer c-1 joined".to_owned(), placed(1), placed(2)]
        );
        assert_eq!(
            response,
            json!({"batchItemFailures": [{"itemIdentifier": sequence_number(&records[3])}]})
        );
    }
}
