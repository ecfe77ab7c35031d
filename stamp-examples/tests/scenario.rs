//! The demo's scenario on a smaller data set, against the local server that
//! `cargo xtask test` starts, with every result checked exactly against the
//! generated data: the demo cannot rot.

use chrono::{Duration, NaiveDate};
use stamp::Table;
use stamp_examples::data::{self, DataSet, Size};
use stamp_examples::requests::RequestCounter;
use stamp_examples::scenario::{self, OrderLine, Placement};
use stamp_examples::{
    CustomerWithOrders, LineItem, Order, OrderStatus, OrderWithItems, client_counting,
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
    let table = Table::new(
        client,
        format!("stamp-scenario-{}", Uuid::new_v4().simple()),
    );
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
    assert_eq!(
        scanned.count as usize,
        data.len(),
        "every item was loaded once"
    );
    assert_eq!(data.len(), 40 + 30 + 600 + data.line_items.len() + 4);
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
/// id and time, and the price list.
struct FirstOrder<'d> {
    customer: &'d stamp_examples::Customer,
    first: &'d stamp_examples::Product,
    second: &'d stamp_examples::Product,
    lines: [OrderLine; 2],
    order_id: Uuid,
    placed_at: chrono::DateTime<chrono::Utc>,
    prices: Vec<(String, u64)>,
}

/// Places two of product 4 and one of product 9 for customer 3 and checks
/// that it is placed, at their price, in one request.
async fn place_the_first_order<'d>(
    table: &Table,
    counter: &RequestCounter,
    data: &'d DataSet,
) -> FirstOrder<'d> {
    let customer = &data.customers[3];
    let prices: Vec<(String, u64)> = data
        .products
        .iter()
        .map(|product| (product.sku.clone(), product.price_cents))
        .collect();
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
        &prices,
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
        prices,
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
        prices,
    } = place_the_first_order(&table, &counter, &data).await;
    let retried = scenario::place_order(
        &table,
        &customer.customer_id,
        order_id,
        placed_at,
        &lines,
        &prices,
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
        prices,
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
        &prices,
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
