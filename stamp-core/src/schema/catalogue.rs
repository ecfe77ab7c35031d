//! The Markdown catalogue of a table's access patterns: the collections
//! (one query over several entities) and one row per generated get and
//! query method of each entity.

use std::fmt::Write;

mod collections;
mod drawing;
mod patterns;

use super::{IndexProjection, Resolved, TableBilling, TableDefinition};
use crate::error::Error;
use crate::key::template::KeyTemplate;
use crate::model::entity::{EntitySchema, KeyAttribute};
use crate::model::index::IndexKeySchema;
use crate::model::index::{IndexId, IndexKind, IndexSchema};
use crate::model::multi_attribute::IndexKeyField;
use crate::model::vector::VectorProjection;

/// The `Option` fields of an index's templates: the entity writes the
/// index's attributes only while all of them are set (a sparse index).
fn sparse_fields(entity: &EntitySchema, index: &IndexSchema) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in index
        .written_keys()
        .iter()
        .flat_map(|key| key.template.fields())
    {
        let optional = entity
            .field_attributes
            .iter()
            .any(|field| field.field == name && field.optional);
        if optional && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// `GSI1`, or `LSI1 (local)`, with ` (sparse: only items with `status`)`
/// for a sparse index.
fn index_label(entity: &EntitySchema, index: &IndexSchema) -> String {
    let name = match index.kind {
        IndexKind::Global { .. } => index.name.to_owned(),
        IndexKind::Local => format!("{} (local)", index.name),
        IndexKind::Vector(vector) => format!(
            "{} (vector: {} dimensions, {})",
            index.name,
            vector.dimensions,
            vector.distance.as_str()
        ),
    };
    let mut sparse = sparse_fields(entity, index);
    // A vector index holds only the items that have their vector.
    if let Some(vector) = index.vector().filter(|vector| vector.optional) {
        sparse.push(vector.field);
    }
    sparse_label(&name, &sparse)
}

/// The partition-key and sort-key cells of `index`: its attribute names
/// written by `name`, or a multi-attribute key's fields written by
/// `fields`; `—` without a sort key.
fn key_columns(
    index: &super::TableIndex,
    name: fn(&str) -> String,
    fields: fn(&[IndexKeyField]) -> String,
) -> (String, String) {
    match index.multi_attribute.and_then(IndexSchema::attributes) {
        Some((partition, sort)) => (
            fields(partition),
            if sort.is_empty() {
                "—".to_owned()
            } else {
                fields(sort)
            },
        ),
        None => (
            name(index.partition_key),
            index.sort_key.map_or("—".to_owned(), name),
        ),
    }
}

/// The indexes of `entity` in the catalogue's order: template GSIs, LSIs,
/// multi-attribute GSIs, then vector indexes.
fn catalogue_order(entity: &'static EntitySchema) -> Vec<&'static IndexSchema> {
    let mut indexes: Vec<&'static IndexSchema> = entity.indexes.iter().collect();
    indexes.sort_by_key(|index| match (index.kind, &index.key) {
        (IndexKind::Global { .. }, IndexKeySchema::Templates { .. }) => 0,
        (IndexKind::Local, _) => 1,
        (IndexKind::Global { .. }, IndexKeySchema::Attributes { .. }) => 2,
        (IndexKind::Vector(_), _) => 3,
        // A GSI always has a key.
        (IndexKind::Global { .. }, IndexKeySchema::Unpartitioned) => 2,
    });
    indexes
}

/// `name`, with ` (sparse: only items with …)` when `sparse` is not empty.
fn sparse_label(name: &str, sparse: &[&str]) -> String {
    let index = name;
    if sparse.is_empty() {
        code(index)
    } else {
        format!(
            "{} (sparse: only items with {})",
            code(index),
            sparse
                .iter()
                .map(|name| code(name))
                .collect::<Vec<_>>()
                .join(" and ")
        )
    }
}

/// The key attributes of `entity` on `index` (the table, or a template
/// index; an LSI's partition key is the table's): partition key and sort
/// key. `None` for an index it does not write or a multi-attribute one.
fn keys_on(
    entity: &'static EntitySchema,
    index: IndexId,
) -> Option<(&'static KeyAttribute, Option<&'static KeyAttribute>)> {
    match entity.resolve(index) {
        None if index == IndexId::Table => Some((&entity.partition_key, Some(&entity.sort_key))),
        None => None,
        Some(index) => index.templates(),
    }
}

/// `text` as a Markdown code span that is safe in a table cell.
fn code(text: &str) -> String {
    let fence = if text.contains('`') { "``" } else { "`" };
    let padding = if text.contains('`') { " " } else { "" };
    format!(
        "{fence}{padding}{}{padding}{fence}",
        text.replace('|', "\\|")
    )
}

/// The field names of `templates`, each once, in order: the parameters of
/// the generated builder.
fn parameters(templates: &[&KeyTemplate]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for name in templates.iter().flat_map(|template| template.fields()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

/// `name = template` for each key attribute.
fn templates(keys: &[&KeyAttribute]) -> String {
    keys.iter()
        .map(|key| code(&format!("{} = {}", key.name, key.template.source)))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// The condition an entity query always has on its sort key: `=` for a
/// constant, `begins_with` on the literal prefix, or none.
fn scope(sort_key: Option<&KeyAttribute>) -> String {
    let Some(key) = sort_key else {
        return "none (the index has no sort key)".to_owned();
    };
    let prefix = key.template.literal_prefix();
    if key.template.fields().next().is_none() {
        code(&format!("{} = {prefix}", key.name))
    } else if prefix.is_empty() {
        "none (no literal prefix)".to_owned()
    } else {
        code(&format!("begins_with({}, \"{prefix}\")", key.name))
    }
}

/// The leading prefixes of the sort-key fields that typed conditions take.
fn typed_conditions(sort_key: Option<&KeyAttribute>) -> String {
    let fields: Vec<&str> = sort_key
        .map(|key| key.template.fields().collect())
        .unwrap_or_default();
    if fields.is_empty() {
        return "—".to_owned();
    }
    (1..=fields.len())
        .map(|length| code(&fields[..length].join(", ")))
        .collect::<Vec<_>>()
        .join("<br>")
}

impl TableDefinition {
    /// A Markdown catalogue of the table's access patterns: the table and
    /// its indexes, each entity's templates (an index is marked sparse when
    /// its templates use an `Option` field: an item is in it only while the
    /// field is set), the collections, and one row for every generated get
    /// and query method of each entity; then the table drawn (example items
    /// per partition key template in sort-key order, on the table and each
    /// GSI) and a Mermaid diagram of entities, indexes and access patterns.
    ///
    /// Collections are the one-query patterns over several entities that
    /// share a partition key template on the table or a GSI: those
    /// recorded with [`collection`](Self::collection) (a
    /// `#[derive(Collection)]` enum, read with
    /// `E::query(…).collection::<C>()`), then any other group of entities
    /// whose partition templates have the same shape, without a name.
    ///
    /// The method rows:
    ///
    /// - `E::key(<fields>)` with `table.get(&key)`: a `GetItem`;
    /// - `E::query(<partition key fields>)`: a `Query` on the table, scoped
    ///   by `SK = <constant>` or `begins_with(SK, <literal prefix>)`;
    /// - `E::query_gsiN(<index partition key fields>)` per GSI: a `Query` on
    ///   the index, scoped by `begins_with` on the literal prefix of its
    ///   sort-key template when it has one;
    /// - `E::query_lsiN(<partition key fields>)` per LSI (marked `(local)`):
    ///   a `Query` on the index, the table's partition key and the index
    ///   sort key, scoped as a GSI query.
    ///
    /// Each row gives the index, the key templates, the scope, the leading
    /// sort-key field prefixes that typed conditions (`=`, `<`, `<=`, `>`,
    /// `>=`, between, begins_with) take, and an example key: the
    /// [example](Self::example)'s keys, or else each field's
    /// [`KeyPart::example`](crate::KeyPart::example) encoded as stored
    /// (`<field>-1` for a `String`, `0000000001` for a `u32`, an enum's
    /// first variant), and the placeholder `<field>` for a type without an
    /// example.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-modeling-nosql.html>,
    /// and for sparse indexes <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-indexes-general-sparse-indexes.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn catalogue(&self) -> Result<String, Error> {
        let resolved = self.resolve()?;
        let mut out = String::new();
        let entities: Vec<String> = self
            .entities
            .iter()
            .map(|entity| code(entity.type_name))
            .collect();
        let _ = writeln!(out, "# Access patterns\n");
        let _ = writeln!(
            out,
            "The table of {}. Generated by Stamp (`TableDefinition::catalogue`); do not edit by hand.\n",
            entities.join(", ")
        );

        self.table_section(&mut out, &resolved);
        let _ = writeln!(out, "## Entities\n");
        let _ = writeln!(out, "| entity | partition key | sort key | indexes | TTL |");
        let _ = writeln!(out, "|---|---|---|---|---|");
        for entity in &self.entities {
            // The indexes of templates: GSIs, then LSIs (a multi-attribute
            // index's key is fields, listed in the table section).
            let mut indexes: Vec<&IndexSchema> = entity
                .indexes
                .iter()
                .filter(|index| !index.is_multi_attribute())
                .collect();
            indexes.sort_by_key(|index| index.is_local());
            let indexes: Vec<String> = indexes
                .into_iter()
                .map(|index| {
                    let keys = index.written_keys();
                    let mut text = templates(&keys);
                    if let Some(vector) = index.vector() {
                        let attribute = code(vector.attribute);
                        text = if text.is_empty() {
                            format!("vector {attribute}")
                        } else {
                            format!("{text}, vector {attribute}")
                        };
                    }
                    format!("{}: {text}", index_label(entity, index))
                })
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(entity.type_name),
                code(entity.partition_key.template.source),
                code(entity.sort_key.template.source),
                if indexes.is_empty() {
                    "—".to_owned()
                } else {
                    indexes.join("<br>")
                },
                entity.ttl_attribute.map_or("—".to_owned(), code),
            );
        }

        self.unique_rows(&mut out);
        self.drawing(&mut out, &resolved);
        self.collection_rows(&mut out);

        let _ = writeln!(out, "\n## Access patterns\n");
        let _ = writeln!(
            out,
            "Every query keeps to its entity's scope, so other item types in the partition never come back. \
             Typed sort-key conditions (`=`, `<`, `<=`, `>`, `>=`, between, begins_with) take a leading prefix \
             of the sort-key fields, as listed. A query of a sparse index returns only the items that are in it, \
             those whose `Option` fields of the index templates are set. Example keys come from an example item \
             when one is recorded (`TableDefinition::example`), otherwise from each field type's \
             `KeyPart::example`, encoded as stored (`<field>` for a type without one).\n"
        );
        let _ = writeln!(
            out,
            "| method | entity | request | index | key templates | sort-key condition | typed conditions on | example key |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
        for entity in &self.entities {
            self.entity_rows(&mut out, entity);
        }
        self.diagram(&mut out, &resolved);
        self.capacity_section(&mut out)?;
        Ok(out)
    }

    /// The catalogue's "Table" section: the keys and indexes, billing, TTL
    /// and point-in-time recovery.
    fn table_section(&self, out: &mut String, resolved: &Resolved) {
        let _ = writeln!(out, "## Table\n");
        let _ = writeln!(out, "| index | partition key | sort key | projection |");
        let _ = writeln!(out, "|---|---|---|---|");
        let _ = writeln!(
            out,
            "| table | {} | {} | — |",
            code(resolved.partition_key),
            code(resolved.sort_key)
        );
        for index in &resolved.indexes {
            let projection = match &index.projection {
                IndexProjection::Include(attributes) => format!(
                    "INCLUDE {}",
                    attributes
                        .iter()
                        .map(|attribute| code(attribute))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                other => other.to_string(),
            };
            let (partition_key, sort_key) = key_columns(index, code, typed_attributes);
            let local = if index.is_local() { " (local)" } else { "" };
            let _ = writeln!(
                out,
                "| {}{local} | {partition_key} | {sort_key} | {projection} |",
                code(index.name),
            );
        }
        // A vector index: its partition element (`HASH`), its vector in the
        // sort key's column, its projection.
        for index in &resolved.vector_indexes {
            let Some(vector) = index.vector() else {
                continue;
            };
            let partition_key = index
                .search_partition()
                .map_or("—".to_owned(), |(attribute, _)| code(attribute));
            let projection = match vector.projection {
                VectorProjection::All => "ALL".to_owned(),
                VectorProjection::KeysOnly => "KEYS_ONLY".to_owned(),
                VectorProjection::Include(attributes) => format!(
                    "INCLUDE {}",
                    attributes
                        .iter()
                        .map(|attribute| code(attribute))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let _ = writeln!(
                out,
                "| {} (vector) | {partition_key} | vector {}: {} × f32, {} | {projection} |",
                code(index.name),
                code(vector.attribute),
                vector.dimensions,
                vector.distance.as_str(),
            );
        }
        let billing = match self.billing {
            TableBilling::PayPerRequest => "on demand (`PAY_PER_REQUEST`)".to_owned(),
            TableBilling::Provisioned {
                read_capacity_units,
                write_capacity_units,
            } => format!(
                "provisioned (`PROVISIONED`), {read_capacity_units} read and {write_capacity_units} write capacity units on the table and on each index"
            ),
        };
        let _ = writeln!(out, "\n- Billing: {billing}.");
        let _ = writeln!(
            out,
            "- TTL: {}.",
            resolved
                .time_to_live
                .map_or("off".to_owned(), |attribute| format!(
                    "on {}",
                    code(attribute)
                ))
        );
        let _ = writeln!(
            out,
            "- Point-in-time recovery: {}.\n",
            if self.point_in_time_recovery {
                "on"
            } else {
                "off"
            }
        );
    }
}

/// Key attributes with their types: `` `tenant_id` (S), `region` (N) ``.
fn typed_attributes(fields: &[IndexKeyField]) -> String {
    fields
        .iter()
        .map(|field| {
            format!(
                "{} ({})",
                code(field.attribute),
                field.attribute_type.as_str()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl TableDefinition {
    /// The catalogue's section of unique values and their guard items,
    /// when an entity has some.
    fn unique_rows(&self, out: &mut String) {
        let rows: Vec<String> = self
            .entities
            .iter()
            .flat_map(|entity| {
                entity.unique_values.iter().map(move |unique| {
                    let lookup: Vec<String> = unique
                        .fields
                        .iter()
                        .map(|field| {
                            format!("{}::{}, &{field}", entity.type_name, field.to_uppercase())
                        })
                        .collect();
                    let lookup = match lookup.split_first() {
                        Some((first, rest)) => std::iter::once(format!("GetUnique::new({first})"))
                            .chain(rest.iter().map(|more| format!(".and({more})")))
                            .collect::<String>(),
                        None => String::new(),
                    };
                    format!(
                        "| {} | {} | {} | {} |",
                        code(entity.type_name),
                        code(&unique.fields.join(", ")),
                        code(&unique.guard_template(entity.type_name)),
                        code(&lookup),
                    )
                })
            })
            .collect();
        if rows.is_empty() {
            return;
        }
        let _ = writeln!(out, "\n## Unique values\n");
        let _ = writeln!(
            out,
            "Each value is held by a guard item whose partition and sort key are both the text below (values \
             escaped as key values are), with type `{}` and the owning item's key in `{}` and `{}`. Every write \
             of the entity puts, moves and deletes its guards in the same `TransactWriteItems`.\n",
            crate::ops::unique::GUARD_TYPE,
            crate::ops::unique::OWNER_PK,
            crate::ops::unique::OWNER_SK,
        );
        let _ = writeln!(out, "| entity | unique value | guard item key | lookup |");
        let _ = writeln!(out, "|---|---|---|---|");
        for row in rows {
            let _ = writeln!(out, "{row}");
        }
    }
}
