//! The reference service as an HTTP API (axum): its read and write patterns
//! as endpoints, signed cursors in the query string, and Stamp's typed
//! errors as HTTP statuses ([`status_of`], the one place that maps them).
//!
//! | method and path | what it does | DynamoDB |
//! |---|---|---|
//! | `GET /customers/{customer_id}/orders?limit=N&cursor=C` | the customer's orders, newest first, `limit` (1 to 100, 20 by default) a page | `Query` of the customer's partition |
//! | `PUT /customers/{customer_id}/orders/{order_id}` | places the order whose id the client generated (body: `{"lines":[{"sku":"SKU-00042","quantity":2}]}`): `201 Created`, or `409 Conflict` when an order with this id exists, so a retried submit places one order | `GetItem` per product (its price and the words of the order's vector), then one `TransactWriteItems` ([`scenario::place_order`]) |
//! | `PUT /customers/{customer_id}/orders/{created_at}/{order_id}/status` | moves the order to a status (body: `{"status":"PAID","if_updated_at":"2026-06-01T10:00:00Z"}`) if it was not changed since `if_updated_at` (optimistic locking): `200 OK` with the order, `409 Conflict` when it was, `404 Not Found` when there is no such order | one `UpdateItem` with a condition (GSI1's keys rebuilt) |
//! | `GET /orders/pending?limit=N&cursor=C` | the most recently updated `PENDING` orders of all customers, newest first | one `Query` per shard of GSI1, merged |
//!
//! A page answers `{"orders":[…],"cursor":"…"}`; `cursor` is absent after
//! the last page, and passed back as `?cursor=` gives the next one. The
//! table should sign its cursors ([`Table::with_cursor_key`]): a cursor a
//! client changed is then `400 Bad Request` before anything is sent.
//!
//! Errors answer `{"error":"<kind>","message":"…"}`, the message
//! [`Error::client_message`] (no table name, key or DynamoDB message: the
//! full text goes to standard error), with the status of [`status_of`]: 400 for a request Stamp refuses before sending (a forged
//! cursor, a key too long), 404 for an absent item, 409 for a write whose
//! condition failed (an existing item, a version conflict, a cancelled
//! transaction), 503 with `Retry-After` when DynamoDB throttled the request,
//! 502 when DynamoDB failed in a way that may have applied the write, 500
//! otherwise.
//!
//! `cargo run -p stamp-examples --bin web` serves it on port 3000 over the
//! embedded DynamoDB with a generated data set.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use stamp::{
    Cursor, Error, Page, Table,
    error::{CancellationCode, Refusal},
};
use uuid::Uuid;

use crate::scenario::{self, OrderLine, Placement};
use crate::{Order, OrderStatus, Product};

/// The largest page a client may ask for (`limit`).
pub const MAX_PAGE: usize = 100;
/// The page size when the client gives no `limit`.
pub const DEFAULT_PAGE: usize = 20;
/// The `Retry-After` of a throttled request, in seconds.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// The routes of the API over `table` (see the module docs).
pub fn router(table: Table) -> Router {
    Router::new()
        .route("/customers/{customer_id}/orders", get(customer_orders))
        .route(
            "/customers/{customer_id}/orders/{order_id}",
            put(place_order),
        )
        .route(
            "/customers/{customer_id}/orders/{created_at}/{order_id}/status",
            put(set_status),
        )
        .route("/orders/pending", get(pending_orders))
        .with_state(table)
}

/// Serves [`router`] on `listener` until the future is dropped.
///
/// # Errors
///
/// The listener's I/O errors.
pub async fn serve(listener: tokio::net::TcpListener, table: Table) -> std::io::Result<()> {
    axum::serve(listener, router(table)).await
}

/// The query string of a page: `limit` and `cursor`, both optional.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PageParams {
    /// Orders per page, 1 to [`MAX_PAGE`]; [`DEFAULT_PAGE`] when absent.
    pub limit: Option<usize>,
    /// The `cursor` of the previous page.
    pub cursor: Option<String>,
}

impl PageParams {
    fn limit(&self) -> Result<usize, ApiError> {
        match self.limit {
            None => Ok(DEFAULT_PAGE),
            Some(limit) if (1..=MAX_PAGE).contains(&limit) => Ok(limit),
            Some(limit) => Err(ApiError::BadRequest(format!(
                "limit must be 1 to {MAX_PAGE}, not {limit}"
            ))),
        }
    }

    fn cursor(&self) -> Option<Cursor> {
        self.cursor.as_deref().map(Cursor::from_text)
    }
}

/// A page of orders, as the API answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrdersPage {
    /// The orders, in the order the endpoint gives them.
    pub orders: Vec<Order>,
    /// Where the next page starts (`?cursor=`); absent after the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

impl From<Page<Order>> for OrdersPage {
    fn from(page: Page<Order>) -> Self {
        OrdersPage {
            orders: page.items,
            cursor: page.cursor.map(|cursor| cursor.as_str().to_owned()),
        }
    }
}

/// The body of `PUT /customers/{customer_id}/orders/{order_id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewOrder {
    /// The lines, at least one.
    pub lines: Vec<NewLine>,
}

/// One line of a [`NewOrder`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewLine {
    /// The product's SKU.
    pub sku: String,
    /// How many units, at least 1.
    pub quantity: u32,
}

/// The answer to a placed order (`201 Created`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    /// The order's id, as the client sent it.
    pub order_id: Uuid,
    /// The order's total, in cents.
    pub total_cents: u64,
}

/// The body of `PUT /customers/{customer_id}/orders/{created_at}/{order_id}/status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusChange {
    /// The new status.
    pub status: OrderStatus,
    /// The order's `updated_at` as the client read it: the change is made
    /// only if the order was not updated since (else `409 Conflict`).
    pub if_updated_at: DateTime<Utc>,
}

/// The body of every error answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// A short machine-readable kind, such as `invalid_cursor` or
    /// `already_exists`.
    pub error: String,
    /// A message for people: [`Error::client_message`] for Stamp's errors,
    /// which names no table, key or DynamoDB message.
    pub message: String,
}

/// What a handler can fail with: Stamp's errors, and the API's own.
#[derive(Debug)]
pub enum ApiError {
    /// An error of Stamp or DynamoDB; its status is [`status_of`]'s.
    Stamp(Error),
    /// The request is malformed (`400`).
    BadRequest(String),
    /// An order with this id exists (`409`): the submit was a retry.
    AlreadyPlaced(Uuid),
    /// A product has less stock than a line asks for (`409`).
    OutOfStock {
        /// The product.
        sku: String,
        /// The quantity asked for.
        requested: u32,
    },
    /// A line names a product that does not exist (`404`).
    UnknownProduct(String),
}

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        ApiError::Stamp(error)
    }
}

/// The HTTP status of a Stamp error, with the `Retry-After` seconds when
/// the client should retry later, and a short kind for the body: the one
/// mapping of [`Error`] to HTTP.
///
/// - `404`: [`Error::ItemNotFound`];
/// - `409`: [`Error::AlreadyExists`], [`Error::VersionConflict`],
///   [`Error::ConditionFailed`], and [`Error::TransactionCanceled`] unless
///   it was cancelled by throttling;
/// - `503` with `Retry-After`: DynamoDB throttled the request
///   ([`Error::throttles`], or a throttling error code; a transaction
///   cancelled with `ThrottlingError` or `ProvisionedThroughputExceeded`);
/// - `502`: DynamoDB failed and the request [may have been
///   applied](Error::may_have_been_applied);
/// - `400`: errors Stamp finds before sending (a forged or foreign cursor,
///   a key too long, an item too large, …);
/// - `500`: every other error.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html>.
pub fn status_of(error: &Error) -> (StatusCode, Option<u64>, &'static str) {
    const THROTTLING_CODES: [&str; 3] = [
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
    ];
    let throttled = || {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Some(RETRY_AFTER_SECONDS),
            "throttled",
        )
    };
    match error {
        Error::ItemNotFound { .. } => (StatusCode::NOT_FOUND, None, "not_found"),
        Error::AlreadyExists { .. } => (StatusCode::CONFLICT, None, "already_exists"),
        Error::VersionConflict { .. } => (StatusCode::CONFLICT, None, "version_conflict"),
        Error::ConditionFailed { .. } => (StatusCode::CONFLICT, None, "condition_failed"),
        Error::TransactionCanceled { reasons, .. } => {
            if reasons.iter().any(|reason| {
                matches!(
                    reason.code,
                    CancellationCode::ThrottlingError
                        | CancellationCode::ProvisionedThroughputExceeded
                )
            }) {
                throttled()
            } else {
                (StatusCode::CONFLICT, None, "transaction_canceled")
            }
        }
        Error::DynamoDb { code, .. } => {
            if !error.throttles().is_empty()
                || code
                    .as_deref()
                    .is_some_and(|code| THROTTLING_CODES.contains(&code))
            {
                throttled()
            } else if error.may_have_been_applied() {
                (StatusCode::BAD_GATEWAY, None, "dynamodb")
            } else {
                (StatusCode::INTERNAL_SERVER_ERROR, None, "dynamodb")
            }
        }
        Error::OutcomeUnknown { .. } => (StatusCode::BAD_GATEWAY, None, "outcome_unknown"),
        Error::Refused(Refusal::InvalidCursor { .. } | Refusal::CursorMismatch) => {
            (StatusCode::BAD_REQUEST, None, "invalid_cursor")
        }
        // A key the client's values cannot make, or a request Stamp refuses
        // before sending (an item over 400 KB, a number DynamoDB cannot
        // hold, an empty sort-key range): the client's input.
        Error::Key(_) | Error::Refused(_) => (StatusCode::BAD_REQUEST, None, "invalid_request"),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, None, "internal"),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, retry_after, kind, message) = match self {
            ApiError::Stamp(error) => {
                let (status, retry_after, kind) = status_of(&error);
                // The full text (table, keys, DynamoDB's message) for the
                // log; for the client, what failed in its terms.
                eprintln!("{kind}: {error}");
                (status, retry_after, kind, error.client_message().to_owned())
            }
            ApiError::BadRequest(message) => {
                (StatusCode::BAD_REQUEST, None, "bad_request", message)
            }
            ApiError::AlreadyPlaced(order_id) => (
                StatusCode::CONFLICT,
                None,
                "already_exists",
                format!("order {order_id} is already placed"),
            ),
            ApiError::OutOfStock { sku, requested } => (
                StatusCode::CONFLICT,
                None,
                "out_of_stock",
                format!("{sku} has fewer than {requested} units in stock"),
            ),
            ApiError::UnknownProduct(sku) => (
                StatusCode::NOT_FOUND,
                None,
                "not_found",
                format!("there is no product {sku}"),
            ),
        };
        let body = ErrorBody {
            error: kind.to_owned(),
            message,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// `GET /customers/{customer_id}/orders`: one page of the customer's
/// orders, newest first.
async fn customer_orders(
    State(table): State<Table>,
    Path(customer_id): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<OrdersPage>, ApiError> {
    let mut query = Order::query(&customer_id)
        .newest_first()
        .max_items(params.limit()?);
    if let Some(cursor) = params.cursor() {
        query = query.after(&cursor);
    }
    Ok(Json(query.send(&table).await?.into()))
}

/// `GET /orders/pending`: one page of the most recently updated pending
/// orders of all customers (every shard of GSI1, merged).
async fn pending_orders(
    State(table): State<Table>,
    Query(params): Query<PageParams>,
) -> Result<Json<OrdersPage>, ApiError> {
    let mut query = Order::query_gsi1(&OrderStatus::Pending)
        .newest_first()
        .max_items(params.limit()?);
    if let Some(cursor) = params.cursor() {
        query = query.after(&cursor);
    }
    Ok(Json(query.send(&table).await?.into()))
}

/// `PUT /customers/{customer_id}/orders/{order_id}`: places the order in
/// one transaction; a second submit of the same id changes nothing.
async fn place_order(
    State(table): State<Table>,
    Path((customer_id, order_id)): Path<(String, Uuid)>,
    Json(new_order): Json<NewOrder>,
) -> Result<(StatusCode, Json<Placed>), ApiError> {
    if new_order.lines.is_empty() {
        return Err(ApiError::BadRequest("an order needs a line".into()));
    }
    let mut products = Vec::with_capacity(new_order.lines.len());
    let mut lines = Vec::with_capacity(new_order.lines.len());
    for line in &new_order.lines {
        if line.quantity == 0 {
            return Err(ApiError::BadRequest(format!(
                "the quantity of {} must be at least 1",
                line.sku
            )));
        }
        let product: Option<Product> = table.get(&Product::key(&line.sku)?).await?;
        let product = product.ok_or_else(|| ApiError::UnknownProduct(line.sku.clone()))?;
        products.push(product);
        lines.push(OrderLine {
            sku: line.sku.clone(),
            quantity: line.quantity,
        });
    }
    match scenario::place_order(
        &table,
        &customer_id,
        order_id,
        Utc::now(),
        &lines,
        &products,
    )
    .await?
    {
        Placement::Placed { total_cents } => Ok((
            StatusCode::CREATED,
            Json(Placed {
                order_id,
                total_cents,
            }),
        )),
        Placement::AlreadyPlaced => Err(ApiError::AlreadyPlaced(order_id)),
        Placement::OutOfStock { sku, requested, .. } => {
            Err(ApiError::OutOfStock { sku, requested })
        }
    }
}

/// `PUT /customers/{customer_id}/orders/{created_at}/{order_id}/status`:
/// one `UpdateItem` of the status and `updated_at` (so GSI1's keys move
/// with them), on the condition that `updated_at` is still the one the
/// client read.
async fn set_status(
    State(table): State<Table>,
    Path((customer_id, created_at, order_id)): Path<(String, DateTime<Utc>, Uuid)>,
    Json(change): Json<StatusChange>,
) -> Result<Json<Order>, ApiError> {
    let updated_at = Utc::now();
    let order = Order::update(&customer_id, &created_at, &order_id)
        .set(Order::STATUS, &change.status)
        .set(Order::UPDATED_AT, &updated_at)
        .condition(Order::UPDATED_AT.eq(&change.if_updated_at))
        .send_returning_new(&table)
        .await?;
    Ok(Json(order))
}
