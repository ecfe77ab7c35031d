//! Placing an order: one `TransactWriteItems` of the order, its lines,
//! the customer's count and the stock, and what its cancellation means.

use chrono::{DateTime, Utc};
use stamp::{Error, Table, TransactWrite, error::CancellationCode};
use uuid::Uuid;

use crate::embedding;
use crate::{Customer, LineItem, Order, OrderStatus, Product};

/// One line of a new order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderLine {
    /// The product.
    pub sku: String,
    /// How many units.
    pub quantity: u32,
}

/// What placing an order did.
#[derive(Debug, Clone, PartialEq)]
pub enum Placement {
    /// The order, its line items, the customer's order count and the stock
    /// were written in one transaction.
    Placed {
        /// The order's total, in cents.
        total_cents: u64,
    },
    /// An order with this id exists: nothing was changed (a retry).
    AlreadyPlaced,
    /// A product has less stock than the line asks for: nothing was changed.
    OutOfStock {
        /// The product.
        sku: String,
        /// The quantity asked for.
        requested: u32,
        /// The stock, as the transaction found it.
        available: Option<u32>,
    },
}

/// Places an order in one `TransactWriteItems`:
///
/// `products` are the products of the lines as read (their prices and
/// the words of the order's vector, [`embedding::order`]; a SKU not among
/// them is priced 0 and adds no words).
///
/// 1. create the order (`attribute_not_exists(PK)`, so a retry with the
///    same client-generated id and time changes nothing);
/// 2. add 1 to the customer's `order_count`;
/// 3. per line, subtract the quantity from the product's `stock`, guarded
///    by `stock >= quantity`, and create the line item (keyed by the
///    order id alone: a retry of the same id at another `placed_at`, whose
///    order key differs, fails here and changes nothing either).
///
/// # Errors
///
/// Validation errors before sending, and DynamoDB errors other than a
/// cancellation, which becomes [`Placement::AlreadyPlaced`] or
/// [`Placement::OutOfStock`].
pub async fn place_order(
    table: &Table,
    customer_id: &str,
    order_id: Uuid,
    placed_at: DateTime<Utc>,
    lines: &[OrderLine],
    products: &[Product],
) -> Result<Placement, Error> {
    let product = |sku: &str| products.iter().find(|known| known.sku == sku);
    let price = |sku: &str| product(sku).map_or(0, |product| product.price_cents);
    let total_cents = lines
        .iter()
        .map(|line| price(&line.sku) * u64::from(line.quantity))
        .sum();
    let order = Order {
        customer_id: customer_id.to_owned(),
        order_id,
        created_at: placed_at,
        created_month: Order::month_of(placed_at),
        status: Some(OrderStatus::Pending),
        updated_at: placed_at,
        total_cents,
        line_count: lines.len() as u32,
        embedding: embedding::order(lines.iter().filter_map(|line| product(&line.sku))),
    };
    let mut transaction = TransactWrite::new()
        .create(&order)
        .update(Customer::update(customer_id).add(Customer::ORDER_COUNT, &1));
    for (position, line) in lines.iter().enumerate() {
        transaction = transaction
            .update(
                Product::update(&line.sku)
                    .subtract(Product::STOCK, &line.quantity)
                    .condition(Product::STOCK.ge(&line.quantity)),
            )
            .create(&LineItem {
                order_id,
                line_no: position as u32 + 1,
                sku: line.sku.clone(),
                quantity: line.quantity,
                unit_price_cents: price(&line.sku),
            });
    }
    match transaction.send(table).await {
        Ok(()) => Ok(Placement::Placed { total_cents }),
        Err(Error::TransactionCanceled { reasons, table }) => {
            let failed = |index: usize| {
                reasons.iter().any(|reason| {
                    reason.index == index && reason.code == CancellationCode::ConditionalCheckFailed
                })
            };
            // The order's key holds its time of placement, so a retry at
            // another time passes the order's own condition; its line items
            // are keyed by the order id alone, so their creates fail then.
            if failed(0) || (0..lines.len()).any(|position| failed(3 + 2 * position)) {
                return Ok(Placement::AlreadyPlaced);
            }
            for (position, line) in lines.iter().enumerate() {
                let index = 2 + 2 * position;
                if failed(index) {
                    let available = reasons
                        .iter()
                        .find(|reason| reason.index == index)
                        .and_then(|reason| reason.stored::<Product>())
                        .and_then(Result::ok)
                        .map(|product| product.stock);
                    return Ok(Placement::OutOfStock {
                        sku: line.sku.clone(),
                        requested: line.quantity,
                        available,
                    });
                }
            }
            Err(Error::TransactionCanceled { reasons, table })
        }
        Err(other) => Err(other),
    }
}
