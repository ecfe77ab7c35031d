//! Whole-table assertions: [`TableSnapshot`], the items of a table (or of
//! one partition) decoded through a model and drawn as a table.

use std::cmp::Ordering;
use std::fmt;

use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::{AttributeValue, KeyType, ReturnConsumedCapacity};
use futures::TryStreamExt;

use crate::error::Error;
use crate::model::collection::Collection;
use crate::model::entity::{AttributeMap, Entity};
use crate::request::executor::Call;
use crate::request::table::Table;

mod canonical;
mod draw;

use canonical::{canonical, compare_key};
use draw::key_value_text;

/// The items of a table, or of one of its partitions, each decoded through
/// the collection `C` (its entity's variant, or `C`'s `Unknown` variant with
/// the item as stored, keys included), in key order: by partition key, then
/// sort key, each in DynamoDB's order (bytes for strings and binary,
/// numeric for numbers).
///
/// Two snapshots are equal when they hold the same keys with equal values
/// of `C`, in the same order; the key attribute names and the table name
/// are not compared. Build the expected side from entities
/// ([`expected`](Self::expected), [`with`](Self::with)): each is encoded
/// as a put stores it (`Entity::to_item`) and decoded through `C`, so it is
/// exactly what reading it back gives.
///
/// `Display` and `Debug` draw the table as people draw a single table: one
/// row per item with its partition key, sort key, type and its other
/// attributes (name order, DynamoDB JSON shortened: `"text"`, `42`, `true`,
/// `null`, `[…]`, `{…}`, `<<…>>` for sets, `b"…"` for binary), so a failing
/// `assert_eq!` shows two tables, not nested maps of `AttributeValue`s.
///
/// `C` is a `#[derive(Collection)]` enum: for a whole table, one with
/// `#[stamp(any_partition)]` listing every entity of the table and an
/// `Unknown(AttributeMap)` variant; an item of any other type (a guard
/// item of a unique value, another service's item) is an `Unknown` row.
///
/// # Example
///
/// ```ignore
/// use stamp::testing::TableSnapshot;
///
/// let stored = TableSnapshot::<Everything>::read(&table).await?;
/// let expected = TableSnapshot::<Everything>::expected()
///     .with(&customer)
///     .with(&order);
/// assert_eq!(stored, expected);
/// ```
pub struct TableSnapshot<C> {
    /// The table's name; empty for an expected snapshot.
    table: String,
    partition_key: String,
    sort_key: Option<String>,
    type_attribute: String,
    rows: Vec<Row<C>>,
}

/// One item: its decoded value and the item as stored.
#[derive(Clone)]
struct Row<C> {
    value: C,
    stored: AttributeMap,
}

impl<C> Clone for TableSnapshot<C>
where
    C: Clone,
{
    fn clone(&self) -> Self {
        TableSnapshot {
            table: self.table.clone(),
            partition_key: self.partition_key.clone(),
            sort_key: self.sort_key.clone(),
            type_attribute: self.type_attribute.clone(),
            rows: self.rows.clone(),
        }
    }
}

impl<C: Collection> TableSnapshot<C> {
    /// Every item of `table`, read with a strongly consistent `Scan` (every
    /// page), decoded through `C`. The key attribute names come from
    /// `DescribeTable`.
    ///
    /// A scan of a large table reads all of it: this is for tests.
    ///
    /// # Errors
    ///
    /// The errors of `DescribeTable` and `Scan` ([`Error::DynamoDb`]), and
    /// `C::from_item`'s for an item of a member type that does not decode.
    pub async fn read(table: &Table) -> Result<Self, Error> {
        let (partition_key, sort_key) = key_names(table).await?;
        let input = crate::ops::scan::segment_input(table.name(), (0, 1), None, true, None);
        let items: Vec<AttributeMap> = crate::ops::scan::pages(table, Ok(input), "")
            .try_concat()
            .await?;
        Self::from_stored(table.name(), partition_key, sort_key, items)
    }

    /// The items of one partition of `table`, the ones whose partition key
    /// is the string `partition_key` (such as
    /// `Customer::key("c-1")?.partition_key()`), read with strongly
    /// consistent `Query` requests (every page), decoded through `C`.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read).
    pub async fn read_partition(table: &Table, partition_key: &str) -> Result<Self, Error> {
        let (key_name, sort_key) = key_names(table).await?;
        let mut items = Vec::new();
        let mut start: Option<AttributeMap> = None;
        loop {
            let input = QueryInput::builder()
                .table_name(table.name())
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", &key_name)
                .expression_attribute_values(":pk", AttributeValue::S(partition_key.to_owned()))
                .consistent_read(true)
                .set_exclusive_start_key(start.take())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .build()
                .expect("QueryInput has no required fields");
            let output = table.execute_mapped(input, Call::of("")).await?;
            items.extend(output.items.unwrap_or_default());
            match output.last_evaluated_key.filter(|key| !key.is_empty()) {
                Some(key) => start = Some(key),
                None => break,
            }
        }
        Self::from_stored(table.name(), key_name, sort_key, items)
    }

    /// An empty snapshot, to add the items expected with
    /// [`with`](Self::with) and [`with_item`](Self::with_item). Its key
    /// attribute names are those of the first entity added (`PK` and `SK`
    /// until then).
    pub fn expected() -> Self {
        let type_attribute = C::MEMBERS
            .first()
            .map_or("Type", |member| member.type_attribute);
        TableSnapshot {
            table: String::new(),
            partition_key: "PK".to_owned(),
            sort_key: Some("SK".to_owned()),
            type_attribute: type_attribute.to_owned(),
            rows: Vec::new(),
        }
    }

    /// With `entity` as a put stores it (`Entity::to_item`, its index
    /// attributes included), decoded through `C`, in its place in key
    /// order.
    ///
    /// # Panics
    ///
    /// When `entity` cannot be encoded or its item does not decode through
    /// `C` (an expected value a test could never store): the message is the
    /// error's.
    pub fn with<E: Entity>(mut self, entity: &E) -> Self {
        if self.rows.is_empty() {
            self.partition_key = E::SCHEMA.partition_key.name.to_owned();
            self.sort_key = Some(E::SCHEMA.sort_key.name.to_owned());
            self.type_attribute = E::SCHEMA.type_attribute.to_owned();
        }
        let item = entity
            .to_item()
            .unwrap_or_else(|error| panic!("the expected item does not encode: {error}"));
        self.with_item(item)
    }

    /// With the raw `item` (keys included), decoded through `C`: an item
    /// of a type outside `C` is its `Unknown` variant.
    ///
    /// # Panics
    ///
    /// When the item does not decode through `C`.
    pub fn with_item(mut self, item: AttributeMap) -> Self {
        let item = canonical(item);
        let value = C::from_item(item.clone())
            .unwrap_or_else(|error| panic!("the expected item does not decode: {error}"));
        self.rows.push(Row {
            value,
            stored: item,
        });
        self.sort();
        self
    }

    fn from_stored(
        table: &str,
        partition_key: String,
        sort_key: Option<String>,
        items: Vec<AttributeMap>,
    ) -> Result<Self, Error> {
        let type_attribute = C::MEMBERS
            .first()
            .map_or("Type", |member| member.type_attribute);
        let rows = items
            .into_iter()
            .map(|stored| {
                let stored = canonical(stored);
                Ok(Row {
                    value: C::from_item(stored.clone())?,
                    stored,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let mut snapshot = TableSnapshot {
            table: table.to_owned(),
            partition_key,
            sort_key,
            type_attribute: type_attribute.to_owned(),
            rows,
        };
        snapshot.sort();
        Ok(snapshot)
    }
}

impl<C> TableSnapshot<C> {
    /// The decoded items, in key order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = &C> {
        self.rows.iter().map(|row| &row.value)
    }

    /// The decoded items, in key order.
    pub fn into_items(self) -> Vec<C> {
        self.rows.into_iter().map(|row| row.value).collect()
    }

    /// The items as stored, in key order.
    pub fn stored(&self) -> impl ExactSizeIterator<Item = &AttributeMap> {
        self.rows.iter().map(|row| &row.stored)
    }

    /// How many items the snapshot holds.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the snapshot holds no item.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The `(partition key, sort key)` of each item, drawn as in the table
    /// (a string as it is, a number as its digits), in key order.
    pub fn keys(&self) -> Vec<(String, Option<String>)> {
        self.rows
            .iter()
            .map(|row| (self.key_text(row, true), self.sort_text(row)))
            .collect()
    }

    fn key_text(&self, row: &Row<C>, partition: bool) -> String {
        let name = if partition {
            Some(&self.partition_key)
        } else {
            self.sort_key.as_ref()
        };
        name.and_then(|name| row.stored.get(name))
            .map_or_else(String::new, key_value_text)
    }

    fn sort_text(&self, row: &Row<C>) -> Option<String> {
        self.sort_key.as_ref().map(|_| self.key_text(row, false))
    }

    fn sort(&mut self) {
        let (partition_key, sort_key) = (self.partition_key.clone(), self.sort_key.clone());
        self.rows.sort_by(|a, b| {
            let key = |row: &Row<C>, name: Option<&String>| {
                name.and_then(|name| row.stored.get(name)).cloned()
            };
            compare_key(
                key(a, Some(&partition_key)).as_ref(),
                key(b, Some(&partition_key)).as_ref(),
            )
            .then_with(|| {
                compare_key(
                    key(a, sort_key.as_ref()).as_ref(),
                    key(b, sort_key.as_ref()).as_ref(),
                )
            })
        });
    }
}

impl<C: PartialEq> PartialEq for TableSnapshot<C> {
    fn eq(&self, other: &Self) -> bool {
        self.rows.len() == other.rows.len()
            && self.rows.iter().zip(&other.rows).all(|(a, b)| {
                a.value == b.value
                    && self.key_text(a, true) == other.key_text(b, true)
                    && self.sort_text(a) == other.sort_text(b)
            })
    }
}

/// The table's key attribute names, from `DescribeTable`.
async fn key_names(table: &Table) -> Result<(String, Option<String>), Error> {
    let described = table
        .execute_mapped(
            DescribeTableInput::builder()
                .table_name(table.name())
                .build()
                .expect("DescribeTableInput has no required fields"),
            Call::of(""),
        )
        .await?;
    let schema = described
        .table()
        .map(|table| table.key_schema())
        .unwrap_or_default();
    let name = |kind: KeyType| {
        schema
            .iter()
            .find(|element| *element.key_type() == kind)
            .map(|element| element.attribute_name().to_owned())
    };
    Ok((
        name(KeyType::Hash).unwrap_or_else(|| "PK".to_owned()),
        name(KeyType::Range),
    ))
}
