//! How a search decodes what it returns: [`SearchDecode`] and its three
//! answers, [`Whole`], [`Projected`] and [`Members`].

use super::*;

/// How a search decodes each item it returns: the entity, a
/// [`Projection`] of it, or a [`Collection`] it is a member of.
pub trait SearchDecode<E: Entity> {
    /// What each result is decoded into.
    type Output;
    /// Whether the results are `E`'s items only (those of another type are
    /// left out and counted); `false` for a collection, which decodes
    /// every item by its type attribute.
    const SCOPED: bool = true;
    /// The attributes to ask for (`ProjectionExpression`), besides `E`'s
    /// type attribute; `None` for every field of `E`.
    fn attributes() -> Option<std::borrow::Cow<'static, [&'static str]>>;
    /// Decodes one returned item.
    ///
    /// # Errors
    ///
    /// The decoding's errors.
    fn decode(item: AttributeMap) -> Result<Self::Output, Error>;

    /// The entities whose TTL decides whether a returned item has expired
    /// (each judged by its type attribute): `E` alone, or a collection's
    /// members.
    fn expiring() -> &'static [&'static EntitySchema] {
        std::slice::from_ref(&E::SCHEMA)
    }
}

/// The entity itself.
#[derive(Debug)]
pub struct Whole;

/// A projection `P`.
#[derive(Debug)]
pub struct Projected<P>(PhantomData<fn() -> P>);

/// A collection `C`: every result decoded by its type attribute into `C`.
#[derive(Debug)]
pub struct Members<C>(PhantomData<fn() -> C>);

impl<E: Entity> SearchDecode<E> for Whole {
    type Output = E;

    fn attributes() -> Option<std::borrow::Cow<'static, [&'static str]>> {
        None
    }

    fn decode(item: AttributeMap) -> Result<E, Error> {
        E::from_item(item)
    }
}

impl<E: Entity, P: Projection<E>> SearchDecode<E> for Projected<P> {
    type Output = P;

    fn attributes() -> Option<std::borrow::Cow<'static, [&'static str]>> {
        Some(std::borrow::Cow::Borrowed(P::ATTRIBUTES))
    }

    fn decode(item: AttributeMap) -> Result<P, Error> {
        P::from_item(item)
    }
}

impl<E: CollectionMember<C>, C: Collection> SearchDecode<E> for Members<C> {
    type Output = C;

    const SCOPED: bool = false;

    fn attributes() -> Option<std::borrow::Cow<'static, [&'static str]>> {
        let members: &[&EntitySchema] = C::MEMBERS;
        Some(std::borrow::Cow::Owned(
            crate::model::collection::member_attributes(E::SCHEMA, members),
        ))
    }

    fn decode(item: AttributeMap) -> Result<C, Error> {
        C::from_item(item)
    }

    fn expiring() -> &'static [&'static EntitySchema] {
        C::MEMBERS
    }
}
