//! [`Update`]: a typed `UpdateItem` for one item of an entity.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::Utc;
use serde::Serialize;

use crate::error::Error;
use crate::expression::{Attribute, Condition, Optional, Settable};
use crate::model::entity::{AttributeMap, Entity};
use crate::model::typed_key::PrimaryKey;

mod indexes;
mod render;
mod request;
mod upsert;
mod values;

pub use values::{Number, Set};

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
}
