//! Reading one item by primary key: [`Get`] (`GetItem`), eventually or
//! strongly consistent.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html>.

use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::error::Error;
use crate::model::entity::{AttributeMap, Entity};
use crate::model::typed_key::PrimaryKey;
use crate::request::executor::Call;
use crate::request::table::Table;

/// A read of the item with one primary key (`GetItem`), built by
/// [`Get::new`] and sent by [`send`](Self::send); [`Table::get`] is its
/// shortcut.
///
/// An eventually consistent read costs half a read unit per 4 KB of the
/// item, a strongly consistent one ([`consistent_read`](Self::consistent_read))
/// one read unit per 4 KB ("Read consistency", Amazon DynamoDB Developer
/// Guide).
///
/// An item whose TTL has passed at the table's clock ([`Table::now`]) is
/// left out (`Ok(None)`, judged on the client from the item returned,
/// which is still read and charged) unless
/// [`include_expired`](Self::include_expired) is given.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html>.
///
/// # Example
///
/// ```ignore
/// let order: Option<Order> = Get::new(Order::key("c-1", &created_at, &order_id)?)
///     .consistent_read()
///     .send(&table)
///     .await?;
/// ```
#[must_use = "a Get does nothing until it is sent"]
#[derive(Debug, Clone)]
pub struct Get<E> {
    key: PrimaryKey<E>,
    consistent: bool,
    include_expired: bool,
}

impl<E: Entity> Get<E> {
    /// A read of the item with primary key `key`, eventually consistent.
    pub fn new(key: PrimaryKey<E>) -> Self {
        Get {
            key,
            consistent: false,
            include_expired: false,
        }
    }

    /// Returns the item even when its TTL (`#[stamp(ttl)]`) has passed and
    /// DynamoDB has not deleted it yet. By default such an item reads as
    /// `None`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Reads strongly consistent (`ConsistentRead = true`): the answer
    /// reflects every write that succeeded before the read, at twice the
    /// read units.
    pub fn consistent_read(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// The exact `GetItem` request [`send`](Self::send) sends to the table
    /// named `table_name`, without a network.
    ///
    /// # Errors
    ///
    /// None today; a `Result` as every operation's `request` is.
    pub fn request(&self, table_name: &str) -> Result<GetItemInput, Error> {
        Ok(get_item_input(
            table_name,
            self.key.to_attribute_map(),
            self.consistent,
        ))
    }

    /// Reads the item; `Ok(None)` when there is no item with the key, or
    /// when its TTL has passed at [`Table::now`] (unless
    /// [`include_expired`](Self::include_expired)).
    ///
    /// # Errors
    ///
    /// The errors of [`Entity::from_item`] (an item of another entity under
    /// the key is [`DecodeError::EntityTypeMismatch`](crate::DecodeError::EntityTypeMismatch)), and [`Error::DynamoDb`]
    /// for what the service returns.
    pub async fn send(self, table: &Table) -> Result<Option<E>, Error> {
        table
            .stored_item(
                E::SCHEMA.type_name,
                self.key.to_attribute_map(),
                self.consistent,
            )
            .await?
            .filter(|item| {
                self.include_expired
                    || !crate::ops::expiry::is_expired(item, E::SCHEMA, table.now().timestamp())
            })
            .map(E::from_item)
            .transpose()
    }
}

fn get_item_input(table_name: &str, key: AttributeMap, consistent: bool) -> GetItemInput {
    GetItemInput::builder()
        .table_name(table_name)
        .set_key(Some(key))
        .set_consistent_read(consistent.then_some(true))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .build()
        .expect("GetItemInput has no required fields")
}

impl Table {
    /// The item stored at `key` as DynamoDB holds it, read with one
    /// `GetItem` (strongly consistent when `consistent`) of entity
    /// `entity`; `None` when there is none. [`Get`], re-keying and key
    /// migrations read with it.
    pub(crate) async fn stored_item(
        &self,
        entity: &'static str,
        key: AttributeMap,
        consistent: bool,
    ) -> Result<Option<AttributeMap>, Error> {
        stored_item(self, entity, key, consistent).await
    }
}

/// The item stored at `key` as DynamoDB holds it, read with one `GetItem`
/// (strongly consistent when `consistent`) of entity `entity`; `None` when
/// there is none: [`Table::stored_item`].
pub(crate) async fn stored_item(
    table: &Table,
    entity: &'static str,
    key: AttributeMap,
    consistent: bool,
) -> Result<Option<AttributeMap>, Error> {
    let input = get_item_input(table.name(), key, consistent);
    let output = table.execute_mapped(input, Call::of(entity)).await?;
    Ok(output.item.filter(|item| !item.is_empty()))
}
