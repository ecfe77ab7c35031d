//! What an [`Update`] sends: its unique-value writes, its time stamp and
//! its `UpdateItem` input, and the sending itself.

use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemInput};
use aws_sdk_dynamodb::types::{
    AttributeValue, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use chrono::Utc;

use crate::error::Error;
use crate::model::entity::{AttributeMap, Entity};
use crate::request::executor::{Call, Retry};
use crate::request::failure::{Effect, conditional_failure};
use crate::request::table::Table;

use super::render::non_empty;
use super::values::Action;
use super::{Update, render};
use crate::error::ItemKey;
use crate::error::Refusal;
use crate::ops::transaction::TransactWrite;

impl<E: Entity> Update<E> {
    /// What the update does to `E`'s unique values: `None` when it sets
    /// and removes none of their attributes.
    ///
    /// # Errors
    ///
    /// [`Refusal::UniqueFieldArithmetic`](crate::Refusal::UniqueFieldArithmetic)
    /// for an `ADD`, a subtraction, an append or a set `DELETE` of one.
    pub(crate) fn unique_write(&self) -> Result<Option<crate::ops::unique::UniqueWrite>, Error> {
        use crate::ops::unique::{Assign, UniqueWrite};
        let schema = E::SCHEMA;
        if schema.unique_values.is_empty() {
            return Ok(None);
        }
        let attributes = crate::ops::unique::unique_attributes(schema);
        let mut assignments = Vec::new();
        for action in &self.actions {
            let attribute = action.attribute();
            if !attributes.contains(&attribute) {
                continue;
            }
            let value = || -> Result<AttributeValue, Error> {
                match action.value() {
                    Some(Ok(value)) => Ok(value.clone()),
                    Some(Err(message)) => Err(Error::Refused(Refusal::InvalidExpressionValue {
                        detail: message.clone(),
                    })),
                    None => Ok(AttributeValue::Null(true)),
                }
            };
            let write_once = schema.write_once_attributes.contains(&attribute);
            let assign = match action {
                Action::Set(..) if self.upsert && write_once => Assign::SetIfNotExists(value()?),
                Action::Set(..) => Assign::Set(value()?),
                Action::SetIfNotExists(..) => Assign::SetIfNotExists(value()?),
                Action::Remove(_) => Assign::Remove,
                Action::Add(..)
                | Action::Subtract(..)
                | Action::Append(..)
                | Action::Prepend(..)
                | Action::Delete(..) => {
                    let name = match action {
                        Action::Add(..) => "ADD",
                        Action::Subtract(..) => "subtract",
                        Action::Append(..) => "append",
                        Action::Prepend(..) => "prepend",
                        _ => "DELETE",
                    };
                    return Err(Error::Refused(Refusal::UniqueFieldArithmetic {
                        entity: schema.type_name,
                        field: attribute,
                        action: name,
                    }));
                }
            };
            assignments.push((attribute, assign));
        }
        // An upsert that may create the item writes its key fields, which
        // may be unique values too.
        if self.upsert {
            for attribute in &attributes {
                if let Some(value) = self.key_values.get(*attribute)
                    && !assignments.iter().any(|(name, _)| name == attribute)
                {
                    assignments.push((attribute, Assign::Set(value.clone())));
                }
            }
        }
        Ok((!assignments.is_empty()).then_some(UniqueWrite::Update {
            assignments,
            upsert: self.upsert,
        }))
    }

    /// The time the update stamps: [`at`](Self::at), or `now`.
    pub(crate) fn stamped_at(&self, now: chrono::DateTime<Utc>) -> chrono::DateTime<Utc> {
        self.at.unwrap_or(now)
    }

    /// The `UpdateItem` input that `send…` sends, rendered at time `now`
    /// with `return_value`, and what the update stores when applied.
    fn input(
        &self,
        table_name: &str,
        now: chrono::DateTime<Utc>,
        return_value: ReturnValue,
    ) -> Result<(UpdateItemInput, render::UpdateEffect), Error> {
        let (rendered, effect) = self.render_with_effect(now)?;
        let input = UpdateItemInput::builder()
            .table_name(table_name)
            .set_key(Some(rendered.key))
            .update_expression(rendered.update_expression)
            .set_condition_expression(
                Some(rendered.condition_expression).filter(|condition| !condition.is_empty()),
            )
            .set_expression_attribute_names(non_empty(rendered.names))
            .set_expression_attribute_values(non_empty(rendered.values))
            .return_values(return_value)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .set_return_item_collection_metrics(crate::request::collection_metrics::requested(
                E::SCHEMA,
            ))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("UpdateItemInput has no required fields");
        Ok((input, effect))
    }

    /// The exact `UpdateItem` request that [`send`](Self::send) sends to
    /// the table named `table_name`, without a network, stamped at
    /// [`at`](Self::at) or now ([`send_returning_new`](Self::send_returning_new)
    /// and [`send_returning_old`](Self::send_returning_old) send it with
    /// their `ReturnValues`).
    ///
    /// It asks `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so that a
    /// failed condition returns the item as stored
    /// ([`Error::stored`]): DynamoDB documents "no additional cost …
    /// No read capacity units are consumed" for it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html#DDB-UpdateItem-request-ReturnValuesOnConditionCheckFailure>.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending: a key error;
    /// [`Refusal::InvalidUpdate`](crate::Refusal::InvalidUpdate) (nothing to update, an empty set, the
    /// version set by hand); [`Refusal::MissingExpectedVersion`](crate::Refusal::MissingExpectedVersion);
    /// [`Refusal::IncompleteIndexUpdate`](crate::Refusal::IncompleteIndexUpdate); [`Refusal::InvalidExpressionValue`](crate::Refusal::InvalidExpressionValue).
    pub fn request(&self, table_name: &str) -> Result<UpdateItemInput, Error> {
        self.input(table_name, self.stamped_at(Utc::now()), ReturnValue::None)
            .map(|(input, _)| input)
    }

    async fn execute(
        &self,
        table: &Table,
        return_value: ReturnValue,
    ) -> Result<Option<AttributeMap>, Error> {
        if self.unique_write()?.is_some() {
            return self.execute_with_guards(table, return_value).await;
        }
        let (input, effect) = self.input(
            table.name(),
            self.stamped_at(table.now()),
            return_value.clone(),
        )?;
        let key = input.key.clone().unwrap_or_default();
        // An update that is not idempotent (a counter, an append) is not
        // sent again by the SDK after an attempt that may have been applied.
        let retry = if effect.idempotent {
            Retry::Idempotent
        } else {
            Retry::NotIdempotent
        };
        let call = Call::of(E::SCHEMA.type_name).items(1).retry(retry);
        let failure = match table.execute(input, call).await {
            Ok(output) => return Ok(output.attributes),
            Err(failure) => failure,
        };
        // An upsert's condition failed on an absent item: its own
        // condition (no existence condition, and the version check admits
        // an absent item), and no attempt was applied (it would have
        // created the item).
        if self.upsert
            && let Some(UpdateItemError::ConditionalCheckFailedException(refused)) =
                failure.service_error()
            && refused.item.is_none()
        {
            return Err(Error::ConditionFailed {
                entity: E::SCHEMA.type_name,
                key: ItemKey::of::<E>(&key),
                item: Box::default(),
            });
        }
        let effect = match &effect.attributes {
            Some(attributes) => Effect::Attributes(
                attributes
                    .iter()
                    .map(|(name, value)| (*name, value.as_ref()))
                    .collect(),
            ),
            None => Effect::Unknown,
        };
        let stored = conditional_failure::<E, _>(
            table,
            &ItemKey::of::<E>(&key),
            self.expected_version,
            failure,
            effect,
            |error| match error {
                UpdateItemError::ConditionalCheckFailedException(failure) => {
                    Some(failure.item.clone())
                }
                _ => None,
            },
        )?;
        // Applied by an earlier attempt whose answer was lost: the stored
        // item is the item after the update; the item before it is gone.
        match return_value {
            ReturnValue::AllOld => Err(Error::OutcomeUnknown {
                operation: <UpdateItemInput as crate::request::dispatch::Operation>::NAME,
                entity: E::SCHEMA.type_name,
                key: ItemKey::of::<E>(&key),
                item: Some(Box::new(stored)),
            }),
            ReturnValue::None => Ok(None),
            _ => Ok(Some(stored)),
        }
    }

    /// [`execute`](Self::execute) of an update that changes a unique
    /// value: one `TransactWriteItems` of the update and its guards (see
    /// [`TransactWrite::send`](crate::TransactWrite::send)), which returns
    /// no item.
    async fn execute_with_guards(
        &self,
        table: &Table,
        return_value: ReturnValue,
    ) -> Result<Option<AttributeMap>, Error> {
        if return_value != ReturnValue::None {
            return Err(Error::Refused(Refusal::UniqueReturnValues {
                entity: E::SCHEMA.type_name,
            }));
        }
        let key = self.key.clone()?.to_attribute_map();
        let key = ItemKey::of::<E>(&key);
        let failure = match TransactWrite::new()
            .at(table.now())
            .update_ref(self)
            .execute(table)
            .await?
        {
            Ok(()) => return Ok(None),
            Err(failure) => failure,
        };
        let failed = |service: &_| crate::ops::transaction::failed_check(service, 0);
        // An upsert's condition failed on an absent item: its own
        // condition, as in `execute`.
        if self.upsert && failure.service_error().and_then(failed) == Some(None) {
            return Err(Error::ConditionFailed {
                entity: E::SCHEMA.type_name,
                key,
                item: Box::default(),
            });
        }
        conditional_failure::<E, _>(
            table,
            &key,
            self.expected_version,
            failure,
            Effect::Unknown,
            failed,
        )
        .map(|_| None)
    }

    /// Sends the update; returns nothing. An update that sets or removes a
    /// unique field (`#[stamp(unique)]`) is sent as one
    /// `TransactWriteItems` with the guard items, after a strongly
    /// consistent read of the item (see
    /// [`TransactWrite::send`](crate::TransactWrite::send)).
    ///
    /// # Errors
    ///
    /// [`Error::UniqueValueTaken`] when another item holds a unique value
    /// it sets; [`Refusal::UniqueFieldArithmetic`](crate::Refusal::UniqueFieldArithmetic)
    /// before sending for an `ADD`, a subtraction, an append or a set
    /// `DELETE` of a unique field. The errors of [`request`](Self::request) before sending; then
    /// [`Error::ItemNotFound`], [`Error::VersionConflict`] (with the item
    /// as stored), [`Error::ConditionFailed`] (with the item as stored:
    /// [`Error::stored`] decodes it) or [`Error::DynamoDb`].
    pub async fn send(self, table: &Table) -> Result<(), Error> {
        self.execute(table, ReturnValue::None).await.map(|_| ())
    }

    /// Sends the update and returns the item as it is after it
    /// (`ReturnValues = ALL_NEW`).
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send), and the errors of [`Entity::from_item`];
    /// [`Refusal::UniqueReturnValues`](crate::Refusal::UniqueReturnValues)
    /// for an update that sets or removes a unique field (it is a
    /// transaction with the guard items, which returns no item).
    pub async fn send_returning_new(self, table: &Table) -> Result<E, Error> {
        let item = self
            .execute(table, ReturnValue::AllNew)
            .await?
            .unwrap_or_default();
        E::from_item(item)
    }

    /// Sends the update and returns the item as it was before it
    /// (`ReturnValues = ALL_OLD`).
    ///
    /// # Errors
    ///
    /// As [`send_returning_new`](Self::send_returning_new).
    pub async fn send_returning_old(self, table: &Table) -> Result<E, Error> {
        let item = self
            .execute(table, ReturnValue::AllOld)
            .await?
            .unwrap_or_default();
        E::from_item(item)
    }
}
