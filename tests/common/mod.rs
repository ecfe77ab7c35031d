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
