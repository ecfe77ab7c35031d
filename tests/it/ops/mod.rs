//! The operations: reads, writes, updates, queries, batches, transactions, searches, and the request path.

mod batch;
mod comparisons;
mod cursors;
mod errors;
mod executor;
mod full_pages;
mod index_projections;
pub(crate) mod local_indexes;
mod multi_attribute;
mod order;
mod outcomes;
mod outcomes_resent;
mod queries;
mod reads;
mod rekey;
mod requests;
mod sharding;
mod time_fields;
mod transactions;
mod updates;
mod upsert;
mod upsert_equals;
mod vector_rules;
pub(crate) mod vector_search;
mod writes;
