//! The rendering of a [`TransactWrite`] into its `TransactWriteItems`
//! input: the checks before sending (actions, token, 4 MB) and each
//! action as a `TransactWriteItem`. The public
//! [`request`](TransactWrite::request) is in `write.rs`, with the
//! transaction's other methods.

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
    ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};

use super::super::{Action, Kind, check_actions, split};
use super::TransactWrite;
use crate::error::{Error, Refusal};
use crate::item::size::MAX_TRANSACTION_BYTES;

impl TransactWrite {
    /// The request of exactly these actions, no guard action added.
    pub(super) fn render(&self, table_name: &str) -> Result<TransactWriteItemsInput, Error> {
        self.validate()?;
        let items = self
            .actions
            .iter()
            .map(|action| self.item(table_name, action))
            .collect();
        Ok(TransactWriteItemsInput::builder()
            .set_transact_items(Some(items))
            // Without a token of the caller's, one of this send: the SDK's
            // retry of an attempt that may have been applied sends the same
            // token, and DynamoDB applies the transaction once.
            .client_request_token(
                self.client_request_token
                    .clone()
                    .unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
            )
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .set_return_item_collection_metrics(
                self.item_collection_metrics
                    .then_some(ReturnItemCollectionMetrics::Size),
            )
            .build()
            .expect("TransactWriteItemsInput has no required fields"))
    }

    pub(super) fn validate(&self) -> Result<(), Error> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        check_actions(
            self.actions
                .iter()
                .map(|action| (action.entity, &action.item_key)),
        )?;
        if let Some(token) = &self.client_request_token {
            let length = token.chars().count();
            if !(1..=36).contains(&length) {
                return Err(Error::Refused(Refusal::InvalidClientRequestToken {
                    token: token.clone(),
                }));
            }
        }
        let size: usize = self.actions.iter().map(|action| action.size).sum();
        if size > MAX_TRANSACTION_BYTES {
            return Err(Error::Refused(Refusal::TransactionTooLarge {
                size,
                limit: MAX_TRANSACTION_BYTES,
            }));
        }
        Ok(())
    }

    fn item(&self, table: &str, action: &Action) -> TransactWriteItem {
        // The item as stored when a condition fails: asked of every
        // conditional action (it costs nothing; see `request`).
        let on_failure = Some(ReturnValuesOnConditionCheckFailure::AllOld);
        let builder = TransactWriteItem::builder();
        match &action.kind {
            Kind::Put { item, condition } => {
                let on_failure = condition.as_ref().and(on_failure);
                let (expression, names, values) = split(condition.clone());
                builder.put(
                    Put::builder()
                        .table_name(table)
                        .set_item(Some(item.clone()))
                        .set_condition_expression(expression)
                        .set_expression_attribute_names(names)
                        .set_expression_attribute_values(values)
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table and item are set"),
                )
            }
            Kind::Delete { condition } => {
                let on_failure = condition.as_ref().and(on_failure);
                let (expression, names, values) = split(condition.clone());
                builder.delete(
                    Delete::builder()
                        .table_name(table)
                        .set_key(Some(action.key.clone()))
                        .set_condition_expression(expression)
                        .set_expression_attribute_names(names)
                        .set_expression_attribute_values(values)
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table and key are set"),
                )
            }
            Kind::Check { condition } => builder.condition_check(
                ConditionCheck::builder()
                    .table_name(table)
                    .set_key(Some(action.key.clone()))
                    .condition_expression(condition.expression.clone())
                    .set_expression_attribute_names(condition.names.clone())
                    .set_expression_attribute_values(condition.values.clone())
                    .set_return_values_on_condition_check_failure(on_failure)
                    .build()
                    .expect("table, key and condition are set"),
            ),
            Kind::Update(update) => {
                let on_failure = update.condition_expression.as_ref().and(on_failure);
                builder.update(
                    Update::builder()
                        .table_name(table)
                        .set_key(Some(update.key.clone()))
                        .update_expression(update.update_expression.clone())
                        .set_condition_expression(update.condition_expression.clone())
                        .set_expression_attribute_names(
                            (!update.names.is_empty()).then(|| update.names.clone()),
                        )
                        .set_expression_attribute_values(
                            (!update.values.is_empty()).then(|| update.values.clone()),
                        )
                        .set_return_values_on_condition_check_failure(on_failure)
                        .build()
                        .expect("table, key and update expression are set"),
                )
            }
        }
        .build()
    }
}
