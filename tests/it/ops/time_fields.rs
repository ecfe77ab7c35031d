//! What the time fields store and resend: a TTL keeps whole seconds (and
//! `None` stores no attribute), and a transaction that stamps `updated_at`
//! is resent as built, by a clone of it, under its client request token.

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use stamp::{Error, Item, Put, Table, TableDefinition, TransactWrite};

/// A seat hold that expires by DynamoDB's TTL, or never (`None`).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "HOLD#<hold_id>"]
#[sk = "HOLD"]
struct Hold {
    hold_id: String,
    #[stamp(ttl)]
    expires_at: Option<DateTime<Utc>>,
}

/// A ticket stamped with the time of every put and update.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<ticket_id>"]
#[sk = "TICKET"]
struct Ticket {
    ticket_id: String,
    holds: u32,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
}

async fn table(test: &str) -> Table {
    common::fresh_table(
        test,
        &TableDefinition::new().entity::<Hold>().entity::<Ticket>(),
    )
    .await
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

/// The item as stored, through the SDK.
async fn stored(table: &Table, pk: &str, sk: &str) -> stamp::AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .key("PK", AttributeValue::S(pk.to_owned()))
        .key("SK", AttributeValue::S(sk.to_owned()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
        .expect("the item is stored")
}

/// DynamoDB's TTL attribute is a Number of epoch seconds (Developer Guide,
/// "Time to Live", "Formatting an item's TTL attribute"): a fraction of a
/// second is not stored, so the entity read back is the one put without
/// it, and not equal to it; `None` stores no attribute, an item that never
/// expires.
#[tokio::test]
async fn a_ttl_keeps_whole_seconds_and_none_stores_no_attribute() {
    let table = table("ttl-seconds").await;
    let hold = Hold {
        hold_id: "h-1".into(),
        expires_at: Some(time("2100-01-01T10:00:00.750Z")),
    };
    table.put(&hold).await.unwrap();
    assert_eq!(
        stored(&table, "HOLD#h-1", "HOLD").await["expires_at"],
        AttributeValue::N("4102480800".into())
    );
    let read = table.get(&Hold::key("h-1").unwrap()).await.unwrap();
    assert_eq!(
        read,
        Some(Hold {
            hold_id: "h-1".into(),
            expires_at: Some(time("2100-01-01T10:00:00Z")),
        })
    );
    assert_ne!(read, Some(hold), "the 750 ms are not stored");

    let forever = Hold {
        hold_id: "h-2".into(),
        expires_at: None,
    };
    table.put(&forever).await.unwrap();
    let item = stored(&table, "HOLD#h-2", "HOLD").await;
    assert!(!item.contains_key("expires_at"), "{item:?}");
    assert_eq!(
        table.get(&Hold::key("h-2").unwrap()).await.unwrap(),
        Some(forever)
    );
}

/// The transaction of these tests: a put of ticket `t-1` (stamped) and one
/// more hold on ticket `t-2`, under `token`.
fn hold_tickets(token: &str) -> TransactWrite {
    TransactWrite::new()
        .put(&Ticket {
            ticket_id: "t-1".into(),
            holds: 0,
            updated_at: time("2026-01-01T00:00:00Z"),
        })
        .update(Ticket::update("t-2").add(Ticket::HOLDS, &1))
        .client_request_token(token)
}

async fn with_ticket_two(test: &str) -> Table {
    let table = table(test).await;
    Put::new(&Ticket {
        ticket_id: "t-2".into(),
        holds: 0,
        updated_at: time("2026-01-01T00:00:00Z"),
    })
    .send(&table)
    .await
    .unwrap();
    table
}

/// A transaction built again stamps `updated_at` again: under the same
/// token, DynamoDB refuses it with `IdempotentParameterMismatchException`
/// (API reference, TransactWriteItems, `ClientRequestToken`: "the same
/// client token but a change in other parameters"), and nothing changes.
#[tokio::test]
async fn a_rebuilt_transaction_that_stamps_updated_at_is_a_token_mismatch() {
    let table = with_ticket_two("tx-rebuilt").await;
    // A token per run: DynamoDB keeps a token 10 minutes, for the account.
    let token = uuid::Uuid::new_v4().simple().to_string();
    hold_tickets(&token).send(&table).await.unwrap();
    let rebuilt = hold_tickets(&token);
    let error = rebuilt.send(&table).await.unwrap_err();
    let Error::DynamoDb { code, source, .. } = &error else {
        panic!("expected DynamoDB's refusal, got {error:?}");
    };
    assert_eq!(
        code.as_deref(),
        Some("IdempotentParameterMismatchException")
    );
    assert!(
        matches!(
            source.as_ref(),
            aws_sdk_dynamodb::Error::IdempotentParameterMismatchException(_)
        ),
        "{source:?}"
    );
    let two = table.get(&Ticket::key("t-2").unwrap()).await.unwrap();
    assert_eq!(two.unwrap().holds, 1, "applied once");
}

/// A clone of the built transaction is the same request, stamps and token
/// included, so a retry with it is applied once; so is a rebuilt one whose
/// writes are stamped at one fixed time (`Put::at`, `Update::at`).
#[tokio::test]
async fn a_clone_of_a_built_transaction_resends_the_same_request_once() {
    let table = with_ticket_two("tx-clone").await;
    let token = uuid::Uuid::new_v4().simple().to_string();
    let built = hold_tickets(&token);
    assert_eq!(
        built.clone().request(table.name()).unwrap(),
        built.request(table.name()).unwrap()
    );
    built.clone().send(&table).await.unwrap();
    let first = table.get(&Ticket::key("t-1").unwrap()).await.unwrap();
    built.clone().send(&table).await.unwrap();
    assert_eq!(
        table.get(&Ticket::key("t-1").unwrap()).await.unwrap(),
        first,
        "the retry stored nothing new"
    );
    let two = table.get(&Ticket::key("t-2").unwrap()).await.unwrap();
    assert_eq!(two.unwrap().holds, 1, "applied once");

    let at = time("2026-06-01T10:00:00.123456789Z");
    let token = uuid::Uuid::new_v4().simple().to_string();
    let fixed = || {
        let ticket = Ticket {
            ticket_id: "t-3".into(),
            holds: 0,
            updated_at: at,
        };
        TransactWrite::new()
            .put(Put::new(&ticket).at(at))
            .update(Ticket::update("t-2").add(Ticket::HOLDS, &1).at(at))
            .client_request_token(&token)
    };
    assert_eq!(
        fixed().request(table.name()).unwrap(),
        fixed().request(table.name()).unwrap()
    );
    fixed().send(&table).await.unwrap();
    fixed().send(&table).await.unwrap();
    let two = table.get(&Ticket::key("t-2").unwrap()).await.unwrap();
    assert_eq!(
        two.unwrap().holds,
        2,
        "the fixed-time transaction applied once"
    );
}
