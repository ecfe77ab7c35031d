//! Re-keying one item: [`Table::rekey`], a guarded delete and put in one
//! `TransactWriteItems`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use crate::error::Error;
use crate::error::ItemKey;
use crate::error::Refusal;
use crate::expression::Placeholders;
use crate::model::entity::EntitySchema;
use crate::model::entity::{AttributeMap, Entity};
use crate::ops::transaction::TransactWrite;
use crate::ops::write::{Placed, PutMode, render_put_at, unchanged_condition};
use crate::request::failure::{Effect, conditional_failure};
use crate::request::table::Table;

/// [`Table::rekey`].
pub(crate) async fn rekey<E: Entity>(table: &Table, old: &E, new: &E) -> Result<(), Error> {
    let schema = E::SCHEMA;
    let old_key_map = old.primary_key()?.to_attribute_map();
    let new_key_map = new.primary_key()?.to_attribute_map();
    if old_key_map == new_key_map {
        return Err(Error::Refused(Refusal::DuplicateTransactionItem {
            first: 0,
            second: 1,
            entity: schema.type_name,
            key: ItemKey::of::<E>(&new_key_map),
        }));
    }
    let expected_version = schema
        .version_attribute
        .zip(old.version())
        .filter(|(_, version)| *version > 0);
    let mut old_item = old.to_item()?;
    crate::item::check::check_item(schema, &mut old_item)?;
    if expected_version.is_none() {
        let unchanged = unchanged_condition(schema, &old_item);
        crate::expression::check_expression_length("condition", &unchanged.expression)?;
    }
    let mut rendered = render_put_at(
        new,
        PutMode::Move {
            from_version: old.version(),
        },
        None,
        table.now(),
    )?;
    // The item as stored now: the attributes the entity does not write
    // (added by other code) are carried to the new key and guarded.
    let Some(stored) = table
        .stored_item(schema.type_name, old_key_map.clone(), true)
        .await?
    else {
        return Err(Error::ItemNotFound {
            entity: schema.type_name,
            key: ItemKey::of::<E>(&old_key_map),
        });
    };
    let foreign: AttributeMap = stored
        .into_iter()
        .filter(|(name, _)| !old_item.contains_key(name) && !entity_writes(schema, name))
        .collect();
    let guard = match expected_version {
        Some((attribute, version)) => {
            let mut placeholders = Placeholders::default();
            let mut parts = vec![placeholders.version_is(attribute, version)];
            let mut names: Vec<&String> = foreign.keys().collect();
            names.sort();
            for name in names {
                let name_placeholder = placeholders.name(name);
                let value = placeholders.add_value(foreign[name].clone());
                parts.push(format!("{name_placeholder} = {value}"));
            }
            Placed {
                expression: parts.join(" AND "),
                placeholders,
            }
        }
        None => {
            let mut expected = old_item;
            expected.extend(
                foreign
                    .iter()
                    .map(|(name, value)| (name.clone(), value.clone())),
            );
            unchanged_condition(schema, &expected)
        }
    };
    crate::expression::check_expression_length("condition", &guard.expression)?;
    for (name, value) in foreign {
        rendered.item.entry(name).or_insert(value);
    }
    let put_condition = rendered.condition.map(|expression| Placed {
        expression,
        placeholders: rendered.placeholders,
    });
    let failure = match TransactWrite::new()
        .delete_key(schema, old_key_map.clone(), Some(guard))
        .put_item(schema, rendered.item, put_condition, true)
        .execute(table)
        .await?
    {
        Ok(()) => return Ok(()),
        Err(failure) => failure,
    };
    // The reason of action `position` when its condition failed, with
    // the item as it is (`None`: there is none).
    fn failed_check(
        error: &TransactWriteItemsError,
        position: usize,
    ) -> Option<Option<AttributeMap>> {
        let TransactWriteItemsError::TransactionCanceledException(canceled) = error else {
            return None;
        };
        canceled
            .cancellation_reasons()
            .get(position)
            .filter(|reason| reason.code() == Some("ConditionalCheckFailed"))
            .map(|reason| reason.item.clone().filter(|item| !item.is_empty()))
    }
    let service = failure.service_error();
    if service
        .and_then(|service| failed_check(service, 0))
        .is_some()
    {
        return conditional_failure::<E, _>(
            table,
            &ItemKey::of::<E>(&old_key_map),
            expected_version.map(|(_, version)| version),
            failure,
            Effect::Unknown,
            |service| failed_check(service, 0),
        )
        .map(|_| ());
    }
    if let Some(stored) = service.and_then(|service| failed_check(service, 1)) {
        return Err(Error::AlreadyExists {
            entity: schema.type_name,
            key: ItemKey::of::<E>(&new_key_map),
            item: stored.map(Box::new),
        });
    }
    Err(Error::from_failure(table.name(), failure))
}

/// Whether `to_item` may write attribute `name` for the entity (its key,
/// type, fields, index attributes, TTL, version and timestamps).
fn entity_writes(schema: &EntitySchema, name: &str) -> bool {
    name == schema.partition_key.name
        || name == schema.sort_key.name
        || name == schema.type_attribute
        || schema
            .field_attributes
            .iter()
            .any(|field| field.attribute == name)
        || schema
            .index_key_attributes()
            .any(|attribute| attribute == name)
        || [
            schema.ttl_attribute,
            schema.version_attribute,
            schema.created_at_attribute,
            schema.updated_at_attribute,
        ]
        .contains(&Some(name))
}
