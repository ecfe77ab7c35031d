//! The one `stamp.request` tracing span every request runs in.
//!
//! Fields: `operation` (DynamoDB's name, such as `Query`), `table`,
//! `entity` (the type name, or `(mixed)` for a batch or transaction of
//! several), `index` (empty for the table), `item_count` (the items sent, or
//! received for a read, recorded when known) and `consumed_capacity` (the
//! capacity units DynamoDB reports with `ReturnConsumedCapacity = TOTAL`).

use aws_sdk_dynamodb::types::ConsumedCapacity;

/// The span of one request. `item_count` is `None` when it is only known
/// from the answer (then the executor records it).
pub(crate) fn request_span(
    operation: &'static str,
    table: &str,
    entity: &'static str,
    index: &str,
    item_count: Option<usize>,
) -> tracing::Span {
    let span = tracing::debug_span!(
        "stamp.request",
        operation,
        table,
        entity,
        index,
        item_count = tracing::field::Empty,
        consumed_capacity = tracing::field::Empty,
    );
    if let Some(count) = item_count {
        span.record("item_count", count);
    }
    span
}

/// Records the sum of the units of every table of a batch or transaction.
pub(crate) fn record_capacities(span: &tracing::Span, capacity: Option<&[ConsumedCapacity]>) {
    if let Some(capacity) = capacity {
        let units: f64 = capacity
            .iter()
            .filter_map(|capacity| capacity.capacity_units)
            .sum();
        span.record("consumed_capacity", units);
    }
}

/// `entity` when every one of `entities` is it, `(mixed)` otherwise, `""`
/// for none.
pub(crate) fn common_entity(mut entities: impl Iterator<Item = &'static str>) -> &'static str {
    let first = entities.next().unwrap_or("");
    if entities.all(|entity| entity == first) {
        first
    } else {
        "(mixed)"
    }
}
