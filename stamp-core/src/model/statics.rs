//! The `const` constructors of the static schema `#[derive(Item)]` emits
//! (`Entity::SCHEMA`): short calls in the expansion instead of struct
//! literals. Not a public API: reached as `stamp::__private`.

use crate::key::template::KeyTemplate;
use crate::key::template::Segment;
use crate::model::entity::FieldAttribute;
use crate::model::entity::KeyAttribute;

/// A [`FieldAttribute`](crate::FieldAttribute) of `Entity::SCHEMA`; its
/// stored type `""` when the derive does not know it.
pub const fn field_attribute(
    field: &'static str,
    attribute: &'static str,
    optional: bool,
    stored_type: &'static str,
) -> FieldAttribute {
    FieldAttribute {
        field,
        attribute,
        optional,
        stored_type: if stored_type.is_empty() {
            None
        } else {
            Some(stored_type)
        },
    }
}

/// A [`KeyTemplate`](crate::KeyTemplate) of `Entity::SCHEMA`: the template
/// `source` as `segments`, escaping [`KeyTemplate::ESCAPED`](crate::KeyTemplate::ESCAPED), as every
/// template the derive emits.
pub const fn template(source: &'static str, segments: &'static [Segment]) -> KeyTemplate {
    KeyTemplate {
        source,
        segments,
        escaped: KeyTemplate::ESCAPED,
    }
}

/// A [`KeyAttribute`](crate::KeyAttribute) of `Entity::SCHEMA`: attribute
/// `name` filled by the [`template`] `source` of `segments`.
pub const fn key_attribute(
    name: &'static str,
    source: &'static str,
    segments: &'static [Segment],
) -> KeyAttribute {
    KeyAttribute {
        name,
        template: template(source, segments),
    }
}

/// The short names of a template's segments in `Entity::SCHEMA`:
/// `L("ORDER#")`, `F("order_id")`, `S(16)`.
pub use crate::key::template::Segment::{Field as F, Literal as L, Shard as S};
use crate::model::entity::EntitySchema;
use crate::model::index::IndexKeySchema;
use crate::model::index::IndexKind;
use crate::model::index::IndexSchema;

/// The fields of `Entity::SCHEMA` an entity without them leaves out
/// (`..__private::SCHEMA`): no index, TTL, version, time stamps,
/// write-once or unique values, previous key format or named inputs. The
/// derive always gives the others.
pub const SCHEMA: EntitySchema = EntitySchema {
    type_name: "",
    type_attribute: "",
    partition_key: key_attribute("", "", &[]),
    sort_key: key_attribute("", "", &[]),
    indexes: &[],
    fields: &[],
    ttl_attribute: None,
    field_attributes: &[],
    version_attribute: None,
    created_at_attribute: None,
    updated_at_attribute: None,
    write_once_attributes: &[],
    unique_values: &[],
    previous_key: None,
    key_fields: &[],
    named_inputs: &[],
};

/// A template GSI of `Entity::SCHEMA` ([`IndexSchema`](crate::IndexSchema)):
/// number `number`, read by `read_method`, its partition key sharded over
/// `shards` keys (0: not sharded), with a sort key when `sort_key` is given.
pub const fn gsi(
    number: u8,
    name: &'static str,
    read_method: &'static str,
    shards: u16,
    partition_key: KeyAttribute,
    sort_key: Option<KeyAttribute>,
) -> IndexSchema {
    IndexSchema {
        number,
        name,
        kind: IndexKind::Global {
            shards: if shards == 0 { None } else { Some(shards) },
        },
        read_method,
        key: IndexKeySchema::Templates {
            partition_key,
            sort_key,
        },
    }
}

/// An LSI of `Entity::SCHEMA`: the table's partition key, its own sort key.
pub const fn lsi(
    number: u8,
    name: &'static str,
    read_method: &'static str,
    partition_key: KeyAttribute,
    sort_key: KeyAttribute,
) -> IndexSchema {
    IndexSchema {
        number,
        name,
        kind: IndexKind::Local,
        read_method,
        key: IndexKeySchema::Templates {
            partition_key,
            sort_key: Some(sort_key),
        },
    }
}
