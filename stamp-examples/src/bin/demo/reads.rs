//! The demo's read access patterns, each run once with its key condition,
//! its requests and its first rows.

use chrono::{Duration, NaiveDate};
use stamp::Table;
use stamp_examples::data;
use stamp_examples::requests::RequestCounter;
use stamp_examples::scenario;
use stamp_examples::{Customer, CustomerWithOrders, OrderStatus, OrderWithItems};

use super::{money, order_row, show};

/// Runs every read access pattern once and shows its result and requests.
pub async fn read_patterns(
    table: &Table,
    counter: &RequestCounter,
    data: &data::DataSet,
    customer: &Customer,
) -> Result<(), stamp::Error> {
    let run = scenario::customer_by_id(table, counter, &customer.customer_id).await?;
    let rows = run
        .result
        .iter()
        .map(|customer| {
            format!(
                "customer  {}  {}  {}  {} orders",
                customer.customer_id, customer.name, customer.email, customer.order_count
            )
        })
        .collect();
    show(&run, rows);

    let run =
        scenario::customer_with_newest_orders(table, counter, &customer.customer_id, 10).await?;
    let rows = run
        .result
        .iter()
        .map(|item| match item {
            CustomerWithOrders::Customer(customer) => {
                format!("customer  {}  {}", customer.customer_id, customer.name)
            }
            CustomerWithOrders::Order(order) => order_row(order),
            CustomerWithOrders::Unknown(_) => "another item type".to_owned(),
        })
        .collect();
    show(&run, rows);

    let first = NaiveDate::from_ymd_opt(2026, 2, 1).expect("a date");
    let last = NaiveDate::from_ymd_opt(2026, 2, 28).expect("a date");
    let run = scenario::orders_in_range(table, counter, &customer.customer_id, first, last).await?;
    let rows = run.result.iter().map(order_row).collect();
    show(&run, rows);

    let order = &data.orders[7];
    let run = scenario::order_with_items(table, counter, &order.order_id).await?;
    let rows = run
        .result
        .iter()
        .map(|item| match item {
            OrderWithItems::Order(order) => order_row(order),
            OrderWithItems::LineItem(line) => format!(
                "line {}    {}  × {}  at {}",
                line.line_no,
                line.sku,
                line.quantity,
                money(line.unit_price_cents)
            ),
            OrderWithItems::Unknown(_) => "another item type".to_owned(),
        })
        .collect();
    show(&run, rows);

    let run = scenario::product_by_sku(table, counter, "SKU-00042").await?;
    let rows = run
        .result
        .iter()
        .map(|product| {
            format!(
                "product   {}  {}  {}  {} in stock",
                product.sku,
                product.name,
                money(product.price_cents),
                product.stock
            )
        })
        .collect();
    show(&run, rows);

    let product = &data.products[41];
    println!();
    println!(
        "  (the product: {}  {}  {})",
        product.sku, product.name, product.category
    );
    let run = scenario::similar_products(table, counter, product, 5).await?;
    let rows = run
        .result
        .iter()
        .map(|similar| {
            format!(
                "distance {:.3}  {}  {}  {}",
                similar.score, similar.item.sku, similar.item.name, similar.item.category
            )
        })
        .collect();
    show(&run, rows);

    let newest = data
        .orders
        .iter()
        .filter(|order| order.customer_id == customer.customer_id)
        .max_by_key(|order| order.created_at)
        .expect("the customer has orders");
    println!();
    println!(
        "  (the order: {}, {} lines, in {})",
        &newest.order_id.to_string()[..8],
        newest.line_count,
        newest.created_month
    );
    let run =
        scenario::similar_recent_orders(table, counter, newest, &newest.created_month, 5).await?;
    let rows = run
        .result
        .iter()
        .map(|similar| {
            format!(
                "distance {:.3}  {}",
                similar.score,
                order_row(&similar.item)
            )
        })
        .collect();
    show(&run, rows);

    let run = scenario::newest_in_status(table, counter, OrderStatus::Pending, 10).await?;
    let rows = run
        .result
        .iter()
        .map(|order| {
            format!(
                "updated {}  {}",
                order.updated_at.format("%Y-%m-%d %H:%M"),
                order_row(order)
            )
        })
        .collect();
    show(&run, rows);

    let session = &data.sessions[0];
    let run = scenario::session_by_token(table, counter, &session.token).await?;
    let rows = run
        .result
        .iter()
        .map(|session| {
            format!(
                "session   {}  {}  expires {} (TTL, epoch seconds)",
                session.token,
                session.customer_id,
                session.expires_at.format("%Y-%m-%d %H:%M")
            )
        })
        .collect();
    show(&run, rows);
    let after_expiry = session.expires_at + Duration::seconds(1);
    let run = scenario::session_at(table, counter, &session.token, after_expiry).await?;
    let rows = run
        .result
        .iter()
        .map(|session| format!("session   {} (still returned)", session.token))
        .collect();
    show(&run, rows);
    if run.result.is_none() {
        println!(
            "    none: expired at {}, still stored until DynamoDB's TTL deletes it",
            session.expires_at.format("%Y-%m-%d %H:%M")
        );
    }

    let category = &data.products[0].category;
    let run = scenario::products_in_category(table, counter, category, 5).await?;
    let rows = run
        .result
        .iter()
        .map(|product| {
            format!(
                "{}  {:<28} {}",
                product.sku,
                product.name,
                money(product.price_cents)
            )
        })
        .collect();
    show(&run, rows);

    Ok(())
}
