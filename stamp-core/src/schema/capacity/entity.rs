//! One entity's capacity: its billed size, its writes per index, its reads.

use super::*;
use crate::item::size::attribute_value_size;
use crate::key::template::KeyTemplate;

/// `3 WCU (table 1, GSI1 1, GSI2 1)`.
pub(super) fn writes(units: &WriteUnits) -> String {
    if units.indexes.is_empty() {
        return format!("{} WCU", units.total());
    }
    let parts: Vec<String> = units
        .indexes
        .iter()
        .map(|(index, units)| format!("{index} {units}"))
        .collect();
    format!(
        "{} WCU (table {}, {})",
        units.total(),
        units.table,
        parts.join(", ")
    )
}

/// The names of the indexes whose key holds `entity`'s
/// `#[stamp(updated_at)]` attribute, which every update stamps.
pub(super) fn indexes_keyed_by_updated_at(entity: &EntitySchema) -> Vec<&'static str> {
    let Some(attribute) = entity.updated_at_attribute else {
        return Vec::new();
    };
    let field = entity
        .field_attributes
        .iter()
        .find(|field| field.attribute == attribute)
        .map(|field| field.field);
    let in_template = |template: &KeyTemplate| {
        field.is_some_and(|field| template.fields().any(|name| name == field))
    };
    entity
        .indexes
        .iter()
        .filter(|index| {
            index
                .written_keys()
                .iter()
                .any(|key| in_template(&key.template))
                || index.key_fields().any(|key| key.attribute == attribute)
        })
        .map(|index| index.name)
        .collect()
}

/// The size DynamoDB bills a write or a table read of `item` at: its
/// [`item_size`], except that an attribute a vector index of the table
/// reads, holding a vector of that index's dimensions, costs its name plus
/// 4 bytes a dimension (the vector's 32-bit width, whatever numbers it
/// holds), once however many indexes read it. The 400 KB item limit still
/// counts its numbers.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.
pub(super) fn billed_size(resolved: &Resolved, item: &AttributeMap) -> usize {
    if resolved.vector_indexes.is_empty() {
        return item_size(item);
    }
    item.iter()
        .map(|(name, value)| {
            let vector = resolved
                .vector_indexes
                .iter()
                .filter_map(|index| index.vector())
                .find(|vector| {
                    vector.attribute == name
                        && value.as_l().is_ok_and(|elements| {
                            elements.len() == vector.dimensions as usize
                                && elements.iter().all(|element| element.as_n().is_ok())
                        })
                });
            name.len()
                + vector.map_or_else(
                    || attribute_value_size(value),
                    |vector| 4 * vector.dimensions as usize,
                )
        })
        .sum()
}

/// The costs of one entity's access patterns for its example `item`.
pub(super) fn entity_capacity(
    resolved: &Resolved,
    entity: &EntitySchema,
    item: &AttributeMap,
) -> EntityCapacity {
    let bytes = billed_size(resolved, item);
    let indexes = priced_indexes(resolved);
    let entries: Vec<(&PricedIndex, Entry)> = indexes
        .iter()
        .filter_map(|priced| Some((priced, index_entry(resolved, &priced.index, item)?)))
        .collect();
    let stamped = entity.updated_at_attribute;
    let keyed_by_stamp = indexes_keyed_by_updated_at(entity);
    // Each pattern as the change it makes to each entry the item has.
    let per_index =
        |change: &dyn Fn(&PricedIndex, usize) -> EntryChange| -> Vec<(&'static str, f64)> {
            entries
                .iter()
                .filter_map(|(priced, entry)| {
                    Some((priced.index.name, change(priced, entry.bytes()).units()?))
                })
                .collect()
        };
    let update = |priced: &PricedIndex, entry: usize| {
        let projects_stamp = stamped.is_some_and(|attribute| match &priced.index.projection {
            IndexProjection::All => true,
            IndexProjection::KeysOnly => false,
            IndexProjection::Include(kept) => kept.iter().any(|kept| kept == attribute),
        });
        if keyed_by_stamp.contains(&priced.index.name) {
            EntryChange::Moved(entry, entry)
        } else if matches!(priced.index.projection, IndexProjection::All) || projects_stamp {
            EntryChange::Rewritten(entry, entry)
        } else {
            EntryChange::Unchanged
        }
    };
    let table = write_units(bytes);
    let put = WriteUnits {
        table,
        indexes: per_index(&|_, entry| EntryChange::Added(entry)),
    };
    let unique = (!entity.unique_values.is_empty()).then(|| {
        let owner = crate::item::check::key_of(entity, item);
        let guard_units: Vec<f64> = crate::ops::unique::guards(entity, item)
            .unwrap_or_default()
            .iter()
            .map(|guard| {
                write_units(item_size(&crate::ops::unique::guard_item(
                    entity, &guard.key, &owner,
                )))
            })
            .collect();
        let guard_writes: f64 = guard_units.iter().sum();
        UniqueCapacity {
            guards: guard_units.len(),
            guard_writes,
            create: put.in_transaction() + 2.0 * guard_writes,
            read_before_write: read_units(bytes, true),
            per_changed_value: 2.0 * 2.0 * guard_units.first().copied().unwrap_or(1.0),
        }
    });
    EntityCapacity {
        entity: entity.type_name,
        item_bytes: bytes,
        get: ReadUnits {
            eventual: read_units(bytes, false),
            strong: read_units(bytes, true),
        },
        query_page: ReadUnits {
            eventual: read_units(PAGE_ITEMS * bytes, false),
            strong: read_units(PAGE_ITEMS * bytes, true),
        },
        index_query_pages: entries
            .iter()
            .map(|(priced, entry)| {
                (
                    priced.index.name,
                    read_units(PAGE_ITEMS * entry.bytes(), false),
                )
            })
            .collect(),
        // An LSI entry without every attribute of the item: the page
        // fetches the whole items from the table.
        index_query_fetches: entries
            .iter()
            .filter(|(priced, entry)| priced.local && entry.stored.len() < item.len())
            .map(|(priced, _)| (priced.index.name, read_units(PAGE_ITEMS * bytes, false)))
            .collect(),
        // An entry without every attribute of the item: a hydrated page
        // reads each item with `BatchGetItem`, rounded up item by item.
        index_query_hydrations: entries
            .iter()
            .filter(|(_, entry)| entry.stored.len() < item.len())
            .map(|(priced, _)| {
                (
                    priced.index.name,
                    PAGE_ITEMS as f64 * read_units(bytes, false),
                )
            })
            .collect(),
        put,
        update: WriteUnits {
            table,
            indexes: per_index(&update),
        },
        update_index_keys: WriteUnits {
            table,
            indexes: per_index(&|_, entry| EntryChange::Moved(entry, entry)),
        },
        delete: WriteUnits {
            table,
            indexes: per_index(&|_, entry| EntryChange::Removed(entry)),
        },
        unique,
    }
}
