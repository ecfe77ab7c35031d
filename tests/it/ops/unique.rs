//! Unique values (issue 42, point 4): `#[stamp(unique)]` and
//! `#[stamp(unique(a, b))]` keep one guard item per value, written, moved
//! and deleted in the same `TransactWriteItems` as the write of the item.
//! The expected outcomes come from DynamoDB's documentation of
//! `TransactWriteItems`: all actions succeed or none is applied, and a
//! false condition cancels the transaction with `ConditionalCheckFailed`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>);
//! the guard's key format is Stamp's storage format (`ops/unique.rs`).

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use stamp::error::Refusal;
use stamp::ops::GetUnique;
use stamp::{
    AttributeMap, BatchWrite, Delete, Entity, Error, Item, Put, Table, TableDefinition,
    TransactWrite,
};

use crate::common;

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "USER#<user_id>"]
#[sk = "PROFILE"]
struct User {
    user_id: String,
    #[stamp(unique)]
    email: String,
    #[stamp(unique)]
    nickname: Option<String>,
    name: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ORG#<org>"]
#[sk = "MEMBER#<member_id>"]
#[stamp(unique(org, handle))]
struct Member {
    org: String,
    member_id: u32,
    handle: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: String,
    #[stamp(unique)]
    iban: String,
    #[stamp(version)]
    version: u64,
}

/// A unique Number.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
struct Ticket {
    id: String,
    #[stamp(unique)]
    seat: u32,
    sold: u32,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<User>()
        .entity::<Member>()
        .entity::<Account>()
        .entity::<Ticket>()
}

fn user(id: &str, email: &str) -> User {
    User {
        user_id: id.into(),
        email: email.into(),
        nickname: None,
        name: format!("name of {id}"),
    }
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

/// The guard item of `key` held by the item `(owner_pk, owner_sk)`, as
/// the storage format documents it.
fn guard(key: &str, owner_pk: &str, owner_sk: &str) -> AttributeMap {
    AttributeMap::from([
        ("PK".to_owned(), s(key)),
        ("SK".to_owned(), s(key)),
        ("Type".to_owned(), s("UniqueValue")),
        ("OwnerPK".to_owned(), s(owner_pk)),
        ("OwnerSK".to_owned(), s(owner_sk)),
    ])
}

/// The guard items of the table, by key.
async fn guards(table: &Table) -> BTreeMap<String, AttributeMap> {
    common::items_by_key(table)
        .await
        .into_iter()
        .filter(|((pk, _), _)| pk.starts_with("UNIQUE#"))
        .map(|((pk, _), item)| (pk, item))
        .collect()
}

fn assert_taken(error: Error, entity: &str, fields: &[&str], values: &[&str], owner: Option<&str>) {
    match &error {
        Error::UniqueValueTaken {
            entity: found_entity,
            fields: found_fields,
            values: found_values,
            owner: found_owner,
        } => {
            assert_eq!(*found_entity, entity, "{error}");
            assert_eq!(*found_fields, fields, "{error}");
            assert_eq!(found_values, values, "{error}");
            assert_eq!(
                found_owner.as_ref().map(ToString::to_string).as_deref(),
                owner,
                "{error}"
            );
        }
        other => panic!("expected UniqueValueTaken, got {other:?}"),
    }
}

#[tokio::test]
async fn create_writes_one_guard_per_value_and_a_taken_value_writes_nothing() {
    let table = common::fresh_table("unique-create", &definition()).await;
    table.create(&user("u1", "ada@example.com")).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#ada@example.com".to_owned(),
            guard("UNIQUE#User#email#ada@example.com", "USER#u1", "PROFILE")
        )]),
        "a None nickname holds no value"
    );
    let before = common::items_by_key(&table).await;
    let error = table
        .create(&user("u2", "ada@example.com"))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the unique value email = \"ada@example.com\" of entity `User` is taken by the item PK=USER#u1, SK=PROFILE"
    );
    assert_taken(
        error,
        "User",
        &["email"],
        &["ada@example.com"],
        Some("PK=USER#u1, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
    // A plain put of a new item claims the same way.
    let error = table.put(&user("u3", "ada@example.com")).await.unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["ada@example.com"],
        Some("PK=USER#u1, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
    // Creating the same item again is still `AlreadyExists`.
    let error = table
        .create(&user("u1", "other@example.com"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::AlreadyExists { entity: "User", .. }),
        "{error:?}"
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
}

#[tokio::test]
async fn put_moves_the_guard_and_refuses_a_taken_value() {
    let table = common::fresh_table("unique-put", &definition()).await;
    table.put(&user("u1", "a@x.com")).await.unwrap();
    table.put(&user("u2", "b@x.com")).await.unwrap();
    let mut changed = user("u1", "c@x.com");
    changed.nickname = Some("ace".into());
    table.put(&changed).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([
            (
                "UNIQUE#User#email#b@x.com".to_owned(),
                guard("UNIQUE#User#email#b@x.com", "USER#u2", "PROFILE")
            ),
            (
                "UNIQUE#User#email#c@x.com".to_owned(),
                guard("UNIQUE#User#email#c@x.com", "USER#u1", "PROFILE")
            ),
            (
                "UNIQUE#User#nickname#ace".to_owned(),
                guard("UNIQUE#User#nickname#ace", "USER#u1", "PROFILE")
            ),
        ])
    );
    // Putting the same values again changes no guard.
    table.put(&changed).await.unwrap();
    assert_eq!(guards(&table).await.len(), 3);
    let before = common::items_by_key(&table).await;
    let error = table.put(&user("u1", "b@x.com")).await.unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["b@x.com"],
        Some("PK=USER#u2, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
}

#[tokio::test]
async fn update_moves_and_removes_guards() {
    let table = common::fresh_table("unique-update", &definition()).await;
    let mut first = user("u1", "a@x.com");
    first.nickname = Some("ace".into());
    table.create(&first).await.unwrap();
    table.create(&user("u2", "b@x.com")).await.unwrap();
    User::update("u1")
        .set(User::EMAIL, &"new@x.com".to_owned())
        .remove(User::NICKNAME)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([
            (
                "UNIQUE#User#email#b@x.com".to_owned(),
                guard("UNIQUE#User#email#b@x.com", "USER#u2", "PROFILE")
            ),
            (
                "UNIQUE#User#email#new@x.com".to_owned(),
                guard("UNIQUE#User#email#new@x.com", "USER#u1", "PROFILE")
            ),
        ])
    );
    let stored = table.get(&User::key("u1").unwrap()).await.unwrap().unwrap();
    assert_eq!(stored.email, "new@x.com");
    assert_eq!(stored.nickname, None);
    // An update of other fields keeps the guards.
    User::update("u1")
        .set(User::NAME, &"Ada".to_owned())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(guards(&table).await.len(), 2);
    let before = common::items_by_key(&table).await;
    let error = User::update("u1")
        .set(User::EMAIL, &"b@x.com".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["b@x.com"],
        Some("PK=USER#u2, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
    // An update that changes a unique value returns no item.
    let error = User::update("u1")
        .set(User::EMAIL, &"z@x.com".to_owned())
        .send_returning_new(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::UniqueReturnValues { entity: "User" })
        ),
        "{error:?}"
    );
    // An update of an absent item is still `ItemNotFound`, nothing written.
    let error = User::update("nobody")
        .set(User::EMAIL, &"q@x.com".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::ItemNotFound { entity: "User", .. }),
        "{error:?}"
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
}

#[tokio::test]
async fn delete_removes_the_guards() {
    let table = common::fresh_table("unique-delete", &definition()).await;
    let mut first = user("u1", "a@x.com");
    first.nickname = Some("ace".into());
    table.create(&first).await.unwrap();
    table.create(&user("u2", "b@x.com")).await.unwrap();
    table.delete(&User::key("u1").unwrap()).await.unwrap();
    assert_eq!(
        guards(&table).await.into_keys().collect::<Vec<_>>(),
        ["UNIQUE#User#email#b@x.com"]
    );
    // The value is free again.
    table.create(&user("u3", "a@x.com")).await.unwrap();
    // Deleting an absent item still succeeds and changes nothing.
    let before = common::items_by_key(&table).await;
    table.delete(&User::key("u1").unwrap()).await.unwrap();
    assert_eq!(common::items_by_key(&table).await, before);
    let error = Delete::new(User::key("u3").unwrap())
        .send_returning_old(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::UniqueReturnValues { entity: "User" })
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn rekey_moves_the_guard_to_the_new_key() {
    let table = common::fresh_table("unique-rekey", &definition()).await;
    let old = user("u1", "a@x.com");
    table.create(&old).await.unwrap();
    let new = user("u9", "a@x.com");
    table.rekey(&old, &new).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#a@x.com".to_owned(),
            guard("UNIQUE#User#email#a@x.com", "USER#u9", "PROFILE")
        )])
    );
    // A re-key that also changes the value moves it.
    let newer = user("u10", "b@x.com");
    table.rekey(&new, &newer).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#b@x.com".to_owned(),
            guard("UNIQUE#User#email#b@x.com", "USER#u10", "PROFILE")
        )])
    );
    assert_eq!(common::items_by_key(&table).await.len(), 2);
}

#[tokio::test]
async fn upsert_claims_the_values_it_sets() {
    let table = common::fresh_table("unique-upsert", &definition()).await;
    User::upsert("u1")
        .set(User::EMAIL, &"a@x.com".to_owned())
        .set(User::NAME, &"Ada".to_owned())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#a@x.com".to_owned(),
            guard("UNIQUE#User#email#a@x.com", "USER#u1", "PROFILE")
        )])
    );
    // An upsert of the present item moves it.
    User::upsert("u1")
        .set(User::EMAIL, &"b@x.com".to_owned())
        .set(User::NAME, &"Ada".to_owned())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        guards(&table).await.into_keys().collect::<Vec<_>>(),
        ["UNIQUE#User#email#b@x.com"]
    );
    let before = common::items_by_key(&table).await;
    let error = User::upsert("u2")
        .set(User::EMAIL, &"b@x.com".to_owned())
        .set(User::NAME, &"Bob".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["b@x.com"],
        Some("PK=USER#u1, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
}

#[tokio::test]
async fn values_are_escaped_as_key_values_are() {
    let table = common::fresh_table("unique-escape", &definition()).await;
    table.create(&user("u1", "a#b c%d")).await.unwrap();
    table.create(&user("u2", "a")).await.unwrap();
    assert_eq!(
        guards(&table).await.into_keys().collect::<Vec<_>>(),
        ["UNIQUE#User#email#a", "UNIQUE#User#email#a%23b%20c%25d"]
    );
    let error = table.create(&user("u3", "a#b c%d")).await.unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["a#b c%d"],
        Some("PK=USER#u1, SK=PROFILE"),
    );
    let found = table
        .get_unique(User::EMAIL, &"a#b c%d".to_owned())
        .await
        .unwrap();
    assert_eq!(found, Some(user("u1", "a#b c%d")));
}

#[tokio::test]
async fn a_combination_is_one_value() {
    let table = common::fresh_table("unique-combination", &definition()).await;
    let member = |org: &str, member_id, handle: &str| Member {
        org: org.into(),
        member_id,
        handle: handle.into(),
    };
    table.create(&member("acme", 1, "bob")).await.unwrap();
    // The same handle in another organisation is another value.
    table.create(&member("initech", 1, "bob")).await.unwrap();
    table.create(&member("acme", 2, "carol")).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([
            (
                "UNIQUE#Member#org+handle#acme#bob".to_owned(),
                guard(
                    "UNIQUE#Member#org+handle#acme#bob",
                    "ORG#acme",
                    "MEMBER#0000000001"
                )
            ),
            (
                "UNIQUE#Member#org+handle#acme#carol".to_owned(),
                guard(
                    "UNIQUE#Member#org+handle#acme#carol",
                    "ORG#acme",
                    "MEMBER#0000000002"
                )
            ),
            (
                "UNIQUE#Member#org+handle#initech#bob".to_owned(),
                guard(
                    "UNIQUE#Member#org+handle#initech#bob",
                    "ORG#initech",
                    "MEMBER#0000000001"
                )
            ),
        ])
    );
    let error = table.create(&member("acme", 3, "bob")).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the unique value (org, handle) = (\"acme\", \"bob\") of entity `Member` is taken by the item PK=ORG#acme, SK=MEMBER#0000000001"
    );
    assert_taken(
        error,
        "Member",
        &["org", "handle"],
        &["acme", "bob"],
        Some("PK=ORG#acme, SK=MEMBER#0000000001"),
    );
    let found = GetUnique::new(Member::ORG, &"acme".to_owned())
        .and(Member::HANDLE, &"carol".to_owned())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(found, Some(member("acme", 2, "carol")));
    // Named in the other order, the same value.
    let found = GetUnique::new(Member::HANDLE, &"bob".to_owned())
        .and(Member::ORG, &"initech".to_owned())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(found, Some(member("initech", 1, "bob")));
    // Part of a combination is not a value.
    let error = GetUnique::new(Member::HANDLE, &"bob".to_owned())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::NotUnique { entity: "Member", attributes }) if attributes == &["handle"]),
        "{error:?}"
    );
}

#[tokio::test]
async fn lookup_by_a_unique_value() {
    let table = common::fresh_table("unique-lookup", &definition()).await;
    let mut ada = user("u1", "ada@x.com");
    ada.nickname = Some("ace".into());
    table.create(&ada).await.unwrap();
    assert_eq!(
        table
            .get_unique(User::EMAIL, &"ada@x.com".to_owned())
            .await
            .unwrap(),
        Some(ada.clone())
    );
    assert_eq!(
        table
            .get_unique(User::NICKNAME, &"ace".to_owned())
            .await
            .unwrap(),
        Some(ada.clone())
    );
    assert_eq!(
        table
            .get_unique(User::EMAIL, &"nobody@x.com".to_owned())
            .await
            .unwrap(),
        None
    );
    let error = table
        .get_unique(User::NAME, &"x".to_owned())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::NotUnique { entity: "User", attributes }) if attributes == &["name"]),
        "{error:?}"
    );
}

#[tokio::test]
async fn versioned_entity_keeps_its_version_checks() {
    let table = common::fresh_table("unique-versioned", &definition()).await;
    let account = Account {
        id: "a1".into(),
        iban: "DE00 1".into(),
        version: 0,
    };
    table.put(&account).await.unwrap();
    let stored = table
        .get(&Account::key("a1").unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.version, 1);
    // A stale version is a version conflict, nothing written.
    let before = common::items_by_key(&table).await;
    let stale = Account {
        iban: "DE00 2".into(),
        ..account.clone()
    };
    let error = table.put(&stale).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::VersionConflict {
                entity: "Account",
                found: Some(1),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
    let fresh = Account {
        iban: "DE00 2".into(),
        ..stored
    };
    table.put(&fresh).await.unwrap();
    assert_eq!(
        guards(&table).await.into_keys().collect::<Vec<_>>(),
        ["UNIQUE#Account#iban#DE00%202"]
    );
}

#[tokio::test]
async fn many_tasks_claiming_one_value_exactly_one_wins() {
    let table = common::fresh_table("unique-race", &definition()).await;
    let tasks: Vec<_> = (0..16)
        .map(|n| {
            let table = table.clone();
            tokio::spawn(async move { table.create(&user(&format!("u{n}"), "race@x.com")).await })
        })
        .collect();
    let mut winners = Vec::new();
    for (n, task) in tasks.into_iter().enumerate() {
        match task.await.unwrap() {
            Ok(()) => winners.push(n),
            Err(Error::UniqueValueTaken { .. }) => {}
            // A real DynamoDB cancels concurrent transactions on one item
            // with `TransactionConflict`: also a loss, nothing written.
            Err(Error::TransactionCanceled { .. }) => {}
            Err(other) => panic!("task {n}: {other:?}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one wins: {winners:?}");
    let winner = format!("USER#u{}", winners[0]);
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#race@x.com".to_owned(),
            guard("UNIQUE#User#email#race@x.com", &winner, "PROFILE")
        )])
    );
    let users: Vec<_> = common::items_by_key(&table)
        .await
        .into_keys()
        .filter(|(pk, _)| pk.starts_with("USER#"))
        .collect();
    assert_eq!(users, [(winner, "PROFILE".to_owned())]);
}

#[tokio::test]
async fn transactions_write_the_guards_and_count_them() {
    let table = common::fresh_table("unique-transaction", &definition()).await;
    // 50 creates with one value each: 100 actions.
    let users: Vec<User> = (0..51)
        .map(|n| user(&format!("u{n}"), &format!("{n}@x.com")))
        .collect();
    let transaction = users[..50]
        .iter()
        .fold(TransactWrite::new(), |transaction, user| {
            transaction.create(user)
        });
    transaction.send(&table).await.unwrap();
    assert_eq!(guards(&table).await.len(), 50);
    // 51 creates: 102 actions, refused before anything is sent.
    let table = common::fresh_table("unique-transaction-over", &definition()).await;
    let transaction = users
        .iter()
        .fold(TransactWrite::new(), |transaction, user| {
            transaction.create(user)
        });
    let error = transaction.send(&table).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::TooManyTransactionActions {
                count: 102,
                limit: 100
            })
        ),
        "{error:?}"
    );
    assert!(
        common::items_by_key(&table).await.is_empty(),
        "nothing written"
    );
    // A taken value in a transaction: the typed error, nothing written.
    table.create(&user("a", "a@x.com")).await.unwrap();
    let before = common::items_by_key(&table).await;
    let error = TransactWrite::new()
        .create(&user("b", "b@x.com"))
        .put(Put::new(&user("c", "a@x.com")))
        .send(&table)
        .await
        .unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["a@x.com"],
        Some("PK=USER#a, SK=PROFILE"),
    );
    assert_eq!(
        common::items_by_key(&table).await,
        before,
        "nothing written"
    );
    // A delete and an update in one transaction move the values.
    TransactWrite::new()
        .delete(User::key("a").unwrap())
        .create(&user("d", "a@x.com"))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#User#email#a@x.com".to_owned(),
            guard("UNIQUE#User#email#a@x.com", "USER#d", "PROFILE")
        )])
    );
}

#[test]
fn the_schema_lists_the_unique_values() {
    assert_eq!(
        User::SCHEMA.unique_values,
        &[
            stamp::schema::UniqueValue {
                fields: &["email"],
                attributes: &["email"]
            },
            stamp::schema::UniqueValue {
                fields: &["nickname"],
                attributes: &["nickname"]
            },
        ]
    );
    assert_eq!(
        Member::SCHEMA.unique_values,
        &[stamp::schema::UniqueValue {
            fields: &["org", "handle"],
            attributes: &["org", "handle"]
        }]
    );
}

/// An entity whose key can be a guard's: `<kind>` can be `UNIQUE`, and
/// `<rest>` anything (escaped), so `UNIQUE#User#email#x` is its key.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "<kind>#User#email#<rest>"]
#[sk = "<kind>#User#email#<rest>"]
struct Lookalike {
    kind: String,
    rest: String,
}

#[test]
fn the_definition_lists_the_guards_and_keeps_their_keys_apart() {
    let definition = definition();
    let values: Vec<(&str, String)> = definition
        .unique_values()
        .into_iter()
        .map(|(entity, unique)| (entity, unique.guard_template(entity)))
        .collect();
    assert_eq!(
        values,
        [
            ("User", "UNIQUE#User#email#<email>".to_owned()),
            ("User", "UNIQUE#User#nickname#<nickname>".to_owned()),
            (
                "Member",
                "UNIQUE#Member#org+handle#<org>#<handle>".to_owned()
            ),
            ("Account", "UNIQUE#Account#iban#<iban>".to_owned()),
            ("Ticket", "UNIQUE#Ticket#seat#<seat>".to_owned()),
        ]
    );
    definition.check().unwrap();
    let error = definition.entity::<Lookalike>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(stamp::error::DefinitionError::GuardKeyCollision {
                owner: "User",
                fields: ["email"],
                entity: "Lookalike",
                ..
            })
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the guard items of the unique value (email) of entity `User` can collide with the items of entity `Lookalike`: both can have partition key `UNIQUE#User#email#x` and sort key `UNIQUE#User#email#x`; give `Lookalike` a key that does not begin with `UNIQUE#`"
    );
}

#[test]
fn the_catalogue_and_the_capacity_model_list_the_guards() {
    let definition = definition()
        .example(&User {
            user_id: "u-1".into(),
            email: "ada@example.com".into(),
            nickname: Some("ace".into()),
            name: "Ada".into(),
        })
        .unwrap();
    let catalogue = definition.catalogue().unwrap();
    let section = "\n## Unique values\n\n\
        Each value is held by a guard item whose partition and sort key are both the text below (values \
        escaped as key values are), with type `UniqueValue` and the owning item's key in `OwnerPK` and \
        `OwnerSK`. Every write of the entity puts, moves and deletes its guards in the same \
        `TransactWriteItems`.\n\n\
        | entity | unique value | guard item key | lookup |\n\
        |---|---|---|---|\n\
        | `User` | `email` | `UNIQUE#User#email#<email>` | `GetUnique::new(User::EMAIL, &email)` |\n\
        | `User` | `nickname` | `UNIQUE#User#nickname#<nickname>` | `GetUnique::new(User::NICKNAME, &nickname)` |\n\
        | `Member` | `org, handle` | `UNIQUE#Member#org+handle#<org>#<handle>` | `GetUnique::new(Member::ORG, &org).and(Member::HANDLE, &handle)` |\n\
        | `Account` | `iban` | `UNIQUE#Account#iban#<iban>` | `GetUnique::new(Account::IBAN, &iban)` |\n\
        | `Ticket` | `seat` | `UNIQUE#Ticket#seat#<seat>` | `GetUnique::new(Ticket::SEAT, &seat)` |\n";
    assert!(catalogue.contains(section), "{catalogue}");
    let capacity = definition.capacity().unwrap();
    let user = capacity
        .iter()
        .find(|entity| entity.entity == "User")
        .unwrap();
    // Two guards of under 1 KB: 1 write unit each; a create is the item's
    // put (1 unit, 2 in a transaction) and the two guards' (2 each).
    assert_eq!(
        user.unique,
        Some(stamp::capacity::UniqueCapacity {
            guards: 2,
            guard_writes: 2.0,
            create: 6.0,
            read_before_write: 1.0,
            per_changed_value: 4.0,
        })
    );
    assert!(
        catalogue.contains("| `User` | 2 | 6 WCU | 1 RCU | + 4 WCU |"),
        "{catalogue}"
    );
}

/// `User` as stored before its values were declared unique: the same
/// type and keys, no guards.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "USER#<user_id>"]
#[sk = "PROFILE"]
#[stamp(type_name = "User")]
struct LegacyUser {
    user_id: String,
    email: String,
    nickname: Option<String>,
    name: String,
}

#[tokio::test]
async fn a_backfill_writes_the_missing_guards_and_reports_conflicts() {
    use stamp::migrate::UniqueBackfill;
    let table = common::fresh_table("unique-backfill", &definition()).await;
    let legacy = |id: &str, email: &str, nickname: Option<&str>| LegacyUser {
        user_id: id.into(),
        email: email.into(),
        nickname: nickname.map(Into::into),
        name: id.into(),
    };
    for user in [
        legacy("u1", "a@x.com", None),
        legacy("u2", "b@x.com", None),
        legacy("u3", "a@x.com", None),
        legacy("u4", "c@x.com", Some("ace")),
    ] {
        table.put(&user).await.unwrap();
    }
    assert!(guards(&table).await.is_empty());
    for run in 0..2 {
        let outcome = UniqueBackfill::<User>::new().run(&table).await.unwrap();
        assert_eq!(outcome.items, 4, "run {run}");
        assert_eq!(outcome.guards, 4, "run {run}");
        assert!(outcome.changed.is_empty(), "run {run}");
        assert_eq!(outcome.conflicts.len(), 1, "run {run}: {outcome:?}");
        let conflict = &outcome.conflicts[0];
        assert_eq!(conflict.fields, ["email"]);
        assert_eq!(conflict.values, ["a@x.com"]);
        let mut pair = vec![
            conflict.item.to_string(),
            conflict.holder.as_ref().unwrap().to_string(),
        ];
        pair.sort();
        assert_eq!(pair, ["PK=USER#u1, SK=PROFILE", "PK=USER#u3, SK=PROFILE"]);
    }
    let found = guards(&table).await;
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        [
            "UNIQUE#User#email#a@x.com",
            "UNIQUE#User#email#b@x.com",
            "UNIQUE#User#email#c@x.com",
            "UNIQUE#User#nickname#ace",
        ]
    );
    assert_eq!(
        found["UNIQUE#User#nickname#ace"],
        guard("UNIQUE#User#nickname#ace", "USER#u4", "PROFILE")
    );
    // From then on the guards hold: a new claim of a backfilled value fails.
    let error = table.create(&user("u5", "b@x.com")).await.unwrap_err();
    assert_taken(
        error,
        "User",
        &["email"],
        &["b@x.com"],
        Some("PK=USER#u2, SK=PROFILE"),
    );
}

/// A customer keyed by id, as stored before the key migration.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CLIENT#<id>"]
#[sk = "CLIENT"]
#[stamp(type_name = "Client")]
struct OldClient {
    region: String,
    id: String,
    #[stamp(unique)]
    email: String,
}

/// The same customer keyed by region, with its previous format.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "REGION#<region>"]
#[sk = "CLIENT#<id>"]
#[stamp(type_name = "Client", previous(pk = "CLIENT#<id>", sk = "CLIENT"))]
struct Client {
    region: String,
    id: String,
    #[stamp(unique)]
    email: String,
}

#[tokio::test]
async fn a_key_migration_moves_the_guards_with_the_items() {
    let table = common::fresh_table(
        "unique-migration",
        &TableDefinition::new().entity::<Client>(),
    )
    .await;
    for n in 0..30 {
        table
            .create(&OldClient {
                region: "eu".into(),
                id: format!("c{n:02}"),
                email: format!("{n}@x.com"),
            })
            .await
            .unwrap();
    }
    assert_eq!(
        guards(&table).await["UNIQUE#Client#email#7@x.com"],
        guard("UNIQUE#Client#email#7@x.com", "CLIENT#c07", "CLIENT")
    );
    let outcome = stamp::migrate::Migration::<Client>::new()
        .run(&table)
        .await
        .unwrap();
    assert!(outcome.conflicts.is_empty(), "{outcome:?}");
    let found = guards(&table).await;
    assert_eq!(found.len(), 30);
    for n in 0..30 {
        let key = format!("UNIQUE#Client#email#{n}@x.com");
        assert_eq!(
            found[&key],
            guard(&key, "REGION#eu", &format!("CLIENT#c{n:02}")),
            "{key}"
        );
    }
    assert_eq!(common::items_by_key(&table).await.len(), 60);
    assert_eq!(
        table
            .get_unique(Client::EMAIL, &"7@x.com".to_owned())
            .await
            .unwrap(),
        Some(Client {
            region: "eu".into(),
            id: "c07".into(),
            email: "7@x.com".into()
        })
    );
}

#[tokio::test]
async fn a_number_is_a_value_and_arithmetic_on_it_is_refused() {
    let (table, counter) = common::fresh_counted_table("unique-number", &definition()).await;
    let ticket = Ticket {
        id: "t1".into(),
        seat: 12,
        sold: 0,
    };
    table.create(&ticket).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(
            "UNIQUE#Ticket#seat#12".to_owned(),
            guard("UNIQUE#Ticket#seat#12", "TICKET#t1", "TICKET")
        )])
    );
    counter.reset();
    let error = Ticket::update("t1")
        .add(Ticket::SEAT, &1)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::UniqueFieldArithmetic {
                entity: "Ticket",
                field: "seat",
                action: "ADD"
            })
        ),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new(), "nothing sent");
    // An update of another field is one `UpdateItem`, no read.
    Ticket::update("t1")
        .add(Ticket::SOLD, &1)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(counter.operations(), ["UpdateItem"]);
    // A change of the value: the read, then one transaction.
    counter.reset();
    Ticket::update("t1")
        .set(Ticket::SEAT, &14)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(counter.operations(), ["GetItem", "TransactWriteItems"]);
    assert_eq!(
        guards(&table).await.into_keys().collect::<Vec<_>>(),
        ["UNIQUE#Ticket#seat#14"]
    );
    assert_eq!(
        table.get_unique(Ticket::SEAT, &14).await.unwrap(),
        Some(Ticket {
            id: "t1".into(),
            seat: 14,
            sold: 1
        })
    );
}

/// A batch write cannot keep guard items (`BatchWriteItem` has no
/// conditions): a put or a delete of an entity with unique values in a
/// batch is refused before anything is sent, and the table is unchanged.
#[tokio::test]
async fn batch_writes_of_an_entity_with_unique_values_are_refused() {
    let (table, counter) = common::fresh_counted_table("unique-batch", &definition()).await;
    let put = BatchWrite::new()
        .put(&user("u-1", "ada@example.com"))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &put,
            Error::Refused(Refusal::UniqueBatchWrite { entity: "User" })
        ),
        "{put}"
    );
    let delete = BatchWrite::new()
        .delete(User::key("u-1").unwrap())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &delete,
            Error::Refused(Refusal::UniqueBatchWrite { entity: "User" })
        ),
        "{delete}"
    );
    assert!(counter.operations().is_empty());
    assert!(common::items_by_key(&table).await.is_empty());
}

/// `TransactWrite::request` shows the guard actions known before reading:
/// a create's put of the guard of each value, after the caller's actions,
/// conditioned on no guard or one this item holds; the request is the one
/// sent (the guard as stored afterwards is the one shown).
#[tokio::test]
async fn the_request_of_a_create_shows_its_guard_put() {
    use aws_sdk_dynamodb::types::{
        Put as PutAction, ReturnValuesOnConditionCheckFailure, TransactWriteItem,
    };
    let ada = user("u1", "ada@x.com");
    // A token of this test's own: DynamoDB remembers a token for 10
    // minutes, whatever the table.
    let token = uuid::Uuid::new_v4().to_string();
    let transaction = TransactWrite::new()
        .create(&ada)
        .client_request_token(&token);
    let request = transaction.request("users").unwrap();
    let create = Put::create(&ada).request("users").unwrap();
    let guard_key = "UNIQUE#User#email#ada@x.com";
    assert_eq!(
        request.transact_items(),
        [
            TransactWriteItem::builder()
                .put(
                    PutAction::builder()
                        .table_name("users")
                        .set_item(create.item().cloned())
                        .condition_expression("attribute_not_exists(#n0)")
                        .expression_attribute_names("#n0", "PK")
                        .return_values_on_condition_check_failure(
                            ReturnValuesOnConditionCheckFailure::AllOld
                        )
                        .build()
                        .unwrap()
                )
                .build(),
            TransactWriteItem::builder()
                .put(
                    PutAction::builder()
                        .table_name("users")
                        .set_item(Some(guard(guard_key, "USER#u1", "PROFILE")))
                        .condition_expression(
                            "attribute_not_exists(#n0) OR (#n1 = :v0 AND #n2 = :v1)"
                        )
                        .expression_attribute_names("#n0", "PK")
                        .expression_attribute_names("#n1", "OwnerPK")
                        .expression_attribute_names("#n2", "OwnerSK")
                        .expression_attribute_values(":v0", s("USER#u1"))
                        .expression_attribute_values(":v1", s("PROFILE"))
                        .return_values_on_condition_check_failure(
                            ReturnValuesOnConditionCheckFailure::AllOld
                        )
                        .build()
                        .unwrap()
                )
                .build(),
        ]
    );
    assert_eq!(request.client_request_token(), Some(token.as_str()));
    // A transaction of more creates than 100 actions hold with their
    // guards is refused by the request as by the send.
    let over = (0..51).fold(TransactWrite::new(), |transaction, n| {
        transaction.create(&user(&format!("u{n}"), &format!("{n}@x.com")))
    });
    assert!(matches!(
        over.request("users").unwrap_err(),
        Error::Refused(Refusal::TooManyTransactionActions {
            count: 102,
            limit: 100
        })
    ),);
    // Sent, it stores the guard shown.
    let table = common::fresh_table("unique-request", &definition()).await;
    transaction.send(&table).await.unwrap();
    assert_eq!(
        guards(&table).await,
        BTreeMap::from([(guard_key.to_owned(), guard(guard_key, "USER#u1", "PROFILE"))])
    );
}

/// The writes whose guards depend on the stored item (a replacing put, a
/// delete, an update of a unique field) bring no guard action to the
/// request: `send` decides them after reading the item.
#[test]
fn the_request_leaves_the_guards_decided_at_send_time_out() {
    let request = TransactWrite::new()
        .put(&user("u1", "a@x.com"))
        .delete(User::key("u2").unwrap())
        .update(User::update("u3").set(User::EMAIL, &"c@x.com".to_owned()))
        .create(&user("u4", "d@x.com"))
        .request("users")
        .unwrap();
    let keys: Vec<String> = request
        .transact_items()
        .iter()
        .map(|item| {
            let key = item
                .put()
                .map(|put| put.item())
                .or(item.delete().map(|delete| delete.key()))
                .or(item.update().map(|update| update.key()))
                .unwrap();
            key["PK"].as_s().unwrap().clone()
        })
        .collect();
    assert_eq!(
        keys,
        [
            "USER#u1",
            "USER#u2",
            "USER#u3",
            "USER#u4",
            "UNIQUE#User#email#d@x.com"
        ]
    );
}
