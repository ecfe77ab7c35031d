//! `cargo xtask demo`: the reference e-commerce service on the embedded
//! DynamoDB (dynoxide, in this process), or on `--endpoint`. Creates the table from the schema, loads a generated data set
//! with batch writes (customers, whose e-mail is unique, with
//! transactions), runs every access pattern, places orders in
//! transactions, and deletes the table.

use std::process::ExitCode;

#[path = "demo/analytics.rs"]
mod analytics;
#[path = "demo/emails.rs"]
mod emails;
#[path = "demo/reads.rs"]
mod reads;
use std::time::Instant;

use chrono::Duration;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use stamp::Table;
use stamp_examples::data::{self, Size};
use stamp_examples::requests::RequestCounter;
use stamp_examples::scenario::{self, OrderLine, Placement, Run};
use stamp_examples::{
    Customer, Order, OrderStatus, OrderWithItems, client_counting, deployed_definition,
};
use uuid::Uuid;

/// Runs the reference service of Stamp end to end.
#[derive(Parser)]
struct Arguments {
    /// The DynamoDB endpoint, such as http://localhost:8000 (DynamoDB Local)
    /// or https://dynamodb.us-east-1.amazonaws.com (AWS, with the standard
    /// credential chain). Without it, the demo starts the embedded DynamoDB
    /// in this process.
    #[arg(long)]
    endpoint: Option<String>,
    /// The table to create; it is deleted at the end. Defaults to
    /// `stamp-demo-<unix time>`.
    #[arg(long)]
    table: Option<String>,
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

fn heading(text: &str) {
    println!();
    println!(
        "── {text} {}",
        "─".repeat(70usize.saturating_sub(text.chars().count()))
    );
}

fn money(cents: u64) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

fn status(status: Option<OrderStatus>) -> &'static str {
    match status {
        Some(OrderStatus::Pending) => "PENDING",
        Some(OrderStatus::Paid) => "PAID",
        Some(OrderStatus::Shipped) => "SHIPPED",
        Some(OrderStatus::Delivered) => "DELIVERED",
        None => "(archived)",
    }
}

fn order_row(order: &Order) -> String {
    format!(
        "order     {}  {}  {:<10}  {:>10}  {}",
        order.created_at.format("%Y-%m-%d %H:%M"),
        order.customer_id,
        status(order.status),
        money(order.total_cents),
        &order.order_id.to_string()[..8],
    )
}

/// Prints a pattern's key condition, cost and first rows.
fn show<T>(run: &Run<T>, rows: Vec<String>) {
    heading(run.pattern);
    println!("  key condition  {}", run.key_condition);
    println!(
        "  requests       {:<6} latency  {:.1} ms      items  {}",
        run.requests,
        run.latency.as_secs_f64() * 1000.0,
        rows.len()
    );
    for row in rows.iter().take(4) {
        println!("    {row}");
    }
    if rows.len() > 4 {
        println!("    … {} more", rows.len() - 4);
    }
}

async fn run(arguments: &Arguments) -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    let counter = RequestCounter::default();
    let name = arguments
        .table
        .clone()
        .unwrap_or_else(|| format!("stamp-demo-{}", chrono::Utc::now().timestamp()));
    let embedded = match &arguments.endpoint {
        Some(_) => None,
        None => Some(stamp::local::LocalDynamoDb::start().await?),
    };
    let endpoint = match &embedded {
        Some(server) => {
            println!(
                "DynamoDB: embedded dynoxide at {} (in this process)",
                server.endpoint()
            );
            server.endpoint().to_owned()
        }
        None => arguments.endpoint.clone().expect("given"),
    };
    // The data's story starts at `data::epoch` and its sessions expire
    // hours later: reads judge expiry by the story's clock.
    let table = Table::new(client_counting(Some(&endpoint), Some(&counter)).await, name)
        .with_clock(data::epoch);
    let definition = deployed_definition();
    table.create_table(&definition).await?;
    println!(
        "created table `{}` (PK, SK, GSI1, GSI2, keys-only GSI3, vector indexes VECTOR1 and VECTOR2, TTL on expires_at)",
        table.name()
    );
    let result = match settings(&table, &definition).await {
        Ok(()) => scenario_run(&table, &counter).await,
        Err(error) => Err(error),
    };
    // The deployed definition protects the table from deletion.
    scenario::lift_deletion_protection(&table).await?;
    table.delete_table().await?;
    println!();
    println!(
        "deleted table `{}`; {} requests in {:.1} s",
        table.name(),
        counter.count(),
        started.elapsed().as_secs_f64()
    );
    result
}

/// Prints the deployed settings as the CloudFormation template declares
/// them and the drift check of the live table; fails on any drift (a
/// setting the server does not describe is shown, not compared).
async fn settings(
    table: &Table,
    definition: &stamp::TableDefinition,
) -> Result<(), Box<dyn std::error::Error>> {
    heading("the deployed settings: CloudFormation and drift check");
    let template = definition.cloudformation()?.to_json_value();
    let resource = &template["Resources"]["Table"];
    println!(
        "  CloudFormation {}",
        resource["Type"].as_str().unwrap_or_default()
    );
    let properties = &resource["Properties"];
    for key in [
        "DeletionProtectionEnabled",
        "WarmThroughput",
        "Tags",
        "ResourcePolicy",
    ] {
        let mut value = properties[key].to_string();
        if value.chars().count() > 80 {
            value = format!("{}…", value.chars().take(80).collect::<String>());
        }
        println!("    {key:<26} {value}");
    }
    let check = scenario::drift_check(table, definition).await?;
    let drift = check.drift();
    if drift.is_empty() {
        println!("  drift check    no difference in what the server describes");
    }
    for difference in &drift {
        println!("  drift          {difference}");
    }
    for setting in check.not_described() {
        println!("  not described  {setting} (this server does not describe it; not compared)");
    }
    if !drift.is_empty() {
        return Err(format!(
            "the table drifted from its definition: {} difference(s)",
            drift.len()
        )
        .into());
    }
    Ok(())
}

async fn scenario_run(
    table: &Table,
    counter: &RequestCounter,
) -> Result<(), Box<dyn std::error::Error>> {
    let data = data::generate(data::SEED, Size::DEMO);
    load_data(table, counter, &data).await?;
    let customer = &data.customers[41];
    reads::read_patterns(table, counter, &data, customer).await?;
    emails::run(table, counter, customer).await?;
    let placed = place_orders(table, counter, &data, customer).await?;
    analytics::run(table, &data, &placed).await
}

/// Loads the generated data with batch writes (customers with
/// transactions), with a progress bar.
async fn load_data(
    table: &Table,
    counter: &RequestCounter,
    data: &data::DataSet,
) -> Result<(), stamp::Error> {
    heading(&format!(
        "loading {} items (seed {}): batches, customers in transactions",
        data.len(),
        data::SEED
    ));
    println!(
        "  {} customers, {} products, {} orders, {} line items, {} sessions",
        data.customers.len(),
        data.products.len(),
        data.orders.len(),
        data.line_items.len(),
        data.sessions.len()
    );
    let bar = ProgressBar::new(data.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("  [{bar:40}] {pos}/{len} items  {per_sec}  eta {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let loading = Instant::now();
    let before = counter.count();
    scenario::load(table, data, 1_000, |written| {
        bar.set_position(written as u64)
    })
    .await?;
    bar.finish_and_clear();
    println!(
        "  loaded {} items in {:.1} s with {} requests",
        data.len(),
        loading.elapsed().as_secs_f64(),
        counter.count() - before
    );

    Ok(())
}

/// Places an order twice (the second is a no-op), then one over the stock.
async fn place_orders(
    table: &Table,
    counter: &RequestCounter,
    data: &data::DataSet,
    customer: &Customer,
) -> Result<Vec<Order>, stamp::Error> {
    heading("placing an order: one TransactWriteItems");
    let order_id = Uuid::from_u128(0x5EED);
    let placed_at = data::epoch() + Duration::days(160);
    let lines = [
        OrderLine {
            sku: "SKU-00042".into(),
            quantity: 2,
        },
        OrderLine {
            sku: "SKU-00007".into(),
            quantity: 1,
        },
    ];
    for attempt in ["first attempt", "retry, same order id"] {
        let before = counter.count();
        let started = Instant::now();
        let outcome = scenario::place_order(
            table,
            &customer.customer_id,
            order_id,
            placed_at,
            &lines,
            &data.products,
        )
        .await?;
        let text = match outcome {
            Placement::Placed { total_cents } => format!("placed, total {}", money(total_cents)),
            Placement::AlreadyPlaced => {
                "already placed: the order exists, nothing changed".to_owned()
            }
            other => format!("{other:?}"),
        };
        println!(
            "  {attempt:<22} {text:<52} {} request, {:.1} ms",
            counter.count() - before,
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    // Each line of the placed order counts in its product's sales of the
    // day: an upsert, so the day's first sale needs no create first.
    for line in &lines {
        let price = data
            .products
            .iter()
            .find(|product| product.sku == line.sku)
            .map_or(0, |product| product.price_cents);
        let run = scenario::record_sale(
            table,
            counter,
            &line.sku,
            u64::from(line.quantity),
            price,
            placed_at,
        )
        .await?;
        println!(
            "  {:<22} {} on {}: {} units, {} ({} UpdateItem, {:.1} ms)",
            "count a sale (upsert)",
            run.result.sku,
            run.result.day,
            run.result.units,
            money(run.result.revenue_cents),
            run.requests,
            run.latency.as_secs_f64() * 1000.0
        );
    }
    let product = scenario::product_by_sku(table, counter, "SKU-00042")
        .await?
        .result;
    let stock = product.map_or(0, |product| product.stock);
    let too_many = [OrderLine {
        sku: "SKU-00042".into(),
        quantity: stock + 1,
    }];
    let outcome = scenario::place_order(
        table,
        &customer.customer_id,
        Uuid::from_u128(0x5EEE),
        placed_at,
        &too_many,
        &data.products,
    )
    .await?;
    let text = match outcome {
        Placement::OutOfStock {
            sku,
            requested,
            available,
        } => format!(
            "cancelled: ConditionalCheckFailed on {sku} (stock >= {requested}); stock is {}",
            available.map_or("unknown".to_owned(), |stock| stock.to_string())
        ),
        other => format!("{other:?}"),
    };
    println!("  {:<22} {text}", "more than in stock");
    let customer_now = scenario::customer_by_id(table, counter, &customer.customer_id)
        .await?
        .result;
    println!(
        "  {} has {} orders now (was {}); SKU-00042 stock {} (was {})",
        customer.customer_id,
        customer_now.map_or(0, |customer| customer.order_count),
        customer.order_count,
        stock,
        data.products[41].stock
    );
    // The order placed above (once: the retry changed nothing), as the
    // analytics step counts it.
    let placed = scenario::order_with_items(table, counter, &order_id)
        .await?
        .result
        .into_iter()
        .filter_map(|item| match item {
            OrderWithItems::Order(order) => Some(order),
            _ => None,
        })
        .collect();
    Ok(placed)
}
