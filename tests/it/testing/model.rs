//! A small shop for the kit's tests: customers and their orders in one
//! partition, products in their own.

use serde::{Deserialize, Serialize};
use stamp::{Item, TableDefinition};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
pub struct Customer {
    pub customer_id: String,
    pub name: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_no>"]
pub struct Order {
    pub customer_id: String,
    pub order_no: u32,
    pub total_cents: u64,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PRODUCT#<sku>"]
#[sk = "PRODUCT"]
pub struct Product {
    pub sku: String,
    pub stock: u32,
}

/// Every entity of the table.
#[derive(stamp::Collection, Debug, Clone, PartialEq)]
#[stamp(any_partition)]
pub enum Shop {
    Customer(Customer),
    Order(Order),
    Product(Product),
    Unknown(stamp::AttributeMap),
}

/// A customer and their orders.
#[derive(stamp::Collection, Debug, Clone, PartialEq)]
pub enum CustomerWithOrders {
    Customer(Customer),
    Order(Order),
    Unknown(stamp::AttributeMap),
}

pub fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<Product>()
}

pub fn ada() -> Customer {
    Customer {
        customer_id: "c-1".into(),
        name: "Ada".into(),
    }
}

pub fn order(customer_id: &str, order_no: u32) -> Order {
    Order {
        customer_id: customer_id.into(),
        order_no,
        total_cents: 100 * u64::from(order_no),
    }
}

pub fn lamp() -> Product {
    Product {
        sku: "LAMP".into(),
        stock: 3,
    }
}
