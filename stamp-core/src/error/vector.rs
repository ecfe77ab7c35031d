//! [`VectorError`]: what Stamp refuses about vector indexes and similarity
//! searches, before any request is sent.

use crate::error::DefinitionError;
use crate::error::Refusal;

/// A rule of DynamoDB's vector indexes that a definition, an item or a
/// search breaks; found before sending (nothing was sent). Carried, by
/// stage, by [`DefinitionError::Vector`](crate::DefinitionError::Vector)
/// (the table's indexes) or [`Refusal::Vector`](crate::Refusal::Vector)
/// (a vector, a search): [`into_error`](Self::into_error) places it.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VectorError {
    /// A vector (of an item, or searched for) has another number of
    /// elements than the index's dimensions; DynamoDB refuses the write or
    /// the search.
    #[error(
        "the vector of index `{index}` of entity `{entity}` has {found} elements; the index has {expected} dimensions"
    )]
    WrongDimensions {
        /// The entity type name.
        entity: &'static str,
        /// The vector index.
        index: &'static str,
        /// The index's dimensions.
        expected: u32,
        /// The vector's length.
        found: usize,
    },
    /// An element of a vector is NaN or infinite; DynamoDB takes 32-bit
    /// floats in `[-3.4028235e38, 3.4028235e38]`.
    #[error(
        "element {position} of the vector of index `{index}` of entity `{entity}` is {value}; DynamoDB takes finite 32-bit floats only"
    )]
    NotFinite {
        /// The entity type name.
        entity: &'static str,
        /// The vector index.
        index: &'static str,
        /// The element's position, from 0.
        position: usize,
        /// The element.
        value: f32,
    },
    /// A vector (of an item, or searched for) whose elements are all zero,
    /// for an index whose distance is `COSINE`: the cosine of the angle to a
    /// zero vector is undefined (`0 / 0`), so such a query would score every
    /// item alike (an arbitrary ranking) and such an item would have no
    /// place in a ranking. DynamoDB's documentation says nothing of it;
    /// Stamp refuses both before sending, as Amazon S3 Vectors documents
    /// for its cosine indexes
    /// (`PutInputVector.data`, <https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/s3vectors/aws.sdk.kotlin.services.s3vectors.model/-put-input-vector/data.html>).
    /// Use a `DOT_PRODUCT` or `EUCLIDEAN` index for vectors that may be
    /// zero, or leave the vector out (an `Option` field: the item is then
    /// in no vector index).
    #[error(
        "the vector of index `{index}` of entity `{entity}` is all zeros, and the index's distance is COSINE, which is undefined for a zero vector"
    )]
    ZeroVectorUnderCosine {
        /// The entity type name.
        entity: &'static str,
        /// The vector index.
        index: &'static str,
    },
    /// A stored vector attribute is not a List of Numbers.
    #[error(
        "the attribute `{attribute}` of index `{index}` of entity `{entity}` is not a List of Numbers"
    )]
    NotAVector {
        /// The entity type name.
        entity: &'static str,
        /// The vector index.
        index: &'static str,
        /// The vector attribute.
        attribute: &'static str,
    },
    /// A search's `TopK` is 0 or above [`MAX_TOP_K`](crate::limits::MAX_TOP_K).
    #[error("a similarity search returns 1 to {limit} items (TopK); {top_k} was asked")]
    TopKOutOfRange {
        /// What was asked.
        top_k: u32,
        /// DynamoDB's limit, 100.
        limit: u32,
    },
    /// A search condition names an attribute that is not an
    /// `INLINE_FILTER` element (nor the partition element) of the index:
    /// DynamoDB compares only those.
    #[error(
        "index `{index}` cannot filter on `{attribute}`: a search condition names only the index's inline filter attributes {filters:?}"
    )]
    NotAFilter {
        /// The vector index.
        index: &'static str,
        /// The attribute named.
        attribute: String,
        /// The index's inline filter attributes.
        filters: Vec<&'static str>,
    },
    /// A search condition compares the partition (`HASH`) element otherwise
    /// than with `=`; DynamoDB takes only equality there.
    #[error(
        "index `{index}` takes only `=` on its partition attribute `{attribute}`, not a range or a function"
    )]
    RangeOnPartition {
        /// The vector index.
        index: &'static str,
        /// The partition attribute.
        attribute: &'static str,
    },
    /// A search condition uses a function (`begins_with`, `contains`,
    /// `attribute_exists`, `size`, …) Stamp does not send in a
    /// `SearchConditionExpression`: only comparisons and `BETWEEN`, joined
    /// by `AND`, `OR` and `NOT`.
    #[error("index `{index}`: a search condition compares attributes; `{function}` is not sent")]
    UnsupportedCondition {
        /// The vector index.
        index: &'static str,
        /// The function used.
        function: &'static str,
    },
    /// A search of an index with a partition element without its value, or
    /// with a value for an index without one.
    #[error("index `{index}` {}", if *.expected { "needs a partition value in every search" } else { "has no partition element" })]
    PartitionValue {
        /// The vector index.
        index: &'static str,
        /// Whether the index has a partition element.
        expected: bool,
    },
    /// A table with a vector index is provisioned; vector indexes need
    /// on-demand (`PAY_PER_REQUEST`) tables.
    #[error(
        "vector index `{index}` needs an on-demand table (BillingMode PAY_PER_REQUEST); vector indexes are not supported on provisioned tables"
    )]
    ProvisionedTable {
        /// The vector index.
        index: &'static str,
    },
    /// A table definition has more vector indexes than DynamoDB's 5.
    #[error("the table has {count} vector indexes, more than DynamoDB's {limit}")]
    TooManyVectorIndexes {
        /// How many the entities declare.
        count: usize,
        /// DynamoDB's limit, 5.
        limit: usize,
    },
    /// A vector index's dimensions are 0 or above
    /// [`MAX_VECTOR_DIMENSIONS`](crate::limits::MAX_VECTOR_DIMENSIONS).
    #[error("vector index `{index}` has {dimensions} dimensions; DynamoDB takes 1 to {limit}")]
    DimensionsOutOfRange {
        /// The vector index.
        index: &'static str,
        /// The dimensions declared.
        dimensions: u32,
        /// DynamoDB's limit, 4,096.
        limit: u32,
    },
    /// Two entities declare one vector index (by name) differently.
    #[error(
        "entities `{first_entity}` and `{second_entity}` declare vector index `{index}` differently"
    )]
    ConflictingVectorIndex {
        /// The vector index.
        index: &'static str,
        /// The first entity.
        first_entity: &'static str,
        /// The second entity.
        second_entity: &'static str,
    },
    /// Two vector indexes (of any entities) index one vector attribute
    /// with different dimensions: DynamoDB requires every vector index of
    /// an attribute to have the same number of dimensions, and refuses the
    /// `CreateTable` otherwise
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>:
    /// "If multiple vector indexes reference the same attribute, they must
    /// all use the same number of dimensions").
    #[error(
        "vector indexes `{first_index}` ({first_dimensions} dimensions, entity `{first_entity}`) and `{second_index}` ({second_dimensions} dimensions, entity `{second_entity}`) both index attribute `{attribute}`; DynamoDB requires one number of dimensions per vector attribute"
    )]
    ConflictingDimensions {
        /// The vector attribute.
        attribute: &'static str,
        /// The first index (in the order of the definition's entities).
        first_index: &'static str,
        /// The entity that declares it.
        first_entity: &'static str,
        /// Its dimensions.
        first_dimensions: u32,
        /// The other index.
        second_index: &'static str,
        /// The entity that declares it.
        second_entity: &'static str,
        /// Its dimensions.
        second_dimensions: u32,
    },
    /// Two entities declare one vector index (by name) with an inline
    /// filter attribute of one name but of two types (`N` in one, `S` in
    /// the other): DynamoDB defines each attribute of an index's search
    /// schema once, with one type, in `AttributeDefinitions`.
    #[error(
        "inline filter `{attribute}` of vector index `{index}` is of type {first_type} in entity `{first_entity}` and of type {second_type} in entity `{second_entity}`; an index's search schema gives each attribute one type"
    )]
    ConflictingFilterType {
        /// The vector index.
        index: &'static str,
        /// The inline filter attribute.
        attribute: &'static str,
        /// The entity that declared it first.
        first_entity: &'static str,
        /// Its type there: `S`, `N` or `B`.
        first_type: &'static str,
        /// The entity that declared it with the other type.
        second_entity: &'static str,
        /// Its type there.
        second_type: &'static str,
    },
    /// An entity search of an index that does not copy every attribute
    /// the entity decodes: search a projection instead, or project `ALL`.
    #[error(
        "index `{index}` does not project {missing:?}, which entity `{entity}` decodes; search a projection of the projected attributes, or project ALL"
    )]
    NotProjected {
        /// The vector index.
        index: &'static str,
        /// The entity type name.
        entity: &'static str,
        /// The attributes the index lacks.
        missing: Vec<&'static str>,
    },
}

impl VectorError {
    /// The [`Error`](crate::Error) of the stage this error belongs to: a
    /// definition's ([`DefinitionError::Vector`](crate::DefinitionError::Vector))
    /// for the table's vector indexes, else a refusal before sending
    /// ([`Refusal::Vector`](crate::Refusal::Vector)).
    pub fn into_error(self) -> crate::error::Error {
        match self {
            VectorError::ProvisionedTable { .. }
            | VectorError::TooManyVectorIndexes { .. }
            | VectorError::DimensionsOutOfRange { .. }
            | VectorError::ConflictingVectorIndex { .. }
            | VectorError::ConflictingDimensions { .. }
            | VectorError::ConflictingFilterType { .. } => {
                crate::error::Error::Definition(DefinitionError::Vector(self))
            }
            VectorError::WrongDimensions { .. }
            | VectorError::NotFinite { .. }
            | VectorError::ZeroVectorUnderCosine { .. }
            | VectorError::NotAVector { .. }
            | VectorError::TopKOutOfRange { .. }
            | VectorError::NotAFilter { .. }
            | VectorError::RangeOnPartition { .. }
            | VectorError::UnsupportedCondition { .. }
            | VectorError::PartitionValue { .. }
            | VectorError::NotProjected { .. } => {
                crate::error::Error::Refused(Refusal::Vector(self))
            }
        }
    }
}
