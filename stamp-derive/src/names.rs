//! Every identifier the derives generate, spelled once: the functions of an
//! entity (`key`, `query_gsiN`, `parse_sort_key`, …), its key-input
//! structs (`OrderKey`, `OrderGsi1Partition`, …), its attribute constants
//! and the private helpers of the generated code. `expand/` and the
//! fallback stub both name them from here, and the name of each index's
//! read goes into its `IndexSchema::read_method`, which the catalogue
//! prints, so the runtime spells none of them.

use proc_macro2::{Ident, Span};
use quote::format_ident;

/// The primary key builder, `Order::key(..)`.
pub const KEY: &str = "key";
/// The query of the table, `Order::query(..)`.
pub const QUERY: &str = "query";
/// The scan of the entity's items, `Order::scan()`.
pub const SCAN: &str = "scan";
/// The typed update, `Order::update(..)`.
pub const UPDATE: &str = "update";
/// The upsert of an item, `Order::upsert(..)`.
pub const UPSERT: &str = "upsert";
/// The primary key in the earlier format, `Order::previous_key(..)`.
pub const PREVIOUS_KEY: &str = "previous_key";
/// The first vector index's similarity search, `Order::search_similar(..)`.
pub const SEARCH_SIMILAR: &str = "search_similar";
/// The parser of a partition key value.
pub const PARSE_PARTITION_KEY: &str = "parse_partition_key";
/// The parser of a sort key value.
pub const PARSE_SORT_KEY: &str = "parse_sort_key";
/// The parser of a partition key value in the earlier format.
pub const PARSE_PREVIOUS_PARTITION_KEY: &str = "parse_previous_partition_key";
/// The parser of a sort key value in the earlier format.
pub const PARSE_PREVIOUS_SORT_KEY: &str = "parse_previous_sort_key";

/// The key-input struct suffix of `key` and `update`: `OrderKey`.
pub const KEY_INPUT: &str = "Key";
/// The key-input struct suffix of `query`: `OrderPartition`.
pub const PARTITION_INPUT: &str = "Partition";
/// The (never defined) key-input struct suffix of `scan`, which takes no input.
pub const SCAN_INPUT: &str = "Scan";
/// The key-input struct suffix of `previous_key`: `OrderPreviousKey`.
pub const PREVIOUS_KEY_INPUT: &str = "PreviousKey";

/// `query_gsiN`: the query of GSI N.
pub fn query_gsi(number: u8) -> String {
    format!("query_gsi{number}")
}

/// `query_lsiN`: the query of LSI N.
pub fn query_lsi(number: u8) -> String {
    format!("query_lsi{number}")
}

/// `search_similar_vectorN`: the similarity search of vector index N.
pub fn search_similar_vector(number: u8) -> String {
    format!("search_similar_vector{number}")
}

/// `gsiN_key`: the key builder of GSI N.
pub fn gsi_key(number: u8) -> String {
    format!("gsi{number}_key")
}

/// `parse_<key>`: the parser of an index key, by its label
/// ([`gsi_partition_key`], …): `parse_gsi1_partition_key`.
pub fn parser(key_label: &str) -> String {
    format!("parse_{key_label}")
}

/// `parse_gsiN_partition_key`: the parser of GSI N's partition key.
pub fn parse_gsi_partition_key(number: u8) -> String {
    parser(&gsi_partition_key(number))
}

/// `parse_gsiN_sort_key`: the parser of GSI N's sort key.
pub fn parse_gsi_sort_key(number: u8) -> String {
    parser(&gsi_sort_key(number))
}

/// `parse_lsiN_sort_key`: the parser of LSI N's sort key.
pub fn parse_lsi_sort_key(number: u8) -> String {
    parser(&lsi_sort_key(number))
}

/// The key-input struct suffix of `gsiN_key`: `OrderGsi1Key`.
pub fn gsi_key_input(number: u8) -> String {
    format!("Gsi{number}Key")
}

/// The key-input struct suffix of `query_gsiN`: `OrderGsi1Partition`.
pub fn gsi_partition_input(number: u8) -> String {
    format!("Gsi{number}Partition")
}

/// The label of GSI N's partition key template in messages and docs.
pub fn gsi_partition_key(number: u8) -> String {
    format!("gsi{number}_partition_key")
}

/// The label of GSI N's sort key template in messages and docs.
pub fn gsi_sort_key(number: u8) -> String {
    format!("gsi{number}_sort_key")
}

/// The label of LSI N's sort key template in messages and docs.
pub fn lsi_sort_key(number: u8) -> String {
    format!("lsi{number}_sort_key")
}

/// The label of vector index N's partition key template.
pub fn vector_partition_key(number: u8) -> String {
    format!("vector{number}_partition_key")
}

/// A key-input struct: the entity's name and `suffix`, `OrderKey`.
pub fn key_input(entity: &Ident, suffix: &str) -> Ident {
    format_ident!("{}{}", entity, suffix)
}

/// The attribute constant of a field, `Order::TOTAL_CENTS`, at `span`.
pub fn attribute_constant(field: &str, span: Span) -> Ident {
    Ident::new(&field.to_uppercase(), span)
}

/// The generated encoder of a field.
pub fn field_encoder(field: &str) -> Ident {
    format_ident!("__stamp_encode_{}", field)
}

/// The generated decoder of a field.
pub fn field_decoder(field: &str) -> Ident {
    format_ident!("__stamp_decode_{}", field)
}

/// The serde wrapper of a field with its own (de)serializers.
pub fn field_serializer(field: &str) -> Ident {
    format_ident!("__stamp_serialize_{}", field)
}

/// `name` as an identifier.
pub fn ident(name: &str) -> Ident {
    format_ident!("{}", name)
}
