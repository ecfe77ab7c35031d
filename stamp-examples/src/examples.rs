//! One example value of each entity of the reference model: the items the
//! catalogue shows (keys as stored, the table drawn, capacity units per
//! access pattern), and that the capacity and planning tests price.

use chrono::{DateTime, Utc};
use stamp::TableDefinition;
use uuid::Uuid;

use crate::{
    Customer, LineItem, Order, OrderStatus, Product, Session, embedding, table_definition,
};

fn time(text: &str) -> DateTime<Utc> {
    text.parse().expect("a valid RFC 3339 time")
}

/// Customer `c-0001`, Ada Lovelace.
pub fn customer() -> Customer {
    Customer {
        customer_id: "c-0001".into(),
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        order_count: 1,
        created_at: time("2026-05-02T09:00:00Z"),
    }
}

/// Her order `n` (the example is order 1) of [`product`] (its vector),
/// pending, placed on 2026-06-01;
/// every `n` gives an item of the same size.
pub fn order(n: u128) -> Order {
    let placed = time("2026-06-01T10:00:00Z");
    Order {
        customer_id: "c-0001".into(),
        order_id: Uuid::from_u128(n),
        created_at: placed,
        created_month: Order::month_of(placed),
        status: Some(OrderStatus::Pending),
        updated_at: placed,
        total_cents: 4_500,
        line_count: 1,
        embedding: embedding::order([&product()]),
    }
}

/// The line of order 1.
pub fn line_item() -> LineItem {
    LineItem {
        order_id: Uuid::from_u128(1),
        line_no: 1,
        sku: "SKU-00042".into(),
        quantity: 3,
        unit_price_cents: 1_500,
    }
}

/// Product `SKU-00042`.
pub fn product() -> Product {
    Product::new("SKU-00042", "Analytical engine gear", "workshop", 1_500, 97)
}

/// A session of customer `c-0001`.
pub fn session() -> Session {
    Session {
        token: "tok-7f3a".into(),
        customer_id: "c-0001".into(),
        expires_at: time("2026-06-02T10:00:00Z"),
    }
}

/// [`table_definition`] with one example item per entity.
///
/// # Errors
///
/// The errors of [`TableDefinition::example`] (none for these values).
pub fn definition() -> Result<TableDefinition, stamp::Error> {
    table_definition()
        .example(&customer())?
        .example(&order(1))?
        .example(&line_item())?
        .example(&product())?
        .example(&session())
}
