//! The table drawn, as practitioners draw a single table: per partition
//! key template, example items in sort-key order (the table, then each
//! GSI's and each LSI's view of it), and a Mermaid diagram of the entities, the indexes
//! and the access patterns that read them.

use std::fmt::Write;

use super::{catalogue_order, code, key_columns, keys_on, parameters, sparse_fields};
use crate::model::collection::{partition_template, same_template_shape};
use crate::model::entity::{EntitySchema, KeyAttribute};
use crate::model::index::{IndexId, IndexKeySchema, IndexKind, IndexSchema};
use crate::model::multi_attribute::IndexKeyField;
use crate::schema::{Resolved, TableDefinition};

/// How many attributes besides the keys a drawn item shows.
const SHOWN_ATTRIBUTES: usize = 4;

/// One drawn item: its entity and the stored values of the view's columns.
struct Row {
    entity: &'static EntitySchema,
    /// The view's partition key and sort key values.
    partition: String,
    sort: String,
}

impl TableDefinition {
    /// `## Items as stored`: the table's partitions, then each GSI's.
    pub(super) fn drawing(&self, out: &mut String, resolved: &Resolved) {
        let _ = writeln!(out, "\n## Items as stored\n");
        let _ = writeln!(
            out,
            "The table as practitioners draw it: one example item of each entity, grouped by partition \
             key template and in sort-key order (byte order, as DynamoDB sorts), with the key attributes \
             it writes and a few other attributes. Key values are the catalogue's example keys (recorded \
             examples, else each field type's `KeyPart::example`); other attributes show their values \
             when an example item is recorded, else their names; an index's view shows only what it \
             projects. A blank index cell: the item is not in that index.\n"
        );
        let mut columns = vec![resolved.partition_key, resolved.sort_key];
        let index_columns = resolved.key_attribute_names();
        columns.extend(index_columns.iter().skip(2));
        for group in self.partition_groups(IndexId::Table) {
            self.draw_group(out, IndexId::Table, &group, &columns, None);
        }
        // Each index's view: its keys, then the table's (an LSI's
        // partition key is the table's, shown once).
        for index in &resolved.indexes {
            let mut columns: Vec<&'static str> = Vec::new();
            for name in [index.partition_key]
                .into_iter()
                .chain(index.sort_key)
                .chain([resolved.partition_key, resolved.sort_key])
            {
                if !columns.contains(&name) {
                    columns.push(name);
                }
            }
            for group in self.partition_groups(index.id()) {
                self.draw_group(out, index.id(), &group, &columns, Some(&index.projection));
            }
        }
    }

    /// The entities on `index`, grouped by the shape of their partition
    /// key template, in definition order (none on a multi-attribute index,
    /// whose partition key is fields).
    fn partition_groups(&self, index: IndexId) -> Vec<Vec<&'static EntitySchema>> {
        let mut groups: Vec<Vec<&'static EntitySchema>> = Vec::new();
        for entity in &self.entities {
            let Some(template) = partition_template(entity, index) else {
                continue;
            };
            match groups.iter_mut().find(|group| {
                partition_template(group[0], index)
                    .is_some_and(|first| same_template_shape(first, template))
            }) {
                Some(group) => group.push(entity),
                None => groups.push(vec![entity]),
            }
        }
        groups
    }

    /// One partition template: a heading and its items in sort-key order.
    fn draw_group(
        &self,
        out: &mut String,
        index: IndexId,
        group: &[&'static EntitySchema],
        columns: &[&'static str],
        projection: Option<&crate::schema::IndexProjection>,
    ) {
        let Some((partition, _)) = keys_on(group[0], index) else {
            return;
        };
        let view = match group[0].resolve(index) {
            None => "table".to_owned(),
            Some(schema) => match schema.kind {
                IndexKind::Global { .. } => code(schema.name),
                IndexKind::Local => format!("{} (local)", code(schema.name)),
                IndexKind::Vector(_) => format!("{} (vector)", code(schema.name)),
            },
        };
        let _ = writeln!(
            out,
            "### {view}: {}\n",
            code(&format!(
                "{} = {}",
                partition.name, partition.template.source
            ))
        );
        let type_attribute = group[0].type_attribute;
        let mut header: Vec<String> = columns.iter().map(|name| code(name)).collect();
        header.push(code(type_attribute));
        header.push("attributes".to_owned());
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
        let mut rows: Vec<Row> = group
            .iter()
            .filter_map(|entity| {
                let (partition, sort) = keys_on(entity, index)?;
                Some(Row {
                    entity,
                    partition: self.example_key(entity, partition),
                    sort: sort.map_or_else(String::new, |key| self.example_key(entity, key)),
                })
            })
            .collect();
        rows.sort_by(|a, b| {
            (a.partition.as_bytes(), a.sort.as_bytes())
                .cmp(&(b.partition.as_bytes(), b.sort.as_bytes()))
        });
        for row in rows {
            let mut cells: Vec<String> = columns
                .iter()
                .map(|column| {
                    self.stored_key(row.entity, column)
                        .map_or_else(String::new, |value| code(&value))
                })
                .collect();
            cells.push(code(row.entity.type_name));
            cells.push(self.attributes(row.entity, projection));
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        let sparse: Vec<String> = group
            .iter()
            .filter_map(|entity| {
                let fields = sparse_fields(entity, entity.resolve(index)?);
                (!fields.is_empty()).then(|| {
                    format!(
                        "{} only while {} is set",
                        code(entity.type_name),
                        fields
                            .iter()
                            .map(|f| code(f))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    )
                })
            })
            .collect();
        if !sparse.is_empty() {
            let _ = writeln!(out, "\nSparse: {}.", sparse.join("; "));
        }
        let _ = writeln!(out);
    }

    /// The value `entity`'s example stores in key attribute `name`, if it
    /// writes one: `None` for an index it is not in (a recorded example
    /// without the attribute, a sparse index).
    fn stored_key(&self, entity: &'static EntitySchema, name: &str) -> Option<String> {
        let key = entity_key(entity, name)?;
        if let Some(example) = self.recorded(entity) {
            return example.item.get(name)?.as_s().ok().cloned();
        }
        Some(self.example_key(entity, key))
    }

    fn recorded(&self, entity: &EntitySchema) -> Option<&super::super::Example> {
        self.examples
            .iter()
            .find(|example| example.entity == entity.type_name)
    }

    /// A few attributes besides the keys: those whose fields are not in
    /// the primary key templates and that the index projects (`None`: the
    /// table, all of them), `name = value` from a recorded example, else
    /// their names; `— (KEYS_ONLY)` for an index of the keys only.
    fn attributes(
        &self,
        entity: &'static EntitySchema,
        projection: Option<&crate::schema::IndexProjection>,
    ) -> String {
        use crate::schema::IndexProjection;
        if let Some(IndexProjection::KeysOnly) = projection {
            return "— (KEYS_ONLY)".to_owned();
        }
        let projected = |attribute: &str| match projection {
            Some(IndexProjection::Include(names)) => names.iter().any(|name| name == attribute),
            _ => true,
        };
        let in_primary_key = |field: &str| {
            entity.partition_key.template.fields().any(|f| f == field)
                || entity.sort_key.template.fields().any(|f| f == field)
        };
        let others: Vec<&str> = entity
            .field_attributes
            .iter()
            .filter(|field| !in_primary_key(field.field) && projected(field.attribute))
            .map(|field| field.attribute)
            .collect();
        let example = self.recorded(entity);
        let mut shown: Vec<String> = others
            .iter()
            .take(SHOWN_ATTRIBUTES)
            .map(|name| {
                let value = example
                    .and_then(|example| example.item.get(*name))
                    .and_then(|value| match value {
                        aws_sdk_dynamodb::types::AttributeValue::S(text) => Some(text.clone()),
                        aws_sdk_dynamodb::types::AttributeValue::N(number) => Some(number.clone()),
                        aws_sdk_dynamodb::types::AttributeValue::Bool(flag) => {
                            Some(flag.to_string())
                        }
                        _ => None,
                    });
                match value {
                    Some(value) => code(&format!("{name} = {value}")),
                    None => code(name),
                }
            })
            .collect();
        if others.len() > SHOWN_ATTRIBUTES {
            shown.push("…".to_owned());
        }
        if shown.is_empty() {
            "—".to_owned()
        } else {
            shown.join(", ")
        }
    }

    /// `## Diagram`: a Mermaid flowchart of the entities, the indexes they
    /// write (labelled with the key templates) and the access patterns
    /// that read each index.
    pub(super) fn diagram(&self, out: &mut String, resolved: &Resolved) {
        let _ = writeln!(out, "\n## Diagram\n");
        let _ = writeln!(
            out,
            "Entities (left) write items into the table and its indexes (middle), labelled with the key \
             templates; each access pattern (right) reads one of them. GitHub renders it.\n"
        );
        let _ = writeln!(out, "```mermaid\nflowchart LR");
        let _ = writeln!(
            out,
            "  base_table[(\"table<br>{} / {}\")]",
            mermaid(resolved.partition_key),
            mermaid(resolved.sort_key)
        );
        for index in &resolved.indexes {
            // A multi-attribute index lists its attributes, `(a, b) / (c)`.
            let (partition_key, sort_key) = key_columns(index, mermaid, attribute_list);
            let local = if index.is_local() { " (local)" } else { "" };
            let _ = writeln!(
                out,
                "  {}[(\"{}{local}<br>{partition_key} / {sort_key}\")]",
                node(index.name),
                mermaid(index.name),
            );
        }
        // A vector index: its partition element and its vector.
        for index in &resolved.vector_indexes {
            let Some(vector) = index.vector() else {
                continue;
            };
            let partition_key = index
                .search_partition()
                .map_or("—".to_owned(), |(attribute, _)| mermaid(attribute));
            let _ = writeln!(
                out,
                "  {}[(\"{} (vector)<br>{partition_key} / {}[{}] {}\")]",
                node(index.name),
                mermaid(index.name),
                mermaid(vector.attribute),
                vector.dimensions,
                vector.distance.as_str(),
            );
        }
        for entity in &self.entities {
            let _ = writeln!(
                out,
                "  entity_{}[\"{}\"]",
                entity_node(entity.type_name),
                mermaid(entity.type_name)
            );
        }
        for entity in &self.entities {
            let id = entity_node(entity.type_name);
            let label = |keys: &[&KeyAttribute]| {
                keys.iter()
                    .map(|key| mermaid(key.template.source))
                    .collect::<Vec<_>>()
                    .join(" / ")
            };
            let _ = writeln!(
                out,
                "  entity_{id} -->|\"{}\"| base_table",
                label(&[&entity.partition_key, &entity.sort_key])
            );
            for index in catalogue_order(entity) {
                let keys = match &index.key {
                    IndexKeySchema::Templates {
                        partition_key,
                        sort_key,
                    } => {
                        let mut keys = vec![partition_key];
                        keys.extend(sort_key.as_ref());
                        label(&keys)
                    }
                    IndexKeySchema::Attributes {
                        partition_key,
                        sort_key,
                        ..
                    } => format!(
                        "pk({}) sk({})",
                        field_list(partition_key),
                        field_list(sort_key)
                    ),
                    IndexKeySchema::Unpartitioned => String::new(),
                };
                // A vector index: its partition, then its vector attribute.
                let keys = match index.vector() {
                    Some(vector) if keys.is_empty() => format!("vector {}", vector.attribute),
                    Some(vector) => format!("{keys}, vector {}", vector.attribute),
                    None => keys,
                };
                let _ = writeln!(out, "  entity_{id} -->|\"{keys}\"| {}", node(index.name));
            }
        }
        self.diagram_patterns(out);
        let _ = writeln!(out, "```");
    }

    /// The diagram's access patterns: a node per generated get and query
    /// method and per named collection, linked from the index it reads.
    fn diagram_patterns(&self, out: &mut String) {
        let mut pattern = 0;
        let mut read = |out: &mut String, text: String, target: String| {
            pattern += 1;
            let _ = writeln!(out, "  pattern_{pattern}[\"{}\"]", mermaid(&text));
            let _ = writeln!(out, "  {target} -.-> pattern_{pattern}");
        };
        for entity in &self.entities {
            let name = entity.type_name;
            let (pk, sk) = (&entity.partition_key, &entity.sort_key);
            read(
                out,
                format!(
                    "{name}::key({}) get",
                    entity.call_arguments("key", &parameters(&[&pk.template, &sk.template]))
                ),
                "base_table".to_owned(),
            );
            read(
                out,
                format!(
                    "{name}::query({})",
                    entity.call_arguments("query", &parameters(&[&pk.template]))
                ),
                "base_table".to_owned(),
            );
            for index in catalogue_order(entity) {
                let method = index.read_method;
                let arguments = match &index.key {
                    IndexKeySchema::Templates { partition_key, .. } => {
                        parameters(&[&partition_key.template])
                    }
                    IndexKeySchema::Attributes { partition_key, .. } => partition_key
                        .iter()
                        .map(|field| field.field)
                        .collect::<Vec<_>>()
                        .join(", "),
                    IndexKeySchema::Unpartitioned => String::new(),
                };
                // A similarity search takes the query vector after the partition.
                let arguments = match (index.is_vector(), arguments.is_empty()) {
                    (true, true) => "vector".to_owned(),
                    (true, false) => format!("{arguments}, vector"),
                    (false, _) => arguments,
                };
                read(
                    out,
                    format!(
                        "{name}::{method}({})",
                        entity.call_arguments(method, &arguments)
                    ),
                    node(index.name),
                );
            }
        }
        for collection in self.collection_groups() {
            let (Some(first), false) = (collection.members.first(), collection.name.is_empty())
            else {
                continue;
            };
            let Some(template) = partition_template(first, collection.index) else {
                continue;
            };
            let (method, target) = match first.resolve(collection.index) {
                None => ("query".to_owned(), "base_table".to_owned()),
                Some(index) => (index.read_method.to_owned(), node(index.name)),
            };
            read(
                out,
                format!(
                    "{}::{method}({}) {}",
                    first.type_name,
                    first.call_arguments(&method, &parameters(&[template])),
                    collection.name
                ),
                target,
            );
        }
    }
}

/// The key attribute named `name` that `entity` writes, if any.
fn entity_key(entity: &'static EntitySchema, name: &str) -> Option<&'static KeyAttribute> {
    std::iter::once(&entity.partition_key)
        .chain(std::iter::once(&entity.sort_key))
        .chain(entity.indexes.iter().flat_map(IndexSchema::written_keys))
        .find(|key| key.name == name)
}

/// The field names of a multi-attribute key, for a Mermaid label.
fn field_list(fields: &[IndexKeyField]) -> String {
    let names: Vec<&str> = fields.iter().map(|field| field.field).collect();
    mermaid(&names.join(", "))
}

/// The Mermaid node id of index `name`: `index_`, then letters, digits and
/// `_` only.
fn node(name: &str) -> String {
    let id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("index_{id}")
}

/// The Mermaid node id of entity `name`, after `entity_`.
fn entity_node(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Text for a quoted Mermaid label: `"`, `#`, `<`, `>` and `|` as Mermaid
/// entity codes, so key templates show as written.
fn mermaid(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '|' => out.push_str("#124;"),
            c => out.push(c),
        }
    }
    out
}

/// The attributes of a multi-attribute key, `(tenant_id, region)`, for a
/// Mermaid label.
fn attribute_list(fields: &[IndexKeyField]) -> String {
    let names: Vec<&str> = fields.iter().map(|field| field.attribute).collect();
    format!("({})", mermaid(&names.join(", ")))
}
