//! Updates that read back as puts do: every value Stamp encodes itself is
//! encoded as `to_item` encodes its field, checked before sending, and
//! index attributes are rebuilt from every value the update knows. The
//! expected values come from DynamoDB's documentation of the data types
//! and of `UpdateItem`, not from a server's answers.

use crate::common;
use stamp::AttributeMap;
use stamp::error::Refusal;

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use stamp::{Entity, Error, Item, KeyPart, Table, TableDefinition};

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Open,
    Closed,
}

/// No `updated_at`: an update of only `REMOVE`s has no value at all.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "NOTE#<id>"]
#[sk = "NOTE"]
#[gsi1 = "LABEL#<label>"]
struct Note {
    id: String,
    label: Option<String>,
    text: Option<String>,
}

/// One field of each kind, with serde's own attributes.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "KIND#<id>"]
#[sk = "KIND"]
struct Kinds {
    id: String,
    count: u32,
    ratio: f64,
    flag: bool,
    name: String,
    #[serde(rename = "nick")]
    nickname: Option<String>,
    #[serde(default, with = "stamp::serde_dynamo::string_set")]
    tags: BTreeSet<String>,
    #[serde(default, with = "stamp::serde_dynamo::number_set")]
    scores: BTreeSet<u32>,
    list: Vec<String>,
    #[serde(with = "chrono::serde::ts_seconds")]
    seen: DateTime<Utc>,
    #[serde(default, with = "chrono::serde::ts_seconds_option")]
    last: Option<DateTime<Utc>>,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    map: BTreeMap<String, u32>,
    status: Status,
    #[stamp(ttl)]
    expires: DateTime<Utc>,
}

/// An `updated_at` stored as epoch seconds, in a sparse GSI with a key field.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<project>"]
#[sk = "TICKET#<created>#<number>"]
#[gsi1(pk = "STATUS#<status>", sk = "<created>#<number>")]
#[gsi2(pk = "OWNER#<owner>", sk = "<updated_at>")]
struct Ticket {
    project: String,
    number: u32,
    created: u32,
    status: Option<Status>,
    owner: Option<String>,
    #[serde(with = "chrono::serde::ts_seconds")]
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
    #[stamp(created_at)]
    #[serde(with = "chrono::serde::ts_seconds")]
    opened_at: DateTime<Utc>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: String,
    balance: i64,
    #[stamp(version)]
    version: u64,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Note>()
        .entity::<Kinds>()
        .entity::<Ticket>()
        .entity::<Account>()
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

fn kinds() -> Kinds {
    Kinds {
        id: "k".into(),
        count: 1,
        ratio: 0.5,
        flag: false,
        name: "a".into(),
        nickname: Some("n".into()),
        tags: set(&["x"]),
        scores: [1].into(),
        list: vec!["l".into()],
        seen: Utc.timestamp_opt(1_700_000_000, 0).unwrap(),
        last: Some(Utc.timestamp_opt(1_700_000_001, 0).unwrap()),
        blob: vec![1, 2],
        map: [("m".to_owned(), 1)].into(),
        status: Status::Open,
        expires: Utc.timestamp_opt(1_800_000_000, 0).unwrap(),
    }
}

async fn raw(table: &Table, key: AttributeMap) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(key))
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

// Point 1: no request sends an empty ExpressionAttributeValues.

#[test]
fn an_update_of_only_removes_sends_no_expression_attribute_values() {
    let request = Note::update("n-1")
        .remove(Note::TEXT)
        .at(now())
        .request("t")
        .unwrap();
    assert_eq!(request.update_expression(), Some("REMOVE #n0"));
    assert_eq!(
        request.condition_expression(),
        Some("attribute_exists(#n1)")
    );
    assert_eq!(
        request.expression_attribute_values(),
        None,
        "DynamoDB refuses an empty ExpressionAttributeValues"
    );
    assert_eq!(request.expression_attribute_names().unwrap().len(), 2);
}

#[tokio::test]
async fn an_update_of_only_removes_clears_a_field_and_leaves_a_sparse_index() {
    let table = common::fresh_table("only-removes", &definition()).await;
    table
        .put(&Note {
            id: "n-1".into(),
            label: Some("red".into()),
            text: Some("hello".into()),
        })
        .await
        .unwrap();
    Note::update("n-1")
        .remove(Note::TEXT)
        .remove(Note::LABEL)
        .send(&table)
        .await
        .unwrap();
    let item = raw(&table, Note::key("n-1").unwrap().to_attribute_map()).await;
    for gone in ["text", "label", "GSI1PK"] {
        assert!(!item.contains_key(gone), "{gone} is removed");
    }
    table.delete_table().await.unwrap();
}

// Point 2: one serialization path per field.

#[test]
fn update_values_are_encoded_as_to_item_encodes_their_fields() {
    let request = Kinds::update("k")
        .set(Kinds::TAGS, &set(&["b", "a"]))
        .set(Kinds::SEEN, &Utc.timestamp_opt(1_700_000_000, 0).unwrap())
        .set(Kinds::LAST, &Utc.timestamp_opt(1_700_000_001, 0).unwrap())
        .set(Kinds::BLOB, &vec![1, 2])
        .set(
            Kinds::EXPIRES,
            &Utc.timestamp_opt(1_800_000_000, 0).unwrap(),
        )
        .set(Kinds::NICKNAME, &"x".to_owned())
        .at(now())
        .request("t")
        .unwrap();
    let names = request.expression_attribute_names().unwrap();
    let values = request.expression_attribute_values().unwrap();
    let value_of = |attribute: &str| {
        let placeholder = names
            .iter()
            .find(|(_, name)| *name == attribute)
            .map(|(placeholder, _)| placeholder.clone())
            .unwrap();
        let expression = request.update_expression().unwrap();
        let start = expression.find(&format!("{placeholder} = ")).unwrap() + placeholder.len() + 3;
        let value: String = expression[start..]
            .chars()
            .take_while(|c| *c != ',' && *c != ' ')
            .collect();
        values[&value].clone()
    };
    assert_eq!(
        value_of("tags"),
        AttributeValue::Ss(vec!["a".into(), "b".into()])
    );
    assert_eq!(value_of("seen"), AttributeValue::N("1700000000".into()));
    assert_eq!(value_of("last"), AttributeValue::N("1700000001".into()));
    assert_eq!(
        value_of("blob"),
        AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![1, 2]))
    );
    assert_eq!(value_of("expires"), AttributeValue::N("1800000000".into()));
    assert_eq!(value_of("nick"), AttributeValue::S("x".into()));
}

#[test]
fn setting_an_empty_set_removes_the_attribute() {
    let request = Kinds::update("k")
        .set(Kinds::TAGS, &BTreeSet::new())
        .at(now())
        .request("t")
        .unwrap();
    assert_eq!(request.update_expression(), Some("REMOVE #n0"));
    assert_eq!(request.expression_attribute_names().unwrap()["#n0"], "tags");
}

#[test]
fn an_updated_at_stored_as_epoch_seconds_is_stamped_as_epoch_seconds() {
    let request = Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .set(Ticket::OWNER, &"ann".to_owned())
    .given(Ticket::STATUS, &Status::Open)
    .at(now())
    .request("t")
    .unwrap();
    let names = request.expression_attribute_names().unwrap();
    let values = request.expression_attribute_values().unwrap();
    let expression = request.update_expression().unwrap();
    let placeholder = names
        .iter()
        .find(|(_, name)| *name == "updated_at")
        .unwrap()
        .0;
    let start = expression.find(&format!("{placeholder} = ")).unwrap() + placeholder.len() + 3;
    let value: String = expression[start..]
        .chars()
        .take_while(|c| *c != ',' && *c != ' ')
        .collect();
    assert_eq!(
        values[&value],
        AttributeValue::N(now().timestamp().to_string())
    );
}

#[test]
fn a_put_stamps_an_epoch_seconds_updated_at_as_epoch_seconds() {
    let ticket = Ticket {
        project: "p".into(),
        number: 7,
        created: 1,
        status: None,
        owner: None,
        updated_at: now(),
        opened_at: now(),
    };
    let item = ticket
        .to_item_at(Some(stamp::schema::WriteTime {
            now: now(),
            creating: true,
        }))
        .unwrap();
    assert_eq!(
        item["updated_at"],
        AttributeValue::N(now().timestamp().to_string())
    );
    assert_eq!(
        item["opened_at"],
        AttributeValue::N(now().timestamp().to_string())
    );
}

#[tokio::test]
async fn sets_set_by_an_update_stay_sets_and_empty_ones_are_removed() {
    let table = common::fresh_table("update-sets", &definition()).await;
    table.put(&kinds()).await.unwrap();
    Kinds::update("k")
        .set(Kinds::TAGS, &set(&["a", "b"]))
        .send(&table)
        .await
        .unwrap();
    Kinds::update("k")
        .add_to_set(Kinds::TAGS, &set(&["c"]))
        .send(&table)
        .await
        .unwrap();
    let stored = table.get(&Kinds::key("k").unwrap()).await.unwrap().unwrap();
    assert_eq!(stored.tags, set(&["a", "b", "c"]));
    Kinds::update("k")
        .set(Kinds::TAGS, &BTreeSet::new())
        .send(&table)
        .await
        .unwrap();
    let item = raw(&table, Kinds::key("k").unwrap().to_attribute_map()).await;
    assert!(!item.contains_key("tags"));
    table.delete_table().await.unwrap();
}

/// Sets field `which` of `value` to the same field of `from`, by update and
/// on the struct.
fn apply(which: usize, value: &mut Kinds, from: &Kinds) -> stamp::Update<Kinds> {
    let update = Kinds::update("k");
    match which {
        0 => {
            value.count = from.count;
            update.set(Kinds::COUNT, &from.count)
        }
        1 => {
            value.ratio = from.ratio;
            update.set(Kinds::RATIO, &from.ratio)
        }
        2 => {
            value.flag = from.flag;
            update.set(Kinds::FLAG, &from.flag)
        }
        3 => {
            value.name = from.name.clone();
            update.set(Kinds::NAME, &from.name)
        }
        4 => {
            value.nickname = from.nickname.clone();
            match &from.nickname {
                Some(nickname) => update.set(Kinds::NICKNAME, nickname),
                None => update.remove(Kinds::NICKNAME),
            }
        }
        5 => {
            value.tags = from.tags.clone();
            update.set(Kinds::TAGS, &from.tags)
        }
        6 => {
            value.scores = from.scores.clone();
            update.set(Kinds::SCORES, &from.scores)
        }
        7 => {
            value.list = from.list.clone();
            update.set(Kinds::LIST, &from.list)
        }
        8 => {
            value.seen = from.seen;
            update.set(Kinds::SEEN, &from.seen)
        }
        9 => {
            value.last = from.last;
            match &from.last {
                Some(last) => update.set(Kinds::LAST, last),
                None => update.remove(Kinds::LAST),
            }
        }
        10 => {
            value.blob = from.blob.clone();
            update.set(Kinds::BLOB, &from.blob)
        }
        11 => {
            value.map = from.map.clone();
            update.set(Kinds::MAP, &from.map)
        }
        12 => {
            value.status = from.status;
            update.set(Kinds::STATUS, &from.status)
        }
        _ => {
            value.expires = from.expires;
            update.set(Kinds::EXPIRES, &from.expires)
        }
    }
}

const FIELD_KINDS: usize = 14;

fn arbitrary_kinds() -> impl Strategy<Value = Kinds> {
    let time = (0i64..4_000_000_000).prop_map(|seconds| Utc.timestamp_opt(seconds, 0).unwrap());
    (
        (
            any::<u32>(),
            -1.0e6f64..1.0e6,
            any::<bool>(),
            "[a-z #%é]{1,8}",
            proptest::option::of("[a-z]{1,4}"),
            proptest::collection::btree_set("[a-z]{1,3}", 0..3),
            proptest::collection::btree_set(any::<u32>(), 0..3),
        ),
        (
            proptest::collection::vec("[a-z]{0,3}", 0..3),
            time.clone(),
            proptest::option::of(time.clone()),
            proptest::collection::vec(any::<u8>(), 1..4),
            proptest::collection::btree_map("[a-z]{1,3}", any::<u32>(), 0..3),
            any::<bool>(),
            time,
        ),
    )
        .prop_map(
            |(
                (count, ratio, flag, name, nickname, tags, scores),
                (list, seen, last, blob, map, open, expires),
            )| Kinds {
                id: "k".into(),
                count,
                ratio,
                flag,
                name,
                nickname,
                tags,
                scores,
                list,
                seen,
                last,
                blob,
                map,
                status: if open { Status::Open } else { Status::Closed },
                expires,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// For every field kind: `update().set(F, v)` then `get` equals a put of
    /// the struct with F = v, attribute for attribute.
    #[test]
    fn an_update_of_one_field_reads_back_as_a_put_of_it(
        which in 0..FIELD_KINDS,
        from in arbitrary_kinds(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let table = common::fresh_table("update-as-put", &definition()).await;
            let mut expected = kinds();
            table.put(&expected).await.unwrap();
            apply(which, &mut expected, &from).send(&table).await.unwrap();
            let updated = raw(&table, Kinds::key("k").unwrap().to_attribute_map()).await;
            // The TTL field takes any value, a past one too: read it back
            // even if it has expired.
            let read = stamp::Get::new(Kinds::key("k").unwrap())
                .include_expired()
                .send(&table)
                .await
                .unwrap()
                .unwrap();
            table.put(&expected).await.unwrap();
            let put = raw(&table, Kinds::key("k").unwrap().to_attribute_map()).await;
            table.delete_table().await.unwrap();
            prop_assert_eq!(updated, put);
            prop_assert_eq!(read, expected);
            Ok(())
        })?;
    }
}

// Point 3: update values are checked as put values are.

#[tokio::test]
async fn update_values_dynamodb_cannot_store_are_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("update-checks", &definition()).await;
    table.put(&kinds()).await.unwrap();
    counter.reset();
    for (what, update) in [
        ("NaN", Kinds::update("k").set(Kinds::RATIO, &f64::NAN)),
        (
            "infinity",
            Kinds::update("k").set(Kinds::RATIO, &f64::INFINITY),
        ),
        (
            "-infinity",
            Kinds::update("k").add(Kinds::RATIO, &f64::NEG_INFINITY),
        ),
        ("1e300", Kinds::update("k").subtract(Kinds::RATIO, &1e300)),
    ] {
        let error = update.send(&table).await.unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::InvalidNumber { entity: "Kinds", attribute, .. }) if attribute == "ratio"),
            "{what}: {error}"
        );
    }
    let error = Kinds::update("k")
        .set(Kinds::MAP, &[("m".to_owned(), 1)].into())
        .condition(Kinds::RATIO.eq(&f64::NAN))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidExpressionValue { .. })
        ),
        "{error}"
    );
    let error = Kinds::update("k")
        .add_to_set(Kinds::TAGS, &BTreeSet::new())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::InvalidExpressionValue { .. })
        ),
        "{error}"
    );
    assert!(counter.operations().is_empty(), "nothing was sent");
    table.delete_table().await.unwrap();
}

// Point 4: index attributes from every known value.

#[test]
fn setting_a_sparse_field_back_uses_the_key_fields_given_to_update() {
    let request = Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .set(Ticket::STATUS, &Status::Open)
    .given_none(Ticket::OWNER)
    .at(now())
    .request("t")
    .unwrap();
    let names = request.expression_attribute_names().unwrap();
    let values = request.expression_attribute_values().unwrap();
    let expression = request.update_expression().unwrap().to_owned();
    let value_of = |attribute: &str| {
        let placeholder = names
            .iter()
            .find(|(_, name)| *name == attribute)
            .map(|(placeholder, _)| placeholder.clone())?;
        let start = expression.find(&format!("{placeholder} = "))? + placeholder.len() + 3;
        let value: String = expression[start..]
            .chars()
            .take_while(|c| *c != ',' && *c != ' ')
            .collect();
        Some(values[&value].clone())
    };
    assert_eq!(
        value_of("GSI1PK"),
        Some(AttributeValue::S("STATUS#OPEN".into()))
    );
    assert_eq!(
        value_of("GSI1SK"),
        Some(AttributeValue::S(
            Ticket::gsi1_key(TicketGsi1Key {
                status: &Status::Open,
                created: &1,
                number: &7
            })
            .unwrap()
            .sort_key()
            .unwrap()
            .to_owned()
        ))
    );
    assert_eq!(value_of("GSI2PK"), None, "the owner is None: not in GSI2");
    assert_eq!(value_of("GSI2SK"), None, "no lone GSI2SK");
}

#[test]
fn a_stamp_never_writes_one_attribute_of_a_sparse_index_alone() {
    // `updated_at` is GSI2SK; whether the ticket has an owner is unknown.
    let error = Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .set(Ticket::STATUS, &Status::Closed)
    .at(now())
    .request("t")
    .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::IncompleteIndexUpdate { entity: "Ticket", index: "GSI2", missing }) if missing == &["owner".to_owned()]),
        "{error}"
    );
    assert!(error.to_string().contains("given("), "{error}");
    // Known to have no owner: nothing of GSI2 is written.
    let request = Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .set(Ticket::STATUS, &Status::Closed)
    .given_none(Ticket::OWNER)
    .at(now())
    .request("t")
    .unwrap();
    let names = request.expression_attribute_names().unwrap();
    let expression = request.update_expression().unwrap();
    for (placeholder, name) in names {
        if name.starts_with("GSI2") {
            assert!(
                !expression.contains(&format!("{placeholder} =")),
                "{name} is not set: {expression}"
            );
        }
    }
    assert!(
        request
            .condition_expression()
            .unwrap()
            .contains("attribute_not_exists")
    );
}

#[tokio::test]
async fn a_ticket_reenters_its_sparse_index_by_update() {
    let table = common::fresh_table("reenter", &definition()).await;
    let ticket = Ticket {
        project: "p".into(),
        number: 7,
        created: 1,
        status: Some(Status::Open),
        owner: Some("ann".into()),
        updated_at: now(),
        opened_at: now(),
    };
    table.create(&ticket).await.unwrap();
    Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .remove(Ticket::STATUS)
    .set(Ticket::OWNER, &"bob".to_owned())
    .send(&table)
    .await
    .unwrap();
    Ticket::update(TicketKey {
        project: "p",
        created: &1,
        number: &7,
    })
    .set(Ticket::STATUS, &Status::Closed)
    .given(Ticket::OWNER, &"bob".to_owned())
    .send(&table)
    .await
    .unwrap();
    let stored = table
        .get(
            &Ticket::key(TicketKey {
                project: "p",
                created: &1,
                number: &7,
            })
            .unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    let mut expected = stored.clone();
    expected.status = Some(Status::Closed);
    let from_put = expected.to_item().unwrap();
    let item = raw(
        &table,
        Ticket::key(TicketKey {
            project: "p",
            created: &1,
            number: &7,
        })
        .unwrap()
        .to_attribute_map(),
    )
    .await;
    assert_eq!(item, from_put, "the update wrote what a put writes");
    assert_eq!(stored.owner.as_deref(), Some("bob"));
    table.delete_table().await.unwrap();
}

// Point 10: version arithmetic.

#[tokio::test]
async fn a_version_at_its_maximum_is_a_typed_error() {
    let (table, counter) = common::fresh_counted_table("version-max", &definition()).await;
    let account = Account {
        id: "a".into(),
        balance: 0,
        version: u64::MAX,
    };
    let error = table.put(&account).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Refused(Refusal::VersionOverflow {
                entity: "Account",
                version: u64::MAX
            })
        ),
        "{error}"
    );
    let error = Account::update("a")
        .set(Account::BALANCE, &1)
        .expect_version(u64::MAX)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::VersionOverflow { .. })),
        "{error}"
    );
    assert!(counter.operations().is_empty());
    table.delete_table().await.unwrap();
}
