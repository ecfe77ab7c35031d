//! Shared set-up of the server tests: a client for the local server that
//! `cargo xtask test` starts, and a fresh table per test.

#![allow(dead_code)]

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use stamp::{Table, TableDefinition};

/// The endpoint of the DynamoDB-compatible server. Panics with the command
/// to run when it is missing: a server test never passes without a server.
pub fn endpoint() -> String {
    std::env::var("STAMP_DYNAMODB_ENDPOINT").unwrap_or_else(|_| {
        panic!(
            "STAMP_DYNAMODB_ENDPOINT is not set. Server tests need a DynamoDB-compatible server: \
             run them with `cargo xtask test`, which starts one (or set the variable yourself, \
             e.g. to http://localhost:8000 after `docker compose up`)."
        )
    })
}

/// A client for [`endpoint`], with SDK retries turned off so that every
/// failure shows.
pub fn client() -> Client {
    Client::from_conf(
        stamp::local::config(&endpoint())
            .retry_config(RetryConfig::disabled())
            .build(),
    )
}

/// A new table with a unique name, created from `definition`.
pub async fn fresh_table(test: &str, definition: &TableDefinition) -> Table {
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client(), name);
    table
        .create_table(definition)
        .await
        .expect("create the test table");
    table
}

/// Counts the HTTP requests a client sends, by operation (`X-Amz-Target`,
/// such as `DynamoDB_20120810.Query`), through an SDK interceptor.
#[derive(Debug, Clone, Default)]
pub struct RequestCounter {
    operations: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl RequestCounter {
    /// The operations sent so far, in order (`Query`, `PutItem`, …).
    pub fn operations(&self) -> Vec<String> {
        self.operations.lock().unwrap().clone()
    }

    /// How many requests of `operation` were sent.
    pub fn count(&self, operation: &str) -> usize {
        self.operations().iter().filter(|sent| *sent == operation).count()
    }

    /// Forgets what was counted.
    pub fn reset(&self) {
        self.operations.lock().unwrap().clear();
    }
}

impl aws_sdk_dynamodb::config::Intercept for RequestCounter {
    fn name(&self) -> &'static str {
        "RequestCounter"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let target = context.request().headers().get("x-amz-target").unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        self.operations.lock().unwrap().push(operation);
        Ok(())
    }
}

/// A client for [`endpoint`] that counts its requests.
pub fn counting_client() -> (Client, RequestCounter) {
    let counter = RequestCounter::default();
    let config = stamp::local::config(&endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(counter.clone())
        .build();
    (Client::from_conf(config), counter)
}

/// A new table for `definition` on a counting client.
pub async fn fresh_counted_table(test: &str, definition: &TableDefinition) -> (Table, RequestCounter) {
    let (client, counter) = counting_client();
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(client, name);
    table.create_table(definition).await.expect("create the test table");
    counter.reset();
    (table, counter)
}
