//! `Faults`: DynamoDB's failures on demand, scripted and at random. The
//! faults are made on the client's side, so these run on every server.

use aws_sdk_dynamodb::config::retry::RetryConfig;
use stamp::error::{Throttle, ThrottleLimit};
use stamp::testing::{Fault, FaultKind, Faults, On, TableSnapshot};
use stamp::{BatchWrite, Error, TransactWrite};

use super::model::*;
use crate::common;

fn arn(table: &stamp::Table) -> String {
    format!(
        "arn:aws:dynamodb:us-east-1:123456789012:table/{}",
        table.name()
    )
}

#[tokio::test]
async fn the_next_put_on_a_table_is_throttled_with_the_reason_given() {
    let table = common::fresh_table("kit-throttled", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(
        On::operation("PutItem").table(table.name()),
        Fault::throttled("TableWriteKeyRangeThroughputExceeded"),
    );
    // A get is not a put: it passes.
    assert_eq!(
        faulty.get(&Customer::key("c-1").unwrap()).await.unwrap(),
        None
    );

    let error = faulty.put(&ada()).await.unwrap_err();
    assert_eq!(
        error.throttles(),
        [Throttle::parse(
            "TableWriteKeyRangeThroughputExceeded",
            &arn(&table)
        )]
    );
    assert_eq!(error.throttles()[0].limit, ThrottleLimit::KeyRange);
    assert!(!error.may_have_been_applied(), "{error}");
    match &error {
        Error::DynamoDb {
            status,
            code,
            operation,
            ..
        } => {
            assert_eq!(
                (*status, code.as_deref(), *operation),
                (Some(400), Some("ThrottlingException"), "PutItem")
            );
        }
        other => panic!("{other:?}"),
    }
    // Not applied; the fault was used once, so the next put goes through.
    assert!(
        TableSnapshot::<Shop>::read(&table)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(faults.pending(), 0);
    faulty.put(&ada()).await.unwrap();
    assert_eq!(
        TableSnapshot::<Shop>::read(&table).await.unwrap(),
        TableSnapshot::expected().with(&ada())
    );
    let counts = faults.counts();
    assert_eq!(counts.requests_of("PutItem"), 2);
    assert_eq!(counts.requests_of("GetItem"), 1);
    assert_eq!(counts.requests, 3);
    assert_eq!(counts.by_kind.get(&FaultKind::Throttled), Some(&1));
}

#[tokio::test]
async fn a_provisioned_limit_is_a_provisioned_throughput_exceeded_exception() {
    let table = common::fresh_table("kit-provisioned", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(
        On::operation("GetItem"),
        Fault::throttled("TableReadProvisionedThroughputExceeded"),
    );
    let error = faulty
        .get(&Customer::key("c-1").unwrap())
        .await
        .unwrap_err();
    assert_eq!(
        error.throttles(),
        [Throttle::parse(
            "TableReadProvisionedThroughputExceeded",
            &arn(&table)
        )]
    );
    assert!(
        matches!(&error, Error::DynamoDb { code: Some(code), .. } if code == "ProvisionedThroughputExceededException"),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_transaction_whose_answer_is_lost_was_applied() {
    let table = common::fresh_table("kit-lost", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(On::transaction(), Fault::TimeoutAfterApplied);
    let error = TransactWrite::new()
        .put(&ada())
        .put(&order("c-1", 1))
        .send(&faulty)
        .await
        .unwrap_err();
    // The SDK's retries are off (common::client): the caller is told it
    // may have been applied, and it was.
    assert!(error.may_have_been_applied(), "{error}");
    assert_eq!(
        TableSnapshot::<Shop>::read(&table).await.unwrap(),
        TableSnapshot::expected()
            .with(&ada())
            .with(&order("c-1", 1))
    );
    assert_eq!(faults.counts().requests_of("TransactWriteItems"), 1);
}

#[tokio::test]
async fn with_the_sdks_retries_a_lost_transaction_answer_is_sent_again_and_applied_once() {
    let table = common::fresh_table("kit-lost-retried", &definition()).await;
    let faults = Faults::new();
    let client = aws_sdk_dynamodb::Client::from_conf(
        faults
            .configure(stamp::local::config(&common::endpoint()))
            .retry_config(RetryConfig::standard().with_max_attempts(3))
            .build(),
    );
    let faulty = stamp::Table::new(client, table.name());
    faults.next(On::transaction(), Fault::ServerErrorAfterApplied);
    TransactWrite::new()
        .put(&ada())
        .send(&faulty)
        .await
        .unwrap();
    let counts = faults.counts();
    assert_eq!(counts.requests_of("TransactWriteItems"), 2);
    assert_eq!(
        counts.resent_after_applied.get("TransactWriteItems"),
        Some(&1)
    );
    assert_eq!(
        TableSnapshot::<Shop>::read(&table).await.unwrap(),
        TableSnapshot::expected().with(&ada())
    );
}

#[tokio::test]
async fn keys_left_unprocessed_by_a_batch_are_sent_again() {
    let table = common::fresh_table("kit-unprocessed", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    let orders: Vec<Order> = (1..=3).map(|n| order("c-1", n)).collect();
    faults.next(
        On::operation("BatchWriteItem"),
        Fault::Unprocessed(vec![Order::key("c-1", &2).unwrap().to_attribute_map()]),
    );
    let output = BatchWrite::new()
        .put_all(&orders)
        .send(&faulty)
        .await
        .unwrap();
    assert_eq!((output.written, output.requests, output.retries), (3, 2, 1));
    assert_eq!(faults.counts().requests_of("BatchWriteItem"), 2);
    assert_eq!(
        faults.counts().by_kind.get(&FaultKind::Unprocessed),
        Some(&1)
    );
    assert_eq!(
        TableSnapshot::<Shop>::read(&table).await.unwrap(),
        TableSnapshot::expected()
            .with(&orders[0])
            .with(&orders[1])
            .with(&orders[2])
    );
}

#[tokio::test]
async fn a_batch_whose_every_key_is_unprocessed_is_not_sent() {
    let table = common::fresh_table("kit-unprocessed-all", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(
        On::operation("BatchWriteItem"),
        Fault::Unprocessed(vec![Customer::key("c-1").unwrap().to_attribute_map()]),
    );
    let output = BatchWrite::new()
        .put_all(&[ada()])
        .send(&faulty)
        .await
        .unwrap();
    assert_eq!((output.written, output.requests), (1, 2));
    assert_eq!(
        TableSnapshot::<Shop>::read(&table).await.unwrap(),
        TableSnapshot::expected().with(&ada())
    );
}

#[tokio::test]
async fn a_server_error_is_dynamodbs_500_and_may_have_been_applied() {
    let table = common::fresh_table("kit-500", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(On::any(), Fault::ServerErrorNotSent);
    let error = faulty.put(&lamp()).await.unwrap_err();
    assert!(error.may_have_been_applied());
    assert!(
        matches!(&error, Error::DynamoDb { status: Some(500), code: Some(code), .. } if code == "InternalServerError"),
        "{error:?}"
    );
    assert!(
        TableSnapshot::<Shop>::read(&table)
            .await
            .unwrap()
            .is_empty()
    );
}

/// The outcome of 40 gets through `faults`: `true` for each that failed.
async fn failures(table: &stamp::Table, faults: &Faults) -> Vec<bool> {
    let faulty = faults.table(table);
    let mut failed = Vec::new();
    for _ in 0..40 {
        failed.push(faulty.get(&Customer::key("c-1").unwrap()).await.is_err());
    }
    failed
}

#[tokio::test]
async fn random_faults_repeat_with_their_seed_at_the_rate_of_each_kind() {
    let table = common::fresh_table("kit-random", &definition()).await;
    // Every request throttled, as a read.
    let always = Faults::seeded(3).rate(FaultKind::Throttled, 1.0);
    let error = always
        .table(&table)
        .get(&Customer::key("c-1").unwrap())
        .await
        .unwrap_err();
    assert_eq!(
        error.throttles(),
        [Throttle::parse(
            "TableReadKeyRangeThroughputExceeded",
            &arn(&table)
        )]
    );
    // Half the requests, the same ones for the same seed.
    let first = Faults::seeded(11).rate(FaultKind::ServerErrorNotSent, 0.5);
    let second = Faults::seeded(11).rate(FaultKind::ServerErrorNotSent, 0.5);
    let (a, b) = (
        failures(&table, &first).await,
        failures(&table, &second).await,
    );
    assert_eq!(a, b);
    let failed = a.iter().filter(|failed| **failed).count() as u64;
    assert!((1..40).contains(&failed), "{failed} of 40");
    assert_eq!(first.counts().total(), failed);
    assert_eq!(first.counts().requests_of("GetItem"), 40);
    // Rate 0 injects nothing.
    let none = Faults::seeded(11).rate_each(0.0);
    assert_eq!(failures(&table, &none).await, vec![false; 40]);
    assert_eq!(none.counts().total(), 0);
}

#[tokio::test]
async fn keys_left_unprocessed_by_a_batch_get_are_asked_again() {
    let table = common::fresh_table("kit-unprocessed-get", &definition()).await;
    let orders: Vec<Order> = (1..=3).map(|n| order("c-1", n)).collect();
    BatchWrite::new()
        .put_all(&orders)
        .send(&table)
        .await
        .unwrap();
    let faults = Faults::new();
    let faulty = faults.table(&table);
    faults.next(
        On::operation("BatchGetItem").table(table.name()),
        Fault::Unprocessed(vec![
            Order::key("c-1", &1).unwrap().to_attribute_map(),
            Order::key("c-1", &3).unwrap().to_attribute_map(),
        ]),
    );
    let keys = (1..=4).map(|n| Order::key("c-1", &n).unwrap());
    let read = stamp::BatchGet::new(keys).send(&faulty).await.unwrap();
    assert_eq!(
        read,
        [
            Some(orders[0].clone()),
            Some(orders[1].clone()),
            Some(orders[2].clone()),
            None
        ]
    );
    assert_eq!(faults.counts().requests_of("BatchGetItem"), 2);
}

#[tokio::test]
async fn a_scripted_fault_waits_for_a_request_that_matches() {
    let table = common::fresh_table("kit-matches", &definition()).await;
    let faults = Faults::new();
    let faulty = faults.table(&table);
    // Another table's puts, and batch faults, do not match a put here.
    faults.next(
        On::operation("PutItem").table("another-table"),
        Fault::ServerErrorNotSent,
    );
    faults.next(On::any(), Fault::Unprocessed(vec![]));
    faulty.put(&ada()).await.unwrap();
    faulty.put(&lamp()).await.unwrap();
    assert_eq!(faults.pending(), 2);
    assert_eq!(faults.counts().total(), 0);
    assert_eq!(faults.counts().requests_of("PutItem"), 2);
}
