//! The integration tests of Stamp, one test binary: every module talks to
//! Stamp from outside, as a user's crate does, and the server tests share one
//! embedded DynamoDB (`common`). One binary links once instead of thirty
//! times (each link writes about 250 MB in a debug build).
//!
//! The folders follow `stamp-core/src`: `keys/`, `items/`, `ops/` (with the
//! request path), `schema/`, `streams/`, `migrate/`, `export/`; the derives'
//! compile errors are `stamp-ui`'s fixtures, their expansion a snapshot in
//! `stamp-derive`. Run one folder or file with its path as the filter:
//! `cargo xtask test ops::queries::`.

mod common;

mod export;
mod items;
mod keys;
mod local;
mod migrate;
mod ops;
mod schema;
mod streams;
mod testing;
