//! The kit's clock (`stamp::testing::TestClock`): the time writes stamp,
//! reads judge expiry by, and the embedded server sweeps expired items at.
//!
//! Expected values from DynamoDB's TTL documentation: an item whose TTL
//! has passed stays stored (and readable by the API) until a background
//! process deletes it, "typically within a few days"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html>);
//! Stamp's reads leave it out from the moment it expires.

use crate::common;
use aws_sdk_dynamodb::types::StreamViewType;
use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use stamp::local::LocalDynamoDb;
use stamp::streams::ChangeKind;
use stamp::testing::TestClock;
use stamp::{Get, Item, Put, Table, TableDefinition};

/// A login session: stamped when created and each time it is touched, and
/// deleted by TTL at `expires_at`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "USER#<user_id>"]
#[sk = "SESSION#<session_id>"]
struct Session {
    user_id: String,
    session_id: String,
    touches: u32,
    #[stamp(created_at)]
    created_at: DateTime<Utc>,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
    #[stamp(ttl)]
    expires_at: DateTime<Utc>,
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

/// A session of `u-1` expiring at 10:30, its stamps left for the write.
fn session(session_id: &str) -> Session {
    Session {
        user_id: "u-1".into(),
        session_id: session_id.into(),
        touches: 0,
        created_at: DateTime::UNIX_EPOCH,
        updated_at: DateTime::UNIX_EPOCH,
        expires_at: time("2026-06-01T10:30:00Z"),
    }
}

fn key(session_id: &str) -> stamp::PrimaryKey<Session> {
    Session::key(SessionKey {
        user_id: "u-1",
        session_id,
    })
    .unwrap()
}

/// The sessions, as the stream's images decode.
#[derive(stamp::Collection, Debug, Clone, PartialEq)]
enum Sessions {
    Session(Session),
    Unknown(stamp::AttributeMap),
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Session>()
}

/// Created at 10:00, touched at 10:05, expired at 10:31 (not returned,
/// still stored), deleted by the sweep: each time an exact value, on a
/// server of the test's own that shares the clock.
#[tokio::test]
async fn the_clock_stamps_writes_judges_expiry_and_times_the_sweep() {
    let clock = TestClock::at(time("2026-06-01T10:00:00Z"));
    let dynamodb = LocalDynamoDb::start_with_clock(&clock).await.unwrap();
    // The server's tables read its clock: no `with_clock` needed.
    let table = dynamodb.table("sessions-clock");
    assert_eq!(table.now(), time("2026-06-01T10:00:00Z"));
    table
        .create_table(&definition().stream(StreamViewType::NewAndOldImages))
        .await
        .unwrap();

    table.create(&session("s-1")).await.unwrap();
    let created = Session {
        created_at: time("2026-06-01T10:00:00Z"),
        updated_at: time("2026-06-01T10:00:00Z"),
        ..session("s-1")
    };
    assert_eq!(table.get(&key("s-1")).await.unwrap(), Some(created.clone()));

    clock.advance(TimeDelta::minutes(5));
    Session::update(SessionKey {
        user_id: "u-1",
        session_id: "s-1",
    })
    .add(Session::TOUCHES, &1)
    .send(&table)
    .await
    .unwrap();
    let touched = Session {
        touches: 1,
        updated_at: time("2026-06-01T10:05:00Z"),
        ..created.clone()
    };
    assert_eq!(table.get(&key("s-1")).await.unwrap(), Some(touched.clone()));

    // 10:30:00 is the TTL: expired at that second, not returned, stored.
    clock.set(time("2026-06-01T10:30:00Z"));
    assert_eq!(table.get(&key("s-1")).await.unwrap(), None);
    let stored = Get::new(key("s-1"))
        .consistent_read()
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(stored, Some(touched.clone()));

    // The sweep deletes what expired before its second: not yet at 10:30:00
    // (dynoxide deletes a TTL strictly before now), and at 10:31 it does.
    assert_eq!(dynamodb.sweep_ttl().unwrap(), 0);
    clock.advance(TimeDelta::minutes(1));
    assert_eq!(dynamodb.sweep_ttl().unwrap(), 1);
    let after_sweep = Get::new(key("s-1"))
        .consistent_read()
        .include_expired()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(after_sweep, None);
    assert_eq!(dynamodb.sweep_ttl().unwrap(), 0);

    // The stream: the create, the touch, and the sweep's deletion as
    // DynamoDB's TTL deletions come (by the service, with the old image).
    let mut events = dynamodb.lambda_events(&table);
    let changes: Vec<(ChangeKind, bool, Option<Sessions>)> = events
        .batches()
        .await
        .unwrap()
        .into_iter()
        .flat_map(stamp::streams::changes::<Sessions>)
        .map(|change| {
            let change = change.unwrap();
            (change.kind, change.removed_by_ttl, change.old)
        })
        .collect();
    assert_eq!(
        changes,
        vec![
            (ChangeKind::Insert, false, None),
            (ChangeKind::Modify, false, Some(Sessions::Session(created))),
            (ChangeKind::Remove, true, Some(Sessions::Session(touched))),
        ]
    );
}

/// A table's clock times transactions and batches started from it, and a
/// write's own `at` still wins.
#[tokio::test]
async fn transactions_and_batches_from_the_table_stamp_at_its_clock() {
    let clock = TestClock::at(time("2026-06-01T10:00:00Z"));
    let table = common::fresh_table("sessions-stamps", &definition())
        .await
        .with_clock(clock.reader());

    table
        .transact_write()
        .create(&session("s-1"))
        .send(&table)
        .await
        .unwrap();
    clock.advance(TimeDelta::seconds(1));
    table
        .batch_write()
        .put(&session("s-2"))
        .send(&table)
        .await
        .unwrap();
    clock.advance(TimeDelta::seconds(1));
    Put::new(&session("s-3"))
        .at(time("2026-01-01T00:00:00Z"))
        .send(&table)
        .await
        .unwrap();
    clock.advance(TimeDelta::seconds(1));
    table
        .transact_write()
        .update(
            Session::update(SessionKey {
                user_id: "u-1",
                session_id: "s-1",
            })
            .add(Session::TOUCHES, &1),
        )
        .send(&table)
        .await
        .unwrap();

    let read = |id: &'static str| {
        let table: Table = table.clone();
        async move { table.get(&key(id)).await.unwrap().unwrap() }
    };
    let s1 = read("s-1").await;
    assert_eq!(
        (s1.touches, s1.created_at, s1.updated_at),
        (
            1,
            time("2026-06-01T10:00:00Z"),
            time("2026-06-01T10:00:03Z")
        )
    );
    // A batch put replaces the item: it stamps `updated_at` only (a batch
    // cannot tell a create), so `created_at` is the entity's own.
    let s2 = read("s-2").await;
    assert_eq!(
        (s2.created_at, s2.updated_at),
        (DateTime::UNIX_EPOCH, time("2026-06-01T10:00:01Z"))
    );
    let s3 = read("s-3").await;
    assert_eq!(s3.updated_at, time("2026-01-01T00:00:00Z"));
}
