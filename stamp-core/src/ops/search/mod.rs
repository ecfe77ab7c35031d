//! A similarity search of a vector index: [`SimilaritySearch`], one
//! `SearchVectors` request, its answer decoded into entities (or a
//! projection) with their scores, most similar first.
//!
//! Everything DynamoDB would refuse is refused at compile time or before
//! sending, as a [`VectorError`]: a query vector of the wrong length, with
//! a NaN or an infinity, or all zeros under `COSINE`, a `TopK` of 0 or
//! above 100, a missing partition value. A condition names only the
//! index's inline filters, with comparisons (a
//! [`SearchCondition`](crate::SearchCondition)): any other attribute, the
//! partition element or a function does not compile (and a condition
//! built by hand that names one is refused before sending). There is no pagination: one request
//! returns at most `TopK` items and 16 MB.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.

use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::search_vectors::SearchVectorsInput;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};

use crate::error::{Error, VectorError};
use crate::expression::LeafKind;
use crate::expression::{Condition, Placeholders};
use crate::limits::MAX_TOP_K;
use crate::model::collection::{Collection, CollectionMember, CollectionOf};
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::model::index::{IndexSchema, QueryIndex};
use crate::model::projection::Projection;
use crate::model::vector::{DEFAULT_TOP_K, VectorIndexSchema, VectorProjection};
use crate::ops::search_filter::{SearchCondition, VectorFilters};
use crate::request::executor::Call;
use crate::request::table::Table;

mod condition;
mod decode;
mod results;
mod send;

use condition::check_condition;
pub use decode::{Members, Projected, SearchDecode, Whole};
pub use results::{SearchResults, Similar};

/// A similarity search of vector index `I` ([`Vector<N>`](crate::Vector))
/// of entity `E`, decoding each item as `T::Output` (`E` itself unless
/// [`project`](Self::project)ed or read as a
/// [`collection`](Self::collection)). Built by the generated
/// `E::search_similar_vectorN(…)`; a plain value until [`send`](Self::send).
///
/// # Example
///
/// ```ignore
/// let similar = Product::search_similar(&tenant, &vector)
///     .top_k(10)
///     .filter(|f| f.price.lt(&5000))
///     .send(&table)
///     .await?;
/// ```
pub struct SimilaritySearch<E: Entity, I: QueryIndex, T = Whole> {
    index: &'static IndexSchema,
    /// What the index is besides its key (its kind's payload).
    spec: &'static VectorIndexSchema,
    /// The partition value, or why it could not be built (reported by
    /// `request`, before sending).
    partition: Result<Option<AttributeValue>, Error>,
    vector: Vec<f32>,
    top_k: u32,
    filter: Option<Condition<E>>,
    /// Whether expired results are returned
    /// ([`include_expired`](Self::include_expired)).
    include_expired: bool,
    marker: PhantomData<fn() -> (I, T)>,
}

impl<E: Entity, I: QueryIndex, T> std::fmt::Debug for SimilaritySearch<E, I, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimilaritySearch")
            .field("entity", &E::SCHEMA.type_name)
            .field("index", &self.index.name)
            .field("partition", &self.partition)
            .field("dimensions", &self.vector.len())
            .field("top_k", &self.top_k)
            .field("filter", &self.filter)
            .finish()
    }
}

impl<E: Entity, I: QueryIndex> SimilaritySearch<E, I, Whole> {
    /// A search of vector index `index` (of kind
    /// [`IndexKind::Vector`](crate::IndexKind::Vector)) for the items
    /// nearest `vector`, in the partition
    /// whose stored value is `partition` (`None` for an index without a
    /// partition element; an `Err` when its key could not be built, reported
    /// by [`request`](Self::request)), returning [`DEFAULT_TOP_K`] items unless
    /// [`top_k`](Self::top_k) says otherwise. Generated code calls it.
    ///
    /// # Panics
    ///
    /// When `index` is not a vector index, or not the one `I` names
    /// (generated code passes `E`'s index of `I`).
    pub fn new(
        index: &'static IndexSchema,
        partition: Result<Option<AttributeValue>, Error>,
        vector: &[f32],
    ) -> Self {
        let spec = index
            .vector()
            .unwrap_or_else(|| panic!("index `{}` is not a vector index", index.name));
        assert!(
            index.id().same(I::ID),
            "index `{}` is not the vector index of the search's type ({:?})",
            index.name,
            I::ID
        );
        SimilaritySearch {
            index,
            spec,
            partition,
            vector: vector.to_vec(),
            top_k: DEFAULT_TOP_K,
            filter: None,
            include_expired: false,
            marker: PhantomData,
        }
    }

    /// Decodes each result as projection `P` (reads only its attributes).
    pub fn project<P: Projection<E>>(self) -> SimilaritySearch<E, I, Projected<P>> {
        self.decoding()
    }

    /// Decodes each result by its type attribute into collection `C`, a
    /// `#[derive(Collection)]` enum of vector index `I`
    /// (`#[stamp(vector = N)]`) that `E` is a member of: the search returns
    /// the nearest items of every member (of any type, the unknown ones as
    /// `C::Unknown`), as a query's [`collection`](crate::Query::collection)
    /// does. A collection of another index does not compile.
    pub fn collection<C: CollectionOf<I>>(self) -> SimilaritySearch<E, I, Members<C>>
    where
        E: CollectionMember<C>,
    {
        let _ = crate::model::collection::members_read::<E, C, I>();
        self.decoding()
    }

    /// This search, decoding its results as `U`.
    fn decoding<U>(self) -> SimilaritySearch<E, I, U> {
        SimilaritySearch {
            index: self.index,
            spec: self.spec,
            partition: self.partition,
            vector: self.vector,
            top_k: self.top_k,
            filter: self.filter,
            include_expired: self.include_expired,
            marker: PhantomData,
        }
    }
}

impl<E: Entity, I: QueryIndex, T> SimilaritySearch<E, I, T> {
    /// Returns the `top_k` most similar items (`TopK`, 1 to [`MAX_TOP_K`]).
    pub fn top_k(mut self, top_k: u32) -> Self {
        self.top_k = top_k;
        self
    }

    /// Keeps only the items for which the condition that `build` makes of
    /// the index's inline filters holds (`SearchConditionExpression`,
    /// evaluated in the index during the search):
    /// `.filter(|f| f.price.lt(&5000))`. `f` is the index's generated
    /// [`VectorFilters::Filters`], whose fields are exactly the inline
    /// filters of `#[vectorN(…, filter(…))]`, so a condition on any other
    /// attribute (the partition element included: its value is the
    /// search's partition argument) does not compile. Comparisons `eq`
    /// (`=`), `ne` (`<>`), `lt`, `le`, `gt`, `ge` and `between`, joined
    /// by `and`, `or` and `not`; a second call is joined to the first with
    /// `AND`.
    ///
    /// # What the servers evaluate
    ///
    /// DynamoDB's `SearchConditionExpression` reference lists comparisons,
    /// `BETWEEN`, `IN`, `AND`, `OR` and `NOT` on inline filters, and only
    /// `=` on the partition element
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchFilterReference.html>,
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>);
    /// its troubleshooting page says that, for now, only `=` is accepted
    /// and any other comparator is refused with "Invalid comparator used
    /// in SearchConditionExpression"
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>).
    /// Stamp sends what the reference allows. What the local servers
    /// accept (probed with raw `SearchVectors` requests, dynoxide 3.2.0 and
    /// ministack 1.5.33):
    ///
    /// | condition | dynoxide (embedded, `stamp::local`) | ministack |
    /// |---|---|---|
    /// | `=` on the partition and filters, joined by `AND` | yes | yes |
    /// | the same with parentheses, `a = :a AND (b = :b AND c = :c)` | yes | no: "Invalid comparator used in SearchConditionExpression" |
    /// | `<>`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN` | no: "Invalid comparator used in SearchConditionExpression" | no: the same |
    /// | `OR` | no: the same | no: the same |
    /// | `NOT` | no: the same | no: "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: NOT" |
    ///
    /// Stamp joins the partition's `=` and a conjunction without
    /// parentheses, so `.filter(|f| f.a.eq(&x).and(f.b.eq(&y)))` runs on
    /// both servers; any other operator runs on neither (a
    /// `ValidationException` from the server, `Error::DynamoDb`).
    pub fn filter<F>(self, build: F) -> Self
    where
        E: VectorFilters<I>,
        F: FnOnce(&<E as VectorFilters<I>>::Filters) -> SearchCondition<E, I>,
    {
        self.filter_by(build(&E::FILTERS))
    }

    /// Keeps only the items for which `condition` holds, as
    /// [`filter`](Self::filter) does with the condition its closure makes.
    pub fn filter_by(mut self, condition: SearchCondition<E, I>) -> Self {
        let condition = condition.into_condition();
        self.filter = Some(match self.filter.take() {
            Some(known) => known.and(condition),
            None => condition,
        });
        self
    }

    /// Returns results whose TTL (`#[stamp(ttl)]`) has passed and that
    /// DynamoDB has not deleted yet. By default they are left out on the
    /// client, at the table's clock ([`Table::now`]), and counted in
    /// [`SearchResults::expired`]: a search's condition accepts only the
    /// index's inline filters, so the TTL cannot be filtered in the index.
    /// Without it the search asks for the TTL attribute, so an index that
    /// does not project it is refused ([`VectorError::NotProjected`]).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// The vector index searched.
    pub fn index(&self) -> &'static IndexSchema {
        self.index
    }
}
