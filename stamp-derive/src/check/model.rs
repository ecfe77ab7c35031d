//! The checked model: what expansion reads. Every template here parsed, and
//! every placeholder is resolved to its field, so code generation never
//! looks a name up or unwraps an `Option` the checks guarantee.

use syn::Ident;

use crate::ast::{Container, Field, Index, LocalIndex, Template};
use crate::template::Piece;

/// A `#[derive(Item)]` struct that passed every check.
pub struct Model<'a> {
    pub container: &'a Container<'a>,
    /// The path of the runtime.
    pub krate: &'a syn::Path,
    pub ident: &'a Ident,
    pub pk: Key<'a>,
    pub sk: Key<'a>,
    /// The template GSIs in order of number; a position here is the
    /// position in `EntitySchema::indexes`, which lists them first.
    pub indexes: Vec<IndexKeys<'a>>,
    /// The multi-attribute GSIs, in order of number; `EntitySchema::indexes`
    /// lists them after the template GSIs.
    pub multi_indexes: Vec<MultiIndexKeys<'a>>,
    /// The LSIs in order of number; `EntitySchema::indexes` lists them last
    /// ([`Model::local_position`]).
    pub local_indexes: Vec<LocalIndexKeys<'a>>,
    /// The vector indexes in order of number (last in
    /// `EntitySchema::indexes`, [`Model::vector_position`]).
    pub vector_indexes: Vec<crate::check::vector::VectorKeys<'a>>,
    /// The templates of `#[stamp(previous(…))]`, a left-out one being the
    /// current one.
    pub previous: Option<(Key<'a>, Key<'a>)>,
    pub ttl: Option<Stored<'a>>,
    pub version: Option<Stored<'a>>,
    pub created_at: Option<Stored<'a>>,
    pub updated_at: Option<Stored<'a>>,
    /// The `#[stamp(write_once)]` fields, in field order.
    pub write_once: Vec<Stored<'a>>,
    /// The unique values: each `#[stamp(unique)]` field alone, in field
    /// order, then each `#[stamp(unique(a, b))]` combination as written.
    pub unique: Vec<Vec<Stored<'a>>>,
}

/// A key template whose placeholders name fields of the struct.
pub struct Key<'a> {
    pub template: &'a Template,
    pub segments: Vec<Segment<'a>>,
}

/// One piece of a checked template.
pub enum Segment<'a> {
    Literal(&'a str),
    Field(&'a Field<'a>),
    /// `<shard>` of a sharded GSI, with the shard count.
    Shard(u16),
}

/// One checked `#[gsiN…]`.
pub struct IndexKeys<'a> {
    pub index: &'a Index,
    pub number: u8,
    pub pk: Key<'a>,
    pub sk: Option<Key<'a>>,
}

/// One checked multi-attribute `#[gsiN(pk(…), sk(…))]`: its key fields,
/// each stored under its own attribute name.
pub struct MultiIndexKeys<'a> {
    pub index: &'a Index,
    pub number: u8,
    pub pk: Vec<Stored<'a>>,
    pub sk: Vec<Stored<'a>>,
}

/// One checked `#[lsiN(sk = "…")]`.
pub struct LocalIndexKeys<'a> {
    pub index: &'a LocalIndex,
    pub number: u8,
    pub sk: Key<'a>,
}

/// A field serde stores, with its attribute name.
#[derive(Clone, Copy)]
pub struct Stored<'a> {
    pub field: &'a Field<'a>,
    pub attribute: &'a str,
}

impl<'a> Key<'a> {
    /// Resolves `template`; `None` when it did not parse or names an unknown
    /// field (both reported by the checks).
    pub(crate) fn resolve(container: &'a Container<'a>, template: &'a Template) -> Option<Key<'a>> {
        let segments = template
            .pieces
            .as_ref()?
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) => Some(Segment::Literal(text)),
                Piece::Field(name) => container.field(name).map(Segment::Field),
                Piece::Shard(count) => Some(Segment::Shard(*count)),
            })
            .collect::<Option<_>>()?;
        Some(Key { template, segments })
    }

    /// The template as written.
    pub fn source(&self) -> String {
        self.template.literal.value()
    }

    /// The fields of the template, in order.
    pub fn fields(&self) -> impl Iterator<Item = &'a Field<'a>> + '_ {
        self.segments.iter().filter_map(|segment| match segment {
            Segment::Field(field) => Some(*field),
            Segment::Literal(_) | Segment::Shard(_) => None,
        })
    }

    /// The shard count when the template ends in `<shard>`.
    pub fn shards(&self) -> Option<u16> {
        match self.segments.last() {
            Some(Segment::Shard(count)) => Some(*count),
            _ => None,
        }
    }
}

impl IndexKeys<'_> {
    /// `text(attribute, template)` of the sort key, or `""` without one:
    /// the sort-key clause of a documentation line.
    pub fn sort_key_text(&self, text: impl FnOnce(&str, String) -> String) -> String {
        self.sk
            .as_ref()
            .map(|key| text(&self.index.sk_attribute.value, key.source()))
            .unwrap_or_default()
    }
}

impl<'a> Model<'a> {
    /// The model of `container`, or `None` when a template is missing, did
    /// not parse, names an unknown field or an index number is out of
    /// range: each reported by the checks.
    pub fn new(container: &'a Container<'a>) -> Option<Model<'a>> {
        let resolve = |template: Option<&'a Template>| Key::resolve(container, template?);
        let stored = |name: &syn::Ident| {
            let field = container.field(&name.to_string())?;
            Some(Stored {
                field,
                attribute: field.serialized.as_deref()?,
            })
        };
        let mut multi_indexes = container
            .indexes
            .iter()
            .filter(|index| index.is_multi_attribute())
            .map(|index| {
                let fields = |list: &'a Option<crate::ast::FieldList>| {
                    list.iter()
                        .flat_map(|list| &list.fields)
                        .map(stored)
                        .collect::<Option<Vec<_>>>()
                };
                Some(MultiIndexKeys {
                    index,
                    number: u8::try_from(index.number).ok()?,
                    pk: fields(&index.pk_fields)?,
                    sk: fields(&index.sk_fields)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        multi_indexes.sort_by_key(|index| index.number);
        let mut indexes = container
            .indexes
            .iter()
            .filter(|index| !index.is_multi_attribute())
            .map(|index| {
                Some(IndexKeys {
                    index,
                    number: u8::try_from(index.number).ok()?,
                    pk: resolve(index.pk.as_ref())?,
                    sk: match &index.sk {
                        Some(template) => Some(Key::resolve(container, template)?),
                        None => None,
                    },
                })
            })
            .collect::<Option<Vec<_>>>()?;
        indexes.sort_by_key(|index| index.number);
        let mut local_indexes = container
            .local_indexes
            .iter()
            .map(|index| {
                Some(LocalIndexKeys {
                    index,
                    number: u8::try_from(index.number).ok()?,
                    sk: resolve(index.sk.as_ref())?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        local_indexes.sort_by_key(|index| index.number);
        let previous = match &container.previous {
            Some(previous) => Some((
                resolve(previous.pk.as_ref().or(container.pk.as_ref()))?,
                resolve(previous.sk.as_ref().or(container.sk.as_ref()))?,
            )),
            None => None,
        };
        let special = |marker: fn(&Field) -> bool| {
            container.fields.iter().find_map(|field| {
                let attribute = field.serialized.as_deref().filter(|_| marker(field))?;
                Some(Stored { field, attribute })
            })
        };
        Some(Model {
            container,
            krate: &container.krate,
            ident: container.ident,
            pk: resolve(container.pk.as_ref())?,
            sk: resolve(container.sk.as_ref())?,
            indexes,
            multi_indexes,
            local_indexes,
            vector_indexes: Vec::new(),
            previous,
            ttl: special(|field| field.ttl.is_some()),
            version: special(|field| field.version.is_some()),
            created_at: special(|field| field.created_at.is_some()),
            updated_at: special(|field| field.updated_at.is_some()),
            write_once: container
                .fields
                .iter()
                .filter(|field| field.write_once.is_some())
                .filter_map(|field| {
                    let attribute = field.serialized.as_deref()?;
                    Some(Stored { field, attribute })
                })
                .collect(),
            unique: container
                .fields
                .iter()
                .filter(|field| field.unique.is_some())
                .map(|field| vec![field])
                .chain(container.unique.iter().map(|(_, names)| {
                    names
                        .iter()
                        .filter_map(|name| container.field(&name.to_string()))
                        .collect()
                }))
                .map(|fields: Vec<&Field>| {
                    fields
                        .into_iter()
                        .filter_map(|field| {
                            let attribute = field.serialized.as_deref()?;
                            Some(Stored { field, attribute })
                        })
                        .collect()
                })
                .collect(),
        })
    }

    /// The position in `EntitySchema::indexes` of the LSI at `position` in
    /// [`local_indexes`](Self::local_indexes).
    pub fn local_position(&self, position: usize) -> usize {
        self.indexes.len() + self.multi_indexes.len() + position
    }

    /// The position in `EntitySchema::indexes` of the vector index at
    /// `position` in [`vector_indexes`](Self::vector_indexes): they come
    /// last.
    pub fn vector_position(&self, position: usize) -> usize {
        self.indexes.len() + self.multi_indexes.len() + self.local_indexes.len() + position
    }

    /// The fields serde stores, with their attribute names.
    /// Whether `field` is a key attribute of a multi-attribute GSI, stored
    /// as `IndexKeyAttribute::to_key_attribute` gives (its order-preserving
    /// form) rather than as serde writes it.
    pub fn is_index_key_field(&self, field: &Field) -> bool {
        self.multi_indexes.iter().any(|index| {
            index
                .pk
                .iter()
                .chain(&index.sk)
                .any(|stored| stored.field.name == field.name)
        })
    }

    pub fn stored_fields(&self) -> impl Iterator<Item = Stored<'a>> + '_ {
        self.container.fields.iter().filter_map(|field| {
            Some(Stored {
                field,
                attribute: field.serialized.as_deref()?,
            })
        })
    }
}

/// The distinct fields of some keys, in order of first use.
pub fn distinct_fields<'a>(keys: &[&Key<'a>]) -> Vec<&'a Field<'a>> {
    let mut fields: Vec<&Field> = Vec::new();
    for field in keys.iter().flat_map(|key| key.fields()) {
        if !fields.iter().any(|known| known.name == field.name) {
            fields.push(field);
        }
    }
    fields
}
