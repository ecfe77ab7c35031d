//! What a failed write reports, read off the wire: a 5xx or an unreadable
//! answer may have been applied; a conditional write that the SDK sent again
//! after such an attempt is recognised as applied when the stored item shows
//! it, and is otherwise uncertain, never a plain conflict; a write that is
//! not idempotent is not sent again after an attempt that may have been
//! applied.
//!
//! The faults are injected after the embedded DynamoDB answered: the
//! interceptor replaces the answer of the first attempt of one operation, so
//! the server applied that attempt and the client does not know it ("Error
//! handling with DynamoDB", Developer Guide: a 5xx may have been applied).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextMut;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use serde::{Deserialize, Serialize};
use stamp::{Delete, Error, Item, Table, TableDefinition, error::RequestOutcome};

use crate::common;

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: String,
    balance: i64,
    hits: i64,
    #[stamp(version)]
    version: u64,
}

fn account(version: u64) -> Account {
    Account {
        id: "a-1".into(),
        balance: 100,
        hits: 0,
        version,
    }
}

/// Replaces the answer of the first `attempts` attempts of `operation`
/// (after the server answered it) with `status` and `body`.
#[derive(Debug, Clone)]
struct LoseAnswer {
    operation: &'static str,
    attempts: usize,
    status: u16,
    body: &'static str,
    content_type: &'static str,
    /// The answer of the attempts after the first `attempts`, replaced too
    /// when given.
    then: Option<(u16, &'static str)>,
    seen: Arc<AtomicUsize>,
}

impl LoseAnswer {
    fn new(operation: &'static str, status: u16, body: &'static str) -> Self {
        LoseAnswer {
            operation,
            attempts: 1,
            status,
            body,
            content_type: "application/x-amz-json-1.0",
            then: None,
            seen: Arc::default(),
        }
    }

    fn html(mut self) -> Self {
        self.content_type = "text/html";
        self
    }

    /// The attempts of `operation` the server answered.
    fn seen(&self) -> usize {
        self.seen.load(Ordering::SeqCst)
    }
}

/// A DynamoDB 500, as the service sends it.
const INTERNAL_SERVER_ERROR: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}"#;

impl Intercept for LoseAnswer {
    fn name(&self) -> &'static str {
        "LoseAnswer"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let operation = cfg.load::<aws_smithy_runtime_api::client::orchestrator::Metadata>();
        if operation.is_none_or(|operation| operation.name() != self.operation) {
            return Ok(());
        }
        let seen = self.seen.fetch_add(1, Ordering::SeqCst);
        let (status, body) = match self.then {
            _ if seen < self.attempts => (self.status, self.body),
            Some(then) => then,
            None => return Ok(()),
        };
        let mut response = aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(status).unwrap(),
            aws_smithy_types::body::SdkBody::from(body),
        );
        response
            .headers_mut()
            .insert("content-type", self.content_type);
        *context.response_mut() = response;
        Ok(())
    }
}

/// A table whose client loses the answers `lose` describes, with the SDK's
/// standard retries (3 attempts, 1 ms backoff) or none.
async fn table_losing(test: &str, lose: &LoseAnswer, retries: bool) -> (Table, Table) {
    let retry = if retries {
        RetryConfig::standard()
            .with_max_attempts(3)
            .with_initial_backoff(Duration::from_millis(1))
    } else {
        RetryConfig::disabled()
    };
    let config = stamp::local::config(&common::endpoint())
        .retry_config(retry)
        .interceptor(lose.clone())
        .build();
    let plain = common::fresh_table(test, &TableDefinition::new().entity::<Account>()).await;
    let faulty = Table::new(aws_sdk_dynamodb::Client::from_conf(config), plain.name());
    (plain, faulty)
}

async fn stored(table: &Table) -> Account {
    table
        .get(&Account::key("a-1").unwrap())
        .await
        .unwrap()
        .expect("the account is stored")
}

#[tokio::test]
async fn a_proxys_html_502_after_the_write_says_it_may_have_been_applied() {
    let lose = LoseAnswer::new("PutItem", 502, "<html><body>502 Bad Gateway</body></html>").html();
    let (plain, faulty) = table_losing("outcomes-502", &lose, false).await;
    let error = faulty
        .put(&account(0))
        .await
        .expect_err("the answer is a 502");
    let Error::DynamoDb {
        outcome,
        status,
        code,
        ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(*outcome, RequestOutcome::ServerError);
    assert_eq!(*status, Some(502));
    assert_eq!(*code, None);
    assert!(error.may_have_been_applied());
    let text = error.to_string();
    assert!(
        text.starts_with(&format!(
            "DynamoDB PutItem on table `{}` failed with a server error (HTTP 502): no DynamoDB error code (",
            plain.name()
        )) && text.ends_with("); it may have been applied"),
        "{text}"
    );
    // And it was: the server wrote the item before the proxy's answer.
    assert_eq!(stored(&plain).await, account(1));
}

#[tokio::test]
async fn a_200_whose_body_is_cut_short_says_it_may_have_been_applied() {
    let lose = LoseAnswer::new("PutItem", 200, r#"{"ConsumedCapacity":{"Tab"#);
    let (plain, faulty) = table_losing("outcomes-cut", &lose, false).await;
    let error = faulty.put(&account(0)).await.expect_err("unreadable");
    let Error::DynamoDb {
        outcome, status, ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(*outcome, RequestOutcome::Unreadable);
    assert_eq!(*status, Some(200));
    assert!(error.may_have_been_applied());
    let text = error.to_string();
    assert!(
        text.contains("got an answer (HTTP 200) that could not be read (")
            && text.ends_with("); it may have been applied"),
        "{text}"
    );
    assert_eq!(stored(&plain).await, account(1));
}

/// DynamoDB's throttling of a request, which it did not apply.
const THROTTLED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate exceeded"}"#;

#[tokio::test]
async fn a_refusal_after_an_attempt_that_may_have_been_applied_says_it_may_have_been_applied() {
    // The first attempt is applied and its answer a 500; the SDK sends it
    // twice more, and both are throttled. The last answer is a refusal,
    // but the write was applied: a caller that took "throttled" for "not
    // applied" would write it again (the fault soak found this).
    let mut lose = LoseAnswer::new("PutItem", 500, INTERNAL_SERVER_ERROR);
    lose.then = Some((400, THROTTLED));
    let (plain, faulty) = table_losing("outcomes-refused-after-lost", &lose, true).await;
    let error = faulty
        .put(&account(0))
        .await
        .expect_err("throttled at last");
    assert_eq!(lose.seen(), 3);
    let Error::DynamoDb {
        outcome,
        status,
        code,
        earlier_attempt_may_have_been_applied,
        ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(
        (
            *outcome,
            *status,
            code.as_deref(),
            *earlier_attempt_may_have_been_applied
        ),
        (
            RequestOutcome::Rejected,
            Some(400),
            Some("ThrottlingException"),
            true
        )
    );
    assert!(error.may_have_been_applied());
    assert_eq!(
        error.to_string(),
        format!(
            "DynamoDB PutItem on table `{}` was refused (HTTP 400): ThrottlingException: Rate exceeded; an earlier attempt timed out, lost its answer or met a server error, so it may have been applied",
            plain.name()
        )
    );
    assert_eq!(stored(&plain).await, account(1));
}

#[tokio::test]
async fn a_4xx_with_dynamodbs_code_is_a_refusal_that_shows_its_status() {
    let table = Table::new(common::client(), "stamp-outcomes-no-such-table");
    let error = table.put(&account(0)).await.expect_err("no table");
    let Error::DynamoDb {
        outcome, status, ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!((*outcome, *status), (RequestOutcome::Rejected, Some(400)));
    assert!(!error.may_have_been_applied());
    assert!(
        error.to_string().starts_with(
            "DynamoDB PutItem on table `stamp-outcomes-no-such-table` was refused (HTTP 400): ResourceNotFoundException"
        ),
        "{error}"
    );
}

#[tokio::test]
async fn a_versioned_update_retried_by_the_sdk_after_a_lost_answer_is_applied_once() {
    let lose = LoseAnswer::new("UpdateItem", 500, INTERNAL_SERVER_ERROR);
    let (plain, faulty) = table_losing("outcomes-versioned", &lose, true).await;
    plain.put(&account(0)).await.unwrap();
    // The first attempt is applied (version 1 -> 2) and its answer lost;
    // the SDK sends it again, and the condition `version = 1` fails against
    // its own write. That is not a conflict: the update was applied.
    let updated = Account::update("a-1")
        .set(Account::BALANCE, &70)
        .expect_version(1)
        .send_returning_new(&faulty)
        .await
        .expect("applied by the first attempt");
    assert_eq!(lose.seen(), 2, "the SDK sent the update twice");
    let expected = Account {
        balance: 70,
        version: 2,
        ..account(0)
    };
    assert_eq!(updated, expected);
    assert_eq!(stored(&plain).await, expected);
}

#[tokio::test]
async fn a_create_retried_by_the_sdk_after_a_lost_answer_is_not_already_existing() {
    let lose = LoseAnswer::new("PutItem", 500, INTERNAL_SERVER_ERROR);
    let (plain, faulty) = table_losing("outcomes-create", &lose, true).await;
    faulty
        .create(&account(0))
        .await
        .expect("created by the first attempt");
    assert_eq!(lose.seen(), 2);
    assert_eq!(stored(&plain).await, account(1));
    // Another create of the same key is refused, as it should be.
    let again = plain.create(&account(0)).await.expect_err("exists");
    assert!(matches!(again, Error::AlreadyExists { .. }), "{again:?}");
}

#[tokio::test]
async fn a_guarded_delete_retried_after_a_lost_answer_is_uncertain_not_not_found() {
    let lose = LoseAnswer::new("DeleteItem", 500, INTERNAL_SERVER_ERROR);
    let (plain, faulty) = table_losing("outcomes-delete", &lose, true).await;
    plain.put(&account(0)).await.unwrap();
    // An absent item after a retry may be this delete's doing, or anyone's.
    let error = Delete::new(Account::key("a-1").unwrap())
        .condition(Account::BALANCE.eq(&100))
        .send(&faulty)
        .await
        .expect_err("uncertain");
    let Error::OutcomeUnknown {
        operation,
        entity,
        item,
        ..
    } = &error
    else {
        panic!("expected OutcomeUnknown, got {error:?}");
    };
    assert_eq!(
        (*operation, *entity, item),
        ("DeleteItem", "Account", &None)
    );
    assert!(error.may_have_been_applied());
    assert_eq!(
        plain.get(&Account::key("a-1").unwrap()).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn an_add_is_not_sent_again_after_an_answer_that_may_have_been_applied() {
    let lose = LoseAnswer::new("UpdateItem", 500, INTERNAL_SERVER_ERROR);
    let (plain, faulty) = table_losing("outcomes-add", &lose, true).await;
    plain.put(&account(0)).await.unwrap();
    let error = Account::update("a-1")
        .add(Account::HITS, &1)
        .expect_version(1)
        .send(&faulty)
        .await
        .expect_err("the answer was lost, and an ADD is not retried blindly");
    assert_eq!(lose.seen(), 1, "sent once");
    let Error::DynamoDb {
        outcome,
        status,
        code,
        ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(*outcome, RequestOutcome::ServerError);
    assert_eq!(*status, Some(500));
    assert_eq!(code.as_deref(), Some("InternalServerError"));
    assert!(error.may_have_been_applied());
    // Applied once, never twice.
    assert_eq!(stored(&plain).await.hits, 1);
}

#[tokio::test]
async fn an_add_is_still_retried_after_throttling() {
    // Throttling means DynamoDB did not apply the request: retrying is safe.
    let lose = LoseAnswer::new("UpdateItem", 400, THROTTLED);
    let (plain, faulty) = table_losing("outcomes-add-throttled", &lose, true).await;
    plain.put(&account(0)).await.unwrap();
    // This answer is replaced after the server applied the first attempt:
    // as DynamoDB never would for a throttled request, so the second
    // attempt's version condition fails: the error proves the retry
    // happened, and that a refusal is never taken for an earlier success.
    let error = Account::update("a-1")
        .add(Account::HITS, &1)
        .expect_version(1)
        .send(&faulty)
        .await
        .expect_err("the retry meets version 2");
    assert_eq!(lose.seen(), 2, "throttling is retried");
    assert!(
        matches!(
            error,
            Error::VersionConflict {
                expected: 1,
                found: Some(2),
                ..
            }
        ),
        "{error:?}"
    );
}

/// DynamoDB's throttling of a hot partition, with its reason (a
/// `ThrottlingException` spells the member `throttlingReasons`, as the
/// SDK's model does; a `ProvisionedThroughputExceededException`
/// `ThrottlingReasons`).
const HOT_KEY: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Throughput exceeds the current throughput limit for your key range","throttlingReasons":[{"reason":"TableReadKeyRangeThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/shop"}]}"#;

/// DynamoDB's throttling at the account's per-table quota.
const ACCOUNT_LIMIT: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Throughput exceeds the account limit","throttlingReasons":[{"reason":"TableReadAccountLimitExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/shop"}]}"#;

#[tokio::test]
async fn a_hot_key_is_retried_by_the_sdk_by_default() {
    let mut lose = LoseAnswer::new("GetItem", 400, HOT_KEY);
    lose.attempts = 2;
    let (plain, faulty) = table_losing("outcomes-hot-key", &lose, true).await;
    plain.put(&account(0)).await.unwrap();
    let read = faulty.get(&Account::key("a-1").unwrap()).await.unwrap();
    assert_eq!(read, Some(account(1)));
    assert_eq!(lose.seen(), 3, "two throttled attempts, then the answer");
}

#[tokio::test]
async fn an_account_limit_is_not_retried_past_its_cap_and_names_the_limit() {
    let mut lose = LoseAnswer::new("GetItem", 400, ACCOUNT_LIMIT);
    lose.attempts = usize::MAX;
    let (plain, faulty) = table_losing("outcomes-account-limit", &lose, true).await;
    let faulty = faulty.with_throttle_retries(stamp::ops::ThrottleRetries {
        hot_key: u32::MAX,
        limits: 0,
    });
    let error = faulty
        .get(&Account::key("a-1").unwrap())
        .await
        .expect_err("throttled");
    assert_eq!(lose.seen(), 1, "no retry of an account limit");
    assert_eq!(
        error.throttles(),
        [stamp::error::Throttle {
            resource_kind: Some(stamp::error::ThrottledResource::Table),
            access: Some(stamp::error::ThrottledAccess::Read),
            limit: stamp::error::ThrottleLimit::AccountLimit,
            resource: "arn:aws:dynamodb:us-east-1:123456789012:table/shop".into(),
            reason: "TableReadAccountLimitExceeded".into(),
        }]
    );
    assert!(!error.may_have_been_applied());
    assert_eq!(
        error.to_string(),
        format!(
            "DynamoDB GetItem on table `{}` was refused (HTTP 400): ThrottlingException: Throughput exceeds the account limit (throttled: TableReadAccountLimitExceeded on `arn:aws:dynamodb:us-east-1:123456789012:table/shop`)",
            plain.name()
        )
    );
    // A hot key on the same table is still retried as the SDK does.
    let mut hot = LoseAnswer::new("GetItem", 400, HOT_KEY);
    hot.attempts = 1;
    let (_, faulty) = table_losing("outcomes-account-limit-hot", &hot, true).await;
    let faulty = faulty.with_throttle_retries(stamp::ops::ThrottleRetries {
        hot_key: u32::MAX,
        limits: 0,
    });
    faulty.get(&Account::key("a-1").unwrap()).await.unwrap();
    assert_eq!(hot.seen(), 2);
}

#[tokio::test]
async fn a_version_conflict_says_which_versions_in_words() {
    let table = common::fresh_table(
        "outcomes-version-text",
        &TableDefinition::new().entity::<Account>(),
    )
    .await;
    table.put(&account(0)).await.unwrap();
    table.put(&account(1)).await.unwrap();
    let error = table.put(&account(1)).await.expect_err("stale");
    assert_eq!(
        error.to_string(),
        "entity `Account` with key PK=ACCOUNT#a-1, SK=ACCOUNT is at version 2, not at the expected version 1: it was written meanwhile; read it again"
    );
    assert!(!error.may_have_been_applied());
}
