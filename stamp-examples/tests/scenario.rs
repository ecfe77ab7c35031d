//! The demo's scenario on a smaller data set, against the local server that
//! `cargo xtask test` starts, with every result checked exactly against the
//! generated data: the demo cannot rot.

use chrono::{Duration, NaiveDate};
use stamp::Table;
use stamp::schema::SchemaDifference;
use stamp_examples::data::{self, DataSet, Size};
use stamp_examples::requests::RequestCounter;
use stamp_examples::scenario::{self, OrderLine, Placement};
use stamp_examples::{
    Customer, CustomerWithOrders, LineItem, Order, OrderStatus, OrderWithItems, client_counting,
    table_definition,
};
use uuid::Uuid;

const SIZE: Size = Size {
    customers: 40,
    products: 30,
    orders: 600,
    orders_with_line_items: 120,
};

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

async fn loaded() -> (Table, RequestCounter, DataSet) {
    let counter = RequestCounter::default();
    let client = client_counting(Some(&endpoint()), Some(&counter)).await;
    // The data's story starts at `data::epoch`, its sessions expire hours
    // later: the table's clock is the story's.
    let table = Table::new(
        client,
        format!("stamp-scenario-{}", Uuid::new_v4().simple()),
    )
    .with_clock(data::epoch);
    table.create_table(&table_definition()).await.unwrap();
    let data = data::generate(data::SEED, SIZE);
    let mut last = 0;
    scenario::load(&table, &data, 100, |written| {
        assert!(written > last, "progress only grows");
        last = written;
    })
    .await
    .unwrap();
    assert_eq!(last, data.len());
    (table, counter, data)
}

/// The customer's orders, newest first, as the table orders them.
fn orders_of<'d>(data: &'d DataSet, customer_id: &str) -> Vec<&'d Order> {
    let mut orders: Vec<&Order> = data
        .orders
        .iter()
        .filter(|order| order.customer_id == customer_id)
        .collect();
    orders.sort_by_key(|order| std::cmp::Reverse((order.created_at, order.order_id)));
    orders
}

#[tokio::test]
async fn every_generated_item_is_loaded_once() {
    let (table, _counter, data) = loaded().await;
    let scanned = table
        .client()
        .scan()
        .table_name(table.name())
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap();
    // Each customer's unique e-mail adds its guard item.
    assert_eq!(
        scanned.count as usize,
        data.len() + data.customers.len(),
        "every item was loaded once, with one guard per customer"
    );
    assert_eq!(data.len(), 40 + 30 + 600 + data.line_items.len() + 4);
    // The guards hold the customers' e-mails, each owned by its customer.
    for customer in &data.customers {
        assert_eq!(
            table
                .get_unique(Customer::EMAIL, &customer.email)
                .await
                .unwrap()
                .as_ref(),
            Some(customer)
        );
    }
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn the_customer_patterns_return_exactly_the_generated_data_in_one_request_per_page() {
    let (table, counter, data) = loaded().await;
    let customer = &data.customers[7];
    let run = scenario::customer_by_id(&table, &counter, &customer.customer_id)
        .await
        .unwrap();
    assert_eq!(run.result.as_ref(), Some(customer));
    assert_eq!(run.requests, 1);
    assert_eq!(
        run.key_condition,
        format!(
            "PK = \"CUST#{}\" AND SK = \"PROFILE\"",
            customer.customer_id
        )
    );

    let run = scenario::customer_with_newest_orders(&table, &counter, &customer.customer_id, 10)
        .await
        .unwrap();
    let mut expected = vec![CustomerWithOrders::Customer(customer.clone())];
    expected.extend(
        orders_of(&data, &customer.customer_id)
            .into_iter()
            .take(10)
            .cloned()
            .map(CustomerWithOrders::Order),
    );
    assert_eq!(run.result, expected);
    assert_eq!(run.requests, 1);
    assert_eq!(
        run.key_condition,
        format!("PK = \"CUST#{}\"", customer.customer_id)
    );

    let first = NaiveDate::from_ymd_opt(2026, 2, 1).unwrap();
    let last = NaiveDate::from_ymd_opt(2026, 3, 31).unwrap();
    let run = scenario::orders_in_range(&table, &counter, &customer.customer_id, first, last)
        .await
        .unwrap();
    let mut expected: Vec<Order> = orders_of(&data, &customer.customer_id)
        .into_iter()
        .filter(|order| (first..=last).contains(&order.created_at.date_naive()))
        .cloned()
        .collect();
    expected.reverse();
    assert!(!expected.is_empty());
    assert_eq!(run.result, expected);
    assert_eq!(run.requests, 1);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_order_with_its_items_and_a_product_return_exactly_the_generated_data() {
    let (table, counter, data) = loaded().await;
    let order = &data.orders[7];
    let run = scenario::order_with_items(&table, &counter, &order.order_id)
        .await
        .unwrap();
    let mut expected: Vec<OrderWithItems> = data
        .line_items
        .iter()
        .filter(|line| line.order_id == order.order_id)
        .cloned()
        .map(OrderWithItems::LineItem)
        .collect();
    assert_eq!(expected.len() as u32, order.line_count);
    expected.push(OrderWithItems::Order(order.clone()));
    assert_eq!(run.result, expected);
    assert_eq!(run.requests, 1);

    let run = scenario::product_by_sku(&table, &counter, "SKU-00012")
        .await
        .unwrap();
    assert_eq!(run.result.as_ref(), Some(&data.products[11]));
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn the_newest_orders_in_a_status_come_from_one_request_per_shard_and_a_session_by_its_token()
{
    let (table, counter, data) = loaded().await;
    let run = scenario::newest_in_status(&table, &counter, OrderStatus::Pending, 10)
        .await
        .unwrap();
    let mut pending: Vec<&Order> = data
        .orders
        .iter()
        .filter(|order| order.status == Some(OrderStatus::Pending))
        .collect();
    pending.sort_by_key(|order| std::cmp::Reverse(order.updated_at));
    let times = |orders: Vec<&Order>| {
        orders
            .into_iter()
            .map(|order| order.updated_at)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        times(run.result.iter().collect()),
        times(pending.into_iter().take(10).collect())
    );
    assert!(run.result.iter().all(|order| data.orders.contains(order)));
    // GSI1 is sharded over 16 partition keys: one request per shard.
    assert_eq!(run.requests, 16);
    assert_eq!(
        run.key_condition,
        "16 requests, merged: GSI1: GSI1PK = \"STATUS#PENDING#0\" … GSI1: GSI1PK = \"STATUS#PENDING#15\""
    );

    let session = &data.sessions[2];
    let run = scenario::session_by_token(&table, &counter, &session.token)
        .await
        .unwrap();
    assert_eq!(run.result.as_ref(), Some(session));
    table.delete_table().await.unwrap();
}

/// What [`place_the_first_order`] placed: the customer, the two products
/// and the lines ordered (two of the first, one of the second), the order's
/// id and time.
struct FirstOrder<'d> {
    customer: &'d stamp_examples::Customer,
    first: &'d stamp_examples::Product,
    second: &'d stamp_examples::Product,
    lines: [OrderLine; 2],
    order_id: Uuid,
    placed_at: chrono::DateTime<chrono::Utc>,
}

/// Places two of product 4 and one of product 9 for customer 3 and checks
/// that it is placed, at their price, in one request.
async fn place_the_first_order<'d>(
    table: &Table,
    counter: &RequestCounter,
    data: &'d DataSet,
) -> FirstOrder<'d> {
    let customer = &data.customers[3];
    let (first, second) = (&data.products[4], &data.products[9]);
    let lines = [
        OrderLine {
            sku: first.sku.clone(),
            quantity: 2,
        },
        OrderLine {
            sku: second.sku.clone(),
            quantity: 1,
        },
    ];
    let order_id = Uuid::from_u128(0x5EED);
    let placed_at = data::epoch() + Duration::days(160);
    let before = counter.count();
    let placed = scenario::place_order(
        table,
        &customer.customer_id,
        order_id,
        placed_at,
        &lines,
        &data.products,
    )
    .await
    .unwrap();
    assert_eq!(
        placed,
        Placement::Placed {
            total_cents: 2 * first.price_cents + second.price_cents
        }
    );
    assert_eq!(counter.count() - before, 1, "one TransactWriteItems");
    FirstOrder {
        customer,
        first,
        second,
        lines,
        order_id,
        placed_at,
    }
}

/// The stock of product `sku`, as read by the scenario.
async fn stock(table: &Table, counter: &RequestCounter, sku: &str) -> u32 {
    scenario::product_by_sku(table, counter, sku)
        .await
        .unwrap()
        .result
        .unwrap()
        .stock
}

#[tokio::test]
async fn placing_an_order_is_one_idempotent_transaction_guarded_by_stock() {
    let (table, counter, data) = loaded().await;
    let FirstOrder {
        customer,
        first,
        second,
        lines,
        order_id,
        placed_at,
    } = place_the_first_order(&table, &counter, &data).await;
    let retried = scenario::place_order(
        &table,
        &customer.customer_id,
        order_id,
        placed_at,
        &lines,
        &data.products,
    )
    .await
    .unwrap();
    assert_eq!(retried, Placement::AlreadyPlaced);

    assert_eq!(
        stock(&table, &counter, &first.sku).await,
        first.stock - 2,
        "decremented once"
    );
    assert_eq!(stock(&table, &counter, &second.sku).await, second.stock - 1);
    let profile = scenario::customer_by_id(&table, &counter, &customer.customer_id)
        .await
        .unwrap()
        .result
        .unwrap();
    assert_eq!(
        profile.order_count,
        customer.order_count + 1,
        "counted once"
    );
    let run = scenario::order_with_items(&table, &counter, &order_id)
        .await
        .unwrap();
    let lines_stored: Vec<(u32, String, u32)> = run
        .result
        .iter()
        .filter_map(|item| match item {
            OrderWithItems::LineItem(LineItem {
                line_no,
                sku,
                quantity,
                ..
            }) => Some((*line_no, sku.clone(), *quantity)),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines_stored,
        [(1, first.sku.clone(), 2), (2, second.sku.clone(), 1)]
    );

    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_order_beyond_the_stock_is_refused_naming_the_product_and_writes_nothing() {
    let (table, counter, data) = loaded().await;
    let FirstOrder {
        customer,
        first,
        second,
        placed_at,
        ..
    } = place_the_first_order(&table, &counter, &data).await;
    let too_many = [
        OrderLine {
            sku: second.sku.clone(),
            quantity: 1,
        },
        OrderLine {
            sku: first.sku.clone(),
            quantity: first.stock,
        },
    ];
    let refused = scenario::place_order(
        &table,
        &customer.customer_id,
        Uuid::from_u128(0x5EEE),
        placed_at,
        &too_many,
        &data.products,
    )
    .await
    .unwrap();
    assert_eq!(
        refused,
        Placement::OutOfStock {
            sku: first.sku.clone(),
            requested: first.stock,
            available: Some(first.stock - 2)
        }
    );
    assert_eq!(
        stock(&table, &counter, &second.sku).await,
        second.stock - 1,
        "nothing of the cancelled transaction was written"
    );
    assert_eq!(
        table
            .get(&Order::key(&customer.customer_id, &placed_at, &Uuid::from_u128(0x5EEE)).unwrap())
            .await
            .unwrap(),
        None
    );
    let profile = scenario::customer_by_id(&table, &counter, &customer.customer_id)
        .await
        .unwrap()
        .result
        .unwrap();
    assert_eq!(profile.order_count, customer.order_count + 1);
    table.delete_table().await.unwrap();
}

/// The cosine distance DynamoDB scores `COSINE` with: `1 - cos(a, b)`.
fn cosine_distance(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    1.0 - dot / (norm(a) * norm(b))
}

/// The `count` smallest distances from `query` among `candidates`, in
/// increasing order: what an exact search returns, ties in any order.
fn nearest_distances<'d>(
    query: &[f32],
    candidates: impl Iterator<Item = &'d [f32]>,
    count: usize,
) -> Vec<f64> {
    let mut distances: Vec<f64> = candidates
        .map(|vector| cosine_distance(query, vector))
        .collect();
    distances.sort_by(f64::total_cmp);
    distances.truncate(count);
    distances
}

fn assert_close(found: &[f64], expected: &[f64]) {
    assert_eq!(found.len(), expected.len(), "{found:?} vs {expected:?}");
    for (found, expected) in found.iter().zip(expected) {
        assert!((found - expected).abs() < 1e-5, "{found:?} vs {expected:?}");
    }
}

#[tokio::test]
async fn similar_products_are_first_the_twins_with_the_same_words_then_the_nearest() {
    let (table, counter, data) = loaded().await;
    // The first product whose name (and so category) another product has.
    let (product, twins) = data
        .products
        .iter()
        .find_map(|product| {
            let twins: Vec<&str> = data
                .products
                .iter()
                .filter(|other| other.sku != product.sku && other.name == product.name)
                .map(|other| other.sku.as_str())
                .collect();
            (!twins.is_empty()).then_some((product, twins))
        })
        .expect("30 products of 80 names have twins");
    assert!(twins.len() < 5, "{twins:?}");
    let run = scenario::similar_products(&table, &counter, product, 5)
        .await
        .unwrap();
    assert_eq!(run.requests, 1, "one SearchVectors");
    assert_eq!(
        run.key_condition,
        "VECTOR1: TopK = 6, vector of 64, condition (none)"
    );
    assert_eq!(run.result.len(), 5);
    assert!(
        run.result
            .iter()
            .all(|similar| similar.item.sku != product.sku)
    );
    // The twins come first, at distance 0 (the same words, the same vector).
    let mut first: Vec<&str> = run.result[..twins.len()]
        .iter()
        .map(|similar| similar.item.sku.as_str())
        .collect();
    first.sort_unstable();
    assert_eq!(first, twins);
    assert!(
        run.result[..twins.len()]
            .iter()
            .all(|similar| similar.score.abs() < 1e-6)
    );
    assert!(
        run.result[twins.len()..]
            .iter()
            .all(|similar| similar.score > 1e-3)
    );
    // Every result is the product as generated, at its exact distance, and
    // the distances are the 5 smallest of the other products'.
    for similar in &run.result {
        let generated = data
            .products
            .iter()
            .find(|p| p.sku == similar.item.sku)
            .unwrap();
        assert_eq!(&similar.item, generated);
        assert_close(
            &[similar.score],
            &[cosine_distance(&product.embedding, &generated.embedding)],
        );
    }
    let scores: Vec<f64> = run.result.iter().map(|similar| similar.score).collect();
    let others = data
        .products
        .iter()
        .filter(|other| other.sku != product.sku)
        .map(|other| other.embedding.as_slice());
    assert_close(&scores, &nearest_distances(&product.embedding, others, 5));
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_customers_recent_orders_like_one_are_searched_in_the_customers_partition_only() {
    let (table, counter, data) = loaded().await;
    // The customer with the most orders in one month.
    let (customer_id, month) = data
        .orders
        .iter()
        .map(|order| (order.customer_id.as_str(), order.created_month.as_str()))
        .max_by_key(|&(customer_id, month)| {
            let count = data
                .orders
                .iter()
                .filter(|order| order.customer_id == customer_id && order.created_month == month)
                .count();
            (count, std::cmp::Reverse((customer_id, month)))
        })
        .unwrap();
    let orders: Vec<&Order> = orders_of(&data, customer_id)
        .into_iter()
        .filter(|order| order.created_month == month)
        .collect();
    assert!(orders.len() > 4, "{}", orders.len());
    let order = orders[0];
    let run = scenario::similar_recent_orders(&table, &counter, order, month, 3)
        .await
        .unwrap();
    assert_eq!(run.requests, 1, "one SearchVectors");
    assert_eq!(
        run.key_condition,
        format!(
            "VECTOR2: TopK = 4, vector of 64, condition VECTOR2PK = \"CUST#{customer_id}\" AND created_month = \"{month}\""
        )
    );
    let candidates: Vec<&Order> = orders[1..].to_vec();
    assert_eq!(run.result.len(), 3);
    for similar in &run.result {
        assert!(
            candidates.contains(&&similar.item),
            "{} is an order of the customer of {month}, not the one searched with",
            similar.item.order_id
        );
        assert_close(
            &[similar.score],
            &[cosine_distance(&order.embedding, &similar.item.embedding)],
        );
    }
    let scores: Vec<f64> = run.result.iter().map(|similar| similar.score).collect();
    let expected = nearest_distances(
        &order.embedding,
        candidates.iter().map(|order| order.embedding.as_slice()),
        3,
    );
    assert_close(&scores, &expected);
    table.delete_table().await.unwrap();
}

/// The deployed definition's table: its settings pass the drift check (a
/// setting the server does not describe is reported as such, never as a
/// match or as drift), deletion protection refuses `DeleteTable`, and the
/// demo's way out (protection lifted, then deleted) deletes it.
#[tokio::test]
async fn the_deployed_settings_pass_the_drift_check_and_protect_the_table() {
    let client = client_counting(Some(&endpoint()), None).await;
    let table = Table::new(
        client,
        format!("stamp-deployed-{}", Uuid::new_v4().simple()),
    );
    let definition = stamp_examples::deployed_definition();
    table.create_table(&definition).await.unwrap();
    let check = scenario::drift_check(&table, &definition).await.unwrap();
    let ministack =
        std::env::var("STAMP_DYNAMODB_SERVER").is_ok_and(|server| server == "ministack");
    if ministack {
        // ministack deviates (docs/design-notes.md, "Servers"): it accepts
        // `WarmThroughput` and `ResourcePolicy` in `CreateTable` but keeps
        // neither, describing warm throughput as 0/0 and answering
        // `GetResourcePolicy` with `PolicyNotFoundException`. The drift
        // check reports both: it never counts them as matching.
        assert_eq!(
            check.drift(),
            [
                &SchemaDifference::WarmThroughput {
                    index: None,
                    expected: stamp::schema::WarmThroughput {
                        read_units_per_second: std::num::NonZeroU64::new(15_000).unwrap(),
                        write_units_per_second: std::num::NonZeroU64::new(5_000).unwrap(),
                    },
                    found: (0, 0),
                },
                &SchemaDifference::ResourcePolicy {
                    expected: Some(stamp_examples::RESOURCE_POLICY.to_owned()),
                    found: None,
                },
            ]
        );
    } else {
        assert_eq!(check.drift(), Vec::<&SchemaDifference>::new());
    }
    // Described or not, never silently matched: warm throughput and the
    // resource policy are each either compared (no difference above) or
    // reported as not described.
    for setting in check.not_described() {
        assert!(
            ["warm throughput", "resource policy"].contains(&setting),
            "{setting}"
        );
    }
    // Against the plain definition, the deployed table differs in exactly
    // its deletion protection and tags.
    let mut plain = scenario::drift_check(&table, &stamp_examples::table_definition())
        .await
        .unwrap()
        .differences;
    plain.sort_by_key(|difference| format!("{difference:?}"));
    assert_eq!(
        plain,
        [
            SchemaDifference::DeletionProtection {
                expected: false,
                found: true,
            },
            SchemaDifference::Tags {
                expected: vec![],
                found: vec![
                    ("service".into(), "stamp-reference".into()),
                    ("team".into(), "orders".into()),
                ],
            },
        ]
    );
    let refused = table.delete_table().await.unwrap_err();
    // DynamoDB refuses to delete a protected table with a
    // ValidationException.
    assert!(
        matches!(&refused, stamp::Error::DynamoDb { code: Some(code), .. } if code == "ValidationException"),
        "{refused:?}"
    );
    assert!(
        table
            .client()
            .describe_table()
            .table_name(table.name())
            .send()
            .await
            .is_ok()
    );
    scenario::lift_deletion_protection(&table).await.unwrap();
    table.delete_table().await.unwrap();
    assert!(
        table
            .client()
            .describe_table()
            .table_name(table.name())
            .send()
            .await
            .is_err()
    );
}

/// The unique e-mail: found by address in 2 requests (the guard, then the
/// customer); a second customer with a taken address is refused in 1
/// request, naming the holder, and nothing is written; a free address
/// creates the customer and its guard.
#[tokio::test]
async fn a_customer_is_found_by_email_and_a_taken_email_is_refused() {
    let (table, counter, data) = loaded().await;
    let customer = &data.customers[3];
    let run = scenario::customer_by_email(&table, &counter, &customer.email)
        .await
        .unwrap();
    assert_eq!(run.result.as_ref(), Some(customer));
    assert_eq!(run.requests, 2);
    let before = table
        .client()
        .scan()
        .table_name(table.name())
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap()
        .count;
    let newcomer = Customer {
        customer_id: "c-new".into(),
        ..customer.clone()
    };
    let run = scenario::create_customer(&table, &counter, &newcomer)
        .await
        .unwrap();
    assert_eq!(
        run.result,
        scenario::EmailClaim::Taken {
            owner: Some(format!("PK=CUST#{}, SK=PROFILE", customer.customer_id))
        }
    );
    assert_eq!(run.requests, 1);
    let after = table
        .client()
        .scan()
        .table_name(table.name())
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap()
        .count;
    assert_eq!(after, before, "nothing written");
    let free = Customer {
        email: "new@example.com".into(),
        ..newcomer
    };
    let run = scenario::create_customer(&table, &counter, &free)
        .await
        .unwrap();
    assert_eq!(run.result, scenario::EmailClaim::Created);
    assert_eq!(
        table
            .get_unique(Customer::EMAIL, &"new@example.com".to_owned())
            .await
            .unwrap(),
        Some(free)
    );
    table.delete_table().await.unwrap();
}
