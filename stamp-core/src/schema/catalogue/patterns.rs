//! The catalogue's access patterns of one entity: a query per key (table,
//! GSIs, LSIs, multi-attribute GSIs), with its templates, scope, typed
//! conditions and example key.

use std::fmt::Write;

use super::{
    code, index_label, local_index_label, parameters, scope, templates, typed_attributes,
    typed_conditions,
};
use crate::schema::TableDefinition;
use crate::{EntitySchema, KeyAttribute};

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
