//! The reference table exported per entity (`stamp-examples export`), and
//! the figure an SQL engine must find in it: orders per status per month.

use std::collections::BTreeMap;
use std::path::PathBuf;

use stamp::export::{Export, ExportFormat};

use crate::data::DataSet;
use crate::{Customer, LineItem, Order, OrderStatus, Product, Session};

/// An export of the reference table into `directory`: one file per entity
/// (`Customer`, `Order`, `LineItem`, `Product`, `Session`), in `format`.
pub fn export(directory: impl Into<PathBuf>, format: ExportFormat) -> Export {
    Export::new(directory)
        .format(format)
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<LineItem>()
        .entity::<Product>()
        .entity::<Session>()
}

/// The status as stored (`PENDING` …), or `None` for an archived order.
pub fn status_name(status: Option<OrderStatus>) -> Option<&'static str> {
    status.map(|status| match status {
        OrderStatus::Pending => "PENDING",
        OrderStatus::Paid => "PAID",
        OrderStatus::Shipped => "SHIPPED",
        OrderStatus::Delivered => "DELIVERED",
    })
}

/// How many orders of `data` were placed per (status, month `YYYY-MM` of
/// `created_at`, UTC): what `SELECT status, strftime(created_at, '%Y-%m'),
/// count(*) … GROUP BY 1, 2` must give over the exported `Order` file. An
/// archived order's status is `None` (SQL `NULL`).
pub fn orders_per_status_per_month(data: &DataSet) -> BTreeMap<(Option<String>, String), u64> {
    let mut counts = BTreeMap::new();
    for order in &data.orders {
        let key = (
            status_name(order.status).map(str::to_owned),
            order.created_at.format("%Y-%m").to_string(),
        );
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}
