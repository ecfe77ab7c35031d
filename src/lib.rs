// Long (over 500 lines) because it is the front page of the docs: the chapters
// below are a newcomer's tour, compiled as doc tests; the code is the last 40 lines.
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
//! # Where things are
//!
//! The root holds what a service uses every day: the derives ([`Item`],
//! [`Collection`], [`KeyPart`], [`Projection`], [`Attributes`]), [`Table`]
//! and [`TableDefinition`], the [`Entity`] trait with [`PrimaryKey`] and
//! [`AttributeMap`], the operations ([`Get`], [`Put`], [`Delete`],
//! [`Update`], [`Query`], [`Scan`], [`BatchGet`], [`BatchWrite`],
//! [`TransactGet`], [`TransactWrite`]), their [`Attribute`]s and
//! [`Condition`]s, [`Page`] and [`Cursor`], and [`Error`] with [`ItemKey`].
//! `use stamp::prelude::*;` brings the derives, `Table`, `Entity`, `Error`
//! and `Condition`. Everything else lives in a module named for what it is;
//! start with the item named after each:
//!
//! | module | what it holds | start with |
//! |---|---|---|
//! | [`error`] | the reasons nested in [`Error`], by stage | [`error::Refusal`] (refused before sending) |
//! | [`ops`] | the operations' other types: sets, numbers, slots, batch and retry settings, unique lookups | [`ops::Update`] |
//! | [`expression`] | attributes, paths, conditions and their placeholders | [`expression::Attribute`] |
//! | [`key`] | key encodings (a storage format), templates, shards, sort-key prefixes | [`key::KeyPart`] |
//! | [`item`] | the item codec's checks and sizes (400 KB) | [`item::check_item`] |
//! | [`schema`] | the schema as data, the table's definition, settings, global tables, import | [`schema::TableDefinition`] |
//! | [`capacity`] | units consumed (as DynamoDB reports them) and planned | [`capacity::CapacityLog`] |
//! | [`vector`] | vector indexes and similarity searches | [`vector::SimilaritySearch`] |
//! | [`migrate`] | re-keying an entity's items, in units; unique-value backfills | [`migrate::Migration`] |
//! | [`limits`] | DynamoDB's quotas, one constant each | [`limits`] |
//! | [`local`] | SDK clients for a local server; the embedded DynamoDB (feature `local`) | [`local`] |
//! | `export` (feature `export`) | the table into files per entity (NDJSON, Parquet, DynamoDB JSON), local or S3 | `export::Export` |
//! | `streams` (feature `streams`) | the change feed: typed changes of a collection | `streams::Change` |
//! | `testing` (feature `local`) | the test kit: a clock, faults, whole-table assertions | `testing::TestClock` |
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
//! - `#[vectorN(field = embedding, dimensions = 64, distance = cosine)]`
//!   (1 to 5) gives a vector index on a `Vec<f32>` or `[f32; N]` field (an
//!   `Option` of one: sparse), 1 to 4,096 dimensions, distance `cosine`,
//!   `dot_product` or `euclidean`; optional `pk = "TENANT#<tenant_id>"` (a
//!   partition of the index), `filter(a, b)` (inline filter fields),
//!   `projection`, `index_name` and `pk_attribute` (`VECTOR{N}PK`).
//!   `search_similar` (or `search_similar_vectorN`) searches it.
//! - The numbers: GSIs 1 to 20, LSIs 1 to 5, vector indexes 1 to 5 (the
//!   `Item` derive's page also lists `gsi0`, `gsi21` to `gsi30`, `lsi0`,
//!   `lsi6` to `lsi10`, `vector0` and `vector6` to `vector8` as helper
//!   attributes: they are declared only so that a number out of range is a
//!   clear error, "GSIs are numbered 1 to 20").
//! - A placeholder `<field>` names a field; literal text between two
//!   placeholders is their delimiter and must not be empty. The field's type
//!   implements [`KeyPart`]. `Option<T>` fields may appear only in GSI and
//!   LSI templates: when one is `None`, the index attributes are left out (a
//!   sparse index).
//!
//! Field options, `#[stamp(…)]` on a field (each on one field at most;
//! `version`, `created_at` and `updated_at` not in `#[pk]` or `#[sk]`, since
//! a write cannot change an item's key):
//!
//! - `#[stamp(ttl)]`: the item's time to live, stored as a Number of epoch
//!   seconds for DynamoDB's TTL; a `DateTime<Utc>`, `SystemTime`, or
//!   `i64`/`u64` seconds ([`TimeToLive`]), or an `Option` of one, whose
//!   `None` stores no attribute (an item that never expires; an update
//!   removes a stored TTL with `remove`); `create_table` turns TTL on for
//!   it. Only whole seconds are stored: a fraction is dropped, so an entity
//!   put with `10:00:00.750` reads back with `10:00:00`, not equal to the
//!   one put (keep TTLs in whole seconds where entities are compared).
//! - `#[stamp(version)]`: an optimistic-locking counter, `u64` or `u32`.
//!   A put requires the stored version to be the field's (no item, for 0)
//!   and stores the next one; an update must name the version it expects,
//!   `expect_version(v)`, and increments it; a delete may. A mismatch is
//!   [`Error::VersionConflict`].
//! - `#[stamp(created_at)]`: a `DateTime<Utc>` set to the time of the write
//!   by a create (`Table::create`, `Put::create`, `TransactWrite::create`,
//!   and a put of a versioned entity at version 0); other writes store the
//!   field as it is.
//! - `#[stamp(updated_at)]`: a `DateTime<Utc>` set to the time of every
//!   put and update (`Put::at`, `Update::at` give another time), in the
//!   attribute and in index keys built from it.
//! - `#[stamp(write_once)]`: a field an upsert (`E::upsert(…)`,
//!   [`Update::into_upsert`]) sets with `if_not_exists`, so the value of
//!   the write that created the item stays, as `created_at`'s does (an
//!   upsert stamps `created_at` that way too). Not on a field of the
//!   primary key, nor on `created_at`, `updated_at` or `version`.
//!
//! Serde's own field attributes (`rename`, `skip`, `default`, `with`, …)
//! apply as usual: a field is stored under its serde name.
//!
//! Other derives: `#[derive(Collection)]` takes `#[stamp(index = N)]`,
//! `#[stamp(vector = N)]` or `#[stamp(any_partition)]` ("Collections"
//! below); `#[derive(Projection)]` takes `#[stamp(entity = Order)]`;
//! `#[derive(KeyPart)]` takes `#[stamp(rename_all = "…")]` on the enum and
//! `#[stamp(rename = "…")]` on a variant (serde's are read too);
//! `#[derive(Attributes)]`, on a struct stored inside an entity, takes
//! `#[stamp(crate = "…")]` ("Nested and list updates" below).
//!
//! The key encodings and their escaping, a storage format, are documented
//! in [`key`].
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
//! - A `DateTime<Utc>` field (and `Option`s, lists, sets and maps of them)
//!   is RFC 3339 in UTC with nine fractional digits always, the form key
//!   encodings use: `2026-03-01T10:00:00.000000000Z`, not chrono's serde
//!   form `2026-03-01T10:00:00Z` (with only the digits a value has,
//!   `…T10:00:00.500Z`), whose text does not sort as the instants do (`Z`
//!   sorts after `.`). So `lt`, `le`, `gt`, `ge` and `between` on a time,
//!   in a filter, a condition or a key condition alike, are answered in
//!   the instants' order. The same form is written by `to_item`, by update
//!   values and by the `created_at`/`updated_at` stamps, and taken by
//!   conditions; a struct stored whole by serde (a flattened field) has
//!   its time fields written over in it. It is RFC 3339, so serde (a
//!   projection, your own `serde_dynamo` reads) reads it back unchanged. A
//!   time or a `NaiveDate` outside years 0 to 9999 has no form that sorts
//!   and is refused before a write or a comparison
//!   (`Refusal::Serialize`). Which types offer order comparisons, and why,
//!   is [`Ordered`].
//!
//!   Items written before (by an earlier Stamp or by serde_dynamo) keep
//!   chrono's form until they are written again: they read back as
//!   before, but an order comparison or an equality against them is
//!   decided on the old text, so a whole second (`…:00Z`) sorts after its
//!   fractions. Rewrite them once, by reading each item and putting it
//!   back (`Order::scan().stream(&table)`, then `table.put(&order)` of
//!   each, with the entity's version condition if writers run meanwhile;
//!   a [`Migration`] keeps attributes as stored and does not). A time inside a nested struct or in a flattened field's
//!   struct is stored as serde writes it (no typed comparison reaches it),
//!   and so is a field with a serde codec of its own (`with`,
//!   `serialize_with`): its attribute keeps its type's comparisons, which
//!   are right only when that codec's form sorts as the values do (see
//!   [`Ordered`]).
//! - Byte strings, `Vec<u8>`, `[u8; N]` and `bytes::Bytes` (and `Option`s
//!   of them), are binary `B`, as `#[serde(with = "serde_bytes")]` stores
//!   them, not lists of Numbers; the list form of older items reads back.
//!   A field with a serde codec of its own (`with`, `serialize_with`, …) is
//!   left to it.
//! - `serde_json::Value` numbers are `N` even when serde_json's
//!   `arbitrary_precision` feature is on somewhere in the dependency graph
//!   (serde_dynamo would store each as a map, its issue #90), their text
//!   kept exactly then.

//! # What the derive generates
//!
//! For the `Order` above, `#[derive(Item)]` generates, in effect:
//!
//! ```text
//! impl Entity for Order { const SCHEMA: &EntitySchema = …; fn encode_item_at(…); fn from_item(…); … }
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
//!
//! # Upsert and counters
//!
//! `E::upsert(key…)` is an [`Update`] without the existence condition: one
//! `UpdateItem` that creates the item when it is absent and updates it
//! otherwise. [`Update::add`] (`ADD`) and [`Update::subtract`] start from 0
//! on an absent attribute, so a counter item needs no create first; the key
//! fields and the type attribute are written, so a created item is what a
//! put of the struct stores:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use stamp::Item;
//!
//! #[derive(Item, Serialize, Deserialize)]
//! #[pk = "PRODUCT#<sku>"]
//! #[sk = "SALES"]
//! struct ProductSales { sku: String, units: u64 }
//!
//! let request = ProductSales::upsert("SKU-1")
//!     .add(ProductSales::UNITS, &2)
//!     .request("shop")
//!     .unwrap();
//! // UpdateItem  Key: PK = "PRODUCT#SKU-1", SK = "SALES"
//! //   SET sku = "SKU-1", Type = "ProductSales"  ADD units 2
//! assert_eq!(request.update_expression.as_deref(), Some("SET #n1 = :v1, #n2 = :v2 ADD #n0 :v0"));
//! assert_eq!(request.condition_expression, None);
//! ```
//!
//! `#[stamp(created_at)]` and `#[stamp(write_once)]` fields are set with
//! `if_not_exists`; a versioned entity's `expect_version(v)` is
//! `attribute_not_exists(PK) OR version = v` and creates at version 1.
//! Before sending, nothing sent: an upsert that could create an item that
//! does not decode is [`error::Refusal::IncompleteUpsert`], an index it
//! could leave with one attribute of its pair
//! [`error::Refusal::IncompleteIndexUpdate`]. See
//! [UpdateItem](https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html).
//!
//! # Unique values
//!
//! `#[stamp(unique)]` on a field (or `#[stamp(unique(a, b))]` on the type,
//! for a combination) keeps each value on one item: a guard item per value
//! (`PK = SK = UNIQUE#<Type>#<fields>#<values>`), put, moved and deleted in
//! the same `TransactWriteItems` as every write that sets, changes or
//! removes it. A value another item holds is [`Error::UniqueValueTaken`],
//! naming the fields and the values, and nothing is written;
//! [`Table::get_unique`] reads the item by its value (a `GetItem` of the
//! guard, then of the item):
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use stamp::{Error, Item, Table};
//!
//! #[derive(Item, Serialize, Deserialize)]
//! #[pk = "USER#<user_id>"]
//! #[sk = "PROFILE"]
//! struct User { user_id: String, #[stamp(unique)] email: String }
//!
//! // TransactWriteItems
//! //   Put {PK: "USER#u-1", SK: "PROFILE", …}           attribute_not_exists(PK)
//! //   Put {PK = SK = "UNIQUE#User#email#ada@example.com", OwnerPK: "USER#u-1", …}
//! //       attribute_not_exists(PK) OR (OwnerPK = "USER#u-1" AND OwnerSK = "PROFILE")
//! async fn sign_up(table: &Table, user: &User) -> Result<bool, Error> {
//!     match table.create(user).await {
//!         Ok(()) => Ok(true),
//!         Err(Error::UniqueValueTaken { .. }) => Ok(false),
//!         Err(error) => Err(error),
//!     }
//! }
//!
//! async fn by_email(table: &Table, email: &str) -> Result<Option<User>, Error> {
//!     table.get_unique(User::EMAIL, &email.to_owned()).await
//! }
//! ```
//!
//! Every other write of such an entity first reads the item (a strongly
//! consistent `GetItem`) to know the values it replaces. A batch write of
//! it is refused ([`error::Refusal::UniqueBatchWrite`]): `BatchWriteItem` has no
//! conditions. [`migrate::UniqueBackfill`] writes the guards of items stored
//! before a value was unique and reports conflicts instead of choosing.
//!
//! # Nested and list updates
//!
//! `#[derive(Attributes)]` on a struct stored inside an entity generates
//! the same constants for its fields (`Address::CITY: Attribute<Address,
//! String, Required>`, by serde's names); [`Attribute::then`] joins them
//! to the entity's into a typed document path and [`Attribute::at`] names
//! a list element, for conditions and every update action:
//!
//! ```text
//! Customer::update("c-1")
//!     .set(Customer::ADDRESS.then(Address::CITY), &"Berlin".to_owned())  // SET address.city = :v0
//!     .set(Customer::TAGS.at(2), &"vip".to_owned())                      // SET tags[2] = :v1
//!     .prepend(Customer::TAGS_SEEN, &["new".to_owned()])                 // list_append(:v2, if_not_exists(…))
//!     .remove(Customer::ADDRESS.then(Address::ZIP))                      // SET address.zip = NULL, as to_item stores None
//!     .condition(Customer::ADDRESS.then(Address::CITY).eq(&"Bonn".to_owned()))
//! ```
//!
//! A path that does not exist does not compile. Each value is encoded as
//! `to_item` encodes it at that place (the nested struct's serde
//! attributes at every level, a list's element as the list's), so the item
//! stays the put of the updated struct. A path below a map the item does
//! not have (an `Option` struct that is `None`) is DynamoDB's
//! `ValidationException`: set the struct whole. The README's tour has the
//! request and DynamoDB's list rules.
//!
//! # Which condition failed
//!
//! A write whose condition fails hands back the item as stored, which
//! every conditional request asks for (`ReturnValuesOnConditionCheckFailure
//! = ALL_OLD`: a put, an update, a delete, and each conditional action of a
//! [`TransactWrite`]; DynamoDB documents no cost for it). It is decoded as
//! an entity only when asked: [`Error::stored`] for
//! [`Error::AlreadyExists`], [`Error::VersionConflict`] and
//! [`Error::ConditionFailed`], [`CancellationReason::stored`](error::CancellationReason::stored)
//! for each action of [`Error::TransactionCanceled`]; `stored_item()` is the
//! `AttributeMap`. `None` when there is no item (an `attribute_exists`
//! condition on an absent item, an action that did not fail). So a stale
//! version is told from another failed condition without a read:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use stamp::{Error, Item, Table};
//!
//! #[derive(Item, Serialize, Deserialize)]
//! #[pk = "HOLD#<hold_id>"]
//! #[sk = "HOLD"]
//! struct Hold {
//!     hold_id: String,
//!     owner: String,
//!     seats: u32,
//!     #[stamp(version)]
//!     version: u64,
//! }
//!
//! /// `Ok(Some(stored))` when the hold was written meanwhile (retry at
//! /// `stored.version`), `Ok(None)` when it is set.
//! async fn set_seats(table: &Table, hold: &Hold, seats: u32) -> Result<Option<Hold>, Error> {
//!     let update = Hold::update(&hold.hold_id)
//!         .set(Hold::SEATS, &seats)
//!         .condition(Hold::OWNER.eq(&hold.owner))
//!         .expect_version(hold.version);
//!     match update.send(table).await {
//!         Ok(()) => Ok(None),
//!         Err(error @ Error::VersionConflict { .. }) => match error.stored::<Hold>() {
//!             Some(stored) => stored.map(Some),
//!             None => Err(error), // deleted meanwhile
//!         },
//!         // `Error::ConditionFailed`: another owner's; `error.stored::<Hold>()` says whose.
//!         Err(error) => Err(error),
//!     }
//! }
//! ```
//!
//! The request: `UpdateItem` with `ConditionExpression
//! attribute_exists(#n1) AND #n2 = :v1 AND (#n3 = :v3)` (the item exists,
//! its version, its owner) and `ReturnValuesOnConditionCheckFailure
//! ALL_OLD`; a failed condition answers `ConditionalCheckFailedException`
//! with the `Item`. See
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html#DDB-UpdateItem-request-ReturnValuesOnConditionCheckFailure>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CancellationReason.html>.
//!
//! # Collections
//!
//! `#[derive(Collection)]` on an enum makes it what a page of several
//! entity types, or a stream record, decodes into: one variant per entity,
//! `Book(Book)`, and a variant `Unknown(stamp::AttributeMap)` that you write
//! yourself (an enum without it does not compile), which keeps, as read,
//! any item whose type attribute names none of the entities. A change of a
//! stream is a `stamp::streams::Change<C>` of a collection `C` (feature
//! `streams`), even when the table has one entity:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use stamp::streams::{Change, ChangeKind, EventRecord};
//! use stamp::{Collection, Item};
//!
//! #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
//! #[pk = "LIB#<library_id>"]
//! #[sk = "BOOK#<book_id>"]
//! struct Book {
//!     library_id: String,
//!     book_id: String,
//!     title: String,
//! }
//!
//! /// Every item of a library's partition, as a stream consumer sees it.
//! #[derive(Collection, Debug, Clone, PartialEq)]
//! enum Library {
//!     Book(Book),
//!     Unknown(stamp::AttributeMap), // yours to write: any other type of item
//! }
//!
//! // One record as Lambda hands it over (or as `Table::changes` reads it).
//! let record: EventRecord = serde_json::from_value(serde_json::json!({
//!     "eventID": "1", "eventName": "INSERT", "awsRegion": "us-east-1",
//!     "dynamodb": {
//!         "Keys": { "PK": { "S": "LIB#l-1" }, "SK": { "S": "BOOK#b-1" } },
//!         "NewImage": {
//!             "PK": { "S": "LIB#l-1" }, "SK": { "S": "BOOK#b-1" }, "Type": { "S": "Book" },
//!             "library_id": { "S": "l-1" }, "book_id": { "S": "b-1" }, "title": { "S": "Ficciones" }
//!         },
//!         "SequenceNumber": "100", "SizeBytes": 120, "StreamViewType": "NEW_IMAGE"
//!     }
//! }))
//! .unwrap();
//! let change = Change::<Library>::from_record(record).unwrap();
//! assert_eq!(change.kind, ChangeKind::Insert);
//! assert!(matches!(&change.new, Some(Library::Book(book)) if book.title == "Ficciones"));
//! ```
//!
//! The members must share one partition key template on the table (checked
//! at compile time), as a query of one partition reads them
//! (`Book::query("l-1").collection::<Library>()`). `#[stamp(index = N)]`
//! makes it a collection of GSI N, `#[stamp(vector = N)]` one of the
//! results of a similarity search, and `#[stamp(any_partition)]` the change
//! type of a stream over entities of any partitions (`Change<C>`,
//! `Table::changes`), which no query reads.
//!
//! # Expired items
//!
//! A `#[stamp(ttl)]` field is stored as a Number of epoch seconds, and
//! DynamoDB deletes the item some time after it passes (typically within a
//! few days); until then every read would return it. Every read leaves out
//! the items whose TTL is at or before the table's clock
//! ([`Table::now`]: the system clock, or
//! [`Table::with_clock`]), as DynamoDB's filter for expired items does:
//!
//! - [`Query`] (of the table or any index; a collection by each member's
//!   TTL attribute) and [`Scan`] on the server, with
//!   `(attribute_not_exists(#ttl) OR #ttl > :now)` AND-ed with the
//!   entity's scope and the caller's filter: the expired items are still
//!   read and charged, and a page may hold fewer items than its `Limit`;
//! - [`Get`], [`BatchGet`] and [`TransactGet`] on the client (`None` for an
//!   expired item), and a similarity search, which counts them in
//!   [`SearchResults::expired`](crate::vector::SearchResults::expired).
//!
//! `.include_expired()` on each of them returns every item. A GSI whose
//! projection leaves out the TTL attribute cannot be filtered on it: a
//! query of it is refused before sending
//! ([`Refusal::AttributesNotProjected`])
//! unless it includes expired items. Migrations and exports read every
//! item; the change feed delivers TTL deletions as such.
//!
//! ```no_run
//! # use chrono::{DateTime, Utc};
//! # async fn run(table: stamp::Table) -> Result<(), stamp::Error> {
//! fn story_start() -> DateTime<Utc> {
//!     "2026-01-01T00:00:00Z".parse().unwrap()
//! }
//! let table = table.with_clock(story_start);
//! assert_eq!(table.now(), story_start());
//! # Ok(())
//! # }
//! ```
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
//!
//! # Hydrated index reads
//!
//! A GSI or LSI that projects `KEYS_ONLY` or `INCLUDE`
//! ([`TableDefinition::index_projection`]) does not hold every attribute of
//! an entity, so a query for whole entities is refused before sending
//! ([`error::Refusal::AttributesNotProjected`], on a table that knows its
//! definition). [`Query::hydrate`] reads such an index in two steps per
//! page: the `Query` of the index asking only for the key attributes
//! (`ProjectionExpression = PK, SK, GSI1PK, GSI1SK`), then `BatchGetItem`
//! of those keys (at most 100 a request, sent together, unprocessed keys
//! retried with the batch backoff, `BatchRetry`), returning whole entities in the
//! index's order. An item deleted between the two reads is left out and
//! counted in [`Page::missing`]; the cursor is the index page's:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use stamp::Item;
//!
//! #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
//! #[pk = "TICKET#<ticket_id>"]
//! #[sk = "TICKET"]
//! #[gsi1(pk = "QUEUE#<queue>", sk = "<opened>")] // KEYS_ONLY in the definition
//! struct Ticket {
//!     ticket_id: String,
//!     queue: String,
//!     opened: u32,
//!     body: String,
//! }
//!
//! // Step 1, the index query: the keys only, and no type filter (the
//! // index holds no `Type`; the items read are checked instead).
//! let request = Ticket::query_gsi1("support").hydrate().request("tickets").unwrap();
//! assert_eq!(request.index_name.as_deref(), Some("GSI1"));
//! let names = request.expression_attribute_names.unwrap();
//! let projected: Vec<&str> = request.projection_expression.as_deref().unwrap()
//!     .split(", ").map(|placeholder| names[placeholder].as_str()).collect();
//! assert_eq!(projected, ["PK", "SK", "GSI1PK", "GSI1SK"]);
//! assert_eq!(request.filter_expression, None);
//! // Step 2, `send`: `BatchGetItem` of the page's `PK`/`SK`.
//! ```
//!
//! It works for entity queries, collections, projections, sharded GSIs and
//! LSIs; a filter runs on the index (only projected attributes), and the
//! capacity model counts the batch reads (`EntityCapacity::index_query_hydrations`).

#![deny(missing_docs)]
// trybuild builds this crate without default features (the lean runtime,
// as `default-features = false` services get it) for the compile-fail
// fixtures, with `--cfg trybuild`: any warning of that configuration fails
// CI there, so it needs no build of its own.
#![cfg_attr(trybuild, deny(warnings))]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The modules: `stamp-core`'s map of itself (`surface.rs`), where each
// feature's modules and items exist exactly when `stamp-core` has the
// feature.
pub use stamp_core::surface::*;
pub use stamp_core::{
    Attribute, AttributeMap, BatchGet, BatchWrite, Collection, Condition, Cursor, Delete, Entity,
    Error, Get, ItemKey, KeyPart, Page, PrimaryKey, Projection, Put, Query, Scan, Table,
    TableDefinition, TransactGet, TransactWrite, Update,
};
pub use stamp_core::{aws_sdk_dynamodb, serde_dynamo};
pub use stamp_derive::{Attributes, Collection, Item, KeyPart, Projection};

/// The common imports: `use stamp::prelude::*;` brings the derives and
/// their traits, [`Table`], [`Entity`],
/// [`Error`] and [`Condition`].
pub mod prelude {
    #[doc(no_inline)]
    pub use crate::{
        Attributes, Collection, Condition, Entity, Error, Item, KeyPart, Projection, Table,
    };
}

/// Every item of `stamp-core` at its flat path of earlier releases
/// (`stamp::Refusal` for `stamp::error::Refusal`, …), hidden from the
/// docs: the documented paths are the modules. Generated code reaches the
/// runtime through `stamp::__private`.
#[doc(hidden)]
pub use stamp_core::*;

/// The README's code, compiled as a doc test so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
