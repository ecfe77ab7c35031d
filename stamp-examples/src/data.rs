//! The demo's data set: customers, products, orders and line items,
//! generated from a fixed seed, so every run (and the integration test)
//! sees the same data.

use chrono::{DateTime, Duration, TimeZone, Utc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uuid::Uuid;

use crate::{Customer, LineItem, Order, OrderStatus, Product, Session, embedding};

/// How much data to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Customers, `c-0001` onwards.
    pub customers: usize,
    /// Products, `SKU-00001` onwards.
    pub products: usize,
    /// Orders, spread over the customers.
    pub orders: usize,
    /// The first this many orders get their line items stored (every order
    /// has 1 to 3 lines, which its total counts).
    pub orders_with_line_items: usize,
}

impl Size {
    /// The demo's size: 1,000 customers, 500 products, 20,000 orders, the
    /// line items of 2,000 of them.
    pub const DEMO: Size = Size {
        customers: 1_000,
        products: 500,
        orders: 20_000,
        orders_with_line_items: 2_000,
    };
}

/// The generated items.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSet {
    /// Customer profiles; `order_count` counts their orders.
    pub customers: Vec<Customer>,
    /// Products with their stock and vectors.
    pub products: Vec<Product>,
    /// Orders, in generation order, each with the vector of its products.
    pub orders: Vec<Order>,
    /// The line items of the first `orders_with_line_items` orders.
    pub line_items: Vec<LineItem>,
    /// One session per 10 customers, expiring within a day of the epoch of
    /// the data set.
    pub sessions: Vec<Session>,
}

impl DataSet {
    /// Every item, in the order the demo loads them.
    pub fn len(&self) -> usize {
        self.customers.len()
            + self.products.len()
            + self.orders.len()
            + self.line_items.len()
            + self.sessions.len()
    }

    /// Whether there is nothing to load.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The seed of the demo's data set.
pub const SEED: u64 = 20_260_601;

const FIRST_NAMES: &[&str] = &[
    "Ada",
    "Alan",
    "Barbara",
    "Claude",
    "Donald",
    "Edsger",
    "Frances",
    "Grace",
    "Hedy",
    "John",
    "Katherine",
    "Leslie",
    "Margaret",
    "Niklaus",
    "Radia",
    "Tim",
];
const LAST_NAMES: &[&str] = &[
    "Lovelace",
    "Turing",
    "Liskov",
    "Shannon",
    "Knuth",
    "Dijkstra",
    "Allen",
    "Hopper",
    "Lamarr",
    "McCarthy",
    "Johnson",
    "Lamport",
    "Hamilton",
    "Wirth",
    "Perlman",
    "Berners-Lee",
];
const ADJECTIVES: &[&str] = &[
    "Brass", "Copper", "Oak", "Steel", "Walnut", "Linen", "Glass", "Slate",
];
/// Each thing a product can be, with its category.
const THINGS: &[(&str, &str)] = &[
    ("gear", "workshop"),
    ("lamp", "lighting"),
    ("kettle", "kitchen"),
    ("notebook", "stationery"),
    ("compass", "outdoor"),
    ("clock", "home"),
    ("pen", "stationery"),
    ("tray", "kitchen"),
    ("stool", "furniture"),
    ("bowl", "kitchen"),
];

/// When the data set's story starts: 2026-01-01T00:00:00Z.
pub fn epoch() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
        .single()
        .expect("a valid time")
}

/// Generates the data set of `size` from `seed`.
pub fn generate(seed: u64, size: Size) -> DataSet {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let epoch = epoch();
    let products: Vec<Product> = (1..=size.products)
        .map(|number| {
            let adjective = ADJECTIVES[rng.random_range(0..ADJECTIVES.len())];
            let (thing, category) = THINGS[rng.random_range(0..THINGS.len())];
            Product::new(
                &format!("SKU-{number:05}"),
                &format!("{adjective} {thing}"),
                category,
                rng.random_range(199..=19_999),
                rng.random_range(50..=500),
            )
        })
        .collect();
    let mut customers: Vec<Customer> = (1..=size.customers)
        .map(|number| {
            let first = FIRST_NAMES[rng.random_range(0..FIRST_NAMES.len())];
            let last = LAST_NAMES[rng.random_range(0..LAST_NAMES.len())];
            Customer {
                customer_id: format!("c-{number:04}"),
                name: format!("{first} {last}"),
                email: format!(
                    "{}.{}{number}@example.com",
                    first.to_lowercase(),
                    last.to_lowercase()
                ),
                order_count: 0,
                created_at: epoch - Duration::days(rng.random_range(1..=365)),
            }
        })
        .collect();
    let mut orders = Vec::with_capacity(size.orders);
    let mut line_items = Vec::new();
    for number in 0..size.orders {
        let customer = rng.random_range(0..customers.len());
        customers[customer].order_count += 1;
        let created_at = epoch + Duration::seconds(rng.random_range(0..150 * 24 * 3600));
        let order_id = Uuid::from_u128(rng.random());
        let status = match rng.random_range(0..100) {
            0..10 => Some(OrderStatus::Pending),
            10..30 => Some(OrderStatus::Paid),
            30..60 => Some(OrderStatus::Shipped),
            60..95 => Some(OrderStatus::Delivered),
            _ => None,
        };
        let lines = rng.random_range(1..=3u32);
        let mut total_cents = 0;
        let mut ordered = Vec::with_capacity(lines as usize);
        for line_no in 1..=lines {
            let product = &products[rng.random_range(0..products.len())];
            ordered.push(product);
            let quantity = rng.random_range(1..=3);
            total_cents += product.price_cents * u64::from(quantity);
            if number < size.orders_with_line_items {
                line_items.push(LineItem {
                    order_id,
                    line_no,
                    sku: product.sku.clone(),
                    quantity,
                    unit_price_cents: product.price_cents,
                });
            }
        }
        orders.push(Order {
            customer_id: customers[customer].customer_id.clone(),
            order_id,
            created_at,
            created_month: Order::month_of(created_at),
            status,
            updated_at: created_at + Duration::minutes(rng.random_range(0..72 * 60)),
            total_cents,
            line_count: lines,
            embedding: embedding::order(ordered),
        });
    }
    let sessions = customers
        .iter()
        .step_by(10)
        .map(|customer| Session {
            token: format!("s-{:016x}", rng.random::<u64>()),
            customer_id: customer.customer_id.clone(),
            expires_at: epoch + Duration::hours(rng.random_range(1..=24)),
        })
        .collect();
    DataSet {
        customers,
        products,
        orders,
        line_items,
        sessions,
    }
}
