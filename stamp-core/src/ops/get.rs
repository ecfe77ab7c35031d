//! Reading one item by primary key: `GetItem`, eventually or strongly
//! consistent.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html>.

use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::request::executor::Call;
use crate::{Entity, Error, Item, PrimaryKey, Table};

impl Table {
    /// Reads the item with primary key `key` with an eventually consistent
    /// `GetItem` (half a read unit per 4 KB). `Ok(None)` when there is no
    /// such item.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`Entity::from_item`], and [`Error::DynamoDb`] for what
    /// the service returns.
    pub async fn get<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<Option<E>, Error> {
        self.get_item(key, false).await
    }

    /// As [`get`](Self::get), with a strongly consistent read
    /// (`ConsistentRead = true`): it reflects every write that succeeded
    /// before it, and costs one read unit per 4 KB, twice an eventually
    /// consistent read ("Read consistency", Amazon DynamoDB Developer Guide).
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    pub async fn get_consistent<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<Option<E>, Error> {
        self.get_item(key, true).await
    }

    async fn get_item<E: Entity>(
        &self,
        key: &PrimaryKey<E>,
        consistent: bool,
    ) -> Result<Option<E>, Error> {
        self.stored_item(E::SCHEMA.type_name, key.to_attribute_map(), consistent)
            .await?
            .map(E::from_item)
            .transpose()
    }

    /// The item stored at `key` as DynamoDB holds it, read with one
    /// `GetItem` (strongly consistent when `consistent`) of entity
    /// `entity`; `None` when there is none. Re-keying and key migrations
    /// read the raw item with it.
    pub(crate) async fn stored_item(
        &self,
        entity: &'static str,
        key: Item,
        consistent: bool,
    ) -> Result<Option<Item>, Error> {
        let input = GetItemInput::builder()
            .table_name(self.name())
            .set_key(Some(key))
            .set_consistent_read(consistent.then_some(true))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("GetItemInput has no required fields");
        let output = self.execute_mapped(input, Call::of(entity)).await?;
        Ok(output.item.filter(|item| !item.is_empty()))
    }
}
