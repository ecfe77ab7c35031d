//! The one description of a secondary index an entity writes:
//! [`IndexSchema`], in the one list [`EntitySchema::indexes`](crate::EntitySchema::indexes).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/SecondaryIndexes.html>.

use crate::key::template::KeyTemplate;
use crate::model::entity::KeyAttribute;
use crate::model::multi_attribute::IndexKeyField;
use crate::model::multi_attribute::KeyAttributeType;
use crate::model::vector::VectorIndexSchema;

/// A secondary index an entity writes, of any kind: a GSI from
/// `#[gsiN = "…"]` or `#[gsiN(pk = "…", sk = "…")]` (optionally sharded),
/// a multi-attribute GSI from `#[gsiN(pk(field, …), sk(field, …))]`, or an
/// LSI from `#[lsiN(sk = "…")]`. Every consumer (the query planner,
/// updates' index rebuild, item checks, the table definition, `verify`,
/// the catalogue, capacity and planning, CloudFormation) reads the one list
/// [`EntitySchema::indexes`](crate::EntitySchema::indexes) and matches on
/// [`kind`](Self::kind) or [`key`](Self::key) only where the kinds truly
/// differ.
///
/// # Adding a kind of index
///
/// A new kind (a vector index, say) is one new variant of [`IndexKind`]
/// (and, when its key has a new shape, of [`IndexKeySchema`]) plus the
/// places the compiler then points at: every `match` on them is exhaustive,
/// with no `_` arm, on purpose. A query reaches it through a marker type
/// that implements [`QueryIndex`] (as [`Gsi`] and [`Lsi`] do) with a new
/// [`IndexId`] variant, which
/// [`EntitySchema::resolve`](crate::EntitySchema::resolve) resolves once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexSchema {
    /// N of `#[gsiN…]` (1 to [`MAX_GSIS`](crate::limits::MAX_GSIS)) or
    /// `#[lsiN…]` (1 to [`MAX_LSIS`](crate::limits::MAX_LSIS)); a GSI and
    /// an LSI may have the same number.
    pub number: u8,
    /// The index name, `GSI{N}` or `LSI{N}` unless renamed with
    /// `index_name = "…"`.
    pub name: &'static str,
    /// Global or local, and a GSI's shard count.
    pub kind: IndexKind,
    /// Its key attributes: built from templates, or the entity's own fields.
    pub key: IndexKeySchema,
    /// The generated function that reads the index: `query_gsi1`,
    /// `query_lsi1` or `search_similar_vector1` (the derive names it; the
    /// catalogue prints it).
    pub read_method: &'static str,
}

/// What kind of secondary index an [`IndexSchema`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    /// A global secondary index: its own partition key, eventually
    /// consistent reads, only what it projects.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html>.
    Global {
        /// The shard count of a sharded index (`shards = N`, its
        /// partition-key template ending in `<shard>`); `None` when it is
        /// not sharded.
        shards: Option<u16>,
    },
    /// A local secondary index: an alternative sort key over the table's
    /// partition key, created with the table only; strongly consistent
    /// reads may fetch unprojected attributes from the table. A table with
    /// an LSI limits each item collection to
    /// [`MAX_ITEM_COLLECTION_GB`](crate::limits::MAX_ITEM_COLLECTION_GB).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html>.
    Local,
    /// A vector index (`#[vectorN(…)]`, N from 1 to
    /// [`MAX_VECTOR_INDEXES`](crate::limits::MAX_VECTOR_INDEXES)): read
    /// only by similarity searches (`SearchVectors`), never by `Query`. Its
    /// key is its partition (`HASH`) element: a template
    /// ([`IndexKeySchema::Templates`], no sort key), a field
    /// ([`IndexKeySchema::Attributes`], one partition field) or none
    /// ([`IndexKeySchema::Unpartitioned`]). An item without its vector (or
    /// its partition attribute) is not in the index.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.html>.
    Vector(&'static VectorIndexSchema),
}

/// The key of an [`IndexSchema`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKeySchema {
    /// Key attributes built from key templates (strings, `S`). For an LSI
    /// the partition key is the table's (`PK` and its template), which the
    /// index does not write itself, and the sort key is always given.
    Templates {
        /// The partition key attribute, `GSI{N}PK` by default (an LSI: the
        /// table's).
        partition_key: KeyAttribute,
        /// The sort key attribute, `GSI{N}SK` or `LSI{N}SK` by default,
        /// when the entity gives one.
        sort_key: Option<KeyAttribute>,
    },
    /// A multi-attribute key (DynamoDB, November 2025): 1 to
    /// [`MAX_INDEX_KEY_ATTRIBUTES`](crate::limits::MAX_INDEX_KEY_ATTRIBUTES)
    /// partition-key and 0 to 4 sort-key attributes that are the entity's
    /// own fields, stored under their own names with their native types.
    ///
    /// DynamoDB's rules, which the generated `query_gsiN` enforces by its
    /// types: a query gives every partition-key attribute with `=`, then
    /// sort-key attributes from the left without a gap, each with `=`
    /// except the last one given, which may instead take one range
    /// condition. An item that lacks any key attribute is not in the index.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.
    Attributes {
        /// The partition-key attributes, in key-schema order (1 to 4).
        partition_key: &'static [IndexKeyField],
        /// The sort-key attributes, in key-schema order (0 to 4).
        sort_key: &'static [IndexKeyField],
        /// The partition key as the planning names it: the tuple of its
        /// fields, `(tenant_id, region)` (give it to
        /// `Workload::spread`).
        partition_source: &'static str,
    },
    /// No key: a vector index without a partition element, searched
    /// across all its items.
    Unpartitioned,
}

impl IndexSchema {
    /// Whether it is a GSI (of any key: template, sharded or
    /// multi-attribute): eventually consistent, only what it projects.
    pub const fn is_global(&self) -> bool {
        match self.kind {
            IndexKind::Global { .. } => true,
            IndexKind::Local | IndexKind::Vector(_) => false,
        }
    }

    /// Whether it is an LSI.
    pub const fn is_local(&self) -> bool {
        match self.kind {
            IndexKind::Global { .. } | IndexKind::Vector(_) => false,
            IndexKind::Local => true,
        }
    }

    /// What a vector index is besides its key; `None` for a GSI or an LSI.
    pub const fn vector(&self) -> Option<&'static VectorIndexSchema> {
        match self.kind {
            IndexKind::Vector(vector) => Some(vector),
            IndexKind::Global { .. } | IndexKind::Local => None,
        }
    }

    /// Whether it is a vector index.
    pub const fn is_vector(&self) -> bool {
        self.vector().is_some()
    }

    /// The shard count of a sharded GSI, `None` otherwise.
    pub const fn shards(&self) -> Option<u16> {
        match self.kind {
            IndexKind::Global { shards } => shards,
            IndexKind::Local | IndexKind::Vector(_) => None,
        }
    }

    /// The partition (`HASH`) element of a vector index's search schema,
    /// with its type in `AttributeDefinitions` (a template's is `S`); `None`
    /// for an index without one, and for a GSI or an LSI.
    pub fn search_partition(&self) -> Option<(&'static str, KeyAttributeType)> {
        self.vector()?;
        match &self.key {
            IndexKeySchema::Templates { partition_key, .. } => {
                Some((partition_key.name, KeyAttributeType::S))
            }
            IndexKeySchema::Attributes { partition_key, .. } => partition_key
                .first()
                .map(|field| (field.attribute, field.attribute_type)),
            IndexKeySchema::Unpartitioned => None,
        }
    }

    /// The name of its (first) partition-key attribute: `GSI1PK`, a
    /// multi-attribute index's first field, an LSI's table `PK`.
    pub fn partition_key_name(&self) -> &'static str {
        match &self.key {
            IndexKeySchema::Templates { partition_key, .. } => partition_key.name,
            IndexKeySchema::Attributes { partition_key, .. } => partition_key[0].attribute,
            IndexKeySchema::Unpartitioned => "",
        }
    }

    /// The name of its (first) sort-key attribute, `None` without one.
    pub fn sort_key_name(&self) -> Option<&'static str> {
        match &self.key {
            IndexKeySchema::Templates { sort_key, .. } => sort_key.map(|key| key.name),
            IndexKeySchema::Attributes { sort_key, .. } => {
                sort_key.first().map(|field| field.attribute)
            }
            IndexKeySchema::Unpartitioned => None,
        }
    }

    /// Its key schema, each attribute with whether it is a partition-key
    /// (`HASH`) attribute, in key-schema order.
    pub fn key_schema(&self) -> Vec<(&'static str, bool)> {
        match &self.key {
            IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } => std::iter::once((partition_key.name, true))
                .chain(sort_key.map(|key| (key.name, false)))
                .collect(),
            IndexKeySchema::Attributes {
                partition_key,
                sort_key,
                ..
            } => partition_key
                .iter()
                .map(|field| (field.attribute, true))
                .chain(sort_key.iter().map(|field| (field.attribute, false)))
                .collect(),
            IndexKeySchema::Unpartitioned => Vec::new(),
        }
    }

    /// The key attributes the entity builds from templates for this index
    /// and writes into its items (`GSI1PK`, `GSI1SK`, `LSI1SK`,
    /// `VECTOR1PK`): a GSI's keys, an LSI's sort key (its partition key is
    /// the table's), a vector index's partition template; none for a
    /// multi-attribute index, whose key attributes are fields.
    pub fn written_keys(&self) -> Vec<&KeyAttribute> {
        self.written_key_attributes().collect()
    }

    /// [`written_keys`](Self::written_keys) without allocating (every
    /// `to_item` and `check_item` goes through them).
    pub(crate) fn written_key_attributes(&self) -> impl Iterator<Item = &KeyAttribute> + '_ {
        let (partition, sort) = match &self.key {
            IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } => (
                match self.kind {
                    IndexKind::Global { .. } | IndexKind::Vector(_) => Some(partition_key),
                    IndexKind::Local => None,
                },
                sort_key.as_ref(),
            ),
            IndexKeySchema::Attributes { .. } | IndexKeySchema::Unpartitioned => (None, None),
        };
        partition.into_iter().chain(sort)
    }

    /// The key template of its partition key; `None` for a multi-attribute
    /// index.
    pub const fn partition_template(&self) -> Option<&KeyTemplate> {
        match &self.key {
            IndexKeySchema::Templates { partition_key, .. } => Some(&partition_key.template),
            IndexKeySchema::Attributes { .. } | IndexKeySchema::Unpartitioned => None,
        }
    }

    /// The key template of its sort key; `None` without one or for a
    /// multi-attribute index.
    pub const fn sort_template(&self) -> Option<&KeyTemplate> {
        match &self.key {
            IndexKeySchema::Templates {
                sort_key: Some(sort_key),
                ..
            } => Some(&sort_key.template),
            IndexKeySchema::Templates { sort_key: None, .. }
            | IndexKeySchema::Attributes { .. }
            | IndexKeySchema::Unpartitioned => None,
        }
    }

    /// The template key attributes (partition key, optional sort key) of a
    /// template index, `None` for a multi-attribute one.
    pub fn templates(&self) -> Option<(&KeyAttribute, Option<&KeyAttribute>)> {
        match &self.key {
            IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } => Some((partition_key, sort_key.as_ref())),
            IndexKeySchema::Attributes { .. } | IndexKeySchema::Unpartitioned => None,
        }
    }

    /// The key fields of a multi-attribute index: the partition-key ones,
    /// then the sort-key ones (none for a template index).
    pub fn key_fields(&self) -> impl Iterator<Item = &'static IndexKeyField> + use<> {
        let (partition, sort): (&'static [IndexKeyField], &'static [IndexKeyField]) = match self.key
        {
            IndexKeySchema::Attributes {
                partition_key,
                sort_key,
                ..
            } => (partition_key, sort_key),
            IndexKeySchema::Templates { .. } | IndexKeySchema::Unpartitioned => (&[], &[]),
        };
        partition.iter().chain(sort.iter())
    }

    /// The partition-key and sort-key fields of a multi-attribute index,
    /// `None` for a template index.
    pub fn attributes(&self) -> Option<(&'static [IndexKeyField], &'static [IndexKeyField])> {
        match self.key {
            IndexKeySchema::Attributes {
                partition_key,
                sort_key,
                ..
            } => Some((partition_key, sort_key)),
            IndexKeySchema::Templates { .. } | IndexKeySchema::Unpartitioned => None,
        }
    }

    /// Whether it is a multi-attribute index.
    pub fn is_multi_attribute(&self) -> bool {
        self.attributes().is_some()
    }
}

/// Which index of an entity a query, a collection or a catalogue row
/// reads: the table, or a secondary index by kind and number. A query's
/// index type ([`QueryIndex`]: [`BaseTable`], [`Gsi<N>`](Gsi),
/// [`Lsi<N>`](Lsi)) names one, and
/// [`EntitySchema::resolve`](crate::EntitySchema::resolve) turns it into
/// the entity's [`IndexSchema`] once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexId {
    /// The table itself (its primary key).
    Table,
    /// GSI N (`#[gsiN…]`), of any key.
    Gsi(u8),
    /// LSI N (`#[lsiN…]`).
    Lsi(u8),
    /// Vector index N (`#[vectorN(…)]`).
    Vector(u8),
}

impl IndexId {
    /// Whether two ids are the same (in a `const` context).
    pub const fn same(self, other: IndexId) -> bool {
        match (self, other) {
            (IndexId::Table, IndexId::Table) => true,
            (IndexId::Gsi(a), IndexId::Gsi(b))
            | (IndexId::Lsi(a), IndexId::Lsi(b))
            | (IndexId::Vector(a), IndexId::Vector(b)) => a == b,
            _ => false,
        }
    }

    /// Whether `index` is the one this id names.
    pub const fn names(self, index: &IndexSchema) -> bool {
        match (self, index.kind) {
            (IndexId::Gsi(number), IndexKind::Global { .. })
            | (IndexId::Lsi(number), IndexKind::Local)
            | (IndexId::Vector(number), IndexKind::Vector(_)) => number == index.number,
            (IndexId::Table | IndexId::Lsi(_) | IndexId::Vector(_), IndexKind::Global { .. })
            | (IndexId::Table | IndexId::Gsi(_) | IndexId::Vector(_), IndexKind::Local)
            | (IndexId::Table | IndexId::Gsi(_) | IndexId::Lsi(_), IndexKind::Vector(_)) => false,
        }
    }
}

impl IndexSchema {
    /// The id that names this index.
    pub const fn id(&self) -> IndexId {
        match self.kind {
            IndexKind::Global { .. } => IndexId::Gsi(self.number),
            IndexKind::Local => IndexId::Lsi(self.number),
            IndexKind::Vector(_) => IndexId::Vector(self.number),
        }
    }
}

/// The index a [`Query`](crate::Query) reads, as a type: [`BaseTable`]
/// (the default), [`Gsi<N>`](Gsi) or [`Lsi<N>`](Lsi); or the vector index
/// a [`SimilaritySearch`](crate::SimilaritySearch) reads, [`Vector<N>`](Vector). The generated
/// `E::query(…)`, `E::query_gsiN(…)` and `E::query_lsiN(…)` return
/// `Query<E>`, `Query<E, Gsi<N>>` and `Query<E, Lsi<N>>`; the sort-key
/// prefixes (`SortKeyPrefix<E, I>`), multi-attribute sort runs
/// (`SortAttributes<E, I>`) and collections (`Collection::Index`) are typed
/// by the same marker, so a condition or a collection of another index does
/// not compile.
///
/// A new kind of index gets its own marker, whose [`ID`](Self::ID) is a new
/// [`IndexId`] variant.
pub trait QueryIndex: 'static {
    /// The index it names; [`EntitySchema::resolve`](crate::EntitySchema::resolve)
    /// turns it into the entity's [`IndexSchema`].
    const ID: IndexId;
}

/// The table itself: the index of `E::query(…)`, and the default of
/// [`Query`](crate::Query)'s index parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseTable {}

/// GSI N (`#[gsiN…]`, of any key: template, sharded or multi-attribute),
/// the index of `E::query_gsiN(…)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gsi<const N: u8> {}

/// LSI N (`#[lsiN(sk = "…")]`), the index of `E::query_lsiN(…)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lsi<const N: u8> {}

/// Vector index N (`#[vectorN(…)]`): the index of the similarity searches
/// `E::search_similar_vectorN(…)` ([`SimilaritySearch<E, Vector<N>>`](crate::SimilaritySearch))
/// and of a collection `#[stamp(vector = N)]`. No [`Query`](crate::Query)
/// reads it: a query of it does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vector<const N: u8> {}

impl QueryIndex for BaseTable {
    const ID: IndexId = IndexId::Table;
}

impl<const N: u8> QueryIndex for Gsi<N> {
    const ID: IndexId = IndexId::Gsi(N);
}

impl<const N: u8> QueryIndex for Lsi<N> {
    const ID: IndexId = IndexId::Lsi(N);
}

impl<const N: u8> QueryIndex for Vector<N> {
    const ID: IndexId = IndexId::Vector(N);
}
