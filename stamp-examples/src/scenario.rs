//! The reference service's access patterns and its order placement, as the
//! demo runs them and the integration test checks them.

use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use futures::TryStreamExt;
use stamp::{Entity, Error, Table, vector::Similar};
use uuid::Uuid;

mod deployment;
mod emails;
mod load;
mod orders;

pub use deployment::{DriftCheck, drift_check, lift_deletion_protection};
pub use emails::{EmailClaim, create_customer, create_customers, customer_by_email};
pub use load::load;
pub use orders::{OrderLine, Placement, place_order};

use crate::requests::RequestCounter;
use crate::{
    Customer, CustomerWithOrders, LineItem, Order, OrderStatus, OrderWithItems, Product,
    ProductSales, Session,
};

/// One run of an access pattern.
#[derive(Debug, Clone)]
pub struct Run<T> {
    /// What the pattern answers.
    pub pattern: &'static str,
    /// The key condition sent, with its placeholders filled in, or the key
    /// of a get.
    pub key_condition: String,
    /// The result.
    pub result: T,
    /// HTTP requests sent.
    pub requests: usize,
    /// Wall time from the first request to the result.
    pub latency: Duration,
}

/// Runs `pattern` and measures it.
async fn measure<T, F>(
    counter: &RequestCounter,
    pattern: &'static str,
    key_condition: String,
    run: F,
) -> Result<Run<T>, Error>
where
    F: std::future::Future<Output = Result<T, Error>>,
{
    let before = counter.count();
    let started = Instant::now();
    let result = run.await?;
    Ok(Run {
        pattern,
        key_condition,
        result,
        requests: counter.count() - before,
        latency: started.elapsed(),
    })
}

/// A key condition with its `#name` and `:value` placeholders filled in,
/// for display.
fn readable(input: &aws_sdk_dynamodb::operation::query::QueryInput) -> String {
    filled(
        input.key_condition_expression().unwrap_or_default(),
        input.expression_attribute_names(),
        input.expression_attribute_values(),
        input.index_name(),
    )
}

/// A similarity search for display: its index, `TopK` and condition, with
/// the placeholders filled in (the query vector is not shown).
fn readable_search(
    input: &aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput,
) -> String {
    let condition = filled(
        input.search_condition_expression().unwrap_or("(none)"),
        input.expression_attribute_names(),
        input.expression_attribute_values(),
        None,
    );
    format!(
        "{}: TopK = {}, vector of {}, condition {condition}",
        input.index_name().unwrap_or_default(),
        input.top_k().unwrap_or_default(),
        input.search_vector().len()
    )
}

/// `expression` with its `#name` and `:value` placeholders filled in,
/// prefixed by the index it reads.
fn filled(
    expression: &str,
    names: Option<&std::collections::HashMap<String, String>>,
    values: Option<&std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>>,
    index: Option<&str>,
) -> String {
    let mut text = expression.to_owned();
    let mut names: Vec<(&String, &String)> = names.into_iter().flatten().collect();
    names.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(a.0)));
    for (placeholder, name) in names {
        text = text.replace(placeholder.as_str(), name);
    }
    let mut values: Vec<_> = values.into_iter().flatten().collect();
    values.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(a.0)));
    for (placeholder, value) in values {
        let shown = value
            .as_s()
            .map_or_else(|_| format!("{value:?}"), |text| format!("\"{text}\""));
        text = text.replace(placeholder.as_str(), &shown);
    }
    if let Some(index) = index {
        text = format!("{index}: {text}");
    }
    text
}

fn key_text<E: Entity>(key: &stamp::PrimaryKey<E>) -> String {
    format!(
        "{} = \"{}\" AND {} = \"{}\"",
        E::SCHEMA.partition_key.name,
        key.partition_key(),
        E::SCHEMA.sort_key.name,
        key.sort_key()
    )
}

/// A customer by id: one `GetItem`.
pub async fn customer_by_id(
    table: &Table,
    counter: &RequestCounter,
    customer_id: &str,
) -> Result<Run<Option<Customer>>, Error> {
    let key = Customer::key(customer_id)?;
    measure(counter, "a customer by id", key_text(&key), table.get(&key)).await
}

/// A customer and their `count` newest orders: one `Query` of the
/// partition, newest first (the profile's sort key, `PROFILE`, sorts after
/// every `ORDER#…`).
pub async fn customer_with_newest_orders(
    table: &Table,
    counter: &RequestCounter,
    customer_id: &str,
    count: u32,
) -> Result<Run<Vec<CustomerWithOrders>>, Error> {
    let query = Order::query(customer_id)
        .newest_first()
        .limit(count + 1)
        .collection::<CustomerWithOrders>();
    let key_condition = readable(&query.request(table.name())?);
    measure(
        counter,
        "a customer and their 10 newest orders",
        key_condition,
        async { Ok(query.send(table).await?.items) },
    )
    .await
}

/// A customer's orders placed from `first` to `last`, whole days
/// inclusive: one `Query` with the sort key between two typed bounds.
pub async fn orders_in_range(
    table: &Table,
    counter: &RequestCounter,
    customer_id: &str,
    first: NaiveDate,
    last: NaiveDate,
) -> Result<Run<Vec<Order>>, Error> {
    let from: DateTime<Utc> = first.and_time(NaiveTime::MIN).and_utc();
    let to: DateTime<Utc> = last
        .and_hms_nano_opt(23, 59, 59, 999_999_999)
        .expect("a valid time")
        .and_utc();
    let query = Order::query(customer_id).sort_key_between(&from, &to);
    let key_condition = readable(&query.request(table.name())?);
    measure(
        counter,
        "a customer's orders in a date range",
        key_condition,
        async { query.stream(table).try_collect().await },
    )
    .await
}

/// An order with its line items: one `Query` of GSI2.
pub async fn order_with_items(
    table: &Table,
    counter: &RequestCounter,
    order_id: &Uuid,
) -> Result<Run<Vec<OrderWithItems>>, Error> {
    let query = LineItem::query_gsi2(order_id).collection::<OrderWithItems>();
    let key_condition = readable(&query.request(table.name())?);
    measure(
        counter,
        "an order with its line items",
        key_condition,
        async { query.stream(table).try_collect().await },
    )
    .await
}

/// A product by SKU: one `GetItem`.
pub async fn product_by_sku(
    table: &Table,
    counter: &RequestCounter,
    sku: &str,
) -> Result<Run<Option<Product>>, Error> {
    let key = Product::key(sku)?;
    measure(counter, "a product by SKU", key_text(&key), table.get(&key)).await
}

/// Counts a sale of `units` of `sku` at `price_cents` each, at `at`, in
/// the product's sales of that day: one `UpdateItem` (an upsert), which
/// creates the day's counter with its first sale and increments it after
/// (`ADD units :u, revenue_cents :r`, `first_sale_at` with
/// `if_not_exists`), and returns the counter after it.
pub async fn record_sale(
    table: &Table,
    counter: &RequestCounter,
    sku: &str,
    units: u64,
    price_cents: u64,
    at: DateTime<Utc>,
) -> Result<Run<ProductSales>, Error> {
    let day = at.date_naive();
    let key = ProductSales::key(sku, &day)?;
    let upsert = ProductSales::upsert(sku, &day)
        .add(ProductSales::UNITS, &units)
        .add(ProductSales::REVENUE_CENTS, &(units * price_cents))
        .at(at);
    measure(
        counter,
        "count a sale (upsert)",
        key_text(&key),
        upsert.send_returning_new(table),
    )
    .await
}

/// The `count` most recently updated orders in `status`, of all customers:
/// a page of the sparse GSI1, newest first. GSI1 is sharded over 16
/// partition keys per status, so the page is one `Query` per shard, sent
/// together and merged by `updated_at`: the same orders as one `Query` of
/// an unsharded index.
pub async fn newest_in_status(
    table: &Table,
    counter: &RequestCounter,
    status: OrderStatus,
    count: u32,
) -> Result<Run<Vec<Order>>, Error> {
    let query = Order::query_gsi1(&status).newest_first().limit(count);
    let requests = query.requests(table.name())?;
    let (first, last) = (
        readable(requests.first().expect("a query sends a request")),
        readable(requests.last().expect("a query sends a request")),
    );
    let key_condition = if requests.len() == 1 {
        first
    } else {
        format!("{} requests, merged: {first} … {last}", requests.len())
    };
    measure(
        counter,
        "the newest PENDING orders of all customers (16 shards)",
        key_condition,
        async { Ok(query.send(table).await?.items) },
    )
    .await
}

/// Products similar to `product`: one `SearchVectors` of `VECTOR1` with
/// the product's own vector, `count` results without the product itself
/// (the search asks for one more and leaves it out), most similar first,
/// each with its cosine distance (`1 - cos`, 0 for the same words).
pub async fn similar_products(
    table: &Table,
    counter: &RequestCounter,
    product: &Product,
    count: u32,
) -> Result<Run<Vec<Similar<Product>>>, Error> {
    let search = Product::search_similar(&product.embedding).top_k(count + 1);
    let key_condition = readable_search(&search.request(table.name())?);
    measure(
        counter,
        "products similar to this one",
        key_condition,
        async {
            let mut results = search.send(table).await?.results;
            results.retain(|similar| similar.item.sku != product.sku);
            results.truncate(count as usize);
            Ok(results)
        },
    )
    .await
}

/// The orders of `order`'s customer placed in `month` (`YYYY-MM`, the
/// recent ones) that are most like `order` (the words of their products):
/// one `SearchVectors` of `VECTOR2` in the customer's partition, filtered
/// in the index on `created_month = month`, `count` results without the
/// order itself.
pub async fn similar_recent_orders(
    table: &Table,
    counter: &RequestCounter,
    order: &Order,
    month: &str,
    count: u32,
) -> Result<Run<Vec<Similar<Order>>>, Error> {
    let search = Order::search_similar_vector2(&order.customer_id, &order.embedding)
        .filter(|f| f.created_month.eq(&month.to_owned()))
        .top_k(count + 1);
    let key_condition = readable_search(&search.request(table.name())?);
    measure(
        counter,
        "a customer's recent orders like this one",
        key_condition,
        async {
            let mut results = search.send(table).await?.results;
            results.retain(|similar| similar.item.order_id != order.order_id);
            results.truncate(count as usize);
            Ok(results)
        },
    )
    .await
}

/// The first `count` products of `category`, whole, in SKU order: a page
/// of the `KEYS_ONLY` GSI3 (`CATEGORY#<category>`), then one
/// `BatchGetItem` of its keys (`hydrate()`): two requests, where the index
/// alone could not answer (it holds no name or price).
pub async fn products_in_category(
    table: &Table,
    counter: &RequestCounter,
    category: &str,
    count: u32,
) -> Result<Run<Vec<Product>>, Error> {
    let query = Product::query_gsi3(category).hydrate().limit(count);
    let key_condition = readable(&query.request(table.name())?);
    measure(
        counter,
        "the products of a category (keys-only GSI3, hydrated)",
        key_condition,
        async { Ok(query.send(table).await?.items) },
    )
    .await
}

/// A session by token read at `at` by the table's clock: one `GetItem`.
/// Once its TTL has passed the session is not returned (`None`), though
/// DynamoDB deletes it only within days of expiry; `include_expired()`
/// would return it.
pub async fn session_at(
    table: &Table,
    counter: &RequestCounter,
    token: &str,
    at: DateTime<Utc>,
) -> Result<Run<Option<Session>>, Error> {
    let key = Session::key(token)?;
    let later = table.clone().with_clock(move || at);
    measure(
        counter,
        "the same session after its TTL (expired: not returned)",
        key_text(&key),
        async move { later.get(&key).await },
    )
    .await
}

/// A session by token: one `GetItem` (the item expires by TTL).
pub async fn session_by_token(
    table: &Table,
    counter: &RequestCounter,
    token: &str,
) -> Result<Run<Option<Session>>, Error> {
    let key = Session::key(token)?;
    measure(
        counter,
        "a session by token",
        key_text(&key),
        table.get(&key),
    )
    .await
}
