//! A change-feed consumer for AWS Lambda: the DynamoDB Streams records of
//! a Lambda event decoded into typed changes of the reference collection
//! ([`CustomerWithOrders`]), with partial batch failure reporting.
//!
//! Lambda delivers a shard's records in batches, in order. Without a
//! partial batch response a failed invocation replays the whole batch; with
//! `ReportBatchItemFailures` turned on in the event source mapping
//! (`FunctionResponseTypes`), the function answers the sequence number of
//! the first record it could not process, and Lambda checkpoints before it:
//! the records before it are not delivered again, and the retry starts at
//! it. [`handle`] processes the records in order and stops at the first one
//! that cannot be decoded or processed, reporting its `SequenceNumber`: the
//! records after it come again with the retry, so none is processed twice
//! because of another's failure, and the changes of one item stay in order.
//! (A record that can never be processed is retried until the mapping's
//! `MaximumRetryAttempts` or `MaximumRecordAgeInSeconds`, then goes to its
//! on-failure destination.)
//!
//! See <https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html>.
//!
//! `--bin lambda` runs [`handle`] under `lambda_runtime` (build it for
//! Lambda with `cargo lambda build --release --bin lambda`, or any
//! `provided.al2023` build of it as `bootstrap`).

use std::future::Future;

use aws_lambda_events::event::streams::{DynamoDbBatchItemFailure, DynamoDbEventResponse};
use stamp::streams::{Change, ChangeKind, Event};

use crate::CustomerWithOrders;

/// Processes `event`'s records in order with `process`, and answers the
/// partial batch response: empty when every record was processed, else the
/// `SequenceNumber` of the first record that could not be decoded
/// ([`Change::from_record`]) or that `process` failed, after which no
/// record is processed.
///
/// A failed record without a sequence number (DynamoDB always writes one)
/// is reported with an empty identifier, which Lambda takes as a failure of
/// the whole batch.
pub async fn handle<F, Fut, E>(event: Event, mut process: F) -> DynamoDbEventResponse
where
    F: FnMut(Change<CustomerWithOrders>) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    E: std::fmt::Display,
{
    let mut response = DynamoDbEventResponse::default();
    for record in event.records {
        let sequence_number = record.change.sequence_number.clone().unwrap_or_default();
        let outcome = match Change::<CustomerWithOrders>::from_record(record) {
            Ok(change) => process(change).await.map_err(|error| error.to_string()),
            Err(error) => Err(error.to_string()),
        };
        if let Err(error) = outcome {
            // Lambda sends a function's standard error to its log.
            eprintln!("record {sequence_number} not processed, reported to Lambda: {error}");
            let mut failure = DynamoDbBatchItemFailure::default();
            failure.item_identifier = Some(sequence_number);
            response.batch_item_failures.push(failure);
            break;
        }
    }
    response
}

/// What the example consumer does with a change: a line for the log, for
/// each order placed, changed or removed and each new customer; `None` for
/// other changes.
pub fn describe(change: &Change<CustomerWithOrders>) -> Option<String> {
    let image = change.new.as_ref().or(change.old.as_ref());
    match (change.kind, image) {
        (ChangeKind::Insert, Some(CustomerWithOrders::Order(order))) => Some(format!(
            "order {} placed by {}: {} cents",
            order.order_id, order.customer_id, order.total_cents
        )),
        (ChangeKind::Modify, Some(CustomerWithOrders::Order(order))) => Some(format!(
            "order {} of {} is now {:?}",
            order.order_id, order.customer_id, order.status
        )),
        (ChangeKind::Remove, Some(CustomerWithOrders::Order(order))) => Some(format!(
            "order {} of {} removed",
            order.order_id, order.customer_id
        )),
        (ChangeKind::Insert, Some(CustomerWithOrders::Customer(customer))) => {
            Some(format!("customer {} joined", customer.customer_id))
        }
        _ => None,
    }
}
