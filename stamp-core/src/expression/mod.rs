//! Typed condition expressions: the filter of a query or scan and the
//! condition of a put, update, delete or transaction check.
//!
//! Every attribute name becomes a `#n…` placeholder and every value a `:v…`
//! placeholder: no user text is ever spliced into the expression, so a value
//! such as `) OR attribute_exists(PK) OR (` is just a value. See
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html>.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::{Entity, Error};

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
    fn code(self) -> &'static str {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Comparator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparator {
    fn symbol(self) -> &'static str {
        match self {
            Comparator::Eq => "=",
            Comparator::Ne => "<>",
            Comparator::Lt => "<",
            Comparator::Le => "<=",
            Comparator::Gt => ">",
            Comparator::Ge => ">=",
        }
    }
}

/// A value, or why it could not be turned into one (reported at send).
type Value = Result<AttributeValue, String>;

fn to_value<T: Serialize + ?Sized>(value: &T) -> Value {
    serde_dynamo::to_attribute_value(value).map_err(|error| error.to_string())
}

#[derive(Debug, Clone)]
enum Node {
    Compare(&'static str, Comparator, Value),
    Size(&'static str, Comparator, Value),
    Between(&'static str, Value, Value),
    BeginsWith(&'static str, Value),
    Contains(&'static str, Value),
    Exists(&'static str),
    NotExists(&'static str),
    Type(&'static str, AttributeType),
    /// Two or more terms; `and` of an `And` appends, so a condition folded
    /// from many terms stays one level deep.
    And(Vec<Node>),
    /// As `And`.
    Or(Vec<Node>),
    Not(Box<Node>),
}

impl Node {
    /// The terms of `self` joined with `other` by `And` (`and` true) or
    /// `Or`, without nesting a list in a list of its own kind.
    fn join(mut self, mut other: Node, and: bool) -> Node {
        let mut terms = match (&mut self, and) {
            (Node::And(terms), true) | (Node::Or(terms), false) => std::mem::take(terms),
            _ => vec![self],
        };
        match (&mut other, and) {
            (Node::And(more), true) | (Node::Or(more), false) => terms.append(more),
            _ => terms.push(other),
        }
        if and {
            Node::And(terms)
        } else {
            Node::Or(terms)
        }
    }

    /// The nodes directly below this one, taken out (for [`Drop`]).
    fn take_children(&mut self, into: &mut Vec<Node>) {
        match self {
            Node::And(terms) | Node::Or(terms) => into.append(terms),
            Node::Not(inner) => {
                let inner = std::mem::replace(&mut **inner, Node::Exists(""));
                into.push(inner);
            }
            _ => {}
        }
    }
}

/// Drops a tree of any depth without recursion, so that a condition nested
/// thousands of levels deep cannot overflow the stack when it goes away.
impl Drop for Node {
    fn drop(&mut self) {
        let mut pending = Vec::new();
        self.take_children(&mut pending);
        while let Some(mut node) = pending.pop() {
            node.take_children(&mut pending);
        }
    }
}

/// The longest expression string DynamoDB takes: 4 KB ("Expression
/// parameters" in "Service, account, and table quotas in Amazon
/// DynamoDB"). It applies to each of the key condition, filter,
/// condition, update and projection expressions of a request.
pub const MAX_EXPRESSION_BYTES: usize = 4096;

/// Fails with [`Error::ExpressionTooLong`] when `text`, the `kind`
/// expression of a request, is longer than DynamoDB's 4 KB.
pub fn check_expression_length(kind: &'static str, text: &str) -> Result<(), Error> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(Error::ExpressionTooLong {
            kind,
            length: text.len(),
            limit: MAX_EXPRESSION_BYTES,
        });
    }
    Ok(())
}

/// Nesting deeper than this is refused when rendering, so rendering never
/// recurses without bound: each level adds at least `NOT ()`, six bytes, so
/// no expression of 4 KB nests deeper.
const MAX_RENDER_DEPTH: usize = MAX_EXPRESSION_BYTES / 6;

/// A condition on the attributes of entity `E`: built from [`Attribute`]s,
/// combined with [`and`](Self::and), [`or`](Self::or) and
/// [`not`](Self::not).
///
/// # Example
///
/// ```ignore
/// let big_pending = Order::TOTAL_CENTS.gt(&10_000).and(Order::STATUS.eq(&OrderStatus::Pending));
/// ```
pub struct Condition<E> {
    node: Node,
    marker: PhantomData<fn() -> E>,
}

impl<E> Clone for Condition<E> {
    fn clone(&self) -> Self {
        Condition {
            node: self.node.clone(),
            marker: PhantomData,
        }
    }
}

impl<E> std::fmt::Debug for Condition<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names = Placeholders::default();
        match self.render(&mut names) {
            Ok(text) => write!(f, "Condition({text})"),
            Err(error) => write!(f, "Condition(<invalid: {error}>)"),
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
}

impl<E, T: Serialize, K> Attribute<E, T, K> {
    /// `value` as the item stores it: through the field's encoder, or
    /// serde_dynamo for an attribute made with [`new`](Self::new) (an empty
    /// top-level set is then no attribute too). `Ok(None)`: no attribute.
    pub(crate) fn encode(&self, value: &T) -> Result<Option<AttributeValue>, String> {
        match self.encode {
            Some(encode) => encode(value),
            None => serde_dynamo::to_attribute_value(value).map(|value: AttributeValue| {
                (!crate::item::check::is_empty_set(&value)).then_some(value)
            }),
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

    /// `attribute < value`
    pub fn lt(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Lt, value)
    }

    /// `attribute <= value`
    pub fn le(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Le, value)
    }

    /// `attribute > value`
    pub fn gt(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Gt, value)
    }

    /// `attribute >= value`
    pub fn ge(self, value: &T) -> Condition<E> {
        self.compare(Comparator::Ge, value)
    }

    /// `attribute BETWEEN low AND high`, both ends included.
    pub fn between(self, low: &T, high: &T) -> Condition<E> {
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

impl<E> Condition<E> {
    fn from_node(node: Node) -> Self {
        Condition {
            node,
            marker: PhantomData,
        }
    }

    /// `attribute_exists(name)` on any attribute, such as a key attribute.
    pub fn attribute_exists(name: &'static str) -> Self {
        Self::from_node(Node::Exists(name))
    }

    /// `attribute_not_exists(name)` on any attribute, such as `PK` for an
    /// idempotent create.
    pub fn attribute_not_exists(name: &'static str) -> Self {
        Self::from_node(Node::NotExists(name))
    }

    /// `name = value` on any attribute, such as the type attribute.
    pub fn attribute_equals<V: Serialize + ?Sized>(name: &'static str, value: &V) -> Self {
        Self::from_node(Node::Compare(name, Comparator::Eq, to_value(value)))
    }

    /// `(self) AND (other)`. A chain of `and`s renders as one list,
    /// `(a) AND (b) AND (c)`, however long.
    pub fn and(self, other: Condition<E>) -> Self {
        Self::from_node(self.into_node().join(other.into_node(), true))
    }

    /// `(self) OR (other)`, as [`and`](Self::and).
    pub fn or(self, other: Condition<E>) -> Self {
        Self::from_node(self.into_node().join(other.into_node(), false))
    }

    /// `NOT (self)`
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Self {
        Self::from_node(Node::Not(Box::new(self.into_node())))
    }

    fn into_node(self) -> Node {
        self.node
    }

    /// Renders the expression, adding its names and values to `placeholders`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidExpressionValue`] when a value could not be serialized;
    /// [`Error::ExpressionTooLong`] when the text is longer than DynamoDB's
    /// 4 KB ([`MAX_EXPRESSION_BYTES`]), as a condition folded from hundreds
    /// of terms is; nothing is sent then.
    pub fn render(&self, placeholders: &mut Placeholders) -> Result<String, Error> {
        let mut text = String::new();
        render(&self.node, placeholders, &mut text, 0)?;
        check_expression_length("condition or filter", &text)?;
        Ok(text)
    }
}

impl<E: Entity> std::ops::Not for Condition<E> {
    type Output = Condition<E>;

    fn not(self) -> Self::Output {
        Condition::not(self)
    }
}

fn render(
    node: &Node,
    placeholders: &mut Placeholders,
    out: &mut String,
    depth: usize,
) -> Result<(), Error> {
    if depth > MAX_RENDER_DEPTH || out.len() > MAX_EXPRESSION_BYTES {
        // Whatever is left, the text is already past 4 KB or nests deeper
        // than any 4 KB expression can.
        return Err(Error::ExpressionTooLong {
            kind: "condition or filter",
            length: out.len().max(MAX_EXPRESSION_BYTES + 1),
            limit: MAX_EXPRESSION_BYTES,
        });
    }
    match node {
        Node::And(terms) | Node::Or(terms) => {
            let joint = if matches!(node, Node::And(..)) {
                " AND "
            } else {
                " OR "
            };
            for (position, term) in terms.iter().enumerate() {
                if position > 0 {
                    out.push_str(joint);
                }
                out.push('(');
                render(term, placeholders, out, depth + 1)?;
                out.push(')');
            }
            Ok(())
        }
        Node::Not(inner) => {
            out.push_str("NOT (");
            render(inner, placeholders, out, depth + 1)?;
            out.push(')');
            Ok(())
        }
        leaf => render_leaf(leaf, placeholders, out),
    }
}

/// A comparison or function, the leaves of a condition; kept out of
/// [`render`] so that its recursion has a small stack frame.
#[inline(never)]
fn render_leaf(
    node: &Node,
    placeholders: &mut Placeholders,
    out: &mut String,
) -> Result<(), Error> {
    match node {
        Node::Compare(name, comparator, value) => {
            let name = placeholders.name(name);
            let value = placeholders.value(value)?;
            write!(out, "{name} {} {value}", comparator.symbol())
        }
        Node::Size(name, comparator, value) => {
            let name = placeholders.name(name);
            let value = placeholders.value(value)?;
            write!(out, "size({name}) {} {value}", comparator.symbol())
        }
        Node::Between(name, low, high) => {
            let name = placeholders.name(name);
            let low = placeholders.value(low)?;
            let high = placeholders.value(high)?;
            write!(out, "{name} BETWEEN {low} AND {high}")
        }
        Node::BeginsWith(name, prefix) => {
            let name = placeholders.name(name);
            let prefix = placeholders.value(prefix)?;
            write!(out, "begins_with({name}, {prefix})")
        }
        Node::Contains(name, operand) => {
            let name = placeholders.name(name);
            let operand = placeholders.value(operand)?;
            write!(out, "contains({name}, {operand})")
        }
        Node::Exists(name) => {
            let name = placeholders.name(name);
            write!(out, "attribute_exists({name})")
        }
        Node::NotExists(name) => {
            let name = placeholders.name(name);
            write!(out, "attribute_not_exists({name})")
        }
        Node::Type(name, attribute_type) => {
            let name = placeholders.name(name);
            let code =
                placeholders.value(&Ok(AttributeValue::S(attribute_type.code().to_owned())))?;
            write!(out, "attribute_type({name}, {code})")
        }
        Node::And(..) | Node::Or(..) | Node::Not(..) => unreachable!("rendered by `render`"),
    }
    .expect("writing to a String cannot fail");
    Ok(())
}

/// The `#name` and `:value` placeholders of one request, shared by its
/// key condition, filter, condition, update and projection expressions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placeholders {
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
}

impl Placeholders {
    /// The placeholder of attribute `name` (the same one each time).
    pub fn name(&mut self, name: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, known)| *known == name) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    /// A new placeholder for `value`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidExpressionValue`] when the value could not be
    /// serialized.
    fn value(&mut self, value: &Value) -> Result<String, Error> {
        let value = value
            .clone()
            .map_err(|reason| Error::InvalidExpressionValue { reason })?;
        // A Number DynamoDB cannot hold (NaN, 39 digits) is refused here,
        // before sending, as in an item.
        crate::item::check::check_value("expression", "value", &value).map_err(|error| {
            Error::InvalidExpressionValue {
                reason: error.to_string(),
            }
        })?;
        Ok(self.add_value(value))
    }

    /// A new placeholder for an attribute value.
    pub fn add_value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The `ExpressionAttributeNames` map, `None` when empty.
    pub fn names(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// The `ExpressionAttributeValues` map, `None` when empty.
    pub fn values(&self) -> Option<HashMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }
}
