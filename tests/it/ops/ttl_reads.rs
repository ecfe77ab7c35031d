//! TTL-aware reads (issue 42, point 5): an item whose TTL has passed is
//! still stored (DynamoDB deletes it within days; the embedded server does
//! not sweep unless asked) and is left out of every read at the table's
//! clock: gets, batch gets and transaction gets on the client, queries
//! (table, GSI, collection) and scans on the server, unless the read
//! includes expired items.
//!
//! The rule at the second of the TTL: DynamoDB's "Working with expired
//! items" page filters out "items where the TTL time is equal to or less
//! than the current time" (its filter keeps `ttl > now`), so an item whose
//! TTL equals the table's `now` is expired
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>).
//! (The `UpdateTimeToLive` reference says the sweep deletes items whose
//! value "is less than the current time"; at the second itself the reads
//! follow the filter page.)

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Duration, Utc};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::error::Refusal;
use stamp::schema::IndexProjection;
use stamp::{AttributeMap, BatchGet, Error, Get, Item, Table, TableDefinition, TransactGet};

/// A seat hold in a room that expires by DynamoDB's TTL, or never (`None`).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ROOM#<room_id>"]
#[sk = "HOLD#<hold_id>"]
#[gsi1(pk = "SEAT#<seat>", sk = "<hold_id>")]
struct Hold {
    room_id: String,
    hold_id: String,
    seat: String,
    #[stamp(ttl)]
    expires_at: Option<DateTime<Utc>>,
}

/// The room itself: no TTL.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ROOM#<room_id>"]
#[sk = "ROOM"]
struct Room {
    room_id: String,
    name: String,
}

#[derive(stamp::Collection, Debug, PartialEq)]
enum RoomWithHolds {
    Room(Room),
    Hold(Hold),
    Unknown(AttributeMap),
}

/// The tables' clock: 2030-01-01T00:00:00Z, epoch second 1893456000.
fn now() -> DateTime<Utc> {
    "2030-01-01T00:00:00Z".parse().unwrap()
}

const NOW_SECONDS: i64 = 1_893_456_000;

/// A hold in room `r-1` on seat `A1` expiring at `expires_at`.
fn hold(hold_id: &str, expires_at: Option<DateTime<Utc>>) -> Hold {
    Hold {
        room_id: "r-1".into(),
        hold_id: hold_id.into(),
        seat: "A1".into(),
        expires_at,
    }
}

/// Expired a second ago, expiring at this second (expired), a second from
/// now (live), never (live); in sort-key order.
fn holds() -> Vec<Hold> {
    vec![
        hold("a-past", Some(now() - Duration::seconds(1))),
        hold("b-now", Some(now())),
        hold("c-future", Some(now() + Duration::seconds(1))),
        hold("d-never", None),
    ]
}

fn live() -> Vec<Hold> {
    holds().into_iter().skip(2).collect()
}

fn room() -> Room {
    Room {
        room_id: "r-1".into(),
        name: "Main hall".into(),
    }
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Hold>().entity::<Room>()
}

/// A table with the room and the four holds, whose clock is [`now`].
async fn table(test: &str) -> Table {
    let table = common::fresh_table(test, &definition())
        .await
        .with_clock(now);
    table.put(&room()).await.unwrap();
    for hold in holds() {
        table.put(&hold).await.unwrap();
    }
    table
}

/// Every item of the table as stored, read through the SDK.
async fn stored_items(table: &Table) -> Vec<AttributeMap> {
    let mut items = table
        .client()
        .scan()
        .table_name(table.name())
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .items
        .unwrap_or_default();
    items.sort_by_key(|item| format!("{:?}", item["SK"]));
    items
}

fn key(hold: &Hold) -> stamp::PrimaryKey<Hold> {
    Hold::key(HoldKey {
        room_id: &hold.room_id,
        hold_id: &hold.hold_id,
    })
    .unwrap()
}

#[tokio::test]
async fn the_expired_items_are_stored_with_their_ttl() {
    let table = table("ttl-stored").await;
    let items = stored_items(&table).await;
    let ttls: Vec<(String, Option<AttributeValue>)> = items
        .iter()
        .map(|item| {
            let AttributeValue::S(sk) = &item["SK"] else {
                panic!("SK is a string")
            };
            (sk.clone(), item.get("expires_at").cloned())
        })
        .collect();
    let n = |seconds: i64| Some(AttributeValue::N(seconds.to_string()));
    assert_eq!(
        ttls,
        vec![
            ("HOLD#a-past".to_owned(), n(NOW_SECONDS - 1)),
            ("HOLD#b-now".to_owned(), n(NOW_SECONDS)),
            ("HOLD#c-future".to_owned(), n(NOW_SECONDS + 1)),
            ("HOLD#d-never".to_owned(), None),
            ("ROOM".to_owned(), None),
        ]
    );
    assert_eq!(table.now(), now());
    assert_eq!(table.now().timestamp(), NOW_SECONDS);
}

#[tokio::test]
async fn a_get_leaves_an_expired_item_out_unless_asked() {
    let table = table("ttl-get").await;
    let mut read = Vec::new();
    for hold in holds() {
        read.push(table.get(&key(&hold)).await.unwrap());
    }
    assert_eq!(
        read,
        vec![None, None, Some(live()[0].clone()), Some(live()[1].clone())]
    );
    let mut included = Vec::new();
    for hold in holds() {
        included.push(
            Get::new(key(&hold))
                .consistent_read()
                .include_expired()
                .send(&table)
                .await
                .unwrap(),
        );
    }
    assert_eq!(included, holds().into_iter().map(Some).collect::<Vec<_>>());
    // The system clock (2030 is ahead of it): every hold is live.
    let today = Table::new(table.client().clone(), table.name());
    assert_eq!(
        today.get(&key(&holds()[0])).await.unwrap(),
        Some(holds()[0].clone())
    );
}

#[tokio::test]
async fn a_batch_get_reads_an_expired_item_as_none() {
    let table = table("ttl-batch").await;
    let keys: Vec<_> = holds().iter().rev().map(key).collect();
    let read = BatchGet::new(keys.clone()).send(&table).await.unwrap();
    assert_eq!(
        read,
        vec![Some(live()[1].clone()), Some(live()[0].clone()), None, None]
    );
    let included = BatchGet::new(keys)
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        included,
        holds().into_iter().rev().map(Some).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_transaction_get_reads_an_expired_item_as_none() {
    let table = table("ttl-transact-get").await;
    let mut read = TransactGet::new();
    let past = read.get(&key(&holds()[0]));
    let future = read.get(&key(&holds()[2]));
    let room_slot = read.get(&Room::key("r-1").unwrap());
    let mut items = read.clone().send(&table).await.unwrap();
    assert_eq!(items.take(past).unwrap(), None);
    assert_eq!(items.take(future).unwrap(), Some(holds()[2].clone()));
    assert_eq!(items.take(room_slot).unwrap(), Some(room()));

    read.include_expired();
    let mut items = read.send(&table).await.unwrap();
    assert_eq!(items.take(past).unwrap(), Some(holds()[0].clone()));
}

#[tokio::test]
async fn a_query_filters_expired_items_on_the_server() {
    let table = table("ttl-query").await;
    let page = Hold::query("r-1").send(&table).await.unwrap();
    assert_eq!(page.items, live());
    assert_eq!(page.cursor, None);
    assert_eq!(Hold::query("r-1").count(&table).await.unwrap(), 2);
    let streamed: Vec<Hold> = Hold::query("r-1")
        .limit(1)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, live());

    let included = Hold::query("r-1")
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(included.items, holds());
    assert_eq!(
        Hold::query("r-1")
            .include_expired()
            .count(&table)
            .await
            .unwrap(),
        4
    );

    // Of a GSI (projecting everything) too.
    let by_seat = Hold::query_gsi1("A1").send(&table).await.unwrap();
    assert_eq!(by_seat.items, live());
    let by_seat = Hold::query_gsi1("A1")
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(by_seat.items, holds());
}

/// `Limit` is applied before the filter: a page of two items evaluated
/// holds none when both have expired, and still carries a cursor.
#[tokio::test]
async fn a_page_of_expired_items_is_empty_with_a_cursor() {
    let table = table("ttl-page").await;
    let first = Hold::query("r-1").limit(2).send(&table).await.unwrap();
    assert_eq!(first.items, Vec::<Hold>::new());
    let cursor = first.cursor.expect("more items after the page");
    let second = Hold::query("r-1")
        .limit(2)
        .after(&cursor)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(second.items, live());
    // With `max_items`, `send` follows the pages until it has them.
    let wanted = Hold::query("r-1")
        .limit(2)
        .max_items(2)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(wanted.items, live());
}

#[tokio::test]
async fn the_expiry_filter_joins_the_scope_and_a_user_filter() {
    let table = table("ttl-user-filter").await;
    let query = Hold::query("r-1").filter(Hold::HOLD_ID.ne(&"d-never".to_owned()));
    let request = query.request(table.name()).unwrap();
    assert_eq!(
        request.key_condition_expression(),
        Some("#n0 = :v0 AND begins_with(#n1, :v1)")
    );
    assert_eq!(
        request.filter_expression(),
        Some("((#n3 = :v3) AND (#n2 <> :v2)) AND (attribute_not_exists(#n4) OR #n4 > :v4)")
    );
    let names = request.expression_attribute_names().unwrap();
    assert_eq!(names["#n3"], "Type");
    assert_eq!(names["#n2"], "hold_id");
    assert_eq!(names["#n4"], "expires_at");
    assert!(matches!(
        &request.expression_attribute_values().unwrap()[":v4"],
        AttributeValue::N(_)
    ));
    assert_eq!(
        query.send(&table).await.unwrap().items,
        vec![live()[0].clone()]
    );

    let request = Hold::query("r-1")
        .include_expired()
        .request(table.name())
        .unwrap();
    assert_eq!(request.filter_expression(), Some("#n2 = :v2"));
}

#[tokio::test]
async fn a_scan_filters_expired_items_on_the_server() {
    let table = table("ttl-scan").await;
    let mut scanned: Vec<Hold> = Hold::scan().stream(&table).try_collect().await.unwrap();
    scanned.sort_by(|a, b| a.hold_id.cmp(&b.hold_id));
    assert_eq!(scanned, live());
    assert_eq!(Hold::scan().count(&table).await.unwrap(), 2);
    let mut all: Vec<Hold> = Hold::scan()
        .include_expired()
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    all.sort_by(|a, b| a.hold_id.cmp(&b.hold_id));
    assert_eq!(all, holds());
    assert_eq!(
        Hold::scan().include_expired().count(&table).await.unwrap(),
        4
    );
    let request = &Hold::scan().requests(table.name()).unwrap()[0];
    assert_eq!(
        request.filter_expression(),
        Some("(#n0 = :v0) AND (attribute_not_exists(#n1) OR #n1 > :v1)")
    );
}

/// A collection leaves out each member's expired items, by that member's
/// TTL; a member without a TTL (the room) is always there.
#[tokio::test]
async fn a_collection_query_leaves_out_each_members_expired_items() {
    let table = table("ttl-collection").await;
    let page = Room::query("r-1")
        .collection::<RoomWithHolds>()
        .send(&table)
        .await
        .unwrap();
    let mut expected: Vec<RoomWithHolds> = live().into_iter().map(RoomWithHolds::Hold).collect();
    expected.push(RoomWithHolds::Room(room()));
    assert_eq!(page.items, expected);

    let page = Room::query("r-1")
        .collection::<RoomWithHolds>()
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    let mut expected: Vec<RoomWithHolds> = holds().into_iter().map(RoomWithHolds::Hold).collect();
    expected.push(RoomWithHolds::Room(room()));
    assert_eq!(page.items, expected);
}

/// A GSI that does not project the TTL attribute cannot be filtered on it:
/// a query of it is refused before sending, naming the index and the
/// attribute, unless it includes expired items.
#[tokio::test]
async fn a_gsi_without_the_ttl_attribute_is_refused_unless_expired_items_are_included() {
    let definition = definition().index_projection(
        "GSI1",
        IndexProjection::Include(vec![
            "Type".into(),
            "room_id".into(),
            "hold_id".into(),
            "seat".into(),
        ]),
    );
    let (table, counter) = common::fresh_counted_table("ttl-gsi-refused", &definition).await;
    let table = table.with_definition(&definition).unwrap().with_clock(now);
    for hold in holds() {
        table.put(&hold).await.unwrap();
    }
    counter.reset();
    let error = Hold::query_gsi1("A1").send(&table).await.unwrap_err();
    match &error {
        Error::Refused(Refusal::AttributesNotProjected {
            entity: "Hold",
            index: "GSI1",
            type_attribute: None,
            missing,
            ..
        }) => assert_eq!(missing, &vec!["expires_at".to_owned()]),
        other => panic!("not AttributesNotProjected: {other:?}"),
    }
    let error = Hold::query_gsi1("A1").count(&table).await.unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::AttributesNotProjected { index: "GSI1", ref missing, .. }) if missing == &vec!["expires_at".to_owned()]),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
    // Including expired items, it reads what the index holds: the entity
    // needs `expires_at` to decode, so count (which decodes nothing).
    assert_eq!(
        Hold::query_gsi1("A1")
            .include_expired()
            .count(&table)
            .await
            .unwrap(),
        4
    );
}
