//! Transactions: `TransactWriteItems` over any entities of one table (put,
//! create, delete, condition check, update), with typed cancellation
//! reasons, and `TransactGetItems` decoded by position.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html>.

use std::collections::HashMap;

use crate::request::executor::Failure;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Refusal;
use crate::error::{CancellationCode, CancellationReason};
use crate::error::{Error, ItemKey};
use crate::expression::{Condition, Placeholders};
use crate::item::size::{MAX_TRANSACTION_ACTIONS, attribute_value_size};
use crate::model::entity::AttributeMap;
use crate::request::table::Table;

mod get;
mod write;

use crate::model::entity::EntitySchema;
pub use get::{Slot, TransactGet, TransactGetOutput};
pub use write::TransactWrite;

impl Table {
    /// An empty write transaction whose puts and updates are stamped at
    /// this table's [`now`](Self::now) (unless given their own `at`):
    /// `TransactWrite::new().at(table.now())`.
    pub fn transact_write(&self) -> TransactWrite {
        TransactWrite::new().at(self.now())
    }
}

/// An update of one item, rendered to DynamoDB's expressions: the form in
/// which an [`Update`](crate::Update) joins a transaction through
/// [`TransactWrite::update`]. Expressions use `#name` and `:value`
/// placeholders, with their meanings in `names` and `values`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UpdateAction {
    /// The primary key attributes of the item, such as `{PK: S, SK: S}`.
    pub key: AttributeMap,
    /// The update expression, such as `SET #n0 = #n0 + :v0`.
    pub update_expression: String,
    /// The condition the item must meet, if any.
    pub condition_expression: Option<String>,
    /// The `ExpressionAttributeNames`: placeholder to attribute name.
    pub names: HashMap<String, String>,
    /// The `ExpressionAttributeValues`: placeholder to value.
    pub values: HashMap<String, AttributeValue>,
    /// The entity type name of the item, for errors.
    pub entity: &'static str,
    /// The item's key by its entity's key attributes, for errors.
    pub item_key: ItemKey,
    /// What the update does to the entity's unique values; `None` when it
    /// changes none.
    pub unique: Option<crate::ops::unique::UniqueWrite>,
}

/// A rendered condition: its expression and placeholders.
#[derive(Debug, Clone)]
struct Rendered {
    expression: String,
    names: Option<HashMap<String, String>>,
    values: Option<HashMap<String, AttributeValue>>,
}

impl Rendered {
    fn of<E>(condition: &Condition<E>) -> Result<Self, Error> {
        let mut placeholders = Placeholders::default();
        let expression = condition.render(&mut placeholders)?;
        Ok(Rendered {
            expression,
            names: placeholders.names(),
            values: placeholders.values(),
        })
    }

    fn placed(placed: crate::ops::write::Placed) -> Self {
        Rendered {
            expression: placed.expression,
            names: placed.placeholders.names(),
            values: placed.placeholders.values(),
        }
    }

    fn values_size(&self) -> usize {
        self.values
            .iter()
            .flatten()
            .map(|(_, value)| attribute_value_size(value))
            .sum()
    }
}

#[derive(Debug, Clone)]
enum Kind {
    Put {
        item: AttributeMap,
        condition: Option<Rendered>,
    },
    Delete {
        condition: Option<Rendered>,
    },
    Check {
        condition: Rendered,
    },
    Update(UpdateAction),
}

/// One action of a [`TransactWrite`].
#[derive(Debug, Clone)]
struct Action {
    entity: &'static str,
    key: AttributeMap,
    /// `key` by the entity's key attributes, for errors.
    item_key: ItemKey,
    size: usize,
    kind: Kind,
    /// What the action does to the unique values of its entity, when the
    /// entity has some: [`TransactWrite::send`] adds the guard actions.
    unique: Option<(&'static EntitySchema, crate::ops::unique::UniqueWrite)>,
}

/// The checks shared by both kinds of transaction: some action, at most
/// 100, one per item.
fn check_actions<'a>(
    actions: impl ExactSizeIterator<Item = (&'static str, &'a ItemKey)>,
) -> Result<(), Error> {
    let count = actions.len();
    if count == 0 {
        return Err(Error::Refused(Refusal::EmptyTransaction));
    }
    if count > MAX_TRANSACTION_ACTIONS {
        return Err(Error::Refused(Refusal::TooManyTransactionActions {
            count,
            limit: MAX_TRANSACTION_ACTIONS,
        }));
    }
    let mut seen: HashMap<ItemKey, usize> = HashMap::with_capacity(count);
    for (position, (entity, key)) in actions.enumerate() {
        if let Some(first) = seen.insert(key.clone(), position) {
            return Err(Error::Refused(Refusal::DuplicateTransactionItem {
                first,
                second: position,
                entity,
                key: key.clone(),
            }));
        }
    }
    Ok(())
}

/// The error of a transaction that failed: [`Error::TransactionCanceled`]
/// with a reason per action when `cancellation` finds the reasons of a
/// `TransactionCanceledException` in it, [`Error::DynamoDb`] otherwise.
fn failure<'a, O>(
    table: &str,
    failure: Failure<O>,
    cancellation: fn(&O) -> Option<&[aws_sdk_dynamodb::types::CancellationReason]>,
    actions: impl Iterator<Item = (&'static str, &'a ItemKey)>,
) -> Error
where
    aws_sdk_dynamodb::Error: From<SdkError<O, HttpResponse>>,
    O: ProvideErrorMetadata,
{
    match failure.service_error().and_then(cancellation) {
        Some(found) => Error::TransactionCanceled {
            table: table.to_owned(),
            reasons: reasons(actions, found.to_vec()),
        },
        None => Error::from_failure(table, failure),
    }
}

fn reasons<'a>(
    actions: impl Iterator<Item = (&'static str, &'a ItemKey)>,
    reasons: Vec<aws_sdk_dynamodb::types::CancellationReason>,
) -> Vec<CancellationReason> {
    actions
        .zip(reasons)
        .enumerate()
        .map(|(index, ((entity, key), reason))| CancellationReason {
            index,
            entity,
            key: key.clone(),
            code: CancellationCode::parse(reason.code.as_deref()),
            message: reason.message,
            // An existing item holds its key at least: an empty map is none.
            old_item: reason.item.filter(|item| !item.is_empty()),
        })
        .collect()
}

/// The reason of action `position` of a cancelled `TransactWriteItems`
/// when its condition failed, with the item as it is (`None`: there is
/// none).
pub(crate) fn failed_check(
    error: &aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError,
    position: usize,
) -> Option<Option<AttributeMap>> {
    use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
    let TransactWriteItemsError::TransactionCanceledException(canceled) = error else {
        return None;
    };
    canceled
        .cancellation_reasons()
        .get(position)
        .filter(|reason| reason.code() == Some("ConditionalCheckFailed"))
        .map(|reason| reason.item.clone().filter(|item| !item.is_empty()))
}

type Split = (
    Option<String>,
    Option<HashMap<String, String>>,
    Option<HashMap<String, AttributeValue>>,
);

fn split(condition: Option<Rendered>) -> Split {
    match condition {
        Some(rendered) => (Some(rendered.expression), rendered.names, rendered.values),
        None => (None, None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(partition: &str) -> AttributeMap {
        AttributeMap::from([
            ("PK".to_owned(), AttributeValue::S(partition.to_owned())),
            ("SK".to_owned(), AttributeValue::S("S".to_owned())),
        ])
    }

    #[test]
    fn action_checks_count_and_duplicates() {
        let none: Vec<(&'static str, &ItemKey)> = Vec::new();
        assert!(matches!(
            check_actions(none.into_iter()),
            Err(Error::Refused(Refusal::EmptyTransaction))
        ));
        let keys: Vec<ItemKey> = (0..101)
            .map(|i| ItemKey::named(&key(&i.to_string()), "PK", "SK"))
            .collect();
        assert!(matches!(
            check_actions(keys.iter().map(|key| ("A", key))),
            Err(Error::Refused(Refusal::TooManyTransactionActions {
                count: 101,
                limit: 100
            }))
        ));
        assert!(check_actions(keys[..100].iter().map(|key| ("A", key))).is_ok());
        let twice = [key("1"), key("2"), key("1")].map(|key| ItemKey::named(&key, "PK", "SK"));
        let error = check_actions(twice.iter().map(|key| ("A", key))).unwrap_err();
        assert!(
            matches!(&error, Error::Refused(Refusal::DuplicateTransactionItem { first: 0, second: 2, entity: "A", key: found }) if *found == *"PK=1, SK=S"),
            "{error:?}"
        );
    }

    #[test]
    fn codes_parse_and_print_as_dynamodb_spells_them() {
        for code in [
            "None",
            "ConditionalCheckFailed",
            "ItemCollectionSizeLimitExceeded",
            "TransactionConflict",
            "ProvisionedThroughputExceeded",
            "ThrottlingError",
            "ValidationError",
            "SomethingNew",
        ] {
            assert_eq!(CancellationCode::parse(Some(code)).to_string(), code);
        }
        assert_eq!(CancellationCode::parse(None), CancellationCode::None);
        assert_eq!(
            CancellationCode::parse(Some("SomethingNew")),
            CancellationCode::Other("SomethingNew".into())
        );
    }
}
