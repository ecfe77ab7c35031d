//! [`Condition`]: a tree of comparisons and functions joined by `AND`,
//! `OR` and `NOT`, kept flat where it can be, rendered with placeholders and
//! a bounded depth, and dropped without recursion.

use std::fmt::Write as _;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use super::path::Path;
use super::{AttributeType, MAX_EXPRESSION_BYTES, Placeholders, check_expression_length};
use crate::error::Error;
use crate::error::Refusal;
use crate::model::entity::Entity;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Comparator {
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
pub(super) type Value = Result<AttributeValue, String>;

pub(super) fn to_value<T: Serialize + ?Sized>(value: &T) -> Value {
    crate::item::value::json::to_attribute_value(value).map_err(|error| error.to_string())
}

#[derive(Debug, Clone)]
pub(super) enum Node {
    Compare(Path, Comparator, Value),
    Size(Path, Comparator, Value),
    Between(Path, Value, Value),
    BeginsWith(Path, Value),
    Contains(Path, Value),
    Exists(Path),
    NotExists(Path),
    Type(Path, AttributeType),
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
                let inner = std::mem::replace(&mut **inner, Node::Exists(Path::top("")));
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

/// Nesting deeper than this is refused when rendering, so rendering never
/// recurses without bound: each level adds at least `NOT ()`, six bytes, so
/// no expression of 4 KB nests deeper.
const MAX_RENDER_DEPTH: usize = MAX_EXPRESSION_BYTES / 6;

/// A condition on the attributes of entity `E`: built from [`Attribute`](crate::Attribute)s,
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

impl<E> Condition<E> {
    pub(super) fn from_node(node: Node) -> Self {
        Condition {
            node,
            marker: PhantomData,
        }
    }

    /// `attribute_exists(name)` on any attribute, such as a key attribute.
    pub fn attribute_exists(name: &'static str) -> Self {
        Self::from_node(Node::Exists(Path::top(name)))
    }

    /// `attribute_not_exists(name)` on any attribute, such as `PK` for an
    /// idempotent create.
    pub fn attribute_not_exists(name: &'static str) -> Self {
        Self::from_node(Node::NotExists(Path::top(name)))
    }

    /// `name = value` on any attribute, such as the type attribute.
    pub fn attribute_equals<V: Serialize + ?Sized>(name: &'static str, value: &V) -> Self {
        Self::from_node(Node::Compare(
            Path::top(name),
            Comparator::Eq,
            to_value(value),
        ))
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
    /// [`Refusal::InvalidExpressionValue`] when a value could not be serialized;
    /// [`Refusal::ExpressionTooLong`] when the text is longer than DynamoDB's
    /// 4 KB ([`MAX_EXPRESSION_BYTES`]), as a condition folded from hundreds
    /// of terms is; nothing is sent then.
    pub fn render(&self, placeholders: &mut Placeholders) -> Result<String, Error> {
        let mut text = String::new();
        render(&self.node, placeholders, &mut text, 0)?;
        check_expression_length("condition or filter", &text)?;
        Ok(text)
    }
}

/// What a leaf of a [`Condition`] does with its attribute, for the checks of
/// an expression that takes only some shapes (a vector search's condition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LeafKind {
    /// `=`
    Equal,
    /// `<>`, `<`, `<=`, `>`, `>=`
    Compare,
    /// `BETWEEN`
    Between,
    /// A function, by its name (`begins_with`, `size`, …).
    Function(&'static str),
}

impl<E> Condition<E> {
    /// The condition as the terms of a conjunction, each rendered on its
    /// own with whether it is an `OR` (which needs parentheses to be
    /// joined to another term by `AND`): the terms of a top-level `AND`,
    /// else the condition itself. A comparison or a `NOT` is bare, so
    /// `a = :a AND b = :b` carries no parentheses (a vector search's
    /// condition: ministack refuses any).
    ///
    /// # Errors
    ///
    /// As [`render`](Self::render) for each term.
    pub(crate) fn render_conjuncts(
        &self,
        placeholders: &mut Placeholders,
    ) -> Result<Vec<(String, bool)>, Error> {
        let terms: Vec<&Node> = match &self.node {
            Node::And(terms) => terms.iter().collect(),
            node => vec![node],
        };
        terms
            .into_iter()
            .map(|term| {
                let mut text = String::new();
                render(term, placeholders, &mut text, 1)?;
                check_expression_length("condition or filter", &text)?;
                Ok((text, matches!(term, Node::Or(_))))
            })
            .collect()
    }

    /// Every leaf of the condition, with its top-level attribute, in no
    /// particular order (walked without recursion). A leaf on a path below
    /// its attribute is the function `document path`.
    pub(crate) fn leaves(&self) -> Vec<(&'static str, LeafKind)> {
        let mut leaves = Vec::new();
        let mut pending = vec![&self.node];
        while let Some(node) = pending.pop() {
            let (path, kind) = match node {
                Node::And(terms) | Node::Or(terms) => {
                    pending.extend(terms.iter());
                    continue;
                }
                Node::Not(inner) => {
                    pending.push(inner);
                    continue;
                }
                Node::Compare(path, Comparator::Eq, _) => (path, LeafKind::Equal),
                Node::Compare(path, _, _) => (path, LeafKind::Compare),
                Node::Between(path, _, _) => (path, LeafKind::Between),
                Node::Size(path, _, _) => (path, LeafKind::Function("size")),
                Node::BeginsWith(path, _) => (path, LeafKind::Function("begins_with")),
                Node::Contains(path, _) => (path, LeafKind::Function("contains")),
                Node::Exists(path) => (path, LeafKind::Function("attribute_exists")),
                Node::NotExists(path) => (path, LeafKind::Function("attribute_not_exists")),
                Node::Type(path, _) => (path, LeafKind::Function("attribute_type")),
            };
            let kind = if path.is_nested() {
                LeafKind::Function("document path")
            } else {
                kind
            };
            leaves.push((path.top_name(), kind));
        }
        leaves
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
        return Err(Error::Refused(Refusal::ExpressionTooLong {
            kind: "condition or filter",
            length: out.len().max(MAX_EXPRESSION_BYTES + 1),
            limit: MAX_EXPRESSION_BYTES,
        }));
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
            let name = name.render(placeholders)?;
            let value = placeholders.value(value)?;
            write!(out, "{name} {} {value}", comparator.symbol())
        }
        Node::Size(name, comparator, value) => {
            let name = name.render(placeholders)?;
            let value = placeholders.value(value)?;
            write!(out, "size({name}) {} {value}", comparator.symbol())
        }
        Node::Between(name, low, high) => {
            let name = name.render(placeholders)?;
            let low = placeholders.value(low)?;
            let high = placeholders.value(high)?;
            write!(out, "{name} BETWEEN {low} AND {high}")
        }
        Node::BeginsWith(name, prefix) => {
            let name = name.render(placeholders)?;
            let prefix = placeholders.value(prefix)?;
            write!(out, "begins_with({name}, {prefix})")
        }
        Node::Contains(name, operand) => {
            let name = name.render(placeholders)?;
            let operand = placeholders.value(operand)?;
            write!(out, "contains({name}, {operand})")
        }
        Node::Exists(name) => {
            let name = name.render(placeholders)?;
            write!(out, "attribute_exists({name})")
        }
        Node::NotExists(name) => {
            let name = name.render(placeholders)?;
            write!(out, "attribute_not_exists({name})")
        }
        Node::Type(name, attribute_type) => {
            let name = name.render(placeholders)?;
            let code =
                placeholders.value(&Ok(AttributeValue::S(attribute_type.code().to_owned())))?;
            write!(out, "attribute_type({name}, {code})")
        }
        Node::And(..) | Node::Or(..) | Node::Not(..) => unreachable!("rendered by `render`"),
    }
    .expect("writing to a String cannot fail");
    Ok(())
}
