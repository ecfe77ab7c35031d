//! Typed order comparisons (`lt`, `le`, `gt`, `ge`, `between`) of fields
//! that are not in a key, in filters and conditions: the server answers in
//! the values' own order (DESIGN.md: "a range condition … returns exactly
//! the items whose values satisfy it in the values' own order"), so a
//! time is stored in the fixed-width form keys use.

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use stamp::{AttributeMap, Error, Item, Table, TableDefinition};

/// A show's slots, each with the time it ended (not in any key).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHOW#<show>"]
#[sk = "SLOT#<slot>"]
struct Slot {
    show: String,
    slot: u32,
    ended_at: DateTime<Utc>,
    closed_at: Option<DateTime<Utc>>,
}

/// The same, through serde's whole-struct serialization (a flattened
/// field): its times are stored in the same form.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "HALL#<hall>"]
#[sk = "SLOT#<slot>"]
struct HallSlot {
    hall: String,
    slot: u32,
    ended_at: DateTime<Utc>,
    #[serde(flatten)]
    details: Details,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Details {
    venue: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Slot>().entity::<HallSlot>()
}

/// 10:00 and `millis` milliseconds on 2026-03-01, UTC.
fn at(millis: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap() + chrono::Duration::milliseconds(millis)
}

fn slot(slot: u32, ended_at: DateTime<Utc>) -> Slot {
    Slot {
        show: "s-1".to_owned(),
        slot,
        ended_at,
        closed_at: Some(ended_at),
    }
}

async fn raw(table: &Table, pk: &str, sk: &str) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .key("PK", AttributeValue::S(pk.to_owned()))
        .key("SK", AttributeValue::S(sk.to_owned()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

async fn slots_where(table: &Table, filter: stamp::Condition<Slot>) -> Vec<u32> {
    let page = Slot::query("s-1").filter(filter).send(table).await.unwrap();
    page.items.into_iter().map(|slot| slot.slot).collect()
}

/// Slots that ended at 10:00:00 (whole seconds: chrono's serde form has no
/// fraction, `…T10:00:00Z`), 10:00:00.500 and 09:59:59.999; "ended before
/// 10:00:00.250" is slots 1 and 3. Compared as serde's text, `Z` sorts
/// after `.` and slot 1 was left out.
#[tokio::test]
async fn a_time_filter_compares_instants_not_their_text() {
    let table = common::fresh_table("times", &definition()).await;
    for (number, millis) in [(1, 0), (2, 500), (3, -1)] {
        table.put(&slot(number, at(millis))).await.unwrap();
    }
    assert_eq!(
        slots_where(&table, Slot::ENDED_AT.lt(&at(250))).await,
        [1, 3]
    );
    assert_eq!(slots_where(&table, Slot::ENDED_AT.le(&at(0))).await, [1, 3]);
    assert_eq!(
        slots_where(&table, Slot::ENDED_AT.gt(&at(-1))).await,
        [1, 2]
    );
    assert_eq!(slots_where(&table, Slot::ENDED_AT.ge(&at(250))).await, [2]);
    assert_eq!(
        slots_where(&table, Slot::ENDED_AT.between(&at(-1), &at(250))).await,
        [1, 3]
    );
    assert_eq!(
        slots_where(&table, Slot::CLOSED_AT.lt(&at(250))).await,
        [1, 3]
    );
    assert_eq!(slots_where(&table, Slot::ENDED_AT.eq(&at(0))).await, [1]);
    assert_eq!(
        raw(&table, "SHOW#s-1", "SLOT#0000000001").await["ended_at"],
        AttributeValue::S("2026-03-01T10:00:00.000000000Z".to_owned())
    );

    // A condition of an update, and the value the update sets.
    Slot::update("s-1", &1)
        .set(Slot::ENDED_AT, &at(100))
        .condition(Slot::ENDED_AT.lt(&at(250)))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        raw(&table, "SHOW#s-1", "SLOT#0000000001").await["ended_at"],
        AttributeValue::S("2026-03-01T10:00:00.100000000Z".to_owned())
    );
    let error = Slot::update("s-1", &3)
        .set(Slot::CLOSED_AT, &at(0))
        .condition(Slot::ENDED_AT.gt(&at(-1)))
        .send(&table)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::ConditionFailed { .. }), "{error}");
    table.delete_table().await.unwrap();
}

/// A struct stored whole by serde stores its times as `to_item` does.
#[tokio::test]
async fn a_struct_serialized_whole_stores_times_in_the_same_form() {
    let table = common::fresh_table("times-whole", &definition()).await;
    let slot = HallSlot {
        hall: "h-1".to_owned(),
        slot: 1,
        ended_at: at(0),
        details: Details {
            venue: "v".to_owned(),
        },
    };
    table.put(&slot).await.unwrap();
    assert_eq!(
        raw(&table, "HALL#h-1", "SLOT#0000000001").await["ended_at"],
        AttributeValue::S("2026-03-01T10:00:00.000000000Z".to_owned())
    );
    let page = HallSlot::query("h-1")
        .filter(HallSlot::ENDED_AT.lt(&at(250)))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, [slot]);
    table.delete_table().await.unwrap();
}
