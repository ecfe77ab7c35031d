//! `cargo xtask demo`: the reference service on a DynamoDB endpoint.

use std::process::ExitCode;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use clap::Parser;
use stamp::{Entity, Table};
use stamp_examples::{Customer, LineItem, Order, OrderStatus, Product, client, table_definition};
use uuid::Uuid;

/// Creates a table for the reference service, writes a few items, reads them
/// back by typed key, and deletes the table.
#[derive(Parser)]
struct Arguments {
    /// The DynamoDB endpoint, such as http://localhost:8000; AWS when absent.
    #[arg(long)]
    endpoint: Option<String>,
    /// The table to create; it is deleted at the end.
    #[arg(long, default_value = "stamp-demo")]
    table: String,
}

#[tokio::main]
async fn main() -> ExitCode {
    let arguments = Arguments::parse();
    match run(&arguments).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("demo failed: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(arguments: &Arguments) -> Result<(), stamp::Error> {
    let table = Table::new(
        client(arguments.endpoint.as_deref()).await,
        &arguments.table,
    );
    let started = Instant::now();
    table.create_table(&table_definition()).await?;
    println!(
        "created table `{}` in {} ms",
        table.name(),
        started.elapsed().as_millis()
    );
    let result = show(&table).await;
    table.delete_table().await?;
    println!("deleted table `{}`", table.name());
    result
}

async fn show(table: &Table) -> Result<(), stamp::Error> {
    let placed: DateTime<Utc> = "2026-06-01T10:00:00Z".parse().expect("a valid time");
    let customer = Customer {
        customer_id: "c-0001".into(),
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        order_count: 1,
        created_at: placed - Duration::days(30),
    };
    let order = Order {
        customer_id: customer.customer_id.clone(),
        order_id: Uuid::from_u128(1),
        created_at: placed,
        status: Some(OrderStatus::Pending),
        updated_at: placed,
        total_cents: 4_500,
        line_count: 1,
    };
    let line = LineItem {
        order_id: order.order_id,
        line_no: 1,
        sku: "SKU-00042".into(),
        quantity: 3,
        unit_price_cents: 1_500,
    };
    let product = Product {
        sku: "SKU-00042".into(),
        name: "Analytical engine gear".into(),
        price_cents: 1_500,
        stock: 97,
    };

    println!();
    println!("{:<10} {:<18} {:<72} {:>6}", "entity", "PK", "SK", "ms");
    put_and_get(table, &customer).await?;
    put_and_get(table, &order).await?;
    put_and_get(table, &line).await?;
    put_and_get(table, &product).await?;

    let index_key = Order::gsi1_key(&OrderStatus::Pending, &order.updated_at)?;
    println!();
    println!(
        "the order is in {} as {} = {}, {} = {}",
        index_key.index().name,
        index_key.index().partition_key.name,
        index_key.partition_key(),
        index_key.index().sort_key.map_or("-", |key| key.name),
        index_key.sort_key().unwrap_or("-"),
    );
    let (created_at, order_id) = Order::parse_sort_key(order.primary_key()?.sort_key())?;
    println!("its sort key parses back to created_at = {created_at}, order_id = {order_id}");
    let missing = table.get(&Customer::key("c-9999")?).await?;
    println!(
        "customer c-9999: {}",
        if missing.is_none() {
            "absent (Ok(None))"
        } else {
            "present"
        }
    );
    Ok(())
}

/// Puts `entity`, gets it back by its typed key, checks they are equal and
/// prints one row.
async fn put_and_get<E: Entity + PartialEq + std::fmt::Debug>(
    table: &Table,
    entity: &E,
) -> Result<(), stamp::Error> {
    let started = Instant::now();
    table.put(entity).await?;
    let key = entity.primary_key()?;
    let read = table.get(&key).await?;
    assert_eq!(
        read.as_ref(),
        Some(entity),
        "the item read back equals the one written"
    );
    println!(
        "{:<10} {:<18} {:<72} {:>6.1}",
        E::SCHEMA.type_name,
        key.partition_key(),
        key.sort_key(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    Ok(())
}
