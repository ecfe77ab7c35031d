//! The generic key work behind the derive's key functions: building a key
//! value from a template of [`Entity::SCHEMA`](crate::Entity::SCHEMA) and
//! typed field values, and parsing one back. The derive emits, per key
//! function, one call with the template's place and the values in template
//! order ([`KeyArg`]); the walk over the segments, the capacity, the
//! escaping and the length limit are here, compiled once, not once per key
//! function and entity (issue 41, point 1). Not a public API: reached as
//! `stamp::__private`.
//!
//! A release build inlines these functions (`inline(always)` without debug
//! assertions): the schema and the arguments are constants at each call,
//! so the walk over the segments folds back to the straight-line code a
//! derive would write (the key benches' instruction counts, BENCHMARKS.md
//! point 3c). A debug build calls them, so it compiles them once.

use std::borrow::Cow;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, KeyError, Refusal, UpdateReason};
use crate::item::builder::ItemBuilder;
use crate::key::part::KeyPart;
use crate::key::prefix::SortKeyText;
use crate::key::shard::shard_of;
use crate::key::template::KeyBuilder;
use crate::key::template::{KeyTemplate, Segment};
use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::model::index::QueryIndex;
use crate::model::typed_key::{IndexKey, PrimaryKey};
use crate::ops::query::Query;

/// Where a key template sits in an entity's schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The table's partition key template.
    Pk,
    /// The table's sort key template.
    Sk,
    /// The partition template of the index at this position of
    /// `EntitySchema::indexes` (a GSI's or a vector index's).
    IndexPk(usize),
    /// The sort template of the index at this position (a GSI's or an
    /// LSI's).
    IndexSk(usize),
    /// The previous partition key template (`#[stamp(previous(…))]`).
    PreviousPk,
    /// The previous sort key template.
    PreviousSk,
}

impl At {
    /// The template at this place of `schema`.
    ///
    /// # Panics
    ///
    /// When `schema` has no template there: the derive emits only places
    /// its schema has.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn template(self, schema: &'static EntitySchema) -> &'static KeyTemplate {
        let template = match self {
            At::Pk => Some(&schema.partition_key.template),
            At::Sk => Some(&schema.sort_key.template),
            At::IndexPk(position) => schema.indexes[position].partition_template(),
            At::IndexSk(position) => schema.indexes[position].sort_template(),
            At::PreviousPk => schema.previous_key.as_ref().map(|key| &key.partition_key),
            At::PreviousSk => schema.previous_key.as_ref().map(|key| &key.sort_key),
        };
        template.expect("the derive names only the templates its schema has")
    }

    /// DynamoDB's length limit of a key value at this place.
    #[inline(always)]
    fn limit(self) -> usize {
        match self {
            At::Pk | At::IndexPk(_) | At::PreviousPk => MAX_PARTITION_KEY_BYTES,
            At::Sk | At::IndexSk(_) | At::PreviousSk => MAX_SORT_KEY_BYTES,
        }
    }
}

/// One value of a key template's placeholders, in template order.
#[derive(Clone, Copy)]
pub enum KeyArg<'a> {
    /// A string field, taken as `&str`.
    Str(&'a str),
    /// Any other field, by its [`KeyPart`] encoding (`key_arg`).
    Part(&'a dyn DynKeyPart),
    /// The shard number of a sharded GSI's `<shard>`.
    Shard(u16),
}

/// A [`KeyPart`] value behind a pointer, so one builder serves every type.
pub trait DynKeyPart {
    /// Appends the value, encoded and escaped, as field `field`.
    ///
    /// # Errors
    ///
    /// [`KeyBuilder::field`]'s.
    fn write(&self, builder: &mut KeyBuilder, field: &'static str) -> Result<(), Error>;

    /// [`KeyPart::LEN_HINT`].
    fn len_hint(&self) -> usize;
}

impl<T: KeyPart> DynKeyPart for T {
    #[inline]
    fn write(&self, builder: &mut KeyBuilder, field: &'static str) -> Result<(), Error> {
        builder.field::<T>(field, self)
    }

    #[inline]
    fn len_hint(&self) -> usize {
        T::LEN_HINT
    }
}

/// The primary key of `E` (`key`), from the arguments of its partition
/// and sort key templates.
///
/// # Errors
///
/// [`build_key`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn primary_key<E: Entity>(
    pk: &[KeyArg<'_>],
    sk: &[KeyArg<'_>],
) -> Result<PrimaryKey<E>, Error> {
    let partition_key = build_key(E::SCHEMA, At::Pk, pk)?;
    Ok(PrimaryKey::from_parts(
        partition_key,
        build_key(E::SCHEMA, At::Sk, sk)?,
    ))
}

/// The primary key of `E` in its previous format (`previous_key`).
///
/// # Errors
///
/// [`build_key`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn previous_key<E: Entity>(
    pk: &[KeyArg<'_>],
    sk: &[KeyArg<'_>],
) -> Result<PrimaryKey<E>, Error> {
    let partition_key = build_key(E::SCHEMA, At::PreviousPk, pk)?;
    let sort_key = build_key(E::SCHEMA, At::PreviousSk, sk)?;
    Ok(PrimaryKey::from_parts(partition_key, sort_key))
}

/// The key of `E` in the index at `position` of its schema (`gsiN_key`):
/// the shard, if the index is sharded, checked first.
///
/// # Errors
///
/// [`KeyError::InvalidShard`] for a shard number at or above the count;
/// [`build_key`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn index_key<E: Entity>(
    position: usize,
    pk: &[KeyArg<'_>],
    sk: Option<&[KeyArg<'_>]>,
) -> Result<IndexKey<E>, Error> {
    let schema = E::SCHEMA;
    check_shard(schema, position, pk)?;
    let partition_key = build_key(schema, At::IndexPk(position), pk)?;
    let sort_key = match sk {
        Some(sk) => Some(build_key(schema, At::IndexSk(position), sk)?),
        None => None,
    };
    Ok(IndexKey::from_parts(
        &schema.indexes[position],
        partition_key,
        sort_key,
    ))
}

/// Refuses a shard argument at or above the index's shard count.
#[cfg_attr(not(debug_assertions), inline(always))]
fn check_shard(
    schema: &'static EntitySchema,
    position: usize,
    args: &[KeyArg<'_>],
) -> Result<(), Error> {
    let Some(shards) = At::IndexPk(position).template(schema).shards() else {
        return Ok(());
    };
    for arg in args {
        if let KeyArg::Shard(shard) = *arg
            && shard >= shards
        {
            return Err(Error::Key(KeyError::InvalidShard {
                entity: schema.type_name,
                index: schema.indexes[position].name,
                shard,
                shards,
            }));
        }
    }
    Ok(())
}

/// A query of `E` on the partition the template at `at` gives `args`
/// (`query`, `query_gsiN`, `query_lsiN`); an error is kept in the query
/// until it is sent.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn query<E: Entity, I: QueryIndex>(at: At, args: &[KeyArg<'_>]) -> Query<E, I> {
    Query::new(build_key(E::SCHEMA, at, args))
}

/// A key attribute rebuilt from an update's values
/// (`Entity::key_attribute_from_values`): [`build_key`] as `Some`.
///
/// # Errors
///
/// [`build_key`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn key_from_values(
    schema: &'static EntitySchema,
    at: At,
    args: &[KeyArg<'_>],
) -> Result<Option<String>, Error> {
    build_key(schema, at, args).map(Some)
}

/// Stores an index key (`gsiN_key`'s parts) in `item` as `pk` and, when
/// the index has a sort key, `sk`.
#[inline]
pub fn insert_index_key(
    item: &mut ItemBuilder,
    (pk, sk): (&str, &str),
    (partition_key, sort_key): (String, Option<String>),
) {
    item.insert_key_string(pk, partition_key);
    if let Some(sort_key) = sort_key {
        item.insert_key_string(sk, sort_key);
    }
}

/// The shard of a sharded index's partition key for an update: from the
/// primary key (`pk`, `sk`) among `values`, of `shards`
/// ([`shard_of`](crate::shard_of)).
///
/// # Errors
///
/// [`UpdateReason::ShardNeedsPrimaryKey`] when `values` lacks either key.
pub fn shard_from_values(
    schema: &'static EntitySchema,
    values: &AttributeMap,
    (pk, sk): (&str, &str),
    shards: u16,
) -> Result<u16, Error> {
    match (values.get(pk), values.get(sk)) {
        (Some(AttributeValue::S(pk)), Some(AttributeValue::S(sk))) => Ok(shard_of(pk, sk, shards)),
        _ => Err(Error::Refused(Refusal::InvalidUpdate {
            entity: schema.type_name,
            reason: UpdateReason::ShardNeedsPrimaryKey,
        })),
    }
}

/// The parsed fields of a key value of `E` at `at` ([`split_key`]).
///
/// # Errors
///
/// [`split_key`]'s.
#[inline]
pub fn parse_key<E: Entity>(at: At, key: &str) -> Result<SplitKey<'_>, Error> {
    split_key(E::SCHEMA, at, key)
}

/// Builds the key value of the template at `at` of `schema` from `args`,
/// one per field or shard placeholder in order, checked against
/// DynamoDB's key length limit. A template that ends in `<shard>` given no
/// shard argument gives the text before the shard, unchecked (a sharded
/// index's query adds each shard number itself).
///
/// # Errors
///
/// [`KeyBuilder::field`]'s and [`KeyBuilder::finish_within`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn build_key(
    schema: &'static EntitySchema,
    at: At,
    args: &[KeyArg<'_>],
) -> Result<String, Error> {
    let template = at.template(schema);
    fill(schema, template, template.segments, args, at.limit())
}

/// The text of a sort-key prefix over the first `args.len()` fields of the
/// template at `at` (and the literal after the last of them), as a
/// sort-key condition compares it: `complete` when every field is given.
///
/// # Errors
///
/// [`build_key`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn key_prefix(
    schema: &'static EntitySchema,
    at: At,
    args: &[KeyArg<'_>],
) -> Result<SortKeyText, Error> {
    let template = at.template(schema);
    let mut end = 0;
    let mut fields = 0;
    while end < template.segments.len() && fields < args.len() {
        if matches!(template.segments[end], Segment::Field(_)) {
            fields += 1;
        }
        end += 1;
    }
    if matches!(template.segments.get(end), Some(Segment::Literal(_))) {
        end += 1;
    }
    let complete = !template.segments[end..]
        .iter()
        .any(|segment| matches!(segment, Segment::Field(_)));
    let text = fill(
        schema,
        template,
        &template.segments[..end],
        args,
        at.limit(),
    )?;
    Ok(SortKeyText { text, complete })
}

/// Walks `segments` of `template`, taking the next of `args` at each
/// placeholder, and checks the length against `limit`; stops before a
/// `<shard>` with no argument left, and then does not check the length.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn fill(
    schema: &'static EntitySchema,
    template: &'static KeyTemplate,
    segments: &'static [Segment],
    args: &[KeyArg<'_>],
    limit: usize,
) -> Result<String, Error> {
    let mut capacity = template.literal_len();
    for arg in args {
        capacity += match arg {
            KeyArg::Str(value) => value.len(),
            KeyArg::Part(value) => value.len_hint(),
            KeyArg::Shard(_) => 2,
        };
    }
    let mut builder = KeyBuilder::new(schema.type_name, template, capacity);
    let mut args = args.iter();
    for segment in segments {
        let field = match segment {
            Segment::Literal(text) => {
                builder.literal(text);
                continue;
            }
            Segment::Field(field) => field,
            Segment::Shard(_) => "<shard>",
        };
        match args.next() {
            Some(KeyArg::Str(value)) => builder.str_field(field, value)?,
            Some(KeyArg::Part(value)) => value.write(&mut builder, field)?,
            Some(KeyArg::Shard(shard)) => builder.shard(*shard),
            None => return Ok(builder.finish()),
        }
    }
    builder.finish_within(limit)
}

/// A key value split at its template's placeholders, from which the
/// derive's parsers decode each field by type ([`SplitKey::field`]).
pub struct SplitKey<'k> {
    entity: &'static str,
    template: &'static KeyTemplate,
    key: &'k str,
    segments: Vec<Cow<'k, str>>,
}

/// Splits `key` at the template at `at` of `schema`
/// ([`KeyTemplate::split`]).
///
/// # Errors
///
/// [`KeyTemplate::split`]'s.
pub fn split_key<'k>(
    schema: &'static EntitySchema,
    at: At,
    key: &'k str,
) -> Result<SplitKey<'k>, Error> {
    let template = at.template(schema);
    let segments = template.split(schema.type_name, key)?;
    Ok(SplitKey {
        entity: schema.type_name,
        template,
        key,
        segments,
    })
}

impl SplitKey<'_> {
    /// The field at `position` among the template's fields, decoded as `T`
    /// and accepted only in the form `T` writes
    /// ([`decode_key_segment`](crate::__private::decode_key_segment)). The
    /// derive calls it through `<T as KeyPart>::__stamp_parse`.
    ///
    /// # Errors
    ///
    /// `KeyError::KeyDecode` when the segment is not `T`'s encoding.
    #[inline]
    pub fn field<T: KeyPart>(&self, position: usize) -> Result<T, Error> {
        let field = self
            .template
            .fields()
            .nth(position)
            .expect("the derive asks for the template's fields");
        crate::__private::decode_key_segment(
            self.entity,
            field,
            self.key,
            &self.segments[position],
            T::decode_key,
            T::encode_key,
        )
    }
}

#[cfg(test)]
mod tests;
