//! Item collections: an enum of entities that share a partition, decoded
//! item by item from a mixed query page by the type attribute.

use crate::error::Error;
use crate::key::template::{KeyTemplate, Segment};
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::model::index::IndexId;
use crate::model::index::IndexKeySchema;
use crate::model::index::QueryIndex;

/// An enum of entities stored in one partition ("a customer and their
/// orders"), implemented by `#[derive(Collection)]`.
///
/// Each variant but one wraps an entity; the variant
/// `Unknown(stamp::AttributeMap)`, which you write yourself (the derive
/// requires it), keeps, as it was read, any item whose type attribute names
/// none of them (an entity added later, or written by another program). A
/// query of the partition,
/// `Customer::query("c-1").collection::<CustomerWithOrders>()`, decodes
/// every item into the enum, and a stream record decodes into a
/// `streams::Change<C>` of a collection (feature `streams`), even for a
/// table of one entity: `enum Books { Book(Book), Unknown(AttributeMap) }`.
///
/// `#[stamp(index = N)]` on the enum makes it a collection of GSI N (an
/// inverted index) instead of the table. The derive checks at compile time
/// that every member has the same partition key template on that index.
///
/// `#[stamp(vector = N)]` makes it a collection of vector index N: a
/// similarity search of a member,
/// `Product::search_similar(…).collection::<Catalogue>()`, decodes every
/// result into the enum. The derive checks at compile time that every
/// member writes that index with the same vector attribute, dimensions and
/// partition, and that there are two members at least (the search of an
/// index one entity writes returns that entity; no collection is needed).
///
/// `#[stamp(any_partition)]` instead makes it the change type of a feed
/// over the whole table (`Table::changes` and `streams::changes`, feature
/// `streams`): members may be in different partitions, items decode the
/// same way, and the enum is not a collection a query reads
/// (`query(…).collection::<C>()` needs the members to implement
/// [`CollectionMember`], which this form does not implement, so such a
/// query is a compile error). It does not combine with `index`.
pub trait Collection: Sized {
    /// The collection's name in the catalogue
    /// (`TableDefinition::catalogue`): the enum's name
    /// (empty for a hand-written impl that does not set it).
    const NAME: &'static str = "";

    /// The index the members share a partition of: [`BaseTable`](crate::BaseTable),
    /// [`Gsi<N>`](crate::Gsi), or [`Vector<N>`](crate::Vector) for a
    /// collection a similarity search reads (`#[stamp(vector = N)]`).
    type Index: QueryIndex;

    /// Whether the members may be in different partitions
    /// (`#[stamp(any_partition)]`): a change type of a table-wide feed, not a
    /// collection a query reads. `false` by default.
    const ANY_PARTITION: bool = false;

    /// The schemas of the member entities, in variant order (empty for a
    /// hand-written impl). Stream decoding uses them to tell the entity of a
    /// keys-only record from the shape of its keys.
    const MEMBERS: &'static [&'static EntitySchema] = &[];

    /// Decodes an item into the variant its type attribute names, or into
    /// `Unknown`.
    ///
    /// # Errors
    ///
    /// The errors of the member's [`Entity::from_item`].
    fn from_item(item: AttributeMap) -> Result<Self, Error>;
}

/// Marks entity `Self` as a member of collection `C`; implemented by
/// `#[derive(Collection)]`. It lets `query(…).collection::<C>()` accept
/// only members; a table-wide change type (`#[stamp(any_partition)]`) has
/// none, so no query reads it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a member of a collection `{C}` that a query reads",
    note = "a query reads a `#[derive(Collection)]` enum whose members share a partition and that has a variant of `{Self}`; an enum with `#[stamp(any_partition)]` is a change type of a table-wide feed, not a query collection"
)]
pub trait CollectionMember<C: Collection>: Entity {}

/// Collection `Self` is a collection of index `I` (its
/// [`Collection::Index`]): the bound of a similarity search's
/// [`collection`](crate::SimilaritySearch::collection), so that a
/// collection of another index does not type-check.
///
/// A collection of another index is refused with "type mismatch resolving
/// `<C as Collection>::Index == Vector<N>`" (expected `Vector<N>`, found
/// `Gsi<M>`): a search of vector index N reads a `#[derive(Collection)]`
/// enum with `#[stamp(vector = N)]`.
pub trait CollectionOf<I: QueryIndex>: Collection {}

impl<C: Collection> CollectionOf<C::Index> for C {}

/// The members of collection `C` that an operation of its member `E` on
/// index `I` reads (a query's [`collection`](crate::Query::collection), a
/// similarity search's [`collection`](crate::SimilaritySearch::collection)):
/// the one check, at compile time, that `C` is a collection of that index.
// `E` is only bound: that bound is the check that `E` is a member.
#[allow(clippy::extra_unused_type_parameters)]
pub(crate) const fn members_read<E, C, I>() -> &'static [&'static EntitySchema]
where
    E: CollectionMember<C>,
    C: Collection,
    I: QueryIndex,
{
    const {
        assert!(
            <C::Index as QueryIndex>::ID.same(I::ID),
            "the collection is of another index than the query or search"
        );
    }
    C::MEMBERS
}

/// What a read of a collection must get back to decode every member: the
/// type attribute of `entity` (the member the read was built from), which
/// tells the members apart, and every stored field of every member, each
/// once.
pub(crate) fn member_attributes(
    entity: &EntitySchema,
    members: &[&EntitySchema],
) -> Vec<&'static str> {
    let mut attributes: Vec<&'static str> = Vec::new();
    let names = std::iter::once(entity.type_attribute).chain(
        members
            .iter()
            .flat_map(|member| member.field_attributes.iter().map(|field| field.attribute)),
    );
    for name in names {
        if !attributes.contains(&name) {
            attributes.push(name);
        }
    }
    attributes
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut position = 0;
    while position < a.len() {
        if a[position] != b[position] {
            return false;
        }
        position += 1;
    }
    true
}

/// Whether two templates have the same shape: the same literals, with fields
/// in the same places (field names may differ), and the same escaping.
pub const fn same_template_shape(a: &KeyTemplate, b: &KeyTemplate) -> bool {
    if a.segments.len() != b.segments.len() || !same_str(a.escaped, b.escaped) {
        return false;
    }
    let mut position = 0;
    while position < a.segments.len() {
        let same = match (a.segments[position], b.segments[position]) {
            (Segment::Literal(x), Segment::Literal(y)) => same_str(x, y),
            (Segment::Field(_), Segment::Field(_)) => true,
            (Segment::Shard(x), Segment::Shard(y)) => x == y,
            _ => false,
        };
        if !same {
            return false;
        }
        position += 1;
    }
    true
}

/// The partition key template of `schema` on index `index` (an LSI's is
/// the table's); `None` when the entity does not write the index or its
/// partition key is not a template (a multi-attribute index).
pub const fn partition_template(schema: &EntitySchema, index: IndexId) -> Option<&KeyTemplate> {
    if let IndexId::Table = index {
        return Some(&schema.partition_key.template);
    }
    match schema.resolve(index) {
        Some(index) => index.partition_template(),
        None => None,
    }
}

/// Whether `a` and `b` write one vector index `number` (the same vector
/// attribute and dimensions) with the same partition: templates of one
/// shape, or both none. The compile-time check of
/// `#[derive(Collection)]` with `#[stamp(vector = N)]`.
pub const fn share_vector_index(a: &EntitySchema, b: &EntitySchema, number: u8) -> bool {
    let id = IndexId::Vector(number);
    let (Some(first), Some(second)) = (a.resolve(id), b.resolve(id)) else {
        return false;
    };
    let (Some(first_vector), Some(second_vector)) = (first.vector(), second.vector()) else {
        return false;
    };
    if !same_str(first_vector.attribute, second_vector.attribute)
        || first_vector.dimensions != second_vector.dimensions
    {
        return false;
    }
    match (first.partition_template(), second.partition_template()) {
        (Some(x), Some(y)) => same_template_shape(x, y),
        (None, None) => matches!(
            (first.key, second.key),
            (IndexKeySchema::Unpartitioned, IndexKeySchema::Unpartitioned)
        ),
        _ => false,
    }
}

/// Whether `a` and `b` share a partition key template on `index`; the
/// compile-time check of `#[derive(Collection)]`.
pub const fn share_partition(a: &EntitySchema, b: &EntitySchema, index: IndexId) -> bool {
    match (partition_template(a, index), partition_template(b, index)) {
        (Some(a), Some(b)) => same_template_shape(a, b),
        _ => false,
    }
}
