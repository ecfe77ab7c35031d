//! The entity of the migration kill tests: `Player`, keyed by team now
//! and by player id before (`PlayerBefore`, the old format, stored under
//! the same type name). Its own: a migration needs a previous key format,
//! which the reference model does not have.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use stamp::{AttributeMap, Table};

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TEAM#<team>"]
#[sk = "PLAYER#<player_id>"]
#[stamp(previous(pk = "PLAYER#<player_id>", sk = "PROFILE"))]
pub(super) struct Player {
    pub(super) team: String,
    pub(super) player_id: u32,
    pub(super) name: String,
    pub(super) goals: Option<u32>,
}

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PLAYER#<player_id>"]
#[sk = "PROFILE"]
#[stamp(type_name = "Player")]
pub(super) struct PlayerBefore {
    pub(super) team: String,
    pub(super) player_id: u32,
    pub(super) name: String,
    pub(super) goals: Option<u32>,
}

/// Player `number` in the old format: in one of four teams, with goals
/// unless `number` is a multiple of 3.
pub(super) fn player(number: u32) -> PlayerBefore {
    PlayerBefore {
        team: format!("team-{}", number % 4),
        player_id: number,
        name: format!("Player {number}"),
        goals: (!number.is_multiple_of(3)).then_some(number * 2),
    }
}

/// Every item of the table (one consistent page holds them).
pub(super) async fn all_items(table: &Table) -> Vec<AttributeMap> {
    let output = table
        .client()
        .scan()
        .table_name(table.name())
        .consistent_read(true)
        .send()
        .await
        .expect("scan");
    assert!(output.last_evaluated_key.is_none(), "one page holds them");
    output.items.unwrap_or_default()
}

/// The String attribute `name` of `item`.
pub(super) fn text(item: &AttributeMap, name: &str) -> String {
    match item.get(name) {
        Some(AttributeValue::S(value)) => value.clone(),
        other => panic!("{name} is {other:?}"),
    }
}
