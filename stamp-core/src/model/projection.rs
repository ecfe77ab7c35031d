//! [`Projection`]: a type that holds some attributes of an entity, read
//! with a `ProjectionExpression` made from its own fields.

use crate::error::Error;
use crate::expression::PrimaryKeyField;
use crate::expression::Required;
use crate::model::entity::{AttributeMap, Entity};

/// Some of entity `E`'s attributes, as a type: `#[derive(stamp::Projection)]`
/// with `#[stamp(entity = E)]` implements it for a struct whose fields are
/// fields of `E`, and checks at compile time that each one is a stored
/// field of `E` with the same type and attribute name (an `Option<T>` field
/// may read any field of type `T`; a plain `T` only one that is always
/// stored). [`Query::project`](crate::Query::project) then reads exactly
/// [`ATTRIBUTES`](Self::ATTRIBUTES) (plus the key attributes a cursor
/// needs) and decodes each item with [`from_item`](Self::from_item).
///
/// A projection reads less from the network, not less capacity: DynamoDB
/// charges a query for the whole items it reads ("Query", Amazon DynamoDB
/// Developer Guide, "ProjectionExpression").
///
/// # Example
///
/// ```ignore
/// #[derive(stamp::Projection, serde::Deserialize)]
/// #[stamp(entity = Order)]
/// struct OrderTotal {
///     order_id: Uuid,
///     total_cents: u64,
/// }
/// let page = Order::query("c-1").project::<OrderTotal>().send(&table).await?;
/// ```
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ProjectionExpressions.html>.
pub trait Projection<E: Entity>: Sized {
    /// The stored attribute names of the fields, in field order.
    const ATTRIBUTES: &'static [&'static str];

    /// Decodes a projected item.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Deserialize`](crate::DecodeError::Deserialize) when the item does not decode into `Self`.
    fn from_item(item: AttributeMap) -> Result<Self, Error>;
}

/// The kinds of attribute that every item of the entity stores, which a
/// projection may read into a plain (non-`Option`) field.
#[diagnostic::on_unimplemented(
    message = "this projection field is not `Option`, but the entity's field is: an item may lack it",
    label = "an `Option` field of the entity",
    note = "make the projection's field `Option<_>` too"
)]
pub trait AlwaysStored {}

impl AlwaysStored for Required {}
impl AlwaysStored for PrimaryKeyField {}
