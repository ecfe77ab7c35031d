//! `cargo run -p stamp-examples --bin web`: the reference service's HTTP
//! API ([`stamp_examples::web`]) on `127.0.0.1:3000`, over the embedded
//! DynamoDB loaded with a small generated data set, or over `--endpoint`.
//!
//! ```sh
//! curl 'http://127.0.0.1:3000/customers/c-0001/orders?limit=3'
//! curl 'http://127.0.0.1:3000/orders/pending?limit=5'
//! curl -X PUT -H 'content-type: application/json' \
//!   -d '{"lines":[{"sku":"SKU-00001","quantity":1}]}' \
//!   http://127.0.0.1:3000/customers/c-0001/orders/5f0c2a4e-8d36-4c1b-9a51-3d2f0e6b7a10
//! ```

use std::process::ExitCode;

use clap::Parser;
use rand::RngCore;
use stamp::Table;
use stamp_examples::data::{self, Size};
use stamp_examples::{client, scenario, table_definition, web};

/// Serves the reference service as an HTTP API.
#[derive(Parser)]
struct Arguments {
    /// The DynamoDB endpoint; without it, the embedded DynamoDB in this
    /// process, with a generated data set.
    #[arg(long)]
    endpoint: Option<String>,
    /// The table (created and loaded when the embedded DynamoDB is used).
    #[arg(long, default_value = "shop")]
    table: String,
    /// The loopback port to listen on.
    #[arg(long, default_value_t = 3000)]
    port: u16,
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Arguments::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("web failed: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(arguments: Arguments) -> Result<(), Box<dyn std::error::Error>> {
    // The cursor key: `STAMP_CURSOR_KEY` (the same in every process that
    // serves the same clients), else a random one for this process.
    let cursor_key = match std::env::var("STAMP_CURSOR_KEY") {
        Ok(key) if !key.is_empty() => key.into_bytes(),
        _ => {
            let mut key = vec![0; 32];
            rand::rng().fill_bytes(&mut key);
            key
        }
    };
    let mut _embedded = None;
    let table = match &arguments.endpoint {
        Some(endpoint) => Table::new(client(Some(endpoint)).await, &arguments.table),
        None => {
            let dynamodb = stamp::local::LocalDynamoDb::start().await?;
            let table = dynamodb.table(&arguments.table);
            table.create_table(&table_definition()).await?;
            let size = Size {
                customers: 20,
                products: 30,
                orders: 300,
                orders_with_line_items: 50,
            };
            scenario::load(&table, &data::generate(data::SEED, size), 100, |_| {}).await?;
            _embedded = Some(dynamodb);
            table
        }
    }
    .with_cursor_key(cursor_key);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", arguments.port)).await?;
    println!("serving on http://{}", listener.local_addr()?);
    web::serve(listener, table).await?;
    Ok(())
}
