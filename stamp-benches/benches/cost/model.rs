//! The entities the benchmarks measure, and deterministic values of them.
//!
//! - [`Order`]: the reference service's order (`stamp-examples`) with the
//!   payload a real order carries: 14 fields, about 1 KB stored.
//! - [`Reading`]: a wide item, 17 fields plus `PK`, `SK` and `Type`: 20
//!   attributes of small scalar values.
//! - [`Shipment`]: a sort key of three fields of three types,
//!   `SHIP#<shipped_on>#<carrier>#<shipment_id>`, for key building.
//! - [`ShardedOrder`]: the order with its status index sharded 16 ways, as
//!   the reference service's is, for the merged query of point 4b.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use stamp::AttributeMap;
use stamp::{Item, KeyPart};
use uuid::Uuid;

/// Where an order is in its life, as in `stamp-examples`.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OrderStatus {
    Pending,
    Paid,
    Shipped,
    Delivered,
}

impl OrderStatus {
    /// The stored text, as serde writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Pending => "PENDING",
            OrderStatus::Paid => "PAID",
            OrderStatus::Shipped => "SHIPPED",
            OrderStatus::Delivered => "DELIVERED",
        }
    }

    /// The status stored as `text`.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "PENDING" => OrderStatus::Pending,
            "PAID" => OrderStatus::Paid,
            "SHIPPED" => OrderStatus::Shipped,
            "DELIVERED" => OrderStatus::Delivered,
            _ => return None,
        })
    }
}

/// A typical order: the keys of the reference service's order, and what a
/// real one carries besides (addresses, a note, the SKUs).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
pub struct Order {
    pub customer_id: String,
    pub order_id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub status: Option<OrderStatus>,
    pub total_cents: u64,
    pub currency: String,
    pub line_count: u32,
    pub email: String,
    pub shipping_address: String,
    pub billing_address: String,
    pub note: String,
    pub gift: bool,
    pub skus: Vec<String>,
}

/// The order with GSI1 sharded over 16 partition keys per status, as the
/// reference service's order (`STATUS#PAID#0` to `#15`): the same fields,
/// stored the same way.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<created_at>#<order_id>"]
#[gsi1(pk = "STATUS#<status>#<shard>", sk = "<updated_at>", shards = 16)]
pub struct ShardedOrder {
    pub customer_id: String,
    pub order_id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub status: Option<OrderStatus>,
    pub total_cents: u64,
    pub currency: String,
    pub line_count: u32,
    pub email: String,
    pub shipping_address: String,
    pub billing_address: String,
    pub note: String,
    pub gift: bool,
    pub skus: Vec<String>,
}

impl From<Order> for ShardedOrder {
    fn from(order: Order) -> Self {
        ShardedOrder {
            customer_id: order.customer_id,
            order_id: order.order_id,
            created_at: order.created_at,
            updated_at: order.updated_at,
            status: order.status,
            total_cents: order.total_cents,
            currency: order.currency,
            line_count: order.line_count,
            email: order.email,
            shipping_address: order.shipping_address,
            billing_address: order.billing_address,
            note: order.note,
            gift: order.gift,
            skus: order.skus,
        }
    }
}

/// A wide item of small values: a sensor reading with 17 fields.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "DEVICE#<device_id>"]
#[sk = "READING#<taken_at>"]
pub struct Reading {
    pub device_id: String,
    pub taken_at: DateTime<Utc>,
    pub firmware: String,
    pub site: String,
    pub temperature_mc: i32,
    pub humidity_pm: u32,
    pub pressure_pa: u32,
    pub battery_mv: u32,
    pub rssi_dbm: i32,
    pub uptime_s: u64,
    pub sequence: u64,
    pub errors: u32,
    pub charging: bool,
    pub door_open: bool,
    pub latitude: f64,
    pub longitude: f64,
    pub label: String,
}

/// A shipment: its sort key has three fields of three types.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "WAREHOUSE#<warehouse>"]
#[sk = "SHIP#<shipped_on>#<carrier>#<shipment_id>"]
pub struct Shipment {
    pub warehouse: String,
    pub shipped_on: NaiveDate,
    pub carrier: String,
    pub shipment_id: Uuid,
}

/// The time the data set starts at.
fn epoch() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap()
}

/// Order `n` of customer `customer` (a number), about 1 KB stored.
pub fn order(customer: usize, n: usize) -> Order {
    let created_at = epoch() + Duration::seconds(n as i64 * 3_607 + customer as i64);
    Order {
        customer_id: format!("c-{customer:06}"),
        order_id: Uuid::from_u128(((customer as u128) << 64) | n as u128 | (1 << 127)),
        created_at,
        updated_at: created_at + Duration::minutes(17),
        status: Some(OrderStatus::Paid),
        total_cents: 12_345 + n as u64 * 7,
        currency: "EUR".to_owned(),
        line_count: 8,
        email: format!("customer.{customer}@example.com"),
        shipping_address: format!(
            "Customer {customer}, Flat {n}, 221B Baker Street, Marylebone, London NW1 6XE, \
             United Kingdom; deliver to the concierge between 9:00 and 17:00"
        ),
        billing_address: format!(
            "Customer {customer}, Accounts Payable, 10 Downing Street, Westminster, London \
             SW1A 2AA, United Kingdom; VAT GB123456789"
        ),
        note: "Please wrap each item separately and include a gift receipt without prices. \
               If the parcel does not fit the letterbox, leave it with the neighbour at number \
               12 rather than at the depot; the buzzer of flat 3 is broken, so call ahead. \
               The order is for a birthday on Saturday, so a Friday delivery would be ideal. \
               Thank you for the quick service last time!"
            .to_owned(),
        gift: n.is_multiple_of(2),
        skus: (0..8)
            .map(|line| format!("SKU-{:05}", (n * 8 + line) % 500))
            .collect(),
    }
}

/// Reading `n` of a device.
pub fn reading(n: usize) -> Reading {
    Reading {
        device_id: "dev-00042".to_owned(),
        taken_at: epoch() + Duration::seconds(n as i64 * 60),
        firmware: "4.2.17".to_owned(),
        site: "plant-7/line-3".to_owned(),
        temperature_mc: 21_375 - n as i32,
        humidity_pm: 481_250,
        pressure_pa: 101_325,
        battery_mv: 3_712,
        rssi_dbm: -67,
        uptime_s: 8_640_000 + n as u64,
        sequence: 1_000_000 + n as u64,
        errors: 3,
        charging: false,
        door_open: n.is_multiple_of(7),
        latitude: 51.507_351,
        longitude: -0.127_758,
        label: "cold store, north wall".to_owned(),
    }
}

/// A shipment.
pub fn shipment() -> Shipment {
    Shipment {
        warehouse: "LHR-3".to_owned(),
        shipped_on: NaiveDate::from_ymd_opt(2026, 6, 1).unwrap(),
        carrier: "royal-mail".to_owned(),
        shipment_id: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
    }
}

/// `count` orders of `customers` customers, round robin, distinct keys.
pub fn orders(count: usize, customers: usize) -> Vec<Order> {
    (0..count)
        .map(|n| order(n % customers, n / customers))
        .collect()
}

/// The stored items of `values`, as Stamp writes them.
pub fn items<E: stamp::Entity>(values: &[E]) -> Vec<AttributeMap> {
    values
        .iter()
        .map(|value| value.to_item().expect("a valid item"))
        .collect()
}
