//! A local DynamoDB for tests and tools: SDK clients for any local server
//! and, with the `local` feature, an embedded one.
//!
//! [`config`] and [`client`] point the SDK at a local server that runs
//! elsewhere (DynamoDB Local after `docker compose up`, ministack, …).
//!
//! With the cargo feature `local`, `LocalDynamoDb` runs
//! [dynoxide](https://github.com/nubo-db/dynoxide) — a DynamoDB
//! implementation on SQLite — inside your own process: it serves the
//! DynamoDB HTTP API (and the DynamoDB Streams API, on the same endpoint) on
//! a free port of 127.0.0.1, so that `aws-sdk-dynamodb`, and so Stamp, talk
//! to it exactly as to DynamoDB. No Docker, no JVM, no Python. The library
//! itself never pulls in SQLite: enable the feature in your
//! `[dev-dependencies]` only.
//!
//! ```toml
//! [dev-dependencies]
//! stamp = { version = "0.1", features = ["local"] }
//! ```
//!
//! No emulator is DynamoDB. What dynoxide is known to do differently is
//! listed in Stamp's
//! [design notes, "Servers"](https://github.com/stamp-rs/stamp/blob/main/docs/design-notes.md#servers);
//! among others, it does not
//! throttle (the test kit's `stamp::testing::Faults` makes a client whose
//! requests are throttled, fail or lose their answers as DynamoDB's do),
//! and it deletes expired TTL items only when asked
//! (`LocalDynamoDb::database`, `sweep_ttl`). The test kit, `stamp::testing`
//! (same feature), is the chapter "Testing a service".

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

/// An SDK configuration for a local server at `endpoint_url`, such as
/// `http://localhost:8000`: region `us-east-1` and fixed dummy credentials,
/// which local servers accept. Adjust it further (retries, timeouts,
/// interceptors) before building the client.
///
/// For AWS itself, load the standard credential chain with the `aws-config`
/// crate instead.
///
/// # Example
///
/// ```
/// let config = stamp_core::local::config("http://localhost:8000").build();
/// let client = aws_sdk_dynamodb::Client::from_conf(config);
/// # let _ = client;
/// ```
pub fn config(endpoint_url: &str) -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint_url)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            "stamp-local",
            "stamp-local",
            None,
            None,
            "stamp-local",
        ))
}

/// A client for a local server at `endpoint_url`, from [`config`].
pub fn client(endpoint_url: &str) -> aws_sdk_dynamodb::Client {
    aws_sdk_dynamodb::Client::from_conf(config(endpoint_url).build())
}

/// A DynamoDB Streams client for a local server at `endpoint_url` (the
/// servers Stamp tests on serve the Streams API on the same endpoint as
/// DynamoDB's), with the region and dummy credentials of [`config`]: what
/// [`Table::changes`](crate::Table::changes) takes for a
/// local table. Feature `streams`.
///
/// Its `GetRecords` answers are read with a TTL deletion's `userIdentity`
/// whole: the embedded server (dynoxide 3.2) spells the identity's members
/// as Lambda does (`principalId`, `type`) where DynamoDB Streams has
/// `PrincipalId` and `Type`, so the SDK reads an identity with neither;
/// since DynamoDB writes an identity only on TTL deletions, such an
/// identity is read as the TTL's, and the deletion is
/// [`removed_by_ttl`](crate::streams::Change::removed_by_ttl).
#[cfg(feature = "streams")]
pub fn streams_config(endpoint_url: &str) -> aws_sdk_dynamodbstreams::config::Builder {
    aws_sdk_dynamodbstreams::Config::builder()
        .interceptor(identity::StreamsIdentitySpelling)
        .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
        .endpoint_url(endpoint_url)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            "stamp-local",
            "stamp-local",
            None,
            None,
            "stamp-local",
        ))
}

/// A DynamoDB Streams client for a local server at `endpoint_url`, from
/// [`streams_config`]. Feature `streams`.
#[cfg(feature = "streams")]
pub fn streams_client(endpoint_url: &str) -> aws_sdk_dynamodbstreams::Client {
    aws_sdk_dynamodbstreams::Client::from_conf(streams_config(endpoint_url).build())
}

#[cfg(feature = "streams")]
mod identity;

#[cfg(feature = "local")]
mod embedded;

#[cfg(feature = "local")]
pub use embedded::{LocalDynamoDb, LocalDynamoDbError};
