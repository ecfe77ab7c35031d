//! Re-keying one item: [`Table::rekey`], a guarded delete and put in one
//! `TransactWriteItems`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::Refusal;
use crate::expression::Placeholders;
use crate::ops::write::{Placed, PutMode, render_put, unchanged_condition};
use crate::request::failure::{Effect, conditional_failure};
use crate::{Entity, Error, Item, Table};

impl Table {
    /// Moves an item to a new primary key: `old` is the item as it was read,
    /// `new` the same item with its key fields changed (and any other change
    /// to make in the same write). Keys are immutable in DynamoDB, so this is
    /// how a key changes: one `TransactWriteItems` with two actions, which
    /// DynamoDB applies both or not at all.
    ///
    /// 0. First a strongly consistent `GetItem` of `old`'s key (one read
    ///    unit per 4 KB) reads the item as stored. Its attributes that the
    ///    entity does not write (added by other code, e.g. `SET extra = :x`)
    ///    are copied unchanged to the new item, and the delete's guard also
    ///    requires each of them to be still equal, so no attribute is lost.
    ///
    /// 1. The delete of `old`'s key is guarded so that a concurrent write is
    ///    never lost: for a `#[stamp(version)]` entity at version `v > 0`,
    ///    by `version = v`; otherwise by "unchanged since it was read",
    ///    every attribute of `old.to_item()` equal and every other attribute
    ///    the entity writes (fields, index attributes, TTL) absent. An item
    ///    whose stored form is not what `to_item` writes (attributes written
    ///    by other code with another encoding) therefore fails the guard:
    ///    the safe direction.
    /// 2. The put of `new`'s key is guarded by `attribute_not_exists` on the
    ///    partition key. `updated_at` is stamped with the time of the write;
    ///    `created_at` is not: the stored value is `new`'s, which is `old`'s
    ///    when `new` is built from it (`E { id, ..old.clone() }`). A
    ///    versioned entity stores `old`'s version + 1 (`new`'s version field
    ///    is ignored), so the moved item goes on with optimistic locking.
    ///
    /// Both actions ask `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so
    /// a failed guard is explained by the item as it is.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
    ///
    /// # Errors
    ///
    /// Before sending: [`Refusal::DuplicateTransactionItem`] when `new` has
    /// `old`'s key, [`Refusal::VersionOverflow`] when `old` is at the version
    /// type's maximum, [`Refusal::ExpressionTooLong`] when the unchanged
    /// condition is longer than DynamoDB's 4 KB, and the item checks of
    /// [`put`](Self::put). After, from the transaction's cancellation
    /// reasons, the old key's first: [`Error::ItemNotFound`] (`old` was
    /// deleted meanwhile; also from the `GetItem`, then nothing else is sent), [`Error::VersionConflict`] (versioned: written
    /// meanwhile, with the version found) or [`Error::ConditionFailed`]
    /// (changed meanwhile, with the item as it is); then
    /// [`Error::AlreadyExists`] (the new key is taken); else
    /// [`Error::DynamoDb`]. Whatever the error, nothing was changed.
    pub async fn rekey<E: Entity>(&self, old: &E, new: &E) -> Result<(), Error> {
        let schema = E::SCHEMA;
        let old_key_map = old.primary_key()?.to_attribute_map();
        let new_key_map = new.primary_key()?.to_attribute_map();
        if old_key_map == new_key_map {
            return Err(Error::Refused(Refusal::DuplicateTransactionItem {
                first: 0,
                second: 1,
                entity: schema.type_name,
                key: crate::ItemKey::of::<E>(&new_key_map),
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
        let mut rendered = render_put(
            new,
            PutMode::Move {
                from_version: old.version(),
            },
            None,
        )?;
        // The item as stored now: the attributes the entity does not write
        // (added by other code) are carried to the new key and guarded.
        let Some(stored) = self
            .stored_item(schema.type_name, old_key_map.clone(), true)
            .await?
        else {
            return Err(Error::ItemNotFound {
                entity: schema.type_name,
                key: crate::ItemKey::of::<E>(&old_key_map),
            });
        };
        let foreign: Item = stored
            .into_iter()
            .filter(|(name, _)| !old_item.contains_key(name) && !entity_writes(schema, name))
            .collect();
        let guard = match expected_version {
            Some((attribute, version)) => {
                let mut placeholders = Placeholders::default();
                let name = placeholders.name(attribute);
                let value = placeholders.add_value(AttributeValue::N(version.to_string()));
                let mut parts = vec![format!("{name} = {value}")];
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
        let failure = match crate::TransactWrite::new()
            .delete_key(schema, old_key_map.clone(), Some(guard))
            .put_item(schema, rendered.item, put_condition)
            .return_old_items_on_failure()
            .execute(self)
            .await?
        {
            Ok(()) => return Ok(()),
            Err(failure) => failure,
        };
        // The reason of action `position` when its condition failed, with
        // the item as it is (`None`: there is none).
        fn failed_check(error: &TransactWriteItemsError, position: usize) -> Option<Option<Item>> {
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
                "TransactWriteItems",
                self,
                &crate::ItemKey::of::<E>(&old_key_map),
                expected_version.map(|(_, version)| version),
                failure,
                Effect::Unknown,
                |service| failed_check(service, 0),
            )
            .map(|_| ());
        }
        if service
            .and_then(|service| failed_check(service, 1))
            .is_some()
        {
            return Err(Error::AlreadyExists {
                entity: schema.type_name,
                key: crate::ItemKey::of::<E>(&new_key_map),
            });
        }
        Err(Error::from_failure(
            "TransactWriteItems",
            self.name(),
            failure,
        ))
    }
}

/// Whether `to_item` may write attribute `name` for the entity (its key,
/// type, fields, index attributes, TTL, version and timestamps).
fn entity_writes(schema: &crate::EntitySchema, name: &str) -> bool {
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
