//! The integration tests of Stamp, one test binary: every module talks to
//! Stamp from outside, as a user's crate does, and the server tests share one
//! embedded DynamoDB (`common`). One binary links once instead of thirty
//! times (each link writes about 250 MB in a debug build).

mod common;

mod batch;
mod capacity;
mod change_feed;
mod codec;
mod codec_items;
mod cursors;
mod encodings;
mod errors;
mod executor;
mod export;
mod export_memory;
mod export_s3;
mod full_pages;
mod hostile;
mod index_projections;
mod item_size;
mod key_format;
mod keys;
mod limits;
mod local;
mod local_indexes;
mod migration;
mod multi_attribute;
mod named_keys;
mod outcomes;
mod planning;
mod queries;
mod ranges;
mod reads;
mod rekey;
mod requests;
mod round_trip;
mod schema;
mod schema_cfn_lint;
mod schema_drawing;
mod schema_server;
mod schema_stream;
mod sharding;
mod streams;
mod transactions;
mod updates;
mod vector_search;
mod writes;
