//! Stamp: DynamoDB single-table design for Rust.
//!
//! Annotate a struct with key templates; `#[derive(Item)]` checks them at
//! compile time and generates typed key builders, the item conversion and
//! key parsers. The runtime sends requests through the official
//! `aws-sdk-dynamodb`.
//!
//! ```
//! use chrono::{DateTime, Utc};
//! use serde::{Deserialize, Serialize};
//! use stamp::{Item, KeyPart};
//! use uuid::Uuid;
//!
//! #[derive(KeyPart, Serialize, Deserialize, Debug, Clone, PartialEq)]
//! #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
//! enum OrderStatus { Pending, Shipped }
//!
//! #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
//! #[pk = "CUST#<customer_id>"]
//! #[sk = "ORDER#<created_at>#<order_id>"]
//! #[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
//! struct Order {
//!     customer_id: String,
//!     order_id: Uuid,
//!     created_at: DateTime<Utc>,
//!     status: Option<OrderStatus>,
//!     updated_at: DateTime<Utc>,
//!     total_cents: u64,
//! }
//!
//! let created_at: DateTime<Utc> = "2026-06-01T10:00:00Z".parse().unwrap();
//! let order_id = Uuid::nil();
//! let key = Order::key("c-1", &created_at, &order_id).unwrap();
//! assert_eq!(key.partition_key(), "CUST#c-1");
//! assert_eq!(
//!     key.sort_key(),
//!     "ORDER#2026-06-01T10:00:00.000000000Z#00000000-0000-0000-0000-000000000000"
//! );
//! let (at, id) = Order::parse_sort_key(key.sort_key()).unwrap();
//! assert_eq!((at, id), (created_at, order_id));
//! let index_key = Order::gsi1_key(&OrderStatus::Pending, &created_at).unwrap();
//! assert_eq!(index_key.partition_key(), "STATUS#PENDING");
//! ```
//!
//! # Attribute grammar
//!
//! - `#[pk = "…"]` and `#[sk = "…"]` (both required) give the primary key
//!   templates; a constant such as `"PROFILE"` is a template without fields.
//! - `#[gsiN = "…"]` gives the partition key of GSI N (1 to 20);
//!   `#[gsiN(pk = "…", sk = "…")]` the partition and sort key. Optional
//!   `index_name`, `pk_attribute` and `sk_attribute` rename the index
//!   (`GSI{N}`) and its attributes (`GSI{N}PK`, `GSI{N}SK`).
//! - `#[gsiN(pk = "STATUS#<status>#<shard>", sk = "…", shards = 16)]` shards
//!   the index over 16 partition keys per value (2 to 32): `<shard>` ends the
//!   partition key and is [`shard_of`]`(PK, SK, 16)` of the item's primary
//!   key; `query_gsiN` sends one `Query` per shard and merges them in
//!   sort-key order, and `gsiN_key(…, shard)` takes the shard as its last
//!   argument. A field named `shard` cannot sit beside a sharded index.
//! - `#[gsiN(pk(a, b), sk(c, d))]` names up to 4 + 4 fields stored natively
//!   as the index key attributes (a multi-attribute GSI key): `query_gsiN(a,
//!   b)` takes every partition field and one of `sort_eq`/`sort_lt`/…/
//!   `sort_between` a leading run of the sort fields (one: a second sort-key
//!   condition does not compile). A `DateTime<Utc>` or `NaiveDate` key field
//!   is stored in its fixed-width key form
//!   (`2026-03-01T09:00:00.500000000Z`, RFC 3339 still), so the index sorts
//!   by time.
//! - `#[lsiN(sk = "…")]` (1 to 5) gives a local secondary index: a sort key
//!   (`LSI{N}SK`) over the table's partition key, queried by `query_lsiN`
//!   with the table's partition key inputs, consistent reads allowed.
//! - `#[stamp(type_name = "…", crate = "…", pk_attribute = "…",
//!   sk_attribute = "…", type_attribute = "…")]` rename the entity type
//!   (the struct name), the runtime path (`::stamp`) and the attributes
//!   `PK`, `SK` and `Type`.
//! - `#[stamp(previous(pk = "…", sk = "…"))]` declares the entity's
//!   earlier key format (a template left out is the current one), which
//!   [`Migration`] moves items out of; it also generates `previous_key(…)`
//!   and `parse_previous_partition_key` / `parse_previous_sort_key`.
//! - A placeholder `<field>` names a field; literal text between two
//!   placeholders is their delimiter and must not be empty. The field's type
//!   implements [`KeyPart`]. `Option<T>` fields may appear only in GSI and
//!   LSI templates: when one is `None`, the index attributes are left out (a
//!   sparse index).
//!
//! The key encodings and their escaping are documented in [`stamp_core`].
//!
//! # Stored forms
//!
//! Fields are stored as serde_dynamo stores them (`to_item` and `from_item`
//! convert the common types directly, to the same forms, see
//! [`AttributeCodec`]), with these defaults kept: `Option::None` is left out
//! of the item (not `NULL`) and an absent attribute reads as `None`; every
//! sequence, `Vec`, `HashSet` and `BTreeSet` included, is a list `L` (the
//! set types `SS`/`NS`/`BS` through `#[serde(with =
//! "stamp::serde_dynamo::string_set")]` and its siblings); maps with string
//! keys and nested structs are `M`; unit enum variants are `S`; integers and
//! floats are `N`; `DateTime<Utc>` is RFC 3339 (`S`). Stamp departs from
//! serde_dynamo in three places, where its default would surprise:
//!
//! - Byte strings, `Vec<u8>`, `[u8; N]` and `bytes::Bytes` (and `Option`s
//!   of them), are binary `B`, as `#[serde(with = "serde_bytes")]` stores
//!   them, not lists of Numbers; the list form of older items reads back.
//!   A field with a serde codec of its own (`with`, `serialize_with`, …) is
//!   left to it.
//! - `serde_json::Value` numbers are `N` even when serde_json's
//!   `arbitrary_precision` feature is on somewhere in the dependency graph
//!   (serde_dynamo would store each as a map, its issue #90), their text
//!   kept exactly then.
//! - A `DateTime<Utc>` that is a multi-attribute GSI key attribute is
//!   stored with nine fractional digits always (above).
//!
//! # What the derive generates
//!
//! For the `Order` above, `#[derive(Item)]` generates, in effect:
//!
//! ```text
//! impl Entity for Order { const SCHEMA: &EntitySchema = …; fn to_item_at(…); fn from_item(…); … }
//! impl Order {
//!     pub fn key(customer_id: &str, created_at: &DateTime<Utc>, order_id: &Uuid)
//!         -> Result<PrimaryKey<Order>, Error>;
//!     pub fn gsi1_key(status: &OrderStatus, updated_at: &DateTime<Utc>) -> Result<IndexKey<Order>, Error>;
//!     pub fn query(customer_id: &str) -> Query<Order>;             // sort_key_eq/lt/between(…)
//!     pub fn query_gsi1(status: &OrderStatus) -> Query<Order, Gsi<1>>;
//!     // a multi-attribute index's query_gsiN returns a MultiAttributeQuery
//!     pub fn scan() -> Scan<Order>;
//!     pub fn update(customer_id: &str, created_at: &DateTime<Utc>, order_id: &Uuid) -> Update<Order>;
//!     pub fn parse_partition_key(key: &str) -> Result<(String,), Error>;
//!     pub fn parse_sort_key(key: &str) -> Result<(DateTime<Utc>, Uuid), Error>;
//!     pub const CUSTOMER_ID: Attribute<Order, String, PrimaryKeyField>;
//!     pub const STATUS: Attribute<Order, OrderStatus, Optional>;
//!     pub const TOTAL_CENTS: Attribute<Order, u64, Required>;   // one per stored field
//! }
//! impl SortKeyPrefix<Order> for &DateTime<Utc> { … }             // and (&DateTime<Utc>, &Uuid)
//! ```
//!
//! Where two of the fields that one key function takes have the same
//! parameter type (two `String`s are two `&str`), that function takes a
//! generated struct of named fields instead, so that the two cannot be
//! swapped: for `#[pk = "ORG#<org_id>"] #[sk = "USER#<user_id>"]` on
//! `Membership`, `Membership::key(MembershipKey { org_id: "o-1", user_id: "u-1" })`
//! and `Membership::update(MembershipKey { … })`, while `Membership::query("o-1")`
//! (one field) stays positional. The structs, when a function needs one:
//! `{Entity}Key` (`key`, `update`), `{Entity}PreviousKey`,
//! `{Entity}Partition` (`query`), `{Entity}Gsi{N}Partition` (`query_gsiN`)
//! and `{Entity}Gsi{N}Key` (`gsiN_key`).
//!
//! `#[derive(Projection)]` with `#[stamp(entity = Order)]` implements
//! [`Projection<Order>`](Projection) for a struct of some of `Order`'s
//! fields (same names), checked against `Order` at compile time, for
//! `Query::project::<P>()`; the struct also derives `serde::Deserialize`,
//! which decodes it. A field `Order` does not store is reported as "no
//! associated item named `FIELD` found for struct `Order`".

#![deny(missing_docs)]
// trybuild builds this crate without default features (the lean runtime,
// as `default-features = false` services get it) for the compile-fail
// fixtures, with `--cfg trybuild`: any warning of that configuration fails
// CI there, so it needs no build of its own.
#![cfg_attr(trybuild, deny(warnings))]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use stamp_core::*;
pub use stamp_derive::{Collection, Item, KeyPart, Projection};

/// The README's code, compiled as a doc test so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
