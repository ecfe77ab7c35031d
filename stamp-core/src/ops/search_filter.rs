//! The condition of a similarity search, typed by its index: a
//! [`SearchCondition<E, I>`] is built only from the [`SearchAttribute`]s of
//! the inline filters of vector index `I` of entity `E` (the generated
//! [`VectorFilters::Filters`] of the index), with comparisons and
//! `BETWEEN` joined by `AND`, `OR` and `NOT`. A condition on any other
//! attribute (a field that is not an inline filter of the index, the
//! index's partition element) or with a function (`begins_with`, `size`,
//! …) does not compile:
//!
//! ```ignore
//! Product::search_similar(&tenant, &vector)
//!     .filter(|f| f.price.lt(&5000).and(f.category.eq(&"shoes".to_owned())))
//! ```
//!
//! What DynamoDB and the local servers evaluate: see [`SimilaritySearch::filter`](crate::SimilaritySearch::filter).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchFilterReference.html>.

use std::marker::PhantomData;

use serde::Serialize;

use crate::expression::Ordered;
use crate::expression::{Attribute, Condition, Required};
use crate::model::entity::Entity;
use crate::model::index::QueryIndex;

/// The inline filters of vector index `I` (a [`Vector<N>`](crate::Vector))
/// of an entity: `#[derive(Item)]` implements it for every
/// `#[vectorN(…, filter(a, b))]`, with [`Filters`](Self::Filters) a struct
/// whose public fields are the filter fields (`a`, `b`), each a
/// [`SearchAttribute`]. An index without filters has a struct without
/// fields.
pub trait VectorFilters<I: QueryIndex>: Entity {
    /// The generated struct of the index's inline filters.
    type Filters: 'static;
    /// Its value, which [`SimilaritySearch::filter`](crate::SimilaritySearch::filter)
    /// hands to the closure that builds the condition.
    const FILTERS: Self::Filters;
}

/// An inline filter attribute of vector index `I` of entity `E`, whose
/// values have type `T` (the field's type, `T` for an `Option<T>`): a
/// field of the generated [`VectorFilters::Filters`] struct. Its
/// comparisons encode the value as `to_item` stores the field.
pub struct SearchAttribute<E, I, T> {
    attribute: Attribute<E, T, Required>,
    marker: PhantomData<fn() -> I>,
}

impl<E, I, T> Clone for SearchAttribute<E, I, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, I, T> Copy for SearchAttribute<E, I, T> {}

impl<E, I, T> std::fmt::Debug for SearchAttribute<E, I, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchAttribute({})", self.attribute.name())
    }
}

impl<E, I, T> SearchAttribute<E, I, T> {
    /// The inline filter of `attribute` (the field's generated constant,
    /// of any kind). Generated code calls it, for the fields the derive
    /// checked are inline filters of `I`; a search still refuses, before
    /// sending, a condition on an attribute that is not one
    /// ([`VectorError::NotAFilter`](crate::VectorError::NotAFilter)).
    #[doc(hidden)]
    pub const fn new<K>(attribute: Attribute<E, T, K>) -> Self {
        SearchAttribute {
            attribute: attribute.of_kind(),
            marker: PhantomData,
        }
    }

    /// The attribute name.
    pub const fn name(&self) -> &'static str {
        self.attribute.name()
    }
}

impl<E, I, T: Serialize> SearchAttribute<E, I, T> {
    fn wrap(condition: Condition<E>) -> SearchCondition<E, I> {
        SearchCondition {
            condition,
            marker: PhantomData,
        }
    }

    /// `attribute = value`
    pub fn eq(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.eq(value))
    }

    /// `attribute <> value`
    pub fn ne(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.ne(value))
    }
}

/// The order comparisons, for the types whose stored form sorts as their
/// values ([`Ordered`](crate::Ordered)).
impl<E, I, T: Serialize + Ordered> SearchAttribute<E, I, T> {
    /// `attribute < value`
    pub fn lt(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.lt(value))
    }

    /// `attribute <= value`
    pub fn le(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.le(value))
    }

    /// `attribute > value`
    pub fn gt(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.gt(value))
    }

    /// `attribute >= value`
    pub fn ge(self, value: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.ge(value))
    }

    /// `attribute BETWEEN low AND high` (inclusive).
    pub fn between(self, low: &T, high: &T) -> SearchCondition<E, I> {
        Self::wrap(self.attribute.between(low, high))
    }
}

/// A condition of a similarity search of vector index `I` of entity `E`
/// (`SearchConditionExpression`), built from the index's
/// [`SearchAttribute`]s and combined with [`and`](Self::and),
/// [`or`](Self::or) and [`not`](Self::not).
pub struct SearchCondition<E, I> {
    condition: Condition<E>,
    marker: PhantomData<fn() -> I>,
}

impl<E, I> Clone for SearchCondition<E, I> {
    fn clone(&self) -> Self {
        SearchCondition {
            condition: self.condition.clone(),
            marker: PhantomData,
        }
    }
}

impl<E, I> std::fmt::Debug for SearchCondition<E, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.condition.fmt(f)
    }
}

impl<E, I> SearchCondition<E, I> {
    /// Both conditions.
    pub fn and(self, other: SearchCondition<E, I>) -> Self {
        SearchCondition {
            condition: self.condition.and(other.condition),
            marker: PhantomData,
        }
    }

    /// Either condition.
    pub fn or(self, other: SearchCondition<E, I>) -> Self {
        SearchCondition {
            condition: self.condition.or(other.condition),
            marker: PhantomData,
        }
    }

    /// The negation of the condition.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Self {
        SearchCondition {
            condition: self.condition.not(),
            marker: PhantomData,
        }
    }

    /// The condition, untyped by its index.
    pub(crate) fn into_condition(self) -> Condition<E> {
        self.condition
    }
}

impl<E, I> std::ops::Not for SearchCondition<E, I> {
    type Output = SearchCondition<E, I>;

    fn not(self) -> Self::Output {
        SearchCondition::not(self)
    }
}
