//! The catalogue's access patterns of one entity: a query per key (table,
//! GSIs, LSIs, multi-attribute GSIs), with its templates, scope, typed
//! conditions and example key.

use std::fmt::Write;

use super::{
    catalogue_order, code, index_label, parameters, scope, templates, typed_attributes,
    typed_conditions,
};
use crate::model::entity::{EntitySchema, KeyAttribute};
use crate::model::index::{IndexKeySchema, IndexSchema};
use crate::schema::TableDefinition;

impl TableDefinition {
    pub(super) fn entity_rows(&self, out: &mut String, entity: &'static EntitySchema) {
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
        for index in catalogue_order(entity) {
            if index.is_vector() {
                self.similarity_row(out, entity, index);
                continue;
            }
            let IndexKeySchema::Templates {
                partition_key,
                sort_key,
            } = &index.key
            else {
                self.multi_attribute_row(out, entity, index);
                continue;
            };
            let mut keys = vec![partition_key];
            keys.extend(sort_key.as_ref());
            // A sharded index: the fan-out, one request per shard.
            let operation = match index.shards() {
                Some(shards) => format!(
                    "Query ×{shards} (one per shard, `{}0` to `{}{}`, merged in sort-key order)",
                    partition_key.template.source.trim_end_matches("<shard>"),
                    partition_key.template.source.trim_end_matches("<shard>"),
                    shards - 1
                ),
                None => "Query".to_owned(),
            };
            let method = index.read_method;
            let _ = writeln!(
                out,
                "| {} | {} | {operation} | {} | {} | {} | {} | {} |",
                code(&format!(
                    "{name}::{method}({})",
                    entity.call_arguments(method, &parameters(&[&partition_key.template]))
                )),
                code(name),
                index_label(entity, index),
                templates(&keys),
                scope(sort_key.as_ref()),
                typed_conditions(sort_key.as_ref()),
                example(partition_key),
            );
        }
    }

    /// The row of `search_similar_vectorN(…)` of a vector index: its
    /// inputs (the partition's fields, then the query vector), the one
    /// `SearchVectors` request, the partition template, the similarity
    /// order and the inline filters a search may compare.
    fn similarity_row(
        &self,
        out: &mut String,
        entity: &'static EntitySchema,
        index: &'static IndexSchema,
    ) {
        let Some(vector) = index.vector() else {
            return;
        };
        let name = entity.type_name;
        let method = index.read_method;
        let partition = index.templates().map(|(partition_key, _)| partition_key);
        let fields = partition.map_or_else(String::new, |key| parameters(&[&key.template]));
        let arguments = if fields.is_empty() {
            "vector".to_owned()
        } else {
            format!("{}, vector", entity.call_arguments(method, &fields))
        };
        let mut keys = partition.map_or_else(String::new, |key| templates(&[key]));
        if !keys.is_empty() {
            keys.push_str("<br>");
        }
        keys.push_str(&code(&format!(
            "{}: {} × f32",
            vector.attribute, vector.dimensions
        )));
        let order = if vector.distance.higher_is_closer() {
            "highest"
        } else {
            "lowest"
        };
        let filters = if vector.filters.is_empty() {
            "—".to_owned()
        } else {
            let names: Vec<String> = vector
                .filters
                .iter()
                .map(|filter| {
                    format!(
                        "{} ({})",
                        code(filter.attribute),
                        filter.attribute_type.as_str()
                    )
                })
                .collect();
            format!(
                "inline filters {}: `=`, `<>`, `<`, `<=`, `>`, `>=`, between",
                names.join(", ")
            )
        };
        let example = partition.map_or("—".to_owned(), |key| {
            code(&format!("{} = {}", key.name, self.example_key(entity, key)))
        });
        let _ = writeln!(
            out,
            "| {} | {} | SearchVectors (top 1 to 100, no pagination) | {} | {keys} | {} scores first ({}) | {filters} | {example} |",
            code(&format!("{name}::{method}({arguments})")),
            code(name),
            index_label(entity, index),
            order,
            vector.distance.as_str(),
        );
    }

    /// The row of `query_gsiN(…)` of a multi-attribute index: its key
    /// attributes with their types, no scope but the type attribute, the
    /// shapes of sort-key conditions, and example values (a recorded
    /// example's, else `<field>`).
    fn multi_attribute_row(
        &self,
        out: &mut String,
        entity: &'static EntitySchema,
        index: &'static IndexSchema,
    ) {
        let name = entity.type_name;
        let function = index.read_method;
        let Some((partition_key, sort_key)) = index.attributes() else {
            return;
        };
        let fields: Vec<&str> = partition_key.iter().map(|field| field.field).collect();
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
        let keys = if sort_key.is_empty() {
            typed_attributes(partition_key)
        } else {
            format!(
                "{}<br>{}",
                typed_attributes(partition_key),
                typed_attributes(sort_key)
            )
        };
        let conditions = if sort_key.is_empty() {
            "—".to_owned()
        } else {
            let attributes: Vec<String> =
                sort_key.iter().map(|field| code(field.attribute)).collect();
            format!(
                "`=` on a leading run of {}; one range (`<`, `<=`, `>`, `>=`, between, begins_with) on the attribute after it",
                attributes.join(", ")
            )
        };
        let recorded = self
            .examples
            .iter()
            .find(|example| example.entity == entity.type_name);
        let examples: Vec<String> = partition_key
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
                entity.call_arguments(function, &fields.join(", "))
            )),
            code(name),
            examples.join("<br>"),
        );
    }
}
