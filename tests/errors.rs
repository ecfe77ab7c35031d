//! What `stamp::Error` tells a caller about a failed request: DynamoDB's
//! code and message in its text, and whether the request may have been
//! applied.

mod common;

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use serde::{Deserialize, Serialize};
use stamp::{Error, Item, RequestOutcome, Table};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
struct Customer {
    customer_id: String,
    name: String,
}

#[tokio::test]
async fn a_refused_request_shows_dynamodbs_code_and_message() {
    // A table that does not exist: DynamoDB answers 400
    // ResourceNotFoundException (API reference, GetItem, "Errors").
    let table = Table::new(common::client(), "stamp-errors-no-such-table");
    let error = table
        .get(&Customer::key("c-1").unwrap())
        .await
        .expect_err("the table does not exist");
    let Error::DynamoDb {
        operation,
        outcome,
        code,
        message,
        ..
    } = &error
    else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(*operation, "GetItem");
    assert_eq!(*outcome, RequestOutcome::Rejected);
    assert_eq!(code.as_deref(), Some("ResourceNotFoundException"));
    assert!(!outcome.may_have_been_applied(code.as_deref()));
    let message = message.as_deref().expect("DynamoDB sends a message");
    assert_eq!(
        error.to_string(),
        format!(
            "DynamoDB GetItem on table `stamp-errors-no-such-table` was refused: ResourceNotFoundException: {message}"
        )
    );
}

#[tokio::test]
async fn a_request_without_an_answer_says_it_may_have_been_applied() {
    // A server that accepts the connection and never answers (the socket
    // is bound and listening, and nobody reads it).
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", silent.local_addr().unwrap());
    let config = stamp::local::config(&endpoint)
        .retry_config(RetryConfig::disabled())
        .timeout_config(
            TimeoutConfig::builder()
                .operation_attempt_timeout(Duration::from_millis(300))
                .build(),
        )
        .build();
    let table = Table::new(aws_sdk_dynamodb::Client::from_conf(config), "silent");
    let customer = Customer {
        customer_id: "c-1".into(),
        name: "Ada".into(),
    };
    let error = table.put(&customer).await.expect_err("no answer");
    let Error::DynamoDb { outcome, code, .. } = &error else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(*outcome, RequestOutcome::TimedOut);
    assert_eq!(*code, None);
    assert!(outcome.may_have_been_applied(None));
    assert_eq!(
        error.to_string(),
        "DynamoDB PutItem on table `silent` timed out; it may have been applied (read the item before retrying a write that is not idempotent)"
    );
    drop(silent);
}

#[tokio::test]
async fn a_condition_of_thousands_of_terms_is_refused_before_sending() {
    // DynamoDB takes expressions of at most 4 KB ("Expression parameters",
    // Service, account, and table quotas): 5,000 alternatives cannot fit.
    let (table, counter) = common::fresh_counted_table(
        "errors-long-condition",
        &stamp::TableDefinition::new().entity::<Customer>(),
    )
    .await;
    let names: Vec<String> = (0..5_000).map(|n| format!("name {n}")).collect();
    let condition = names
        .iter()
        .map(|name| Customer::NAME.eq(name))
        .reduce(|all, one| all.or(one))
        .unwrap();
    let customer = Customer {
        customer_id: "c-1".into(),
        name: "Ada".into(),
    };
    let error = table
        .put_if(&customer, condition)
        .await
        .expect_err("too long");
    let Error::ExpressionTooLong {
        kind,
        length,
        limit,
    } = &error
    else {
        panic!("expected ExpressionTooLong, got {error:?}");
    };
    assert_eq!((*kind, *limit), ("condition or filter", 4096));
    assert!(*length > 4096);
    assert_eq!(
        counter.operations(),
        Vec::<String>::new(),
        "nothing was sent"
    );
    assert_eq!(
        table.get(&Customer::key("c-1").unwrap()).await.unwrap(),
        None,
        "nothing was written"
    );
}

#[test]
fn a_condition_nested_a_hundred_thousand_deep_neither_overflows_nor_renders() {
    // Built, rendered and dropped on a test thread's stack (2 MiB).
    let mut condition = Customer::NAME.eq(&"Ada".to_owned());
    for depth in 0..100_000 {
        condition = if depth % 2 == 0 {
            condition.not()
        } else {
            condition.and(Customer::NAME.exists())
        };
    }
    let mut placeholders = stamp::Placeholders::default();
    let error = condition.render(&mut placeholders).expect_err("too deep");
    assert!(
        matches!(error, Error::ExpressionTooLong { limit: 4096, .. }),
        "{error:?}"
    );
    drop(condition);
}
