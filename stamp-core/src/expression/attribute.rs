//! [`Attribute`]: a typed top-level attribute of an entity (the generated
//! constants such as `Order::TOTAL_CENTS`), its kinds, and the conditions it
//! makes.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use super::Condition;
use super::condition::{Comparator, Node, Value, to_value};
use super::order::Ordered;

/// A top-level attribute of entity `E` whose values have type `T`, of kind
/// `K` ([`Required`], [`Optional`] or [`PrimaryKeyField`]).
///
/// `#[derive(Item)]` generates one per serialized field as an associated
/// constant in upper case: `Order::TOTAL_CENTS: Attribute<Order, u64,
/// Required>`. For an `Option<T>` field, `T` is the inner type and the kind
/// is [`Optional`]. Every kind takes conditions; the kind decides what an
/// update may do (see `stamp::Update`).
pub struct Attribute<E, T, K = Required> {
    name: &'static str,
    encode: Option<Encoder<T>>,
    marker: PhantomData<AttributeMarker<E, T, K>>,
}

/// Encodes a field value exactly as `to_item` stores it (serde attributes,
/// set helpers, TTL as epoch seconds); `None` when `to_item` stores no
/// attribute for it (such as an empty set).
pub type Encoder<T> = fn(&T) -> Result<Option<AttributeValue>, serde_dynamo::Error>;

/// Ties an [`Attribute`] to its entity, type and kind without owning them.
type AttributeMarker<E, T, K> = fn() -> (E, T, K);

/// The kind of a field that is neither optional nor in the primary key.
#[derive(Debug, Clone, Copy)]
pub struct Required;

/// The kind of an `Option<T>` field: an update may remove it.
#[derive(Debug, Clone, Copy)]
pub struct Optional;

/// The kind of a field of the primary-key templates: no update may change it
/// (move the item with `Table::rekey` instead).
#[derive(Debug, Clone, Copy)]
pub struct PrimaryKeyField;

/// The kinds of attribute an update may set: [`Required`] and
/// [`Optional`], not [`PrimaryKeyField`].
#[diagnostic::on_unimplemented(
    message = "a field of the primary key cannot be updated",
    label = "this attribute is part of the item's primary key",
    note = "an update cannot change a key; move the item to its new key with `Table::rekey`"
)]
pub trait Settable {}

impl Settable for Required {}
impl Settable for Optional {}

impl<E, T, K> Clone for Attribute<E, T, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, T, K> Copy for Attribute<E, T, K> {}

impl<E, T, K> std::fmt::Debug for Attribute<E, T, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Attribute({})", self.name)
    }
}

/// The type names of `attribute_type`, as DynamoDB spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributeType {
    /// `S`
    String,
    /// `N`
    Number,
    /// `B`
    Binary,
    /// `BOOL`
    Boolean,
    /// `NULL`
    Null,
    /// `M`
    Map,
    /// `L`
    List,
    /// `SS`
    StringSet,
    /// `NS`
    NumberSet,
    /// `BS`
    BinarySet,
}

impl AttributeType {
    pub(super) fn code(self) -> &'static str {
        match self {
            AttributeType::String => "S",
            AttributeType::Number => "N",
            AttributeType::Binary => "B",
            AttributeType::Boolean => "BOOL",
            AttributeType::Null => "NULL",
            AttributeType::Map => "M",
            AttributeType::List => "L",
            AttributeType::StringSet => "SS",
            AttributeType::NumberSet => "NS",
            AttributeType::BinarySet => "BS",
        }
    }
}

impl<E, T, K> Attribute<E, T, K> {
    /// The attribute named `name` (as serde stores it). Generated code calls
    /// it; use the generated constants.
    pub const fn new(name: &'static str) -> Self {
        Attribute {
            name,
            encode: None,
            marker: PhantomData,
        }
    }

    /// The attribute named `name`, whose values are encoded by `encode`
    /// (the field's own serialization, which the derive generates), in
    /// conditions and updates alike.
    pub const fn with_encoder(name: &'static str, encode: Encoder<T>) -> Self {
        Attribute {
            name,
            encode: Some(encode),
            marker: PhantomData,
        }
    }

    /// The attribute name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The same attribute as kind `K2` (a search's inline filter keeps its
    /// name and encoder, and takes no update).
    pub(crate) const fn of_kind<K2>(self) -> Attribute<E, T, K2> {
        Attribute {
            name: self.name,
            encode: self.encode,
            marker: PhantomData,
        }
    }

    /// `value` as the item stores it, through the field's encoder
    /// (`Ok(None)`: no attribute). For generated code, which makes every
    /// attribute constant with its encoder: the one place a field's
    /// encoder is written.
    ///
    /// # Errors
    ///
    /// The encoder's.
    ///
    /// # Panics
    ///
    /// For an attribute made with [`new`](Self::new), which has none.
    #[doc(hidden)]
    #[inline]
    pub fn stored(&self, value: &T) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
        let encode = self
            .encode
            .expect("the derive makes every attribute constant with its encoder");
        encode(value)
    }
}

impl<E, T: Serialize, K> Attribute<E, T, K> {
    /// `value` as the item stores it: through the field's encoder, or
    /// serde_dynamo for an attribute made with [`new`](Self::new) (an empty
    /// top-level set is then no attribute too). `Ok(None)`: no attribute.
    pub(crate) fn encode(&self, value: &T) -> Result<Option<AttributeValue>, String> {
        match self.encode {
            Some(encode) => encode(value),
            None => {
                crate::item::value::json::to_attribute_value(value).map(|value: AttributeValue| {
                    (!crate::item::check::is_empty_set(&value)).then_some(value)
                })
            }
        }
        .map_err(|error| error.to_string())
    }

    /// `value` as a condition operand: it must be stored as an attribute.
    fn operand(&self, value: &T) -> Value {
        self.encode(value)?.ok_or_else(|| {
            format!(
                "a value of `{}` that the item stores as no attribute (such as an empty set) cannot be compared; use `not_exists()`",
                self.name
            )
        })
    }

    fn compare(self, comparator: Comparator, value: &T) -> Condition<E> {
        Condition::from_node(Node::Compare(self.name, comparator, self.operand(value)))
    }

    /// `attribute = value`
    pub fn eq(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Eq, value)
    }

    /// `attribute <> value`
    pub fn ne(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Ne, value)
    }

    /// `attribute < value`, in the values' own order: only for a type
    /// whose stored form DynamoDB orders as its values ([`Ordered`]).
    pub fn lt(self, value: &T) -> Condition<E>
    where
        T: Ordered,
    {
        self.compare(Comparator::Lt, value)
    }

    /// `attribute <= value`, in the values' own order: only for a type
    /// whose stored form DynamoDB orders as its values ([`Ordered`]).
    pub fn le(self, value: &T) -> Condition<E>
    where
        T: Ordered,
    {
        self.compare(Comparator::Le, value)
    }

    /// `attribute > value`, in the values' own order: only for a type
    /// whose stored form DynamoDB orders as its values ([`Ordered`]).
    pub fn gt(self, value: &T) -> Condition<E>
    where
        T: Ordered,
    {
        self.compare(Comparator::Gt, value)
    }

    /// `attribute >= value`, in the values' own order: only for a type
    /// whose stored form DynamoDB orders as its values ([`Ordered`]).
    pub fn ge(self, value: &T) -> Condition<E>
    where
        T: Ordered,
    {
        self.compare(Comparator::Ge, value)
    }

    /// `attribute BETWEEN low AND high`, both ends included, in the values'
    /// own order: only for a type whose stored form DynamoDB orders as its
    /// values ([`Ordered`]).
    pub fn between(self, low: &T, high: &T) -> Condition<E>
    where
        T: Ordered,
    {
        Condition::from_node(Node::Between(
            self.name,
            self.operand(low),
            self.operand(high),
        ))
    }

    /// `begins_with(attribute, prefix)`, for string and binary attributes.
    pub fn begins_with(self, prefix: &str) -> Condition<E> {
        Condition::from_node(Node::BeginsWith(self.name, to_value(prefix)))
    }

    /// `contains(attribute, operand)`: a substring of a string, or an element
    /// of a set or list.
    pub fn contains<V: Serialize + ?Sized>(self, operand: &V) -> Condition<E> {
        Condition::from_node(Node::Contains(self.name, to_value(operand)))
    }

    /// `attribute_exists(attribute)`
    pub fn exists(self) -> Condition<E> {
        Condition::from_node(Node::Exists(self.name))
    }

    /// `attribute_not_exists(attribute)`
    pub fn not_exists(self) -> Condition<E> {
        Condition::from_node(Node::NotExists(self.name))
    }

    /// `attribute_type(attribute, type)`
    pub fn has_type(self, attribute_type: AttributeType) -> Condition<E> {
        Condition::from_node(Node::Type(self.name, attribute_type))
    }

    /// The size of the attribute, to compare: string length in bytes, binary
    /// length, or the number of elements of a set, list or map.
    pub fn size(self) -> Size<E> {
        Size {
            name: self.name,
            marker: PhantomData,
        }
    }
}

/// `size(attribute)`, compared with a number by [`Attribute::size`].
pub struct Size<E> {
    name: &'static str,
    marker: PhantomData<fn() -> E>,
}

impl<E> Size<E> {
    fn compare(self, comparator: Comparator, value: u64) -> Condition<E> {
        Condition::from_node(Node::Size(self.name, comparator, to_value(&value)))
    }

    /// `size(attribute) = value`
    pub fn eq(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Eq, value)
    }

    /// `size(attribute) <> value`
    pub fn ne(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Ne, value)
    }

    /// `size(attribute) < value`
    pub fn lt(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Lt, value)
    }

    /// `size(attribute) <= value`
    pub fn le(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Le, value)
    }

    /// `size(attribute) > value`
    pub fn gt(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Gt, value)
    }

    /// `size(attribute) >= value`
    pub fn ge(self, value: u64) -> Condition<E> {
        self.compare(Comparator::Ge, value)
    }
}
