//! The catalogue's collections: the recorded ones, and the groups of
//! entities that share a partition key template without one.

use std::fmt::Write;

use super::{code, keys_on, parameters, sparse_fields};
use crate::model::collection::{partition_template, same_template_shape};
use crate::model::entity::EntitySchema;
use crate::model::index::IndexId;
use crate::schema::{CollectionSchema, TableDefinition};

impl TableDefinition {
    /// The collections recorded with [`collection`](Self::collection), then
    /// the groups of entities that share a partition key template (on the
    /// table or a GSI) and are not all members of one recorded collection.
    pub(super) fn collection_groups(&self) -> Vec<CollectionSchema> {
        let mut groups = self.collections.clone();
        // The table, then each GSI (an LSI's partition is the table's).
        let mut ids: Vec<IndexId> = Vec::new();
        for entity in &self.entities {
            for index in entity.indexes.iter().filter(|index| index.is_global()) {
                if !ids.contains(&index.id()) {
                    ids.push(index.id());
                }
            }
        }
        ids.sort_unstable();
        ids.insert(0, IndexId::Table);
        for id in ids {
            let mut found: Vec<Vec<&'static EntitySchema>> = Vec::new();
            for entity in &self.entities {
                let Some(template) = partition_template(entity, id) else {
                    continue;
                };
                match found.iter_mut().find(|group| {
                    partition_template(group[0], id)
                        .is_some_and(|first| same_template_shape(first, template))
                }) {
                    Some(group) => group.push(entity),
                    None => found.push(vec![entity]),
                }
            }
            for members in found.into_iter().filter(|group| group.len() > 1) {
                let covered = self.collections.iter().any(|collection| {
                    collection.index == id
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
                        index: id,
                        members,
                    });
                }
            }
        }
        groups
    }

    pub(super) fn collection_rows(&self, out: &mut String) {
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
            let index = match group.index {
                IndexId::Table => "table".to_owned(),
                id => first
                    .resolve(id)
                    .map_or("—".to_owned(), |index| code(index.name)),
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
                        .resolve(group.index)
                        .map(|index| sparse_fields(member, index))
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
            // The table's query is `query`; an index's, its generated read.
            let method = first
                .resolve(group.index)
                .map_or("query", |index| index.read_method);
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
                    first.call_arguments(method, &parameters(&[&partition.template]))
                )),
                code(&format!(
                    "{} = {}",
                    partition.name,
                    self.example_key(first, partition)
                )),
            );
        }
    }
}
