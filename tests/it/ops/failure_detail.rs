//! Which condition failed (issue 42, point 6): a failed condition of a
//! single write or of a transaction's action hands back the item as stored,
//! decoded as its entity on request (`Error::stored`,
//! `CancellationReason::stored`).
//!
//! Expected values follow DynamoDB's documentation:
//! `ReturnValuesOnConditionCheckFailure = ALL_OLD` returns, with a
//! `ConditionalCheckFailedException`, "the item attributes" as they were
//! when the condition failed, and nothing when there is no item
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html#DDB-PutItem-request-ReturnValuesOnConditionCheckFailure>);
//! a cancelled `TransactWriteItems` has one `CancellationReason` per action,
//! in order, `None` for an action that did not fail, and the `Item` of an
//! action whose condition failed when it asked `ALL_OLD`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CancellationReason.html>).
//! The stored items are the ones the test wrote, by hand.

use serde::{Deserialize, Serialize};
use stamp::error::{CancellationCode, DecodeError};
use stamp::{
    AttributeMap, Condition, Delete, Entity, Error, Item, Put, Table, TableDefinition,
    TransactWrite,
};

use crate::common;

/// A seat hold, with optimistic locking: "a stale version" and "not your
/// hold" are the two failures a caller must tell apart.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "HOLD#<hold_id>"]
#[sk = "HOLD"]
struct Hold {
    hold_id: String,
    owner: String,
    seats: u32,
    #[stamp(version)]
    version: u64,
}

/// An entity without a version: its failed conditions are plain
/// `ConditionFailed`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "NOTE#<note_id>"]
#[sk = "NOTE"]
struct Note {
    note_id: String,
    text: String,
}

fn hold(hold_id: &str, owner: &str, seats: u32, version: u64) -> Hold {
    Hold {
        hold_id: hold_id.to_owned(),
        owner: owner.to_owned(),
        seats,
        version,
    }
}

fn note(note_id: &str, text: &str) -> Note {
    Note {
        note_id: note_id.to_owned(),
        text: text.to_owned(),
    }
}

/// The item as stored of `entity` at its own field values: what DynamoDB
/// holds after a write that stored it (the version field is stored as it
/// is in the struct).
fn stored_form<E: Entity>(entity: &E) -> AttributeMap {
    entity.to_item().unwrap()
}

async fn table(test: &str) -> Table {
    common::fresh_table(
        test,
        &TableDefinition::new().entity::<Hold>().entity::<Note>(),
    )
    .await
}

/// Ann's hold `h-1` at version 2 (created at 1, then 4 seats at 2).
async fn ann_at_version_2(table: &Table) -> Hold {
    table.create(&hold("h-1", "ann", 2, 0)).await.unwrap();
    Hold::update("h-1")
        .set(Hold::SEATS, &4)
        .expect_version(1)
        .send(table)
        .await
        .unwrap();
    let stored = hold("h-1", "ann", 4, 2);
    assert_eq!(
        table.get(&Hold::key("h-1").unwrap()).await.unwrap(),
        Some(stored.clone())
    );
    stored
}

#[tokio::test]
async fn every_single_write_asks_for_the_stored_item_on_a_failed_condition() {
    let all_old = Some("ALL_OLD");
    let put = Put::new(&hold("h-1", "ann", 2, 1)).request("t").unwrap();
    assert_eq!(
        put.return_values_on_condition_check_failure
            .as_ref()
            .map(|value| value.as_str()),
        all_old
    );
    let update = Hold::update("h-1")
        .set(Hold::SEATS, &3)
        .expect_version(1)
        .request("t")
        .unwrap();
    assert_eq!(
        update
            .return_values_on_condition_check_failure
            .as_ref()
            .map(|value| value.as_str()),
        all_old
    );
    let delete = Delete::new(Hold::key("h-1").unwrap())
        .expect_version(1)
        .request("t")
        .unwrap();
    assert_eq!(
        delete
            .return_values_on_condition_check_failure
            .as_ref()
            .map(|value| value.as_str()),
        all_old
    );
}

#[tokio::test]
async fn a_stale_version_tells_the_stored_version_and_item() {
    let table = table("failure-stale").await;
    let stored = ann_at_version_2(&table).await;

    // An update that read version 1.
    let error = Hold::update("h-1")
        .set(Hold::SEATS, &9)
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                entity: "Hold",
                key,
                expected: 1,
                found: Some(2),
                ..
            } if key == "PK=HOLD#h-1, SK=HOLD"
        ),
        "{error:?}"
    );
    assert_eq!(error.stored_item(), Some(&stored_form(&stored)));
    assert_eq!(error.stored::<Hold>().unwrap().unwrap(), stored);

    // A put of the struct read at version 1.
    let error = table.put(&hold("h-1", "ann", 9, 1)).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 1,
                found: Some(2),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.stored::<Hold>().unwrap().unwrap(), stored);

    // Nothing was written.
    assert_eq!(
        table.get(&Hold::key("h-1").unwrap()).await.unwrap(),
        Some(stored)
    );
}

#[tokio::test]
async fn a_create_of_an_existing_item_is_already_exists_with_the_stored_item() {
    let table = table("failure-exists").await;

    // A versioned entity: the stored item is at version 1.
    table.create(&hold("h-1", "ann", 2, 0)).await.unwrap();
    let error = table.create(&hold("h-1", "bob", 5, 0)).await.unwrap_err();
    assert!(
        matches!(&error, Error::AlreadyExists { entity: "Hold", key, item: Some(_) } if key == "PK=HOLD#h-1, SK=HOLD"),
        "{error:?}"
    );
    let stored = hold("h-1", "ann", 2, 1);
    assert_eq!(error.stored_item(), Some(&stored_form(&stored)));
    assert_eq!(error.stored::<Hold>().unwrap().unwrap(), stored);

    // An entity without a version.
    table.create(&note("n-1", "first")).await.unwrap();
    let error = table.create(&note("n-1", "second")).await.unwrap_err();
    assert!(
        matches!(&error, Error::AlreadyExists { entity: "Note", key, item: Some(_) } if key == "PK=NOTE#n-1, SK=NOTE"),
        "{error:?}"
    );
    assert_eq!(
        error.stored_item(),
        Some(&stored_form(&note("n-1", "first")))
    );
    assert_eq!(
        error.stored::<Note>().unwrap().unwrap(),
        note("n-1", "first")
    );
}

#[tokio::test]
async fn a_failed_update_condition_gives_the_stored_item() {
    let table = table("failure-update").await;
    let stored = ann_at_version_2(&table).await;

    // The right version, but not Bob's hold: the condition failed, not the
    // version.
    let error = Hold::update("h-1")
        .set(Hold::SEATS, &1)
        .condition(Hold::OWNER.eq(&"bob".to_owned()))
        .expect_version(2)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::ConditionFailed { entity: "Hold", key, item } if key == "PK=HOLD#h-1, SK=HOLD" && **item == stored_form(&stored)),
        "{error:?}"
    );
    let found = error.stored::<Hold>().unwrap().unwrap();
    assert_eq!(found, stored);
    assert_eq!(found.owner, "ann");

    // Asked as another entity: a typed decode error, not a wrong value.
    let Some(Err(Error::Decode(DecodeError::EntityTypeMismatch {
        attribute,
        expected,
        found,
    }))) = error.stored::<Note>()
    else {
        panic!("expected an entity type mismatch");
    };
    assert_eq!(
        (attribute, expected, found.as_str()),
        ("Type", "Note", "Hold")
    );
}

#[tokio::test]
async fn a_failed_delete_condition_gives_the_stored_item() {
    let table = table("failure-delete").await;
    let stored = ann_at_version_2(&table).await;
    table.create(&note("n-1", "keep")).await.unwrap();

    let error = Delete::new(Note::key("n-1").unwrap())
        .condition(Note::TEXT.eq(&"drop".to_owned()))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::ConditionFailed { entity: "Note", .. }),
        "{error:?}"
    );
    assert_eq!(
        error.stored::<Note>().unwrap().unwrap(),
        note("n-1", "keep")
    );

    // A delete at a stale version.
    let error = Delete::new(Hold::key("h-1").unwrap())
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 1,
                found: Some(2),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.stored::<Hold>().unwrap().unwrap(), stored);

    // Both are still there.
    assert_eq!(
        table.get(&Note::key("n-1").unwrap()).await.unwrap(),
        Some(note("n-1", "keep"))
    );
    assert_eq!(
        table.get(&Hold::key("h-1").unwrap()).await.unwrap(),
        Some(stored)
    );
}

#[tokio::test]
async fn an_absent_item_gives_no_stored_item() {
    let table = table("failure-absent").await;

    // A condition that needs the item.
    let error = Delete::new(Note::key("n-9").unwrap())
        .condition(Condition::attribute_exists("PK"))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::ItemNotFound { entity: "Note", key } if key == "PK=NOTE#n-9, SK=NOTE"),
        "{error:?}"
    );
    assert_eq!(error.stored_item(), None);
    assert!(error.stored::<Note>().is_none());

    // An update (its `attribute_exists` guard).
    let error = Hold::update("h-9")
        .set(Hold::SEATS, &1)
        .expect_version(1)
        .send(&table)
        .await
        .unwrap_err();
    assert_eq!(error.stored_item(), None, "{error:?}");
    assert!(error.stored::<Hold>().is_none());

    // A put at a version above 0: a conflict with nothing found.
    let error = table.put(&hold("h-9", "ann", 1, 3)).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::VersionConflict {
                expected: 3,
                found: None,
                item: None,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.stored::<Hold>().is_none());
}

/// A transaction of four actions, of which action 0 (a create of an
/// existing hold), action 2 (a condition on an existing note) and action 3
/// (a check of an absent item) fail, and action 1 does not.
#[tokio::test]
async fn a_cancelled_transaction_gives_the_failed_actions_stored_items() {
    let table = table("failure-transaction").await;
    let stored = ann_at_version_2(&table).await;
    table.create(&note("n-1", "keep")).await.unwrap();
    table.create(&note("n-2", "other")).await.unwrap();

    let transaction = TransactWrite::new()
        .create(&hold("h-1", "bob", 1, 0))
        .put(&note("n-2", "changed"))
        .delete(Delete::new(Note::key("n-1").unwrap()).condition(Note::TEXT.eq(&"drop".to_owned())))
        .check(Hold::key("h-9").unwrap(), Condition::attribute_exists("PK"))
        .client_request_token("failure-detail-1");

    // Each conditional action asks for its item; the unconditional put has
    // no condition to fail and asks nothing.
    let request = transaction.request(table.name()).unwrap();
    let asked: Vec<Option<&str>> = request
        .transact_items()
        .iter()
        .map(|item| {
            item.put()
                .and_then(|put| put.return_values_on_condition_check_failure())
                .or_else(|| {
                    item.delete()
                        .and_then(|delete| delete.return_values_on_condition_check_failure())
                })
                .or_else(|| {
                    item.condition_check()
                        .and_then(|check| check.return_values_on_condition_check_failure())
                })
                .map(|value| value.as_str())
        })
        .collect();
    assert_eq!(
        asked,
        [Some("ALL_OLD"), None, Some("ALL_OLD"), Some("ALL_OLD")]
    );

    let error = transaction.send(&table).await.unwrap_err();
    let Error::TransactionCanceled { reasons, .. } = &error else {
        panic!("expected TransactionCanceled, got {error:?}");
    };
    // The transaction's own error holds no single item: each reason does.
    assert_eq!(error.stored_item(), None);
    let codes: Vec<&CancellationCode> = reasons.iter().map(|reason| &reason.code).collect();
    assert_eq!(
        codes,
        [
            &CancellationCode::ConditionalCheckFailed,
            &CancellationCode::None,
            &CancellationCode::ConditionalCheckFailed,
            &CancellationCode::ConditionalCheckFailed,
        ]
    );

    // Action 0: the existing hold, decoded as its entity.
    assert_eq!(reasons[0].stored_item(), Some(&stored_form(&stored)));
    assert_eq!(reasons[0].stored::<Hold>().unwrap().unwrap(), stored);
    // Action 1 did not fail: no item.
    assert_eq!(reasons[1].stored_item(), None);
    assert!(reasons[1].stored::<Note>().is_none());
    // Action 2: the note whose condition failed.
    assert_eq!(
        reasons[2].stored::<Note>().unwrap().unwrap(),
        note("n-1", "keep")
    );
    // Action 3: its condition failed for want of an item: none.
    assert_eq!(reasons[3].stored_item(), None);
    assert!(reasons[3].stored::<Hold>().is_none());

    // Nothing of it was applied.
    assert_eq!(
        table.get(&Note::key("n-2").unwrap()).await.unwrap(),
        Some(note("n-2", "other"))
    );
}

/// The earlier opt-in is a no-op kept for callers: the request is the one
/// sent without it.
#[tokio::test]
async fn the_deprecated_opt_in_changes_nothing() {
    let build = || {
        TransactWrite::new()
            .create(&note("n-1", "first"))
            .client_request_token("failure-detail-2")
    };
    #[allow(deprecated)]
    let with = build().return_old_items_on_failure();
    assert_eq!(with.request("t").unwrap(), build().request("t").unwrap());
}
