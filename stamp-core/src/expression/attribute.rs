//! [`Attribute`]: a typed top-level attribute of an entity (the generated
//! constants such as `Order::TOTAL_CENTS`), its kinds, and the conditions it
//! makes.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use super::Condition;
use super::condition::{Comparator, Node, Value, to_value};
use super::order::Ordered;
use super::path::{Path, Step};

/// An attribute of entity `E` whose values have type `T`, of kind `K`
/// ([`Required`], [`Optional`] or [`PrimaryKeyField`]): a top-level
/// attribute, or a document path below one (a field of a nested struct, a
/// list element).
///
/// `#[derive(Item)]` generates one per serialized field as an associated
/// constant in upper case: `Order::TOTAL_CENTS: Attribute<Order, u64,
/// Required>`. For an `Option<T>` field, `T` is the inner type and the kind
/// is [`Optional`]. Every kind takes conditions; the kind decides what an
/// update may do (see `stamp::Update`).
///
/// `#[derive(stamp::Attributes)]` on a struct stored inside an entity
/// generates the same constants for its fields (`Address::CITY:
/// Attribute<Address, String>`), and [`then`](Self::then) joins them to the
/// entity's: `Customer::ADDRESS.then(Address::CITY)` is the path
/// `address.city`, an `Attribute<Customer, String>`. [`at`](Self::at) is
/// a list element: `Customer::TAGS.at(2)` is `tags[2]`. A path that does
/// not exist on the type does not compile: the constant does not exist, or
/// its type is not the type of the attribute it is joined to.
pub struct Attribute<E, T, K = Required> {
    path: Path,
    encode: Option<Encoding<T>>,
    /// `to_item` stores this attribute's `None` as `NULL` (a field of a
    /// nested struct without `skip_serializing_if`): a removal sets `NULL`.
    none_is_null: bool,
    marker: PhantomData<AttributeMarker<E, T, K>>,
}

/// Encodes a field value exactly as `to_item` stores it (serde attributes,
/// set helpers, TTL as epoch seconds); `None` when `to_item` stores no
/// attribute for it (such as an empty set).
pub type Encoder<T> = fn(&T) -> Result<Option<AttributeValue>, serde_dynamo::Error>;

/// How an attribute's values are encoded: by the field's own encoder, or,
/// for a list element, as the element of a one-element list encoded by the
/// list's encoder (so the element is stored as `to_item` stores the list's
/// elements).
enum Encoding<T> {
    Own(Encoder<T>),
    Element(Encoder<Vec<T>>, fn(&T) -> Vec<T>),
    /// An element of a list that is itself a list element: not encoded.
    Unsupported,
}

impl<T> Clone for Encoding<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Encoding<T> {}

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
        write!(f, "Attribute({})", self.path)
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
            path: Path::top(name),
            encode: None,
            none_is_null: false,
            marker: PhantomData,
        }
    }

    /// The attribute named `name`, whose values are encoded by `encode`
    /// (the field's own serialization, which the derive generates), in
    /// conditions and updates alike.
    pub const fn with_encoder(name: &'static str, encode: Encoder<T>) -> Self {
        Attribute {
            path: Path::top(name),
            encode: Some(Encoding::Own(encode)),
            none_is_null: false,
            marker: PhantomData,
        }
    }

    /// The field named `name` of a struct stored inside an item, encoded by
    /// `encode` as serde stores it there; `none_is_null` when the struct
    /// stores the field's `None` as `NULL` (no `skip_serializing_if`), so
    /// that removing it stores what `to_item` stores. Generated by
    /// `#[derive(Attributes)]`; join it to an entity's attribute with
    /// [`then`](Self::then).
    #[doc(hidden)]
    pub const fn nested(name: &'static str, encode: Encoder<T>, none_is_null: bool) -> Self {
        Attribute {
            path: Path::top(name),
            encode: Some(Encoding::Own(encode)),
            none_is_null,
            marker: PhantomData,
        }
    }

    /// The top-level attribute's name (`address` for `address.city`).
    pub const fn name(&self) -> &'static str {
        self.path.top_name()
    }

    /// The document path: the attribute, then the map keys and list
    /// indexes below it.
    pub const fn path(&self) -> Path {
        self.path
    }

    /// Whether removing it stores `NULL` rather than nothing (a field of a
    /// nested struct that serde stores as `NULL` when `None`).
    pub(crate) const fn none_is_null(&self) -> bool {
        self.none_is_null
    }

    /// The same attribute as kind `K2` (a search's inline filter keeps its
    /// name and encoder, and takes no update).
    pub(crate) const fn of_kind<K2>(self) -> Attribute<E, T, K2> {
        Attribute {
            path: self.path,
            encode: self.encode,
            none_is_null: self.none_is_null,
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
        encode_with(encode, &self.path, value)
    }
}

impl<E, T, K: Settable> Attribute<E, T, K> {
    /// The field `field` of the struct this attribute holds: the path
    /// `self.field`, such as `Customer::ADDRESS.then(Address::CITY)` for
    /// `address.city`. `field` is a constant of `#[derive(Attributes)]` on
    /// `T` (a struct stored as a map); its kind is the result's, so an
    /// `Option` field of the nested struct may be removed and another may
    /// only be set. Its values are encoded as `T`'s serde stores the field
    /// (renames and `with` included).
    ///
    /// DynamoDB sets a nested path only when its parent exists: setting
    /// `address.city` on an item without `address` (an `Option` that is
    /// `None`) fails with a `ValidationException` ("The document path
    /// provided in the update expression is invalid for update"); set the
    /// whole struct then. See
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.
    pub const fn then<U, K2>(self, field: Attribute<T, U, K2>) -> Attribute<E, U, K2> {
        Attribute {
            path: self.path.join(field.path),
            encode: field.encode,
            none_is_null: field.none_is_null,
            marker: PhantomData,
        }
    }
}

impl<E, X: Clone, K: Settable> Attribute<E, Vec<X>, K> {
    /// Element `index` (from 0) of this list: the path `self[index]`, such
    /// as `Customer::TAGS.at(2)` for `tags[2]`, of kind [`Optional`]: an
    /// update may set it (DynamoDB appends it at the end when the list is
    /// shorter) or remove it (the elements after it move down one). Its
    /// values are encoded as `to_item` encodes the list's elements.
    ///
    /// An element of an element of a list of lists cannot be encoded
    /// (refused before sending); conditions on it that take no value work.
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.
    pub fn at(self, index: u32) -> Attribute<E, X, Optional> {
        let single: fn(&X) -> Vec<X> = |value| vec![value.clone()];
        Attribute {
            path: self.path.push(Step::Index(index)),
            encode: match self.encode {
                Some(Encoding::Own(list)) => Some(Encoding::Element(list, single)),
                Some(Encoding::Element(..) | Encoding::Unsupported) => Some(Encoding::Unsupported),
                // An attribute made with `new` encodes through serde_dynamo,
                // and so do its elements.
                None => None,
            },
            none_is_null: false,
            marker: PhantomData,
        }
    }
}

/// `value` encoded by `encoding`, for the attribute at `path`.
fn encode_with<T>(
    encoding: Encoding<T>,
    path: &Path,
    value: &T,
) -> Result<Option<AttributeValue>, serde_dynamo::Error> {
    use serde::ser::Error as _;
    match encoding {
        Encoding::Own(encode) => encode(value),
        Encoding::Element(list, single) => match list(&single(value))? {
            Some(AttributeValue::L(mut elements)) if elements.len() == 1 => Ok(elements.pop()),
            _ => Err(serde_dynamo::Error::custom(format!(
                "`{path}` is an element of a list that the item does not store as a list"
            ))),
        },
        Encoding::Unsupported => Err(serde_dynamo::Error::custom(format!(
            "`{path}` is an element of a list inside a list element, which Stamp cannot encode; set the outer element whole"
        ))),
    }
}

impl<E, T: Serialize, K> Attribute<E, T, K> {
    /// `value` as the item stores it: through the field's encoder, or
    /// serde_dynamo for an attribute made with [`new`](Self::new) (an empty
    /// top-level set is then no attribute too). `Ok(None)`: no attribute.
    pub(crate) fn encode(&self, value: &T) -> Result<Option<AttributeValue>, String> {
        match self.encode {
            Some(encode) => encode_with(encode, &self.path, value),
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
                self.path
            )
        })
    }

    fn compare(self, comparator: Comparator, value: &T) -> Condition<E> {
        Condition::from_node(Node::Compare(self.path, comparator, self.operand(value)))
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
            self.path,
            self.operand(low),
            self.operand(high),
        ))
    }

    /// `begins_with(attribute, prefix)`, for string and binary attributes.
    pub fn begins_with(self, prefix: &str) -> Condition<E> {
        Condition::from_node(Node::BeginsWith(self.path, to_value(prefix)))
    }

    /// `contains(attribute, operand)`: a substring of a string, or an element
    /// of a set or list.
    pub fn contains<V: Serialize + ?Sized>(self, operand: &V) -> Condition<E> {
        Condition::from_node(Node::Contains(self.path, to_value(operand)))
    }

    /// `attribute_exists(attribute)`
    pub fn exists(self) -> Condition<E> {
        Condition::from_node(Node::Exists(self.path))
    }

    /// `attribute_not_exists(attribute)`
    pub fn not_exists(self) -> Condition<E> {
        Condition::from_node(Node::NotExists(self.path))
    }

    /// `attribute_type(attribute, type)`
    pub fn has_type(self, attribute_type: AttributeType) -> Condition<E> {
        Condition::from_node(Node::Type(self.path, attribute_type))
    }

    /// The size of the attribute, to compare: string length in bytes, binary
    /// length, or the number of elements of a set, list or map.
    pub fn size(self) -> Size<E> {
        Size {
            path: self.path,
            marker: PhantomData,
        }
    }
}

/// `size(attribute)`, compared with a number by [`Attribute::size`].
pub struct Size<E> {
    path: Path,
    marker: PhantomData<fn() -> E>,
}

impl<E> Size<E> {
    fn compare(self, comparator: Comparator, value: u64) -> Condition<E> {
        Condition::from_node(Node::Size(self.path, comparator, to_value(&value)))
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
