//! Writes the SDK sends again, and what their outcome says: a transaction
//! met by `TransactionInProgressException` (an earlier send with its client
//! request token is still being applied) may have been applied, and is
//! asked again with the same token; a create whose first answer was lost is
//! recognised as applied when the stored item holds its sets in DynamoDB's
//! order and its Numbers in DynamoDB's form.
//!
//! The answers are replaced by an SDK interceptor after the embedded
//! DynamoDB answered, so the server applied each attempt as DynamoDB would
//! ("TransactWriteItems", API reference: a request with the token of a
//! transaction still in progress gets `TransactionInProgressException`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use serde::{Deserialize, Serialize};
use stamp::{Error, Item, Table, TableDefinition, TransactWrite, error::RequestOutcome};

use crate::common;

/// A ticket with a string set and a number set, given in an order DynamoDB
/// does not keep (it returns set elements sorted).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
struct Ticket {
    id: String,
    #[serde(with = "stamp::serde_dynamo::string_set")]
    seats: Vec<String>,
    #[serde(with = "stamp::serde_dynamo::number_set")]
    rows: Vec<u32>,
    #[stamp(version)]
    version: u64,
}

fn ticket() -> Ticket {
    Ticket {
        id: "t-1".into(),
        seats: vec!["C7".into(), "A1".into(), "B12".into()],
        rows: vec![12, 3, 7],
        version: 0,
    }
}

/// The answers of the attempts of `operation`, in order: `Some` replaces
/// the server's answer (after the server applied the attempt) with this
/// status and body, `None` (or past the list) keeps it. Each attempt's
/// `ClientRequestToken`, if any, is recorded.
#[derive(Debug, Clone)]
struct Answers {
    operation: &'static str,
    script: Vec<Option<(u16, &'static str)>>,
    seen: Arc<Mutex<usize>>,
    tokens: Arc<Mutex<Vec<Option<String>>>>,
}

impl Answers {
    fn new(operation: &'static str, script: Vec<Option<(u16, &'static str)>>) -> Self {
        Answers {
            operation,
            script,
            seen: Arc::default(),
            tokens: Arc::default(),
        }
    }

    fn seen(&self) -> usize {
        *self.seen.lock().unwrap()
    }

    fn tokens(&self) -> Vec<Option<String>> {
        self.tokens.lock().unwrap().clone()
    }

    fn is_mine(&self, cfg: &ConfigBag) -> bool {
        cfg.load::<aws_smithy_runtime_api::client::orchestrator::Metadata>()
            .is_some_and(|operation| operation.name() == self.operation)
    }
}

impl Intercept for Answers {
    fn name(&self) -> &'static str {
        "Answers"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        if self.is_mine(cfg) {
            let body: serde_json::Value = context
                .request()
                .body()
                .bytes()
                .and_then(|bytes| serde_json::from_slice(bytes).ok())
                .unwrap_or_default();
            let token = body["ClientRequestToken"].as_str().map(str::to_owned);
            self.tokens.lock().unwrap().push(token);
        }
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        if !self.is_mine(cfg) {
            return Ok(());
        }
        let attempt = {
            let mut seen = self.seen.lock().unwrap();
            *seen += 1;
            *seen - 1
        };
        let Some(Some((status, body))) = self.script.get(attempt).copied() else {
            return Ok(());
        };
        let mut response = aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
            aws_smithy_types::body::SdkBody::from(body),
        );
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
}

/// A new table, and the same table through a client whose answers
/// `answers` replaces, with the SDK's standard retries (3 attempts, 1 ms
/// backoff).
async fn tables(test: &str, answers: &Answers) -> (Table, Table) {
    let config = stamp::local::config(&common::endpoint())
        .retry_config(
            RetryConfig::standard()
                .with_max_attempts(3)
                .with_initial_backoff(Duration::from_millis(1)),
        )
        .interceptor(answers.clone())
        .build();
    let plain = common::fresh_table(test, &TableDefinition::new().entity::<Ticket>()).await;
    let faulty = Table::new(aws_sdk_dynamodb::Client::from_conf(config), plain.name());
    (plain, faulty)
}

/// DynamoDB's answer to a `TransactWriteItems` whose client request token
/// is that of a transaction still being applied.
const IN_PROGRESS: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionInProgressException","message":"Transaction is ongoing for the transaction token"}"#;

/// A DynamoDB 500, as the service sends it.
const INTERNAL_SERVER_ERROR: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}"#;

/// The stored ticket, its sets' elements sorted (a set has no order:
/// DynamoDB returns its elements in an order of its own).
async fn stored(table: &Table) -> Option<Ticket> {
    let ticket = table.get(&Ticket::key("t-1").unwrap()).await.unwrap();
    ticket.map(sorted)
}

fn sorted(mut ticket: Ticket) -> Ticket {
    ticket.seats.sort();
    ticket.rows.sort();
    ticket
}

/// The ticket stored at version 1, its sets sorted.
fn stored_ticket() -> Ticket {
    sorted(Ticket {
        version: 1,
        ..ticket()
    })
}

#[tokio::test]
async fn a_transaction_in_progress_may_have_been_applied() {
    // Every attempt is answered "in progress": the first was applied (the
    // server wrote the ticket), the SDK asked twice more with the same
    // token, and gave up. The transaction may have been applied: it was.
    let answers = Answers::new("TransactWriteItems", vec![Some((400, IN_PROGRESS)); 3]);
    let (plain, faulty) = tables("outcomes-tx-in-progress", &answers).await;
    let error = TransactWrite::new()
        .create(&ticket())
        .client_request_token("ticket-t-1")
        .send(&faulty)
        .await
        .expect_err("in progress at every attempt");
    assert_eq!(answers.seen(), 3, "the SDK asked again twice");
    let Error::DynamoDb {
        outcome,
        status,
        code,
        ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(
        (*outcome, *status, code.as_deref()),
        (
            RequestOutcome::Rejected,
            Some(400),
            Some("TransactionInProgressException")
        )
    );
    assert!(error.may_have_been_applied());
    assert_eq!(
        error.to_string(),
        format!(
            "DynamoDB TransactWriteItems on table `{}` was refused (HTTP 400): TransactionInProgressException: Transaction is ongoing for the transaction token; a transaction with the same client request token is still being applied, so it may have been applied (send it again with the same token to learn its outcome)",
            plain.name()
        )
    );
    assert_eq!(stored(&plain).await, Some(stored_ticket()));
}

#[tokio::test]
async fn a_transaction_in_progress_is_asked_again_with_the_same_token() {
    // The first attempt is applied and its answer lost; the second is
    // answered "in progress"; the third gets the server's own answer to a
    // token it has applied: success, nothing applied twice.
    let answers = Answers::new(
        "TransactWriteItems",
        vec![Some((500, INTERNAL_SERVER_ERROR)), Some((400, IN_PROGRESS))],
    );
    let (plain, faulty) = tables("outcomes-tx-asked-again", &answers).await;
    TransactWrite::new()
        .create(&ticket())
        .send(&faulty)
        .await
        .expect("applied once, by the first attempt");
    assert_eq!(answers.seen(), 3);
    let tokens = answers.tokens();
    assert_eq!(tokens.len(), 3);
    assert!(tokens[0].is_some(), "every send carries a token");
    assert!(
        tokens.iter().all(|token| *token == tokens[0]),
        "one token for every attempt: {tokens:?}"
    );
    assert_eq!(stored(&plain).await, Some(stored_ticket()));
}

#[tokio::test]
async fn a_create_with_sets_retried_after_a_lost_answer_is_applied() {
    // The create is applied and its answer lost; the SDK sends it again,
    // and its condition fails against its own item, which DynamoDB returns
    // with each set's elements in its own order. The same item: `Ok`.
    let answers = Answers::new("PutItem", vec![Some((500, INTERNAL_SERVER_ERROR))]);
    let (plain, faulty) = tables("outcomes-create-sets", &answers).await;
    faulty
        .create(&ticket())
        .await
        .expect("created by the first attempt");
    assert_eq!(answers.seen(), 2);
    assert_eq!(stored(&plain).await, Some(stored_ticket()));
}

#[tokio::test]
async fn a_versioned_put_with_sets_retried_after_a_lost_answer_is_applied() {
    let answers = Answers::new("PutItem", vec![None, Some((500, INTERNAL_SERVER_ERROR))]);
    let (plain, faulty) = tables("outcomes-put-sets", &answers).await;
    faulty.put(&ticket()).await.unwrap();
    // Version 1 -> 2, applied by the first attempt of this put.
    let changed = Ticket {
        seats: vec!["Z9".into(), "D4".into()],
        version: 1,
        ..ticket()
    };
    faulty
        .put(&changed)
        .await
        .expect("applied by its first attempt");
    assert_eq!(answers.seen(), 3);
    assert_eq!(
        stored(&plain).await,
        Some(Ticket {
            seats: vec!["D4".into(), "Z9".into()],
            rows: vec![3, 7, 12],
            version: 2,
            ..ticket()
        })
    );
}
