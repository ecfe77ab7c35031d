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
