//! The Markdown catalogue of a table's access patterns: the collections
//! (one query over several entities) and one row per generated get and
//! query method of each entity.

use std::fmt::Write;

mod drawing;

use super::{CollectionSchema, IndexProjection, Resolved, TableBilling, TableDefinition};
use crate::model::collection::{partition_template, same_template_shape};
use crate::{EntitySchema, Error, IndexSchema, KeyAttribute, KeyTemplate, LocalIndexSchema};

/// The `Option` fields of an index's templates: the entity writes the
/// index's attributes only while all of them are set (a sparse index).
fn sparse_fields(entity: &EntitySchema, index: &IndexSchema) -> Vec<&'static str> {
    let keys: Vec<&KeyAttribute> = std::iter::once(&index.partition_key)
        .chain(index.sort_key.as_ref())
        .collect();
    sparse_fields_of(entity, &keys)
}

/// The `Option` fields of the templates of `keys`.
fn sparse_fields_of(entity: &EntitySchema, keys: &[&KeyAttribute]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in keys.iter().flat_map(|key| key.template.fields()) {
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

/// `GSI1`, with ` (sparse: only items with `status`)` for a sparse index.
fn index_label(entity: &EntitySchema, index: &IndexSchema) -> String {
    sparse_label(index.name, &sparse_fields(entity, index))
}

/// `LSI1 (local)`, with the sparse note as for a GSI.
fn local_index_label(entity: &EntitySchema, index: &LocalIndexSchema) -> String {
    sparse_label(
        &format!("{} (local)", index.name),
        &sparse_fields_of(entity, &[&index.sort_key]),
    )
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

/// The key attribute of `entity` on `index` (0: the table, 1 to 20 a GSI,
/// `LOCAL_INDEX_BASE + N` LSI N): partition key and sort key.
fn keys_on(
    entity: &'static EntitySchema,
    index: u8,
) -> Option<(&'static KeyAttribute, Option<&'static KeyAttribute>)> {
    if index == 0 {
        return Some((&entity.partition_key, Some(&entity.sort_key)));
    }
    if index > crate::LOCAL_INDEX_BASE {
        let local = entity.local_index(index - crate::LOCAL_INDEX_BASE)?;
        return Some((&entity.partition_key, Some(&local.sort_key)));
    }
    let index = entity.indexes.iter().find(|gsi| gsi.number == index)?;
    Some((&index.partition_key, index.sort_key.as_ref()))
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
            let indexes: Vec<String> = entity
                .indexes
                .iter()
                .map(|index| {
                    let mut keys = vec![&index.partition_key];
                    keys.extend(index.sort_key.as_ref());
                    format!("{}: {}", index_label(entity, index), templates(&keys))
                })
                .chain(entity.local_indexes.iter().map(|index| {
                    format!(
                        "{}: {}",
                        local_index_label(entity, index),
                        templates(&[&index.sort_key])
                    )
                }))
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
            let (partition_key, sort_key) = match index.multi_attribute {
                Some(multi) => (
                    typed_attributes(multi.partition_key),
                    if multi.sort_key.is_empty() {
                        "—".to_owned()
                    } else {
                        typed_attributes(multi.sort_key)
                    },
                ),
                None => (
                    code(index.partition_key),
                    index.sort_key.map_or("—".to_owned(), code),
                ),
            };
            let _ = writeln!(
                out,
                "| {} | {partition_key} | {sort_key} | {projection} |",
                code(index.name),
            );
        }
        for index in &resolved.local_indexes {
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
            let _ = writeln!(
                out,
                "| {} (local) | {} | {} | {projection} |",
                code(index.name),
                code(resolved.partition_key),
                code(index.sort_key)
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

    /// The collections recorded with [`collection`](Self::collection), then
    /// the groups of entities that share a partition key template (on the
    /// table or a GSI) and are not all members of one recorded collection.
    fn collection_groups(&self) -> Vec<CollectionSchema> {
        let mut groups = self.collections.clone();
        let mut numbers: Vec<u8> = vec![0];
        for entity in &self.entities {
            for index in entity.indexes {
                if !numbers.contains(&index.number) {
                    numbers.push(index.number);
                }
            }
        }
        numbers[1..].sort_unstable();
        for number in numbers {
            let mut found: Vec<Vec<&'static EntitySchema>> = Vec::new();
            for entity in &self.entities {
                let Some(template) = partition_template(entity, number) else {
                    continue;
                };
                match found.iter_mut().find(|group| {
                    partition_template(group[0], number)
                        .is_some_and(|first| same_template_shape(first, template))
                }) {
                    Some(group) => group.push(entity),
                    None => found.push(vec![entity]),
                }
            }
            for members in found.into_iter().filter(|group| group.len() > 1) {
                let covered = self.collections.iter().any(|collection| {
                    collection.index == number
                        && members.iter().all(|member| {
                            collection
                                .members
                                .iter()
                                .any(|known| known.type_name == member.type_name)
                        })
                });
                if !covered {
                    groups.push(CollectionSchema {
                        name: "",
                        index: number,
                        members,
                    });
                }
            }
        }
        groups
    }

    fn collection_rows(&self, out: &mut String) {
        let _ = writeln!(out, "\n## Collections\n");
        let groups = self.collection_groups();
        if groups.is_empty() {
            let _ = writeln!(
                out,
                "None: no two entities share a partition key template on the table or an index."
            );
            return;
        }
        let _ = writeln!(
            out,
            "Entities that share a partition key template: one `Query` per page reads the whole partition, \
             every member's items in sort-key order, each decoded by its type attribute into the collection enum \
             (`#[derive(Collection)]`, recorded with `TableDefinition::collection`). A group without a name \
             has no recorded enum.\n"
        );
        let _ = writeln!(
            out,
            "| collection | index | partition key | members (sort key) | query | example key |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for group in groups {
            let Some(first) = group.members.first() else {
                continue;
            };
            let Some((partition, _)) = keys_on(first, group.index) else {
                continue;
            };
            let index = if group.index == 0 {
                "table".to_owned()
            } else {
                first
                    .indexes
                    .iter()
                    .find(|gsi| gsi.number == group.index)
                    .map_or("—".to_owned(), |gsi| code(gsi.name))
            };
            let members: Vec<String> = group
                .members
                .iter()
                .map(|member| {
                    let sort = keys_on(member, group.index)
                        .and_then(|(_, sort)| sort)
                        .map_or("no sort key".to_owned(), |sort| {
                            code(&format!("{} = {}", sort.name, sort.template.source))
                        });
                    let sparse = member
                        .indexes
                        .iter()
                        .find(|gsi| gsi.number == group.index)
                        .map(|gsi| sparse_fields(member, gsi))
                        .unwrap_or_default();
                    let sparse = if sparse.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", only items with {}",
                            sparse
                                .iter()
                                .map(|name| code(name))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        )
                    };
                    format!("{} ({sort}{sparse})", code(member.type_name))
                })
                .collect();
            let method = if group.index == 0 {
                "query".to_owned()
            } else {
                format!("query_gsi{}", group.index)
            };
            let enum_name = if group.name.is_empty() {
                "…"
            } else {
                group.name
            };
            let _ = writeln!(
                out,
                "| {} | {index} | {} | {} | {} | {} |",
                if group.name.is_empty() {
                    "—".to_owned()
                } else {
                    code(group.name)
                },
                code(&format!(
                    "{} = {}",
                    partition.name, partition.template.source
                )),
                members.join("<br>"),
                code(&format!(
                    "{}::{method}({}).collection::<{enum_name}>()",
                    first.type_name,
                    first.call_arguments(&method, &parameters(&[&partition.template]))
                )),
                code(&format!(
                    "{} = {}",
                    partition.name,
                    self.example_key(first, partition)
                )),
            );
        }
    }

    fn entity_rows(&self, out: &mut String, entity: &'static EntitySchema) {
        let name = entity.type_name;
        let (pk, sk) = (&entity.partition_key, &entity.sort_key);
        let example = |key: &'static KeyAttribute| {
            code(&format!("{} = {}", key.name, self.example_key(entity, key)))
        };
        let _ = writeln!(
            out,
            "| {} then {} | {} | GetItem | table | {} | whole key | — | {}<br>{} |",
            code(&format!(
                "{name}::key({})",
                entity.call_arguments("key", &parameters(&[&pk.template, &sk.template]))
            )),
            code("table.get(&key)"),
            code(name),
            templates(&[pk, sk]),
            example(pk),
            example(sk),
        );
        let _ = writeln!(
            out,
            "| {} | {} | Query | table | {} | {} | {} | {} |",
            code(&format!(
                "{name}::query({})",
                entity.call_arguments("query", &parameters(&[&pk.template]))
            )),
            code(name),
            templates(&[pk, sk]),
            scope(Some(sk)),
            typed_conditions(Some(sk)),
            example(pk),
        );
        for index in entity.indexes {
            let mut keys = vec![&index.partition_key];
            keys.extend(index.sort_key.as_ref());
            // A sharded index: the fan-out, one request per shard.
            let operation = match index.shards {
                Some(shards) => format!(
                    "Query ×{shards} (one per shard, `{}0` to `{}{}`, merged in sort-key order)",
                    index
                        .partition_key
                        .template
                        .source
                        .trim_end_matches("<shard>"),
                    index
                        .partition_key
                        .template
                        .source
                        .trim_end_matches("<shard>"),
                    shards - 1
                ),
                None => "Query".to_owned(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {operation} | {} | {} | {} | {} | {} |",
                code(&format!(
                    "{name}::query_gsi{}({})",
                    index.number,
                    entity.call_arguments(
                        &format!("query_gsi{}", index.number),
                        &parameters(&[&index.partition_key.template])
                    )
                )),
                code(name),
                index_label(entity, index),
                templates(&keys),
                scope(index.sort_key.as_ref()),
                typed_conditions(index.sort_key.as_ref()),
                example(&index.partition_key),
            );
        }
        for index in entity.local_indexes {
            let method = format!("query_lsi{}", index.number);
            let _ = writeln!(
                out,
                "| {} | {} | Query | {} | {} | {} | {} | {} |",
                code(&format!(
                    "{name}::{method}({})",
                    entity.call_arguments(&method, &parameters(&[&pk.template]))
                )),
                code(name),
                local_index_label(entity, index),
                templates(&[pk, &index.sort_key]),
                scope(Some(&index.sort_key)),
                typed_conditions(Some(&index.sort_key)),
                example(pk),
            );
        }
        for index in entity.multi_attribute_indexes {
            self.multi_attribute_row(out, entity, index);
        }
    }

    /// The row of `query_gsiN(…)` of a multi-attribute index: its key
    /// attributes with their types, no scope but the type attribute, the
    /// shapes of sort-key conditions, and example values (a recorded
    /// example's, else `<field>`).
    fn multi_attribute_row(
        &self,
        out: &mut String,
        entity: &'static EntitySchema,
        index: &'static crate::MultiAttributeIndexSchema,
    ) {
        let name = entity.type_name;
        let function = format!("query_gsi{}", index.number);
        let fields: Vec<&str> = index
            .partition_key
            .iter()
            .map(|field| field.field)
            .collect();
        let sparse: Vec<String> = index
            .key_fields()
            .filter(|field| field.optional)
            .map(|field| code(field.field))
            .collect();
        let label = if sparse.is_empty() {
            code(index.name)
        } else {
            format!(
                "{} (sparse: only items with {})",
                code(index.name),
                sparse.join(" and ")
            )
        };
        let keys = if index.sort_key.is_empty() {
            typed_attributes(index.partition_key)
        } else {
            format!(
                "{}<br>{}",
                typed_attributes(index.partition_key),
                typed_attributes(index.sort_key)
            )
        };
        let conditions = if index.sort_key.is_empty() {
            "—".to_owned()
        } else {
            let attributes: Vec<String> = index
                .sort_key
                .iter()
                .map(|field| code(field.attribute))
                .collect();
            format!(
                "`=` on a leading run of {}; one range (`<`, `<=`, `>`, `>=`, between, begins_with) on the attribute after it",
                attributes.join(", ")
            )
        };
        let recorded = self
            .examples
            .iter()
            .find(|example| example.entity == entity.type_name);
        let examples: Vec<String> = index
            .partition_key
            .iter()
            .map(|field| {
                let value = recorded
                    .and_then(|example| example.item.get(field.attribute))
                    .and_then(|value| match value {
                        aws_sdk_dynamodb::types::AttributeValue::S(text)
                        | aws_sdk_dynamodb::types::AttributeValue::N(text) => Some(text.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| format!("<{}>", field.field));
                code(&format!("{} = {value}", field.attribute))
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | Query | {label} | {keys} | — | {conditions} | {} |",
            code(&format!(
                "{name}::{function}({})",
                entity.call_arguments(&function, &fields.join(", "))
            )),
            code(name),
            examples.join("<br>"),
        );
    }
}

/// Key attributes with their types: `` `tenant_id` (S), `region` (N) ``.
fn typed_attributes(fields: &[crate::IndexKeyField]) -> String {
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
