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

use crate::expression::LeafKind;
use crate::limits::MAX_TOP_K;
use crate::model::vector::{DEFAULT_TOP_K, VectorIndexSchema, VectorProjection};
use crate::request::executor::Call;
use crate::{
    AttributeMap, Collection, CollectionMember, CollectionOf, Condition, Entity, EntitySchema,
    Error, IndexSchema, Placeholders, Projection, QueryIndex, SearchCondition, Table, VectorError,
    VectorFilters,
};

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

/// One result of a similarity search: the item and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Similar<T> {
    /// The item (an entity, or a projection of one).
    pub item: T,
    /// DynamoDB's `Score`: for `COSINE`, `1 - cos` (0 to 2); for
    /// `EUCLIDEAN`, the distance; for `DOT_PRODUCT`, the dot product
    /// (higher is closer).
    pub score: f64,
}

/// The answer of a similarity search: at most `TopK` results, most similar
/// first (ascending scores, descending for `DOT_PRODUCT`), as DynamoDB
/// returned them.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults<T> {
    /// The results, most similar first.
    pub results: Vec<Similar<T>>,
    /// The `VectorSearchRequestBytes` DynamoDB reported (the search's cost
    /// in Vector Search bytes), when it reported any.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html>.
    pub search_request_bytes: Option<f64>,
    /// Results of another entity type that the index returned and the
    /// search left out (an index whose vector attribute two entities
    /// share); 0 for an index only one entity writes.
    pub other_entities: usize,
    /// Results whose TTL (`#[stamp(ttl)]`) had passed at the table's clock
    /// ([`Table::now`]), which the search left out: DynamoDB returned them
    /// among its `TopK` (and charged them), so `results` holds fewer. 0
    /// with [`include_expired`](SimilaritySearch::include_expired).
    pub expired: usize,
}

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

impl<E: Entity, I: QueryIndex, T: SearchDecode<E>> SimilaritySearch<E, I, T> {
    /// The `SearchVectorsInput` of the search on table `table_name`: what
    /// [`send`](Self::send) sends.
    ///
    /// # Errors
    ///
    /// [`Refusal::Vector`](crate::Refusal::Vector) with [`VectorError::WrongDimensions`],
    /// [`VectorError::NotFinite`] or [`VectorError::ZeroVectorUnderCosine`]
    /// for the query vector,
    /// [`VectorError::TopKOutOfRange`], [`VectorError::PartitionValue`],
    /// [`VectorError::NotAFilter`], [`VectorError::RangeOnPartition`],
    /// [`VectorError::UnsupportedCondition`] for a condition built by hand
    /// (the generated filters cannot make one),
    /// [`VectorError::NotProjected`] when the index does not copy what `T`
    /// decodes;
    /// [`Refusal::InvalidExpressionValue`](crate::Refusal::InvalidExpressionValue)
    /// and [`Refusal::ExpressionTooLong`](crate::Refusal::ExpressionTooLong)
    /// from the condition.
    pub fn request(&self, table_name: &str) -> Result<SearchVectorsInput, Error> {
        let index = self.index;
        let entity = E::SCHEMA.type_name;
        self.spec
            .check_vector(entity, index.name, &self.vector)
            .map_err(VectorError::into_error)?;
        if !(1..=MAX_TOP_K).contains(&self.top_k) {
            return Err(VectorError::into_error(VectorError::TopKOutOfRange {
                top_k: self.top_k,
                limit: MAX_TOP_K,
            }));
        }
        let partition = self.partition.clone()?;
        let mut placeholders = Placeholders::default();
        let mut terms = Vec::new();
        match (index.search_partition(), &partition) {
            (Some((attribute, _)), Some(value)) => {
                let name = placeholders.name(attribute);
                let value = placeholders.add_value(value.clone());
                terms.push(format!("{name} = {value}"));
            }
            (None, None) => {}
            (expected, _) => {
                return Err(VectorError::into_error(VectorError::PartitionValue {
                    index: index.name,
                    expected: expected.is_some(),
                }));
            }
        }
        if let Some(filter) = &self.filter {
            check_condition(index, self.spec, filter).map_err(VectorError::into_error)?;
            // The terms of a conjunction join the partition's `=` with bare
            // `AND`s (`AND` is associative, and `NOT` binds tighter:
            // ministack refuses any parenthesis); a disjunction keeps its
            // precedence in parentheses when it is joined to another term.
            let conjuncts = filter.render_conjuncts(&mut placeholders)?;
            let alone = terms.is_empty() && conjuncts.len() == 1;
            for (text, disjunction) in conjuncts {
                terms.push(if disjunction && !alone {
                    format!("({text})")
                } else {
                    text
                });
            }
        }
        let condition = match terms.len() {
            0 => None,
            1 => terms.pop(),
            _ => Some(terms.join(" AND ")),
        };
        let attributes = self.attributes_read()?;
        let projection = attributes.as_ref().map(|attributes| {
            attributes
                .iter()
                .map(|attribute| placeholders.name(attribute))
                .collect::<Vec<_>>()
                .join(", ")
        });
        if let Some(condition) = &condition {
            crate::check_expression_length("search condition", condition)?;
        }
        Ok(SearchVectorsInput::builder()
            .table_name(table_name)
            .index_name(index.name)
            .set_search_vector(Some(
                self.vector
                    .iter()
                    .map(|element| AttributeValue::N(element.to_string()))
                    .collect(),
            ))
            .top_k(self.top_k as i32)
            .set_search_condition_expression(condition)
            .set_projection_expression(projection)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("SearchVectorsInput has no required fields"))
    }

    /// The attributes the search asks for, checked against what the index
    /// projects: `T`'s (every field, the vector too, for the entity; every
    /// member's for a collection), with the type attribute (each result is
    /// scoped to `E`, or decoded into its member, by it). Always
    /// named in a `ProjectionExpression`: without one a search may leave the
    /// vector attribute out (dynoxide does), and the entity could not be
    /// decoded.
    fn attributes_read(&self) -> Result<Option<Vec<&'static str>>, Error> {
        let schema = E::SCHEMA;
        let index = self.index;
        let spec = self.spec;
        let wanted: Vec<&'static str> = match T::attributes() {
            Some(attributes) => {
                let mut wanted = attributes.into_owned();
                if !wanted.contains(&schema.type_attribute) {
                    wanted.push(schema.type_attribute);
                }
                // The TTL, which tells the expired results apart.
                if !self.include_expired {
                    for attribute in
                        crate::ops::expiry::ttl_attributes(T::expiring().iter().copied())
                    {
                        if !wanted.contains(&attribute) {
                            wanted.push(attribute);
                        }
                    }
                }
                wanted
            }
            None => {
                let mut wanted = schema.fields.to_vec();
                wanted.push(schema.type_attribute);
                wanted
            }
        };
        let projected = |attribute: &str| match spec.projection {
            VectorProjection::All => true,
            VectorProjection::KeysOnly | VectorProjection::Include(_) => {
                attribute == schema.partition_key.name
                    || attribute == schema.sort_key.name
                    || index
                        .search_partition()
                        .is_some_and(|(partition, _)| partition == attribute)
                    || spec.filter(attribute).is_some()
                    || matches!(spec.projection, VectorProjection::Include(included) if included.contains(&attribute))
            }
        };
        let missing: Vec<&'static str> = wanted
            .iter()
            .copied()
            .filter(|attribute| !projected(attribute))
            .collect();
        if !missing.is_empty() {
            return Err(VectorError::into_error(VectorError::NotProjected {
                index: index.name,
                entity: schema.type_name,
                missing,
            }));
        }
        Ok(Some(wanted))
    }

    /// Sends the search through `table` (one `SearchVectors` request) and
    /// decodes its results, most similar first, leaving out those whose
    /// TTL has passed at [`Table::now`] (unless
    /// [`include_expired`](Self::include_expired)).
    ///
    /// # Errors
    ///
    /// The errors of [`request`](Self::request) (nothing is sent then);
    /// the decoding's errors; [`Error::DynamoDb`] for what the service
    /// returns.
    pub async fn send(self, table: &Table) -> Result<SearchResults<T::Output>, Error> {
        let input = self.request(table.name())?;
        let schema = E::SCHEMA;
        let output = table
            .execute_mapped(input, Call::of(schema.type_name).index(self.index.name))
            .await?;
        let search_request_bytes = output
            .consumed_capacity
            .as_ref()
            .and_then(|capacity| capacity.vector_search_request_bytes);
        let mut other_entities = 0;
        let mut expired = 0;
        let now = (!self.include_expired).then(|| table.now().timestamp());
        let mut results = Vec::new();
        for result in output.search_results.unwrap_or_default() {
            let item = result.item.unwrap_or_default();
            if T::SCOPED && !crate::__private::has_type(&item, schema) {
                other_entities += 1;
                continue;
            }
            if let Some(now) = now
                && T::expiring().iter().any(|member| {
                    crate::__private::has_type(&item, member)
                        && crate::ops::expiry::is_expired(&item, member, now)
                })
            {
                expired += 1;
                continue;
            }
            results.push(Similar {
                item: T::decode(item)?,
                score: result.score,
            });
        }
        Ok(SearchResults {
            results,
            search_request_bytes,
            other_entities,
            expired,
        })
    }
}

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

/// Checks a search condition on `index`: every attribute it names is an
/// inline filter element (or the partition element, with `=` only), and
/// it uses comparisons and `BETWEEN` only.
fn check_condition<E>(
    index: &'static IndexSchema,
    spec: &'static VectorIndexSchema,
    condition: &Condition<E>,
) -> Result<(), VectorError> {
    let partition = index.search_partition().map(|(attribute, _)| attribute);
    for (attribute, kind) in condition.leaves() {
        if Some(attribute) == partition {
            if kind != LeafKind::Equal {
                return Err(VectorError::RangeOnPartition {
                    index: index.name,
                    attribute,
                });
            }
            continue;
        }
        if spec.filter(attribute).is_none() {
            return Err(VectorError::NotAFilter {
                index: index.name,
                attribute: attribute.to_owned(),
                filters: spec.filters.iter().map(|filter| filter.attribute).collect(),
            });
        }
        if let LeafKind::Function(function) = kind {
            return Err(VectorError::UnsupportedCondition {
                index: index.name,
                function,
            });
        }
    }
    Ok(())
}
