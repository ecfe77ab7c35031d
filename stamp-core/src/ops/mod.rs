//! The operations, each building the exact SDK input before anything is
//! sent: single items ([`write`]: get, put, create, delete, rekey),
//! [`update`], [`query`] (with [`cursor`]), [`scan`], [`search`] (similarity
//! searches of vector indexes, their conditions typed by [`search_filter`]),
//! [`batch`] and [`transaction`]; [`unique`] keeps the guard items of
//! unique values. [`expiry`] leaves expired items out of
//! every read.

pub(crate) mod batch;
pub(crate) mod cursor;
pub(crate) mod expiry;
pub(crate) mod get;
pub(crate) mod query;
pub(crate) mod rekey;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod search_filter;
pub(crate) mod transaction;
pub(crate) mod unique;
pub(crate) mod update;
pub(crate) mod write;
