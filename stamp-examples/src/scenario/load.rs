//! Loading a generated data set: batch writes, and transactions for the
//! customers (their e-mails are unique).

use stamp::{BatchWrite, Error, Table};

use super::create_customers;
use crate::data::DataSet;

/// Loads `data` with batch writes, `chunk` items per call, calling
/// `progress` with the number of items written so far. The customers,
/// whose e-mail is unique, go by transactions instead, 50 creates each
/// ([`create_customers`]): a batch write cannot claim their guards.
///
/// # Errors
///
/// The errors of `BatchWrite::send` (unprocessed items are retried and
/// reported, never dropped) and of [`create_customers`].
pub async fn load(
    table: &Table,
    data: &DataSet,
    chunk: usize,
    mut progress: impl FnMut(usize),
) -> Result<(), Error> {
    let mut written = 0;
    macro_rules! load_all {
        ($items:expr) => {
            for part in $items.chunks(chunk) {
                BatchWrite::new()
                    .put_all(part)
                    .max_concurrency(8)
                    .send(&table)
                    .await?;
                written += part.len();
                progress(written);
            }
        };
    }
    load_all!(data.products);
    let before = written;
    create_customers(table, &data.customers, 50, |customers| {
        progress(before + customers)
    })
    .await?;
    written += data.customers.len();
    load_all!(data.orders);
    load_all!(data.line_items);
    load_all!(data.sessions);
    Ok(())
}
