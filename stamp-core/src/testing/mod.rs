//! Testing a service: Stamp's test kit (feature `local`; the Lambda events
//! also need `streams`).
//!
//! A single-table service is hard to test because its truth is one table of
//! overloaded keys. The kit speaks in entities. A test starts a real
//! DynamoDB in its own process ([`LocalDynamoDb`](crate::local::LocalDynamoDb),
//! or points at another server), runs the service, and then, each in a line
//! or two:
//!
//! - **fails requests on demand** ([`Faults`]): the next `PutItem` on a
//!   table throttled with a reason, the next transaction's answer lost after
//!   it was applied, the next batch leaving keys unprocessed, or faults at
//!   random from a seed; each reaches the service exactly as DynamoDB sends
//!   it, and the requests are counted by operation;
//! - **feeds a Lambda handler the stream's records** ([`LambdaEvents`]): the
//!   records since a point, as the `aws_lambda_events` DynamoDB event Lambda
//!   delivers, in batches of a chosen size;
//! - **moves time** ([`TestClock`]): the time writes stamp, reads judge
//!   expiry by and the embedded server sweeps expired items at;
//! - **asserts the whole table, or one partition, as entities**
//!   ([`TableSnapshot`]): a failing `assert_eq!` prints the table as people
//!   draw it (partition key, sort key, type, attributes), not nested maps.
//!
//! No `aws-smithy-*` crate and no copied code: the kit's API names Stamp's
//! types, the SDK client's and `aws_lambda_events`' only.
//!
//! ```toml
//! [dev-dependencies]
//! stamp = { version = "0.1", features = ["local", "streams"] }
//! tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
//! ```
//!
//! The examples below use a shop: `Customer` (`PK = CUST#<customer_id>`,
//! `SK = PROFILE`), `Order` (`SK = ORDER#<order_no>`) and `Product`, and a
//! collection of all of them for whole-table snapshots:
//!
//! ```ignore
//! #[derive(stamp::Collection, Debug, Clone, PartialEq)]
//! #[stamp(any_partition)]          // members in any partition: a table-wide model
//! enum Shop {
//!     Customer(Customer),
//!     Order(Order),
//!     Product(Product),
//!     Unknown(stamp::AttributeMap),  // any other item, with its keys
//! }
//! ```
//!
//! # Failing requests on demand
//!
//! The embedded server never throttles and never loses an answer, so the
//! kit does it on the client's side: [`Faults::table`] gives the same table
//! through an HTTP client that fails what is scripted and passes the rest
//! (it works on any endpoint: ministack and DynamoDB Local too).
//!
//! ```ignore
//! use stamp::testing::{Fault, Faults, On};
//!
//! let faults = Faults::new();
//! let table = faults.table(&table);
//! faults.next(
//!     On::operation("PutItem").table(table.name()),
//!     Fault::throttled("TableWriteKeyRangeThroughputExceeded"),
//! );
//! let error = table.put(&ada).await.unwrap_err();    // with the SDK's retries off
//! assert!(error.throttles()[0].is_hot_key());
//!
//! faults.next(On::transaction(), Fault::TimeoutAfterApplied);   // applied, answer lost
//! faults.next(On::operation("BatchWriteItem"), Fault::Unprocessed(vec![key.to_attribute_map()]));
//! assert_eq!(faults.counts().requests_of("PutItem"), 1);
//! ```
//!
//! A throttled answer is HTTP 400 with DynamoDB's JSON body: `__type`
//! `com.amazonaws.dynamodb.v20120810#ThrottlingException` (or
//! `ProvisionedThroughputExceededException`, `RequestLimitExceeded`, as
//! [`Fault::throttled`] picks from the reason) and its `ThrottlingReasons`
//! (`reason`, and the table's ARN as `resource`), as "Error handling with
//! DynamoDB" shows an error answer
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html>)
//! and the API reference a reason
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html>).
//! Random faults come from a seed, at a rate per kind
//! ([`Faults::seeded`], [`Faults::rate`], [`Faults::rate_each`]): Stamp's own
//! fault soak (`stamp-examples/src/soak`) runs on them.
//!
//! # Feeding a Lambda handler
//!
//! [`LambdaEvents`] reads the table's stream as the change feed does and
//! hands each batch over as the `Event` a Lambda function receives, with
//! the envelope Lambda adds (`eventSourceARN`, `eventSource` =
//! `aws:dynamodb`, `awsRegion`, …):
//!
//! ```ignore
//! let mut events = dynamodb.lambda_events(&table).batch_size(10);
//! events.skip_existing().await?;                       // the point: from now on
//! table.put(&first_order).await?;
//! for event in events.batches().await? {
//!     let response = my_handler(event).await;          // the function under test
//!     assert!(response.batch_item_failures.is_empty());
//! }
//! ```
//!
//! # Moving time
//!
//! [`TestClock`] is a time the test sets: the table stamps `created_at` and
//! `updated_at` with it and judges TTLs by it, and the embedded server
//! sweeps expired items at it when asked, so "stamped at", "expired" and
//! "deleted by TTL" are exact values in a test:
//!
//! ```ignore
//! use stamp::testing::TestClock;
//!
//! let clock = TestClock::at("2026-06-01T10:00:00Z".parse()?);
//! let dynamodb = LocalDynamoDb::start_with_clock(&clock).await?;
//! let table = dynamodb.table("shop");       // reads the server's clock
//! table.create(&session).await?;              // created_at = 10:00, expires_at = 10:30
//! clock.advance(chrono::TimeDelta::minutes(31));
//! assert_eq!(Session::get(&table, key).await?, None);   // expired, not yet deleted
//! assert_eq!(dynamodb.sweep_ttl()?, 1);                  // the sweep DynamoDB runs within days
//! ```
//!
//! Transactions and batches stamp their items when an action is added:
//! start them with `table.transact_write()` and `table.batch_write()` to
//! stamp at the table's clock.
//!
//! # Asserting the table
//!
//! [`TableSnapshot::read`] scans the table (strongly consistent) and decodes
//! each item through the collection; [`TableSnapshot::read_partition`] reads
//! one partition. The expected side is built from entities, each encoded as
//! a put stores it:
//!
//! ```ignore
//! use stamp::testing::TableSnapshot;
//!
//! let stored = TableSnapshot::<Shop>::read(&table).await?;
//! assert_eq!(stored, TableSnapshot::expected().with(&ada).with(&first_order));
//! ```
//!
//! A failing assertion prints both tables, in key order:
//!
//! ```text
//!   left: table shop (2 items)
//! PK       | SK               | Type     | attributes
//! ---------+------------------+----------+-----------
//! CUST#c-1 | ORDER#0000000001 | Order    | customer_id="c-1", order_no=1, total_cents=100
//! CUST#c-1 | PROFILE          | Customer | customer_id="c-1", name="Ada"
//! ```
//!
//! The kit's own tests (`tests/it/testing/` in Stamp's repository) run every
//! example here on the embedded server and on ministack.

mod clock;
#[cfg(feature = "streams")]
mod events;
mod faults;
mod snapshot;

pub use clock::TestClock;
#[cfg(feature = "streams")]
pub use events::{DEFAULT_BATCH_SIZE, LambdaEvents, MAX_BATCH_SIZE};
pub use faults::{Fault, FaultCounts, FaultKind, Faults, On, ThrottlingException};
pub use snapshot::TableSnapshot;
