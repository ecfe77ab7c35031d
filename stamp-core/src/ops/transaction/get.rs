//! [`TransactGet`]: `TransactGetItems` over any entities of one table,
//! decoded by position.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html>.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::transact_get_items::{
    TransactGetItemsError, TransactGetItemsInput,
};
use aws_sdk_dynamodb::types::{Get, ReturnConsumedCapacity, TransactGetItem};

use super::{check_actions, failure};
use crate::error::Error;
use crate::error::ItemKey;
use crate::model::entity::EntitySchema;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::typed_key::PrimaryKey;
use crate::request::executor::Call;
use crate::request::span::common_entity;
use crate::request::table::Table;

/// The position of one get in a [`TransactGet`], typed by its entity:
/// [`TransactGetOutput::take`] decodes the item there as `E`.
pub struct Slot<E> {
    index: usize,
    entity: PhantomData<fn() -> E>,
}

impl<E> Slot<E> {
    /// The position of the get, from 0.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<E> Clone for Slot<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Slot<E> {}

impl<E> fmt::Debug for Slot<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Slot")
            .field("entity", &std::any::type_name::<E>())
            .field("index", &self.index)
            .finish()
    }
}

/// A read transaction on one table, over any entities, built by
/// [`TransactGet::new`]: the items are read as of one moment. Each
/// [`get`](Self::get) returns the [`Slot`] its item is decoded from.
///
/// Refused before sending: no get, more than 100, and one item twice.
///
/// An item whose TTL has passed at the table's clock ([`Table::now`]) reads
/// as `None` (judged on the client from the item returned, still read and
/// charged) unless [`include_expired`](Self::include_expired) is given.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html>.
///
/// # Example
///
/// ```ignore
/// let mut read = TransactGet::new();
/// let customer = read.get(&Customer::key("c-1")?);
/// let product = read.get(&Product::key("SKU-1")?);
/// let mut items = read.send(&table).await?;
/// let customer: Option<Customer> = items.take(customer)?;
/// let product: Option<Product> = items.take(product)?;
/// ```
#[derive(Debug, Clone, Default)]
pub struct TransactGet {
    gets: Vec<(&'static EntitySchema, AttributeMap, ItemKey)>,
    include_expired: bool,
}

/// The items of a [`TransactGet`], by position.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactGetOutput {
    items: Vec<Option<AttributeMap>>,
}

impl TransactGet {
    /// An empty read transaction: add gets, then [`send`](Self::send) it to
    /// a table.
    pub fn new() -> Self {
        TransactGet {
            gets: Vec::new(),
            include_expired: false,
        }
    }

    /// Returns items whose TTL (`#[stamp(ttl)]`) has passed and that
    /// DynamoDB has not deleted yet; by default each reads as `None`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(&mut self) -> &mut Self {
        self.include_expired = true;
        self
    }

    /// Adds a get of the item with primary key `key`, and returns the slot
    /// to take it from.
    pub fn get<E: Entity>(&mut self, key: &PrimaryKey<E>) -> Slot<E> {
        let map = key.to_attribute_map();
        let item_key = ItemKey::of::<E>(&map);
        self.gets.push((E::SCHEMA, map, item_key));
        Slot {
            index: self.gets.len() - 1,
            entity: PhantomData,
        }
    }

    /// The number of gets.
    pub fn len(&self) -> usize {
        self.gets.len()
    }

    /// Whether there is no get.
    pub fn is_empty(&self) -> bool {
        self.gets.is_empty()
    }

    /// The exact `TransactGetItems` request [`send`](Self::send) sends to
    /// the table named `table_name`, without a network.
    ///
    /// # Errors
    ///
    /// The errors `send` finds before sending.
    pub fn request(&self, table_name: &str) -> Result<TransactGetItemsInput, Error> {
        check_actions(
            self.gets
                .iter()
                .map(|(schema, _, key)| (schema.type_name, key)),
        )?;
        let items: Vec<TransactGetItem> = self
            .gets
            .iter()
            .map(|(_, key, _)| {
                TransactGetItem::builder()
                    .get(
                        Get::builder()
                            .table_name(table_name)
                            .set_key(Some(key.clone()))
                            .build()
                            .expect("table and key are set"),
                    )
                    .build()
            })
            .collect();
        Ok(TransactGetItemsInput::builder()
            .set_transact_items(Some(items))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("TransactGetItemsInput has no required fields"))
    }

    /// Reads the items from `table` with `TransactGetItems`.
    ///
    /// # Errors
    ///
    /// Before sending: [`Refusal::EmptyTransaction`](crate::Refusal::EmptyTransaction),
    /// [`Refusal::TooManyTransactionActions`](crate::Refusal::TooManyTransactionActions) and
    /// [`Refusal::DuplicateTransactionItem`](crate::Refusal::DuplicateTransactionItem). After:
    /// [`Error::TransactionCanceled`] (such as a conflict with a write in
    /// progress) and [`Error::DynamoDb`].
    pub async fn send(self, table: &Table) -> Result<TransactGetOutput, Error> {
        let name = table.name();
        let input = self.request(name)?;
        let entity = common_entity(self.gets.iter().map(|(schema, _, _)| schema.type_name));
        let result = table
            .execute(input, Call::of(entity).items(self.gets.len()))
            .await;
        match result {
            Ok(output) => {
                let mut items: Vec<Option<AttributeMap>> = output
                    .responses
                    .unwrap_or_default()
                    .into_iter()
                    .map(|response| response.item)
                    .collect();
                items.resize(self.gets.len(), None);
                if !self.include_expired {
                    let now = table.now().timestamp();
                    for (item, (schema, _, _)) in items.iter_mut().zip(&self.gets) {
                        if item
                            .as_ref()
                            .is_some_and(|item| crate::ops::expiry::is_expired(item, schema, now))
                        {
                            *item = None;
                        }
                    }
                }
                Ok(TransactGetOutput { items })
            }
            Err(error) => Err(failure(
                name,
                error,
                |error| match error {
                    TransactGetItemsError::TransactionCanceledException(cancelled) => {
                        Some(cancelled.cancellation_reasons())
                    }
                    _ => None,
                },
                self.gets
                    .iter()
                    .map(|(schema, _, key)| (schema.type_name, key)),
            )),
        }
    }
}

impl TransactGetOutput {
    /// Takes the item of `slot` out, decoded as `E`; `Ok(None)` when there
    /// is no such item (or it was taken already).
    ///
    /// # Errors
    ///
    /// The errors of [`Entity::from_item`].
    pub fn take<E: Entity>(&mut self, slot: Slot<E>) -> Result<Option<E>, Error> {
        self.items
            .get_mut(slot.index)
            .and_then(Option::take)
            .map(E::from_item)
            .transpose()
    }

    /// The raw items, one per get in order, `None` where there is none (or
    /// its TTL had passed, unless the read included expired items).
    pub fn into_items(self) -> Vec<Option<AttributeMap>> {
        self.items
    }
}
