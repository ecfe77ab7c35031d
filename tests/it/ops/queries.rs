//! Queries against the local server: every access pattern returns exactly the
//! right items, in order, with one request per page.

use crate::common;
use stamp::AttributeMap;
use stamp::error::{KeyError, Refusal};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Cursor, Entity, Error, Item, KeyPart, Table, TableDefinition};
use uuid::Uuid;

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum OrderStatus {
    Pending,
    Shipped,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    name: String,
}

/// Its own order entity: an unsharded GSI1 (one request per page) and a `note` that sizes pages.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
struct Order {
    customer_id: String,
    order_id: Uuid,
    created_at: DateTime<Utc>,
    status: Option<OrderStatus>,
    updated_at: DateTime<Utc>,
    total_cents: u64,
    note: String,
}

/// Lines keyed by a string line number, to show that `ITEM#1` never
/// matches `ITEM#10`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ITEM#<line>#<sku>"]
struct Line {
    customer_id: String,
    line: String,
    sku: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ITEMX#<id>"]
struct Other {
    customer_id: String,
    id: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SENSOR#<sensor>"]
#[sk = "T#<offset>"]
struct Reading {
    sensor: String,
    offset: i32,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CAL#<calendar>"]
#[sk = "DAY#<day>#<seq>"]
struct Event {
    calendar: String,
    day: NaiveDate,
    seq: u16,
}

/// A ticket shares GSI1's partition template with orders (an inverted index).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<ticket_id>"]
#[sk = "TICKET"]
#[gsi1(pk = "STATUS#<state>", sk = "<opened_at>")]
struct Ticket {
    ticket_id: String,
    state: OrderStatus,
    opened_at: DateTime<Utc>,
}

#[derive(stamp::Collection, Debug, PartialEq)]
enum CustomerWithOrders {
    Customer(Customer),
    Order(Order),
    Unknown(AttributeMap),
}

#[derive(stamp::Collection, Debug, PartialEq)]
enum CustomerPartition {
    Customer(Customer),
    Order(Order),
    Line(Line),
    Unknown(AttributeMap),
}

#[derive(stamp::Collection, Debug, PartialEq)]
#[stamp(index = 1)]
enum ByStatus {
    Order(Order),
    Ticket(Ticket),
    Unknown(AttributeMap),
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Ticket>()
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<Line>()
        .entity::<Other>()
        .entity::<Reading>()
        .entity::<Event>()
}

fn start() -> DateTime<Utc> {
    "2026-06-01T00:00:00Z".parse().unwrap()
}

/// Order `i` of customer `c-1`: placed every 12 hours from 2026-06-01;
/// status Pending (even), Shipped (i % 4 == 1) or none (i % 4 == 3).
fn order(i: u32) -> Order {
    let created_at = start() + Duration::hours(12 * i64::from(i));
    Order {
        customer_id: "c-1".into(),
        order_id: Uuid::from_u128(u128::from(i)),
        created_at,
        status: match i % 4 {
            0 | 2 => Some(OrderStatus::Pending),
            1 => Some(OrderStatus::Shipped),
            _ => None,
        },
        updated_at: created_at + Duration::hours(1),
        total_cents: 1000 + 100 * u64::from(i),
        note: format!("order {i}"),
    }
}

const ORDERS: u32 = 15;

fn numbers(orders: &[Order]) -> Vec<u128> {
    orders
        .iter()
        .map(|order| order.order_id.as_u128())
        .collect()
}

async fn shop() -> (Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table("queries", &definition()).await;
    table
        .put(&Customer {
            customer_id: "c-1".into(),
            name: "Ada".into(),
        })
        .await
        .unwrap();
    for i in 0..ORDERS {
        table.put(&order(i)).await.unwrap();
    }
    for (line, sku) in [("1", "a"), ("1", "b"), ("10", "c")] {
        table
            .put(&Line {
                customer_id: "c-1".into(),
                line: line.into(),
                sku: sku.into(),
            })
            .await
            .unwrap();
    }
    table
        .put(&Other {
            customer_id: "c-1".into(),
            id: "x".into(),
        })
        .await
        .unwrap();
    counter.reset();
    (table, counter)
}

#[tokio::test]
async fn access_patterns_return_exactly_the_right_items_in_one_request_each() {
    let (table, counter) = shop().await;

    // A customer by id: one GetItem.
    let customer = table
        .get(&Customer::key("c-1").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(customer.name, "Ada");
    assert_eq!(counter.operations(), ["GetItem"]);

    // A customer's 10 newest orders: one Query.
    counter.reset();
    let page = Order::query("c-1")
        .newest_first()
        .limit(10)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), (5..15).rev().collect::<Vec<u128>>());
    assert!(page.cursor.is_some());
    assert_eq!(counter.operations(), ["Query"]);

    // Orders in a date range, whole days inclusive: June 2 to June 4.
    counter.reset();
    let first_day = "2026-06-02T00:00:00Z".parse::<DateTime<Utc>>().unwrap();
    let last_moment = "2026-06-04T23:59:59.999999999Z"
        .parse::<DateTime<Utc>>()
        .unwrap();
    let page = Order::query("c-1")
        .sort_key_between(&first_day, &last_moment)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [2, 3, 4, 5, 6, 7]);
    assert_eq!(counter.operations(), ["Query"]);

    // The most recently updated PENDING orders of all customers: GSI1, newest first.
    counter.reset();
    let page = Order::query_gsi1(&OrderStatus::Pending)
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [14, 12, 10, 8, 6, 4, 2, 0]);
    assert_eq!(page.items[0], order(14));
    assert_eq!(counter.operations(), ["Query"]);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn the_sparse_index_holds_only_items_with_a_status() {
    let (table, _) = shop().await;
    let scanned = table
        .client()
        .scan()
        .table_name(table.name())
        .index_name("GSI1")
        .send()
        .await
        .unwrap();
    let mut in_index: Vec<String> = scanned
        .items()
        .iter()
        .map(|item| item["order_id"].as_s().unwrap().clone())
        .collect();
    in_index.sort();
    let expected: Vec<String> = (0..ORDERS)
        .filter(|i| i % 4 != 3)
        .map(|i| Uuid::from_u128(i.into()).to_string())
        .collect();
    assert_eq!(in_index, expected);
    let shipped = Order::query_gsi1(&OrderStatus::Shipped)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&shipped.items), [1, 5, 9, 13]);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn queries_are_scoped_to_their_entity_and_delimiters_separate_fields() {
    let (table, _) = shop().await;
    let lines: Vec<Line> = Line::query("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        lines
            .iter()
            .map(|line| (line.line.as_str(), line.sku.as_str()))
            .collect::<Vec<_>>(),
        [("1", "a"), ("1", "b"), ("10", "c")]
    );
    let line_one: Vec<Line> = Line::query("c-1")
        .sort_key_eq("1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        line_one
            .iter()
            .map(|line| line.sku.as_str())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
    let exact = Line::query("c-1")
        .sort_key_eq(("10", "c"))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(exact.items.len(), 1);
    let others: Vec<Other> = Other::query("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(others.len(), 1);
    let orders: Vec<Order> = Order::query("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(numbers(&orders), (0..15).collect::<Vec<u128>>());
    let profile: Vec<Customer> = Customer::query("c-1")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(profile.len(), 1);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn integer_sort_keys_take_ranges_including_negative_values() {
    let (table, counter) = common::fresh_counted_table("ranges", &definition()).await;
    for offset in -5..=5 {
        table
            .put(&Reading {
                sensor: "s".into(),
                offset,
            })
            .await
            .unwrap();
    }
    let offsets = |readings: Vec<Reading>| {
        readings
            .into_iter()
            .map(|reading| reading.offset)
            .collect::<Vec<i32>>()
    };
    let run = |query: stamp::Query<Reading>| {
        let table = table.clone();
        async move { offsets(query.stream(&table).try_collect().await.unwrap()) }
    };
    assert_eq!(
        run(Reading::query("s").sort_key_lt(&-2)).await,
        [-5, -4, -3]
    );
    assert_eq!(
        run(Reading::query("s").sort_key_le(&-2)).await,
        [-5, -4, -3, -2]
    );
    assert_eq!(run(Reading::query("s").sort_key_gt(&3)).await, [4, 5]);
    assert_eq!(run(Reading::query("s").sort_key_ge(&3)).await, [3, 4, 5]);
    assert_eq!(
        run(Reading::query("s").sort_key_between(&-1, &1)).await,
        [-1, 0, 1]
    );
    assert_eq!(run(Reading::query("s").sort_key_eq(&0)).await, [0]);
    assert_eq!(
        run(Reading::query("s").sort_key_lt(&0).newest_first()).await,
        [-1, -2, -3, -4, -5]
    );
    assert_eq!(
        Reading::query("s")
            .sort_key_lt(&-2)
            .count(&table)
            .await
            .unwrap(),
        3
    );
    assert_eq!(Reading::query("s").count(&table).await.unwrap(), 11);
    counter.reset();
    let error = Reading::query("s")
        .sort_key_between(&3, &-3)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::InvalidSortKeyRange { .. })),
        "{error}"
    );
    assert!(counter.operations().is_empty());
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn date_sort_keys_take_whole_day_ranges() {
    let table = common::fresh_table("dates", &definition()).await;
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 6, d).unwrap();
    for d in 1..=5 {
        for seq in 0..2 {
            table
                .put(&Event {
                    calendar: "team".into(),
                    day: day(d),
                    seq,
                })
                .await
                .unwrap();
        }
    }
    let events: Vec<Event> = Event::query("team")
        .sort_key_between(&day(2), &day(3))
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        events
            .iter()
            .map(|event| (event.day, event.seq))
            .collect::<Vec<_>>(),
        [(day(2), 0), (day(2), 1), (day(3), 0), (day(3), 1)]
    );
    let one: Vec<Event> = Event::query("team")
        .sort_key_eq((&day(4), &1))
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        one,
        [Event {
            calendar: "team".into(),
            day: day(4),
            seq: 1
        }]
    );
    let after: Vec<Event> = Event::query("team")
        .sort_key_gt(&day(4))
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        after.iter().map(|event| event.day).collect::<Vec<_>>(),
        [day(5), day(5)]
    );
    table.delete_table().await.unwrap();
}

/// Pages through `query` with `limit(1)`, one `send` per page.
async fn page_through<I: stamp::schema::QueryIndex>(
    table: &Table,
    counter: &common::RequestCounter,
    query: impl Fn() -> stamp::Query<Order, I>,
) -> Vec<u128> {
    counter.reset();
    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    let mut pages = 0;
    loop {
        let mut next = query().limit(1);
        if let Some(cursor) = &cursor {
            next = next.after(cursor);
        }
        let page = next.send(table).await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 1);
        seen.extend(numbers(&page.items));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(counter.count("Query"), pages, "one request per page");
    seen
}

#[tokio::test]
async fn pagination_with_limit_one_returns_every_item_once_both_ways_on_table_and_index() {
    let (table, counter) = shop().await;
    assert_eq!(
        page_through(&table, &counter, || Order::query("c-1")).await,
        (0..15).collect::<Vec<u128>>()
    );
    assert_eq!(
        page_through(&table, &counter, || Order::query("c-1").newest_first()).await,
        (0..15).rev().collect::<Vec<u128>>()
    );
    assert_eq!(
        page_through(&table, &counter, || Order::query_gsi1(
            &OrderStatus::Pending
        ))
        .await,
        [0, 2, 4, 6, 8, 10, 12, 14]
    );
    assert_eq!(
        page_through(&table, &counter, || Order::query_gsi1(
            &OrderStatus::Pending
        )
        .newest_first())
        .await,
        [14, 12, 10, 8, 6, 4, 2, 0]
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_stream_goes_on_through_empty_filtered_pages() {
    let (table, counter) = shop().await;
    // Limit 2 evaluates orders 0 and 1 first: both fail the filter, so the first page is empty.
    let first = Order::query("c-1")
        .filter(Order::TOTAL_CENTS.ge(&1300))
        .limit(2)
        .send(&table)
        .await
        .unwrap();
    assert!(first.items.is_empty());
    assert!(first.cursor.is_some());
    counter.reset();
    let matching: Vec<Order> = Order::query("c-1")
        .filter(Order::TOTAL_CENTS.ge(&1300))
        .limit(2)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(numbers(&matching), (3..15).collect::<Vec<u128>>());
    assert_eq!(counter.count("Query"), 8, "15 items, 2 per page");
    assert_eq!(
        Order::query("c-1")
            .filter(Order::TOTAL_CENTS.ge(&1300))
            .count(&table)
            .await
            .unwrap(),
        12
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn max_items_returns_a_cursor_at_the_last_item_returned() {
    let (table, _) = shop().await;
    let first = Order::query("c-1")
        .limit(10)
        .max_items(3)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&first.items), [0, 1, 2]);
    let second = Order::query("c-1")
        .limit(10)
        .max_items(3)
        .after(first.cursor.as_ref().unwrap())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&second.items), [3, 4, 5]);
    let streamed: Vec<Order> = Order::query("c-1")
        .limit(4)
        .max_items(6)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(numbers(&streamed), [0, 1, 2, 3, 4, 5]);
    let on_index = Order::query_gsi1(&OrderStatus::Pending)
        .max_items(2)
        .send(&table)
        .await
        .unwrap();
    let rest = Order::query_gsi1(&OrderStatus::Pending)
        .after(on_index.cursor.as_ref().unwrap())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&on_index.items), [0, 2]);
    assert_eq!(numbers(&rest.items), [4, 6, 8, 10, 12, 14]);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn refusals_send_nothing() {
    let (table, counter) = shop().await;
    let page = Order::query("c-1").limit(1).send(&table).await.unwrap();
    counter.reset();
    let cursor = page.cursor.unwrap();
    let error = Order::query("c-2")
        .after(&cursor)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::CursorMismatch)),
        "{error}"
    );
    let error = Order::query("c-1")
        .after(&Cursor::from_text("not a cursor"))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::InvalidCursor { .. })),
        "{error}"
    );
    let error = Order::query_gsi1(&OrderStatus::Pending)
        .consistent_read()
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::ConsistentReadOnIndex { index: "GSI1" })
        ),
        "{error}"
    );
    let error = Order::query("").send(&table).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::EmptyKeyValue {
                entity: "Order",
                field: "customer_id"
            })
        ),
        "{error}"
    );
    assert!(counter.operations().is_empty());
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn filter_values_with_expression_syntax_are_only_values() {
    let (table, _) = shop().await;
    let injected = ") OR attribute_exists(PK) OR (".to_owned();
    let page = Order::query("c-1")
        .filter(Order::NOTE.eq(&injected))
        .send(&table)
        .await
        .unwrap();
    assert!(page.items.is_empty());
    let page = Order::query("c-1")
        .filter(Order::NOTE.eq(&"order 3".to_owned()))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [3]);
    table.delete_table().await.unwrap();
}

/// Two fields of `Order`: a projection reads exactly these attributes.
#[derive(stamp::Projection, Deserialize, Debug, PartialEq)]
#[stamp(entity = Order)]
struct Total {
    total_cents: u64,
    status: Option<OrderStatus>,
}

#[tokio::test]
async fn projections_decode_into_another_type() {
    let (table, _) = shop().await;
    let page = Order::query("c-1")
        .newest_first()
        .limit(4)
        .project::<Total>()
        .send(&table)
        .await
        .unwrap();
    // Orders 14, 13, 12 and 11 (see `order`): 11 has no status.
    let total = |total_cents, status| Total {
        total_cents,
        status,
    };
    assert_eq!(
        page.items,
        [
            total(2400, Some(OrderStatus::Pending)),
            total(2300, Some(OrderStatus::Shipped)),
            total(2200, Some(OrderStatus::Pending)),
            total(2100, None),
        ]
    );
    table.delete_table().await.unwrap();
}

#[test]
fn a_projection_reads_its_fields_and_the_keys_a_cursor_needs() {
    assert_eq!(
        <Total as stamp::Projection<Order>>::ATTRIBUTES,
        ["total_cents", "status"]
    );
    let request = Order::query("c-1")
        .project::<Total>()
        .request("shop")
        .unwrap();
    let names = request.expression_attribute_names().unwrap();
    let projected: Vec<&str> = request
        .projection_expression()
        .unwrap()
        .split(", ")
        .map(|placeholder| names[placeholder].as_str())
        .collect();
    // The projection's fields, then the table's key attributes (a cursor
    // is the last item's key).
    assert_eq!(projected, ["total_cents", "status", "PK", "SK"]);
}

#[test]
fn a_query_shows_the_exact_request_without_a_network() {
    let first_day = "2026-06-02T00:00:00Z".parse::<DateTime<Utc>>().unwrap();
    let last_moment = "2026-06-04T23:59:59.999999999Z"
        .parse::<DateTime<Utc>>()
        .unwrap();
    let request = Order::query("c-1")
        .sort_key_between(&first_day, &last_moment)
        .newest_first()
        .limit(10)
        .request("shop")
        .unwrap();
    assert_eq!(request.table_name(), Some("shop"));
    assert_eq!(
        request.key_condition_expression(),
        Some("#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")
    );
    let values = request.expression_attribute_values().unwrap();
    assert_eq!(values[":v0"].as_s().unwrap(), "CUST#c-1");
    assert_eq!(
        values[":v1"].as_s().unwrap(),
        "ORDER#2026-06-02T00:00:00.000000000Z#"
    );
    assert_eq!(
        values[":v2"].as_s().unwrap(),
        "ORDER#2026-06-04T23:59:59.999999999Z$"
    );
    assert_eq!(request.scan_index_forward(), Some(false));
    assert_eq!(request.limit(), Some(10));

    let request = Order::query("c-1").request("shop").unwrap();
    assert_eq!(
        request.key_condition_expression(),
        Some("#n0 = :v0 AND begins_with(#n1, :v1)")
    );
    assert_eq!(
        request.expression_attribute_values().unwrap()[":v1"]
            .as_s()
            .unwrap(),
        "ORDER#"
    );
    let names = request.expression_attribute_names().unwrap();
    assert_eq!((names["#n0"].as_str(), names["#n1"].as_str()), ("PK", "SK"));

    let request = Customer::query("c-1").request("shop").unwrap();
    assert_eq!(
        request.key_condition_expression(),
        Some("#n0 = :v0 AND #n1 = :v1")
    );

    let request = Order::query_gsi1(&OrderStatus::Pending)
        .filter(
            Order::TOTAL_CENTS
                .gt(&100)
                .and(Order::NOTE.begins_with("gift"))
                .or(Order::NOTE.not_exists()),
        )
        .request("shop")
        .unwrap();
    assert_eq!(request.index_name(), Some("GSI1"));
    assert_eq!(request.key_condition_expression(), Some("#n0 = :v0"));
    assert_eq!(
        request.filter_expression(),
        Some(
            "(#n3 = :v3) AND (((#n1 > :v1) AND (begins_with(#n2, :v2))) OR (attribute_not_exists(#n2)))"
        )
    );
    // The entity's type scope, ANDed with the filter.
    assert_eq!(request.expression_attribute_names().unwrap()["#n3"], "Type");
    assert_eq!(
        request.expression_attribute_values().unwrap()[":v3"]
            .as_s()
            .unwrap(),
        "Order"
    );

    let error = Order::query("c-1").limit(0).request("shop").unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid query: `limit` must be at least 1"
    );
    let _ = Order::SCHEMA;
    let _: Option<AttributeMap> = None;
}

#[tokio::test]
async fn a_customer_and_their_ten_newest_orders_in_one_query() {
    let (table, counter) = shop().await;
    let page = Order::query("c-1")
        .newest_first()
        .limit(11)
        .collection::<CustomerWithOrders>()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(counter.operations(), ["Query"]);
    assert_eq!(page.items.len(), 11);
    assert_eq!(
        page.items[0],
        CustomerWithOrders::Customer(Customer {
            customer_id: "c-1".into(),
            name: "Ada".into()
        })
    );
    let orders: Vec<u128> = page.items[1..]
        .iter()
        .map(|item| match item {
            CustomerWithOrders::Order(order) => order.order_id.as_u128(),
            other => panic!("expected an order, got {other:?}"),
        })
        .collect();
    assert_eq!(orders, (5..15).rev().collect::<Vec<u128>>());
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_collection_decodes_every_item_of_the_partition_and_keeps_unknown_ones() {
    let (table, _) = shop().await;
    let items: Vec<CustomerPartition> = Customer::query("c-1")
        .collection::<CustomerPartition>()
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    let kinds: Vec<String> = items
        .iter()
        .map(|item| match item {
            CustomerPartition::Customer(_) => "customer".to_owned(),
            CustomerPartition::Order(order) => format!("order {}", order.order_id.as_u128()),
            CustomerPartition::Line(line) => format!("line {}#{}", line.line, line.sku),
            CustomerPartition::Unknown(item) => format!("unknown {}", item["SK"].as_s().unwrap()),
        })
        .collect();
    let mut expected = vec![
        "line 1#a".to_owned(),
        "line 1#b".to_owned(),
        "line 10#c".to_owned(),
        "unknown ITEMX#x".to_owned(),
    ];
    expected.extend((0..15).map(|i| format!("order {i}")));
    expected.push("customer".to_owned());
    assert_eq!(kinds, expected);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_collection_on_a_gsi_reads_an_inverted_index() {
    let (table, _) = shop().await;
    let ticket = Ticket {
        ticket_id: "t-1".into(),
        state: OrderStatus::Shipped,
        opened_at: start() + Duration::hours(30),
    };
    table.put(&ticket).await.unwrap();
    let items: Vec<ByStatus> = Order::query_gsi1(&OrderStatus::Shipped)
        .collection::<ByStatus>()
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    let kinds: Vec<String> = items
        .iter()
        .map(|item| match item {
            ByStatus::Order(order) => format!("order {}", order.order_id.as_u128()),
            ByStatus::Ticket(ticket) => format!("ticket {}", ticket.ticket_id),
            ByStatus::Unknown(_) => "unknown".to_owned(),
        })
        .collect();
    // GSI1SK orders them by update time: order 1 at 13:00 on June 1, the ticket at 06:00 on June 2, …
    assert_eq!(
        kinds,
        ["order 1", "ticket t-1", "order 5", "order 9", "order 13"]
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn scans_return_only_the_entity_sequentially_and_in_parallel() {
    let (table, counter) = shop().await;
    let mut orders: Vec<Order> = Order::scan().stream(&table).try_collect().await.unwrap();
    orders.sort_by_key(|order| order.order_id);
    assert_eq!(numbers(&orders), (0..15).collect::<Vec<u128>>());
    assert_eq!(counter.count("Scan"), 1);
    counter.reset();
    let mut parallel: Vec<Order> = Order::scan()
        .segments(3)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    parallel.sort_by_key(|order| order.order_id);
    assert_eq!(parallel, orders);
    assert_eq!(counter.count("Scan"), 3);
    let lines: Vec<Line> = Line::scan()
        .filter(Line::LINE.eq(&"10".to_owned()))
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(lines.len(), 1);
    let requests = Line::scan().segments(4).requests("shop").unwrap();
    assert_eq!(
        requests
            .iter()
            .map(|request| (request.segment(), request.total_segments()))
            .collect::<Vec<_>>(),
        [
            (Some(0), Some(4)),
            (Some(1), Some(4)),
            (Some(2), Some(4)),
            (Some(3), Some(4))
        ]
    );
    assert_eq!(requests[2].filter_expression(), Some("#n0 = :v0"));
    assert!(matches!(
        Line::scan().segments(0).requests("shop"),
        Err(Error::Refused(Refusal::InvalidQuery {
            reason: stamp::error::QueryReason::ScanSegment {
                segment: 0,
                segments: 0
            }
        }))
    ));
    table.delete_table().await.unwrap();
}

/// `Scan::count` counts the entity's items only (the table holds a
/// customer, lines and another entity's item beside the 15 orders), with
/// `Select = COUNT`, over every page and segment ("Scan", Amazon DynamoDB
/// Developer Guide: `Count` is the number of items after the filter).
#[tokio::test]
async fn a_scan_counts_the_entitys_items_across_pages_and_segments() {
    let (table, counter) = shop().await;
    assert_eq!(
        Order::scan().count(&table).await.unwrap(),
        u64::from(ORDERS)
    );
    assert_eq!(counter.count("Scan"), 1);
    counter.reset();
    assert_eq!(
        Order::scan().segments(3).count(&table).await.unwrap(),
        u64::from(ORDERS)
    );
    assert_eq!(counter.count("Scan"), 3);
    counter.reset();
    // Two of the table's 20 items per request: 10 full pages, each with a
    // LastEvaluatedKey (DynamoDB returns one whenever it stopped at
    // `Limit`), and an 11th request that finds the end.
    assert_eq!(
        Order::scan().limit(2).count(&table).await.unwrap(),
        u64::from(ORDERS)
    );
    assert_eq!(counter.count("Scan"), 11);
    assert_eq!(
        Line::scan()
            .filter(Line::LINE.eq(&"1".to_owned()))
            .count(&table)
            .await
            .unwrap(),
        2
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_page_with_exactly_limit_items_carries_a_cursor_and_the_next_page_is_empty() {
    // DynamoDB stops a Query when it has evaluated `Limit` items and then
    // returns LastEvaluatedKey, even when no item is left ("Paginating table
    // query results", Amazon DynamoDB Developer Guide): the page is full,
    // so its cursor is there, and only the next request finds the end.
    let (table, counter) = shop().await;
    let page = Order::query("c-1")
        .limit(ORDERS)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), (0..15).collect::<Vec<u128>>());
    let cursor = page.cursor.expect("a full page carries a cursor");
    let next = Order::query("c-1")
        .limit(ORDERS)
        .after(&cursor)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(next.items, []);
    assert!(next.cursor.is_none(), "the last page has no cursor");
    assert_eq!(counter.count("Query"), 2);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn query_and_scan_streams_are_send_and_run_on_a_spawned_task() {
    // A stream held across awaits in a spawned task (or an axum handler)
    // must be `Send`; this does not compile otherwise.
    let (table, _counter) = shop().await;
    let task = tokio::spawn({
        let table = table.clone();
        async move {
            let orders: Vec<Order> = Order::query("c-1").stream(&table).try_collect().await?;
            let scanned: Vec<Order> = Order::scan().stream(&table).try_collect().await?;
            Ok::<_, stamp::Error>((orders, scanned))
        }
    });
    let (orders, mut scanned) = task.await.unwrap().unwrap();
    assert_eq!(numbers(&orders), (0..15).collect::<Vec<u128>>());
    scanned.sort_by_key(|order| order.order_id);
    assert_eq!(numbers(&scanned), (0..15).collect::<Vec<u128>>());
    table.delete_table().await.unwrap();
}
