//! The fields the key templates of an entity name, as data
//! ([`KeyField`], `EntitySchema::key_fields`), and what stamp-core does
//! with them once for every entity: the catalogue's example keys and the
//! index key attributes an update rebuilds from the values it knows.

use crate::error::{Error, Refusal, UpdateReason};
use crate::key::fill::{At, DynKeyPart, KeyArg, build_key, shard_from_values};
use crate::key::part::KeyPart;
use crate::key::template::Segment;
use crate::model::entity::KeyAttribute;
use crate::model::entity::{AttributeMap, EntitySchema};
use crate::model::index::{IndexKeySchema, IndexKind};

/// A field value of a key read back from stored attribute values, as a
/// key part: `Ok(None)` when the field is an `Option` that is `None`.
pub type KnownPart = Result<Option<Box<dyn DynKeyPart>>, Error>;

/// Reads a key field's value from an update's stored values (by attribute
/// name) as its codec stores it, for rebuilding index keys.
pub type KnownField = fn(schema: &'static EntitySchema, values: &AttributeMap) -> KnownPart;

/// One field a key template of the entity names (`EntitySchema::key_fields`):
/// its name in the struct, the example key segment of its type, and, when
/// an index key template names it, how to read it back from stored values.
#[derive(Debug, Clone, Copy)]
pub struct KeyField {
    /// The field name, as the templates name it.
    pub field: &'static str,
    /// The key encoding (not yet escaped) of an example value
    /// ([`KeyPart::example`]); `None` for a type without one.
    pub example: fn(field: &str) -> Option<String>,
    /// How an update reads the field from the values it knows, when a
    /// secondary index's template names it; `None` for a field serde does
    /// not store (an update then refuses to rebuild that index's key), or
    /// one only the primary key names.
    pub known: Option<KnownField>,
}

impl KeyField {
    /// A field only the primary key (or a field serde does not store) names.
    pub const fn new(field: &'static str, example: fn(&str) -> Option<String>) -> Self {
        KeyField {
            field,
            example,
            known: None,
        }
    }

    /// A field an index key template names, read back by `known`.
    pub const fn known(
        field: &'static str,
        example: fn(&str) -> Option<String>,
        known: KnownField,
    ) -> Self {
        KeyField {
            field,
            example,
            known: Some(known),
        }
    }
}

/// A decoded key field as a [`KnownPart`].
///
/// # Errors
///
/// The decoding's.
pub fn known_part<T: KeyPart + 'static>(value: Result<T, Error>) -> KnownPart {
    value.map(|value| Some(Box::new(value) as Box<dyn DynKeyPart>))
}

/// A decoded `Option` key field as a [`KnownPart`]: `None` stays `None`.
///
/// # Errors
///
/// The decoding's.
pub fn known_optional_part<T: KeyPart + 'static>(value: Result<Option<T>, Error>) -> KnownPart {
    value.map(|value| value.map(|value| Box::new(value) as Box<dyn DynKeyPart>))
}

/// The template key attribute `attribute` of a secondary index (a GSI's
/// partition or sort key, an LSI's sort key, a vector index's partition
/// key), with where its template sits.
fn index_key_attribute(
    schema: &'static EntitySchema,
    attribute: &str,
) -> Option<(At, &'static KeyAttribute)> {
    schema
        .indexes
        .iter()
        .enumerate()
        .find_map(|(position, index)| match &index.key {
            IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } => {
                // An LSI's partition key is the table's, which it does not write.
                if partition_key.name == attribute && !matches!(index.kind, IndexKind::Local) {
                    Some((At::IndexPk(position), partition_key))
                } else {
                    sort_key
                        .as_ref()
                        .filter(|sort_key| sort_key.name == attribute)
                        .map(|sort_key| (At::IndexSk(position), sort_key))
                }
            }
            IndexKeySchema::Attributes { .. } | IndexKeySchema::Unpartitioned => None,
        })
}

/// `Entity::key_attribute_from_values`: the secondary-index key attribute
/// `attribute` built from the stored values of its fields (`values`, by
/// attribute name); `Ok(None)` when `attribute` is no such attribute or a
/// field it names is an `Option` that is `None`.
///
/// # Errors
///
/// [`UpdateReason::UnstoredKeyField`] when the template names a field serde
/// does not store; [`UpdateReason::ShardNeedsPrimaryKey`] for a sharded
/// index when `values` lacks the primary key; a field's decoding error;
/// [`build_key`]'s.
pub fn key_attribute_from_values(
    schema: &'static EntitySchema,
    attribute: &str,
    values: &AttributeMap,
) -> Result<Option<String>, Error> {
    let Some((at, key)) = index_key_attribute(schema, attribute) else {
        return Ok(None);
    };
    let segments = key.template.segments;
    let mut readers = Vec::with_capacity(segments.len());
    for segment in segments {
        if let Segment::Field(field) = segment {
            let known = schema
                .key_fields
                .iter()
                .find(|key_field| key_field.field == *field)
                .and_then(|key_field| key_field.known);
            let Some(known) = known else {
                return Err(Error::Refused(Refusal::InvalidUpdate {
                    entity: schema.type_name,
                    reason: UpdateReason::UnstoredKeyField {
                        attribute: key.name,
                        field,
                    },
                }));
            };
            readers.push(known);
        }
    }
    // A sharded index: the shard follows from the primary key, which the
    // update knows.
    let shard = match key.template.shards() {
        Some(count) => Some(shard_from_values(
            schema,
            values,
            (schema.partition_key.name, schema.sort_key.name),
            count,
        )?),
        None => None,
    };
    let mut parts = Vec::with_capacity(readers.len());
    for read in readers {
        match read(schema, values)? {
            Some(part) => parts.push(part),
            None => return Ok(None),
        }
    }
    let mut parts = parts.iter();
    let args: Vec<KeyArg<'_>> = segments
        .iter()
        .filter_map(|segment| match segment {
            Segment::Literal(_) => None,
            Segment::Field(_) => parts.next().map(|part| KeyArg::Part(&**part)),
            Segment::Shard(_) => shard.map(KeyArg::Shard),
        })
        .collect();
    build_key(schema, at, &args).map(Some)
}
