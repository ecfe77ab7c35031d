//! Clients for a local DynamoDB-compatible server: DynamoDB Local or moto.

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
