//! What every request shares: the [`table`] it goes to, the
//! `stamp.request` tracing [`span`] it runs in, the [`retry`] with backoff
//! that batches and migrations share, and the mapping of SDK errors and
//! conditional failures to [`crate::Error`] ([`failure`]), and the
//! item-collection size warning of tables with an LSI
//! ([`collection_metrics`]).

pub(crate) mod collection_metrics;
pub(crate) mod cursor_key;
pub(crate) mod dispatch;
pub(crate) mod executor;
pub(crate) mod failure;
mod operations;
pub(crate) mod retry;
pub(crate) mod span;
pub(crate) mod table;
pub(crate) mod throttling;
