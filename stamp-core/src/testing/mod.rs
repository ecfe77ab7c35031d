//! Testing a service: Stamp's test kit (feature `local`).
//!
//! A single-table service is hard to test because its truth is one table of
//! overloaded keys. The kit speaks in entities: a test starts a real
//! DynamoDB in its own process ([`LocalDynamoDb`](crate::local::LocalDynamoDb)),
//! runs the service, and then
//!
//! - asserts the whole table, or one partition, as entities
//!   ([`TableSnapshot`]): a failing `assert_eq!` prints the table as people
//!   draw it (partition key, sort key, type, attributes), not nested maps.
//!
//! Everything here is for tests: enable it in `[dev-dependencies]`.
//!
//! ```toml
//! [dev-dependencies]
//! stamp = { version = "0.1", features = ["local"] }
//! ```
//!
//! # Asserting the table
//!
//! [`TableSnapshot::read`] scans the table (strongly consistent) and
//! decodes each item through a `#[derive(Collection)]` enum; an
//! `any_partition` one that lists every entity of the table reads a whole
//! table, and an item of another type is its `Unknown` variant, shown with
//! its keys. The expected side is built from entities, each encoded as a
//! put stores it:
//!
//! ```ignore
//! use stamp::testing::TableSnapshot;
//!
//! #[derive(stamp::Collection, Debug, PartialEq)]
//! #[stamp(any_partition)]
//! enum Shop {
//!     Customer(Customer),
//!     Order(Order),
//!     Unknown(stamp::AttributeMap),
//! }
//!
//! let stored = TableSnapshot::<Shop>::read(&table).await?;
//! assert_eq!(stored, TableSnapshot::expected().with(&ada).with(&first_order));
//! ```
//!
//! A failing assertion prints both tables:
//!
//! ```text
//! table shop (2 items)
//! PK       | SK                        | Type     | attributes
//! ---------+---------------------------+----------+-----------
//! CUST#c-1 | ORDER#00001               | Order    | customer_id="c-1", order_no=1, total_cents=100
//! CUST#c-1 | PROFILE                   | Customer | customer_id="c-1", name="Ada"
//! ```

#[cfg(feature = "streams")]
mod events;
mod faults;
mod snapshot;

#[cfg(feature = "streams")]
pub use events::{DEFAULT_BATCH_SIZE, LambdaEvents, MAX_BATCH_SIZE};
pub use faults::{Fault, FaultCounts, FaultKind, Faults, On, ThrottlingException};
pub use snapshot::TableSnapshot;
