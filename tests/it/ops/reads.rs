//! Reads that must be exact: an entity query returns only its entity's
//! items (issue 12, point 5), also when another entity's keys start with
//! its literal prefix, on the table and on a shared GSI.

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Duration, Utc};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Entity, Item, TableDefinition};

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
enum State {
    Open,
    Closed,
}

/// Its own order entity: a GSI1 on `state`, and lines whose sort key extends the order's.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATE#<state>", sk = "<created_at>")]
struct Order {
    customer_id: String,
    created_at: DateTime<Utc>,
    order_id: String,
    state: State,
}

/// The most common hierarchical layout: a line's sort key extends its
/// order's.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>#ITEM#<n>"]
struct OrderLine {
    customer_id: String,
    created_at: DateTime<Utc>,
    order_id: String,
    n: u8,
}

/// Shares GSI1's partition template with orders.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<ticket_id>"]
#[sk = "TICKET"]
#[gsi1(pk = "STATE#<state>", sk = "<opened_at>")]
struct Ticket {
    ticket_id: String,
    state: State,
    opened_at: DateTime<Utc>,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Order>()
        .entity::<OrderLine>()
        .entity::<Ticket>()
}

fn at(hours: i64) -> DateTime<Utc> {
    "2026-06-01T00:00:00Z".parse::<DateTime<Utc>>().unwrap() + Duration::hours(hours)
}

fn order(i: i64) -> Order {
    Order {
        customer_id: "c-1".into(),
        created_at: at(i),
        order_id: format!("o-{i}"),
        state: State::Open,
    }
}

/// Three orders, each with two lines, and two open tickets between them.
async fn layout(test: &str) -> (stamp::Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table(test, &definition()).await;
    for i in 0..3 {
        table.put(&order(i)).await.unwrap();
        for n in 1..=2 {
            table
                .put(&OrderLine {
                    customer_id: "c-1".into(),
                    created_at: at(i),
                    order_id: format!("o-{i}"),
                    n,
                })
                .await
                .unwrap();
        }
        table
            .put(&Ticket {
                ticket_id: format!("t-{i}"),
                state: State::Open,
                opened_at: at(i) + Duration::minutes(30),
            })
            .await
            .unwrap();
    }
    counter.reset();
    (table, counter)
}

fn ids(orders: &[Order]) -> Vec<&str> {
    orders.iter().map(|order| order.order_id.as_str()).collect()
}

#[tokio::test]
async fn an_entity_query_skips_items_whose_sort_key_extends_its_prefix() {
    let (table, _) = layout("scope-table").await;
    let page = Order::query("c-1").send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["o-0", "o-1", "o-2"]);
    assert_eq!(page.cursor, None);
    assert_eq!(Order::query("c-1").count(&table).await.unwrap(), 3);
    // One order, by its whole creation time: its lines share the prefix.
    assert_eq!(
        Order::query("c-1")
            .sort_key_eq(&at(1))
            .count(&table)
            .await
            .unwrap(),
        1
    );
    let ranged = Order::query("c-1")
        .sort_key_between(&at(1), &at(2))
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&ranged.items), ["o-2", "o-1"]);
    assert_eq!(
        Order::query("c-1")
            .sort_key_gt(&at(0))
            .count(&table)
            .await
            .unwrap(),
        2
    );
    // The lines themselves are still there.
    assert_eq!(OrderLine::query("c-1").count(&table).await.unwrap(), 6);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn limit_max_items_cursors_and_streams_honour_the_scope() {
    let (table, counter) = layout("scope-pages").await;
    // Limit 1 evaluates one item per request; lines are filtered out, so
    // some pages are empty, and paging goes on to the end.
    let mut seen = Vec::new();
    let mut cursor = None;
    let mut requests = 0;
    loop {
        let mut query = Order::query("c-1").limit(1);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        requests += 1;
        assert!(page.items.len() <= 1);
        seen.extend(page.items);
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
        assert!(requests < 20, "pagination does not end");
    }
    assert_eq!(ids(&seen), ["o-0", "o-1", "o-2"]);

    let streamed: Vec<Order> = Order::query("c-1")
        .limit(2)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids(&streamed), ["o-0", "o-1", "o-2"]);

    // `max_items` caps DynamoDB's `Limit` too, so a page may be short when
    // lines are skipped; the cursor goes on from the last item evaluated.
    let mut seen = Vec::new();
    let mut cursor = None;
    for _ in 0..20 {
        let mut query = Order::query("c-1").max_items(2);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        assert!(page.items.len() <= 2);
        seen.extend(page.items);
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(ids(&seen), ["o-0", "o-1", "o-2"]);
    let streamed: Vec<Order> = Order::query("c-1")
        .limit(1)
        .max_items(2)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids(&streamed), ["o-0", "o-1"]);
    assert!(counter.count("Query") > 0);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_gsi_query_skips_other_entities_in_the_index_partition() {
    let (table, _) = layout("scope-gsi").await;
    let orders: Vec<Order> = Order::query_gsi1(&State::Open)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids(&orders), ["o-0", "o-1", "o-2"]);
    assert_eq!(
        Order::query_gsi1(&State::Open).count(&table).await.unwrap(),
        3
    );
    assert_eq!(
        Ticket::query_gsi1(&State::Open)
            .count(&table)
            .await
            .unwrap(),
        3
    );
    assert_eq!(
        Order::query_gsi1(&State::Closed)
            .count(&table)
            .await
            .unwrap(),
        0
    );
    let first = Order::query_gsi1(&State::Open)
        .max_items(1)
        .send(&table)
        .await
        .unwrap();
    let rest: Vec<Order> = Order::query_gsi1(&State::Open)
        .after(first.cursor.as_ref().unwrap())
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(ids(&first.items), ["o-0"]);
    assert_eq!(ids(&rest), ["o-1", "o-2"]);
    table.delete_table().await.unwrap();
}

#[test]
fn an_entity_query_filters_on_its_type_attribute() {
    let request = Order::query("c-1").request("t").unwrap();
    let filter = request.filter_expression().expect("a type filter");
    let names = request.expression_attribute_names().unwrap();
    let values = request.expression_attribute_values().unwrap();
    let (name, value) = filter.split_once(" = ").expect("`#type = :type`");
    assert_eq!(names[name], Order::SCHEMA.type_attribute);
    assert_eq!(values[value], AttributeValue::S("Order".into()));
}

// ---------------------------------------------------------------------------
// Cursors from untrusted clients (issue 12, point 13).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_decode(text: &str) -> Vec<u8> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.bytes() {
        let value = ALPHABET.iter().position(|&c| c == byte).unwrap() as u32;
        bits = (bits << 6) | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut buffer = [0u8; 3];
        buffer[..chunk.len()].copy_from_slice(chunk);
        let n = (u32::from(buffer[0]) << 16) | (u32::from(buffer[1]) << 8) | u32::from(buffer[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// The cursor with its key attributes changed by `edit`, keeping its
/// fingerprint: what a client could send back.
fn forged(
    cursor: &stamp::Cursor,
    edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
) -> stamp::Cursor {
    let mut content: serde_json::Value =
        serde_json::from_slice(&base64_decode(cursor.as_str())).unwrap();
    edit(content["k"].as_object_mut().unwrap());
    stamp::Cursor::from_text(base64_encode(&serde_json::to_vec(&content).unwrap()))
}

#[tokio::test]
async fn a_forged_cursor_is_refused_before_sending() {
    let (table, counter) = layout("cursor-forged").await;
    let page = Order::query("c-1").max_items(1).send(&table).await.unwrap();
    let cursor = page.cursor.unwrap();
    // The genuine cursor round-trips through the test's base64.
    let same = forged(&cursor, |_| {});
    Order::query("c-1").after(&same).send(&table).await.unwrap();
    counter.reset();
    let s = |text: &str| serde_json::Value::String(text.to_owned());
    let forgeries = [
        // Another customer's partition, under this query's fingerprint.
        forged(&cursor, |k| {
            k.insert("PK".into(), s("CUST#c-2"));
        }),
        // A sort key outside the scope.
        forged(&cursor, |k| {
            k.insert("SK".into(), s("PROFILE"));
        }),
        // An attribute the query does not have.
        forged(&cursor, |k| {
            k.insert("GSI1PK".into(), s("STATE#Open"));
        }),
        // A missing one.
        forged(&cursor, |k| {
            k.remove("SK");
        }),
        // Far too long.
        stamp::Cursor::from_text("A".repeat(100_000)),
    ];
    for forgery in &forgeries {
        let error = Order::query("c-1")
            .after(forgery)
            .send(&table)
            .await
            .unwrap_err();
        assert!(
            matches!(
                error,
                stamp::Error::Refused(stamp::error::Refusal::InvalidCursor { .. })
            ),
            "{forgery}: {error}"
        );
        let error = Order::query("c-1")
            .after(forgery)
            .count(&table)
            .await
            .unwrap_err();
        assert!(
            matches!(
                error,
                stamp::Error::Refused(stamp::error::Refusal::InvalidCursor { .. })
            ),
            "{error}"
        );
    }
    // A range query refuses a sort key outside its range.
    let ranged = Order::query("c-1")
        .sort_key_ge(&at(1))
        .max_items(1)
        .send(&table)
        .await
        .unwrap();
    let outside = forged(ranged.cursor.as_ref().unwrap(), |k| {
        k.insert(
            "SK".into(),
            s(Order::key(OrderKey {
                customer_id: "c-1",
                created_at: &at(0),
                order_id: "o-0",
            })
            .unwrap()
            .sort_key()),
        );
    });
    counter.reset();
    let error = Order::query("c-1")
        .sort_key_ge(&at(1))
        .after(&outside)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Refused(stamp::error::Refusal::InvalidCursor { .. })
        ),
        "{error}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
    table.delete_table().await.unwrap();
}
