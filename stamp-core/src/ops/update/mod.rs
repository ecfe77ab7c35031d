//! [`Update`]: a typed `UpdateItem` for one item of an entity.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.

use aws_sdk_dynamodb::operation::update_item::{UpdateItemError, UpdateItemInput};
use aws_sdk_dynamodb::types::{
    AttributeValue, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use chrono::Utc;
use serde::Serialize;

use crate::expression::{Attribute, Condition, Optional, Settable};
use crate::request::executor::{Call, Retry};
use crate::request::failure::{Effect, conditional_failure};
use crate::{AttributeMap, Entity, Error, PrimaryKey, Table};

mod indexes;
mod render;
mod upsert;
mod values;

pub use values::{Number, Set};

use render::non_empty;
use values::{Action, is_set, typed_value};

/// An `UpdateItem` of one item of entity `E`, built by the generated
/// `E::update(…)` (or [`Update::new`]) and sent by [`send`](Self::send),
/// [`send_returning_new`](Self::send_returning_new) or
/// [`send_returning_old`](Self::send_returning_old).
///
/// - Fields are named by the generated attribute constants. Fields of the
///   primary key have kind [`PrimaryKeyField`](crate::PrimaryKeyField), and
///   setting one does not compile.
/// - Every value is encoded as `to_item` encodes its field (serde's `with`,
///   `serialize_with`, set helpers; a TTL as epoch seconds), and checked as
///   a put checks it (NaN, infinities, more than 38 digits) before sending.
///   Setting a value that `to_item` stores as no attribute (an empty set)
///   removes the attribute.
/// - Index attributes follow their fields in the same request: changing a
///   field of a GSI template rewrites the attributes built from it, and
///   removing an `Option` field of an index removes that index's attributes
///   (the item leaves the sparse index). They are rebuilt from the values
///   the update knows: those it sets, the primary-key fields given to
///   `E::update(…)`, and those stated with [`given`](Self::given). An
///   index's two attributes are written together whenever the item may not
///   be in the (sparse) index yet; when a value needed is unknown,
///   [`Refusal::IncompleteIndexUpdate`](crate::Refusal::IncompleteIndexUpdate), before sending.
/// - `#[stamp(updated_at)]` is set to the current time (and so are the index
///   attributes built from it, which then need the index's other values).
/// - `#[stamp(version)]`: [`expect_version`](Self::expect_version) is
///   required; the update checks it and adds 1.
/// - The item must exist (`attribute_exists` on the partition key):
///   DynamoDB would otherwise create a partial item. An upsert
///   ([`into_upsert`](Self::into_upsert), the generated `E::upsert(…)`)
///   creates the item when it is absent, and is refused before sending
///   when the item it could create would not decode.
pub struct Update<E> {
    key: Result<PrimaryKey<E>, Error>,
    actions: Vec<Action>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    /// Current values the update knows without changing them (encoded, by
    /// attribute; `NULL` for a known `None`), for rebuilding index attributes.
    known: AttributeMap,
    /// The time stamped into `updated_at`: [`at`](Self::at), or the time of
    /// sending.
    at: Option<chrono::DateTime<Utc>>,
    /// The primary-key fields' values (encoded, by attribute), which an
    /// upsert writes so that an item it creates has them.
    key_values: AttributeMap,
    /// Made an upsert by [`into_upsert`](Self::into_upsert): no existence
    /// condition.
    upsert: bool,
}

impl<E: Entity> Update<E> {
    /// An update of the item with key `key` (as `E::key(…)` returns it).
    pub fn new(key: Result<PrimaryKey<E>, Error>) -> Self {
        Update {
            key,
            actions: Vec::new(),
            condition: None,
            expected_version: None,
            known: AttributeMap::new(),
            at: None,
            key_values: AttributeMap::new(),
            upsert: false,
        }
    }

    /// Values of the item that the update knows without changing them, by
    /// attribute and encoded as stored: the generated `E::update(…)` passes
    /// the primary-key fields it is given, so that index attributes built
    /// from them can be rebuilt.
    #[doc(hidden)]
    pub fn with_known_values(mut self, values: AttributeMap) -> Self {
        self.key_values.extend(
            values
                .iter()
                .map(|(name, value)| (name.clone(), value.clone())),
        );
        self.known.extend(values);
        self
    }

    /// States the current value of a field the update does not change, and
    /// makes the update conditional on it (`attribute = value`): the index
    /// attributes built from it can then be rebuilt. Use it when an update
    /// is refused with [`Refusal::IncompleteIndexUpdate`](crate::Refusal::IncompleteIndexUpdate) for a field you
    /// know, such as the status of an order whose `updated_at` (in its
    /// GSI sort key) every update stamps.
    pub fn given<T: Serialize, K>(mut self, attribute: Attribute<E, T, K>, value: &T) -> Self {
        // A value below a top-level attribute is a condition only.
        if !attribute.path().is_nested()
            && let Ok(Some(encoded)) = attribute.encode(value)
        {
            self.known.insert(attribute.name().to_owned(), encoded);
        }
        self.condition(attribute.eq(value))
    }

    /// States that an `Option` field the update does not change is `None`
    /// now, and makes the update conditional on it
    /// (`attribute_not_exists(attribute)`): the item is then known to be
    /// outside the sparse indexes built from it.
    pub fn given_none<T: Serialize>(mut self, attribute: Attribute<E, T, Optional>) -> Self {
        if !attribute.path().is_nested() {
            self.known
                .insert(attribute.name().to_owned(), AttributeValue::Null(true));
        }
        self.condition(attribute.not_exists())
    }

    /// `SET attribute = value`, with `value` encoded as `to_item` encodes the
    /// field; `REMOVE attribute` when `to_item` would store no attribute
    /// for it (an empty set, a value serde skips).
    ///
    /// `attribute` may be a path below a top-level attribute
    /// ([`Attribute::then`], [`Attribute::at`]): `SET address.city = :v`,
    /// `SET tags[2] = :v` (DynamoDB appends the element when the list is
    /// shorter). DynamoDB fails the update with a `ValidationException`
    /// when the path's parent does not exist (an absent `Option` struct or
    /// list).
    pub fn set<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        let path = attribute.path();
        self.actions.push(match attribute.encode(value) {
            Ok(Some(encoded)) => Action::Set(path, Ok(encoded)),
            Ok(None) => Action::Remove(path),
            Err(reason) => Action::Set(path, Err(reason)),
        });
        self
    }

    /// `SET attribute = if_not_exists(attribute, value)`: sets it only when
    /// the item does not have it yet, at any path (`SET address.city =
    /// if_not_exists(address.city, :v)`). A value `to_item` stores as no
    /// attribute (an empty set) changes nothing.
    pub fn set_if_not_exists<T: Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        let path = attribute.path();
        match attribute.encode(value) {
            Ok(Some(encoded)) => self.actions.push(Action::SetIfNotExists(path, Ok(encoded))),
            Ok(None) => {}
            Err(reason) => self.actions.push(Action::SetIfNotExists(path, Err(reason))),
        }
        self
    }

    /// `REMOVE attribute`: the field becomes `None`. On a list element
    /// (`REMOVE tags[2]`) the elements after it move down one. On a field
    /// of a nested struct that serde stores as `NULL` when `None` (no
    /// `skip_serializing_if`), `SET address.zip = :null`, so that the item
    /// holds what `to_item` stores for the struct.
    pub fn remove<T>(mut self, attribute: Attribute<E, T, Optional>) -> Self {
        let path = attribute.path();
        self.actions
            .push(if path.is_nested() && attribute.none_is_null() {
                Action::Set(path, Ok(AttributeValue::Null(true)))
            } else {
                Action::Remove(path)
            });
        self
    }

    /// `ADD attribute value` on a number: adds `value` (negative to
    /// subtract); an absent attribute counts as 0 (DynamoDB's `ADD`), so in
    /// an upsert ([`into_upsert`](Self::into_upsert)) a counter needs no
    /// create first.
    pub fn add<T: Number, K: Settable>(mut self, attribute: Attribute<E, T, K>, value: &T) -> Self {
        let value = typed_value(&attribute, value, "number to add", |value| {
            matches!(value, AttributeValue::N(_))
        });
        self.actions.push(Action::Add(attribute.path(), value));
        self
    }

    /// `SET attribute = if_not_exists(attribute, :zero) - value` on a
    /// number, such as a stock decremented by a quantity (guard it with a
    /// condition such as `Product::STOCK.ge(&quantity)` so it cannot go
    /// below zero). An absent attribute counts as 0, as with
    /// [`add`](Self::add), so an update and an upsert agree.
    pub fn subtract<T: Number, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        value: &T,
    ) -> Self {
        let value = typed_value(&attribute, value, "number to subtract", |value| {
            matches!(value, AttributeValue::N(_))
        });
        self.actions.push(Action::Subtract(attribute.path(), value));
        self
    }

    /// `ADD attribute elements` on a set stored as `SS`/`NS`.
    pub fn add_to_set<T: Set + Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        let elements = typed_value(&attribute, elements, "set of elements", is_set);
        self.actions.push(Action::Add(attribute.path(), elements));
        self
    }

    /// `DELETE attribute elements`: removes elements from a set.
    pub fn delete_from_set<T: Set + Serialize, K: Settable>(
        mut self,
        attribute: Attribute<E, T, K>,
        elements: &T,
    ) -> Self {
        let elements = typed_value(&attribute, elements, "set of elements", is_set);
        self.actions
            .push(Action::Delete(attribute.path(), elements));
        self
    }

    /// `SET attribute = list_append(if_not_exists(attribute, :empty), values)`:
    /// appends to a list (`list_append` needs both operands to be lists, so
    /// an absent list counts as the empty list). The values are encoded as
    /// `to_item` encodes the field (so they are cloned into a `Vec`
    /// first). At any path, such as `Customer::ADDRESS.then(Address::LINES)`.
    pub fn append<X: Serialize + Clone, K: Settable>(
        mut self,
        attribute: Attribute<E, Vec<X>, K>,
        values: &[X],
    ) -> Self {
        let values = typed_value(&attribute, &values.to_vec(), "list to append", |value| {
            matches!(value, AttributeValue::L(_))
        });
        self.actions.push(Action::Append(attribute.path(), values));
        self
    }

    /// `SET attribute = list_append(values, if_not_exists(attribute, :empty))`:
    /// puts `values` before the list's elements, in their order. An
    /// absent list counts as the empty list (DynamoDB's `list_append`
    /// refuses an operand that is not a list), so prepending to a list the
    /// item does not have yet stores `values`. Encoded as
    /// [`append`](Self::append) encodes them; not idempotent, as an append.
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html#Expressions.UpdateExpressions.SET.UpdatingListElements>.
    pub fn prepend<X: Serialize + Clone, K: Settable>(
        mut self,
        attribute: Attribute<E, Vec<X>, K>,
        values: &[X],
    ) -> Self {
        let values = typed_value(&attribute, &values.to_vec(), "list to prepend", |value| {
            matches!(value, AttributeValue::L(_))
        });
        self.actions.push(Action::Prepend(attribute.path(), values));
        self
    }

    /// Also requires `condition` (AND).
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(previous) => previous.and(condition),
            None => condition,
        });
        self
    }

    /// The version the stored item must have, for an entity with a
    /// `#[stamp(version)]` field; the update then adds 1 to it.
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// Stamps `updated_at` with `now` instead of the time of sending: a
    /// [`request`](Self::request) and a [`send`](Self::send) with the same
    /// `at` send the same update.
    pub fn at(mut self, now: chrono::DateTime<Utc>) -> Self {
        self.at = Some(now);
        self
    }

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
                    Some(Err(message)) => {
                        Err(Error::Refused(crate::Refusal::InvalidExpressionValue {
                            detail: message.clone(),
                        }))
                    }
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
                    return Err(Error::Refused(crate::Refusal::UniqueFieldArithmetic {
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
                key: crate::ItemKey::of::<E>(&key),
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
            &crate::ItemKey::of::<E>(&key),
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
                key: crate::ItemKey::of::<E>(&key),
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
            return Err(Error::Refused(crate::Refusal::UniqueReturnValues {
                entity: E::SCHEMA.type_name,
            }));
        }
        let key = self.key.clone()?.to_attribute_map();
        let key = crate::ItemKey::of::<E>(&key);
        let failure = match crate::TransactWrite::new()
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
