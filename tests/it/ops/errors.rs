//! What `stamp::Error` tells a caller about a failed request: DynamoDB's
//! code and message in its text, and whether the request may have been
//! applied.

use crate::common;
use stamp::error::{DefinitionError, KeyError, Refusal};

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use stamp::{Error, Get, Put, Table, error::RequestOutcome};
use stamp_examples::Customer;

/// The reference model's customer, under the id `customer_id`.
fn customer(customer_id: &str) -> Customer {
    Customer {
        customer_id: customer_id.into(),
        ..stamp_examples::examples::customer()
    }
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
            "DynamoDB GetItem on table `stamp-errors-no-such-table` was refused (HTTP 400): ResourceNotFoundException: {message}"
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
    // A product: a customer's put reads the item first (its e-mail is
    // unique), and that GetItem would be the request timed out.
    let product = stamp_examples::examples::product();
    let error = table.put(&product).await.expect_err("no answer");
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
    let customer = customer("c-1");
    let error = Put::new(&customer)
        .condition(condition)
        .send(&table)
        .await
        .expect_err("too long");
    let Error::Refused(Refusal::ExpressionTooLong {
        kind,
        length,
        limit,
    }) = &error
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
    let mut placeholders = stamp::expression::Placeholders::default();
    let error = condition.render(&mut placeholders).expect_err("too deep");
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::ExpressionTooLong { limit: 4096, .. })
        ),
        "{error:?}"
    );
    drop(condition);
}

/// Answers every request with DynamoDB's throttling error for a hot key
/// range (the request itself goes to a table that does not exist, so the
/// server writes nothing).
#[derive(Debug)]
struct HotKeyRange;

impl aws_sdk_dynamodb::config::Intercept for HotKeyRange {
    fn name(&self) -> &'static str {
        "HotKeyRange"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let body = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"Throughput exceeds the current throughput limit for your key range","ThrottlingReasons":[{"reason":"TableWriteKeyRangeThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/hot"}]}"#;
        let mut response = aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(400).unwrap(),
            aws_smithy_types::body::SdkBody::from(body),
        );
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
}

#[tokio::test]
async fn a_throttled_request_says_why() {
    // DynamoDB names the limit in ThrottlingReasons ("Diagnosing
    // throttling", Developer Guide); a hot partition is
    // TableWriteKeyRangeThroughputExceeded.
    let config = stamp::local::config(&common::endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(HotKeyRange)
        .build();
    let table = Table::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        "stamp-errors-hot-no-such-table",
    );
    let customer = customer("c-1");
    let error = table.put(&customer).await.expect_err("throttled");
    assert_eq!(
        error.throttling_reasons(),
        [(
            "TableWriteKeyRangeThroughputExceeded".to_owned(),
            "arn:aws:dynamodb:us-east-1:123456789012:table/hot".to_owned()
        )]
    );
    let Error::DynamoDb { code, outcome, .. } = &error else {
        panic!("expected Error::DynamoDb, got {error:?}");
    };
    assert_eq!(
        code.as_deref(),
        Some("ProvisionedThroughputExceededException")
    );
    assert_eq!(*outcome, RequestOutcome::Rejected);
    // Any other error has no throttling reason.
    assert_eq!(
        Error::Refused(Refusal::EmptyTransaction).throttling_reasons(),
        []
    );
}

/// Records the `ConsistentRead` of every `GetItem` the client sends.
#[derive(Debug, Clone, Default)]
struct ConsistentReads(std::sync::Arc<std::sync::Mutex<Vec<Option<bool>>>>);

impl aws_sdk_dynamodb::config::Intercept for ConsistentReads {
    fn name(&self) -> &'static str {
        "ConsistentReads"
    }

    fn read_before_serialization(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeSerializationInterceptorContextRef<
            '_,
        >,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        if let Some(input) = context
            .input()
            .downcast_ref::<aws_sdk_dynamodb::operation::get_item::GetItemInput>()
        {
            self.0.lock().unwrap().push(input.consistent_read);
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_consistent_get_asks_for_a_consistent_read_and_reads_the_last_write() {
    let reads = ConsistentReads::default();
    let config = stamp::local::config(&common::endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(reads.clone())
        .build();
    let table = Table::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        format!("stamp-errors-consistent-{}", uuid::Uuid::new_v4().simple()),
    );
    table
        .create_table(&stamp::TableDefinition::new().entity::<Customer>())
        .await
        .unwrap();
    let customer = customer("c-1");
    table.put(&customer).await.unwrap();
    // The put read the item first, consistently (the customer's e-mail is
    // unique): only the gets below are this test's.
    reads.0.lock().unwrap().clear();
    let key = Customer::key("c-1").unwrap();
    assert_eq!(
        Get::new(key.clone())
            .consistent_read()
            .send(&table)
            .await
            .unwrap(),
        Some(customer.clone())
    );
    assert_eq!(table.get(&key).await.unwrap(), Some(customer));
    // A consistent read sends ConsistentRead = true; the default leaves it
    // out (eventually consistent, DynamoDB's default).
    assert_eq!(*reads.0.lock().unwrap(), [Some(true), None]);
}

#[tokio::test]
async fn a_write_error_carries_the_key_as_attribute_names_and_values() {
    let (table, _counter) = common::fresh_counted_table(
        "errors-structured-key",
        &stamp::TableDefinition::new().entity::<Customer>(),
    )
    .await;
    let customer = customer("c 1#x");
    table.create(&customer).await.unwrap();
    let error = table.create(&customer).await.expect_err("exists");
    let Error::AlreadyExists { entity, key, .. } = &error else {
        panic!("expected AlreadyExists, got {error:?}");
    };
    assert_eq!(*entity, "Customer");
    // Stored as escaped (space and `#` are escaped in every field).
    let stored = Customer::key("c 1#x").unwrap();
    assert_eq!(key.partition_key(), ("PK", stored.partition_key()));
    assert_eq!(key.sort_key(), ("SK", "PROFILE"));
    assert_eq!(key.to_attribute_map(), stored.to_attribute_map());
    assert_eq!(
        error.to_string(),
        format!(
            "an item of entity `Customer` with key PK={}, SK=PROFILE already exists",
            stored.partition_key()
        )
    );
}

/// Each stage's enum converts into `Error` (`From`, so `?` works), the
/// message is the nested error's own, and only a request's outcome may have
/// been applied.
#[test]
fn an_error_of_a_stage_converts_into_error_with_its_message() {
    fn encode_key() -> Result<(), KeyError> {
        Err(KeyError::EmptyKeyValue {
            entity: "Order",
            field: "order_id",
        })
    }
    fn operation() -> Result<(), Error> {
        encode_key()?;
        Ok(())
    }
    let error = operation().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::EmptyKeyValue {
                entity: "Order",
                field: "order_id"
            })
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "field `order_id` of entity `Order` is empty, and a key field needs a non-empty value"
    );
    assert!(!error.may_have_been_applied());

    let refused = Error::from(Refusal::EmptyTransaction);
    assert!(matches!(refused, Error::Refused(Refusal::EmptyTransaction)));
    assert_eq!(
        refused.to_string(),
        "the transaction has no action; DynamoDB needs from 1 to 100"
    );
    assert!(!refused.may_have_been_applied());

    let definition = Error::from(DefinitionError::EmptyTableDefinition);
    assert!(matches!(
        definition,
        Error::Definition(DefinitionError::EmptyTableDefinition)
    ));
    assert_eq!(
        definition.to_string(),
        "the table definition has no entity; add one with `TableDefinition::entity::<E>()`"
    );
}

/// A key that does not have its template's shape says where, as a typed
/// reason, before anything is sent.
#[test]
fn a_key_mismatch_says_where_as_a_typed_reason() {
    let error = Customer::parse_partition_key("ORDER#c-1").unwrap_err();
    match &error {
        Error::Key(KeyError::KeyMismatch {
            entity: "Customer",
            template: "CUST#<customer_id>",
            key,
            reason,
        }) => {
            assert_eq!(key, "ORDER#c-1");
            assert_eq!(
                *reason,
                stamp::error::KeyMismatchReason::Literal {
                    literal: "CUST#".to_owned(),
                    at: 0
                }
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error.to_string(),
        "key `ORDER#c-1` does not match the template `CUST#<customer_id>` of entity `Customer`: expected `CUST#` at byte 0"
    );
}
