//! `send()` with `max_items(N)` returns N items when N exist (issue 22,
//! point 3): it follows DynamoDB's pages past the items the entity scope or
//! a filter drops, within a request budget (`max_requests`, 10 by
//! default), on every kind of index. DynamoDB applies `Limit` before the
//! filter, so one response may hold none of the items wanted while its
//! `LastEvaluatedKey` says more remain
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html>).

use crate::common;
use stamp::AttributeMap;
use stamp::error::Refusal;

use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Cursor, Entity, Error, Item, Page, Query, Table, TableDefinition};

/// An order on every kind of index: the table, a GSI, a sharded GSI, a
/// multi-attribute GSI and an LSI.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[gsi1(pk = "SHOP#<shop>", sk = "<order_id>")]
#[gsi2(pk = "FEED#<shop>#<shard>", sk = "<order_id>", shards = 4)]
#[gsi3(pk(tenant), sk(seq))]
#[lsi1(sk = "AMOUNT#<total>")]
struct Order {
    customer_id: String,
    order_id: String,
    shop: String,
    tenant: String,
    seq: i64,
    total: u32,
    note: String,
}

/// An order's line, after its order in every index (the hierarchical
/// layout: a line's keys extend its order's).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>#LINE#<n>"]
#[gsi1(pk = "SHOP#<shop>", sk = "<order_id>#LINE#<n>")]
#[gsi2(pk = "FEED#<shop>#<shard>", sk = "<order_id>#LINE#<n>", shards = 4)]
#[gsi3(pk(tenant), sk(seq))]
#[lsi1(sk = "AMOUNT#<total>#LINE#<n>")]
struct Line {
    customer_id: String,
    order_id: String,
    n: u8,
    shop: String,
    tenant: String,
    seq: i64,
    total: u32,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Order>().entity::<Line>()
}

/// Lines per order: more than the default budget of requests could skip
/// with `Limit = 1` per request.
const LINES: u8 = 20;

/// Orders `o-1` to `o-3` (the newest last in every index), each followed
/// by its lines; `o-3` is noted `skip`.
async fn layout(test: &str) -> (Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table(test, &definition()).await;
    let mut items: Vec<AttributeMap> = Vec::new();
    for i in 1..=3u32 {
        let order = Order {
            customer_id: "c-1".into(),
            order_id: format!("o-{i}"),
            shop: "s-1".into(),
            tenant: "t-1".into(),
            seq: i64::from(i) * 100,
            total: i * 1000,
            note: if i == 3 { "skip" } else { "keep" }.into(),
        };
        items.push(order.to_item().unwrap());
        for n in 1..=LINES {
            let line = Line {
                customer_id: "c-1".into(),
                order_id: format!("o-{i}"),
                n,
                shop: "s-1".into(),
                tenant: "t-1".into(),
                seq: i64::from(i) * 100 + i64::from(n),
                total: i * 1000,
            };
            items.push(line.to_item().unwrap());
        }
    }
    for item in items {
        table
            .client()
            .put_item()
            .table_name(table.name())
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    counter.reset();
    (table, counter)
}

fn ids(orders: &[Order]) -> Vec<&str> {
    orders.iter().map(|order| order.order_id.as_str()).collect()
}

/// Every page of `query` with `max_items(1)`, newest first: each holds one
/// order, and the pages together hold every order once, in order.
async fn one_by_one<I: stamp::schema::QueryIndex>(
    table: &Table,
    query: impl Fn() -> Query<Order, I>,
) -> Vec<Page<Order>> {
    let mut pages = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let mut next = query().newest_first().max_items(1);
        if let Some(cursor) = &cursor {
            next = next.after(cursor);
        }
        let page = next.send(table).await.unwrap();
        cursor = page.cursor.clone();
        pages.push(page);
        if cursor.is_none() || pages.len() > 10 {
            return pages;
        }
    }
}

async fn check_every_index(table: &Table) {
    macro_rules! check {
        ($query:expr, $name:literal) => {{
            let newest = $query
                .newest_first()
                .max_items(1)
                .send(table)
                .await
                .unwrap();
            assert_eq!(ids(&newest.items), ["o-3"], "{}", $name);
            assert!(newest.cursor.is_some(), "{}", $name);
            let pages = one_by_one(table, || $query).await;
            let mut seen: Vec<Vec<&str>> = pages.iter().map(|page| ids(&page.items)).collect();
            // A page is short only at the end. After the last order, a
            // page may still carry a cursor (DynamoDB returns a
            // `LastEvaluatedKey` when it stops at `Limit`, and a shard of
            // a sharded index may stop there); the page after it is then
            // empty, and the last.
            if seen.len() == 4 {
                assert_eq!(seen.pop(), Some(vec![]), "{}", $name);
            }
            assert_eq!(seen, [["o-3"], ["o-2"], ["o-1"]], "{}", $name);
            // A filter drops the newest order; two items still come back.
            let kept = $query
                .newest_first()
                .filter(Order::NOTE.eq(&"keep".to_owned()))
                .max_items(2)
                .send(table)
                .await
                .unwrap();
            assert_eq!(ids(&kept.items), ["o-2", "o-1"], "{}", $name);
            // A stream with the same options finds the same items.
            let streamed: Vec<Order> = $query
                .newest_first()
                .filter(Order::NOTE.eq(&"keep".to_owned()))
                .max_items(2)
                .stream(table)
                .try_collect()
                .await
                .unwrap();
            assert_eq!(ids(&streamed), ["o-2", "o-1"], "{}", $name);
        }};
    }
    check!(Order::query("c-1"), "table");
    check!(Order::query_gsi1("s-1"), "GSI");
    check!(Order::query_gsi2("s-1"), "sharded GSI");
    check!(Order::query_gsi3("t-1").into_query(), "multi-attribute GSI");
    check!(Order::query_lsi1("c-1"), "LSI");
}

#[tokio::test]
async fn max_items_returns_that_many_items_on_every_index() {
    let (table, _) = layout("full-pages").await;
    check_every_index(&table).await;
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn the_request_budget_returns_what_was_found_with_a_cursor() {
    let (table, counter) = layout("full-pages-budget").await;
    // Limit 1 per request: the 20 lines of `o-3` come first, newest first,
    // so two requests find nothing; the cursor goes on after them.
    let query = || Order::query("c-1").newest_first().limit(1).max_items(1);
    let page = query().max_requests(2).send(&table).await.unwrap();
    assert_eq!(counter.count("Query"), 2);
    assert!(page.items.is_empty());
    let mut cursor = page.cursor.expect("the budget ran out before the end");
    let mut requests = 2;
    let found = loop {
        counter.reset();
        let page = query()
            .max_requests(2)
            .after(&cursor)
            .send(&table)
            .await
            .unwrap();
        requests += counter.count("Query");
        assert!(counter.count("Query") <= 2);
        if !page.items.is_empty() {
            break page.items;
        }
        cursor = page.cursor.unwrap();
    };
    assert_eq!(ids(&found), ["o-3"]);
    // One request per item evaluated: 20 lines, then the order.
    assert_eq!(requests, usize::from(LINES) + 1);
    // By default, `Limit` grows after a short page (1, 2, 4, 8, 16 items
    // evaluated: 31 >= 21), within the default budget of 10 requests.
    counter.reset();
    let page = Order::query("c-1")
        .newest_first()
        .max_items(1)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["o-3"]);
    assert_eq!(counter.count("Query"), 5);
    // A budget of 0 is refused before sending.
    counter.reset();
    let error = Order::query("c-1")
        .max_requests(0)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidQuery {
                reason: stamp::error::QueryReason::Zero {
                    option: "max_requests"
                }
            })
        ),
        "{error}"
    );
    assert_eq!(counter.count("Query"), 0);
    table.delete_table().await.unwrap();
}

#[test]
fn the_default_budget_is_documented() {
    assert_eq!(stamp::ops::DEFAULT_MAX_REQUESTS, 10);
}
