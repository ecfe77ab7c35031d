//! Vector indexes (DynamoDB, August 2026): what one is besides its name and
//! key ([`VectorIndexSchema`], the payload of
//! [`IndexKind::Vector`](crate::IndexKind::Vector)), and the stored form of
//! a vector (a List of Numbers, each an `f32`).
//!
//! A vector index holds the items that have its vector attribute (and, when
//! it has a partition element, that attribute too): an item without either
//! is not in the index, silently, which makes an `Option` vector a sparse
//! index. It is read only with `SearchVectors`, never with `Query` or `Scan`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.

use aws_sdk_dynamodb::types::{AttributeValue, VectorDistanceFunction};

use crate::error::VectorError;
use crate::model::index::IndexSchema;
use crate::model::multi_attribute::KeyAttributeType;

/// The `TopK` of a similarity search that does not set one.
pub const DEFAULT_TOP_K: u32 = 10;

/// How a vector index measures similarity, and so the order of its results.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DistanceFunction {
    /// `COSINE`: `1 - cos(a, b)`, from 0 (same direction) to 2 (opposite);
    /// the `TopK` smallest scores.
    Cosine,
    /// `DOT_PRODUCT`: `a · b`; the `TopK` highest scores.
    DotProduct,
    /// `EUCLIDEAN`: `|a - b|`; the `TopK` smallest scores.
    Euclidean,
}

impl DistanceFunction {
    /// DynamoDB's name: `COSINE`, `DOT_PRODUCT` or `EUCLIDEAN`.
    pub fn as_str(self) -> &'static str {
        match self {
            DistanceFunction::Cosine => "COSINE",
            DistanceFunction::DotProduct => "DOT_PRODUCT",
            DistanceFunction::Euclidean => "EUCLIDEAN",
        }
    }

    /// The SDK's value.
    pub fn to_sdk(self) -> VectorDistanceFunction {
        match self {
            DistanceFunction::Cosine => VectorDistanceFunction::Cosine,
            DistanceFunction::DotProduct => VectorDistanceFunction::DotProduct,
            DistanceFunction::Euclidean => VectorDistanceFunction::Euclidean,
        }
    }

    /// Whether a higher score is more similar (`DOT_PRODUCT`); else lower is.
    pub fn higher_is_closer(self) -> bool {
        self == DistanceFunction::DotProduct
    }
}

/// An `INLINE_FILTER` element of a vector index's search schema: a field
/// a search may compare. DynamoDB declares each in the table's
/// `AttributeDefinitions`, so its stored type is a String, a Number or a
/// Binary: the field type's [`IndexKeyAttribute::TYPE`](crate::IndexKeyAttribute::TYPE),
/// as for a multi-attribute key attribute (so a `#[derive(KeyPart)]` unit
/// enum is a String, its serde variant name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorElement {
    /// The field name in the struct.
    pub field: &'static str,
    /// The attribute serde stores it under.
    pub attribute: &'static str,
    /// Its stored type, `<T as IndexKeyAttribute>::TYPE` of the field's type.
    pub attribute_type: KeyAttributeType,
}

/// What a vector index copies from the items (its `Projection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorProjection {
    /// `ALL`: every attribute (the vector too). A search can return
    /// whole entities.
    All,
    /// `KEYS_ONLY`: the table's keys and the search schema's attributes.
    KeysOnly,
    /// `INCLUDE`: those and the attributes named.
    Include(&'static [&'static str]),
}

/// What a vector index is, besides its name, number and partition element
/// (the [`IndexSchema`](crate::IndexSchema) of kind
/// [`IndexKind::Vector`](crate::IndexKind::Vector) that holds it): its
/// vector attribute, dimensions, distance function, inline filters and
/// projection. The partition (`HASH`) element is the index's
/// [`key`](crate::IndexSchema::key): a template (`pk = "TENANT#<tenant_id>"`,
/// stored in `VECTOR{N}PK`), a field, or none.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndex.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorIndexSchema {
    /// The vector field's name in the struct.
    pub field: &'static str,
    /// The vector attribute (`VectorAttribute`): the field's, as serde
    /// stores it, a List of Numbers.
    pub attribute: &'static str,
    /// The number of elements of every vector, 1 to
    /// [`MAX_VECTOR_DIMENSIONS`](crate::limits::MAX_VECTOR_DIMENSIONS).
    pub dimensions: u32,
    /// The distance function.
    pub distance: DistanceFunction,
    /// The `INLINE_FILTER` elements, the attributes a search may compare.
    pub filters: &'static [VectorElement],
    /// What the index copies from the items.
    pub projection: VectorProjection,
    /// Whether the field is an `Option`: an item whose vector is `None` is
    /// not in the index (sparse).
    pub optional: bool,
}

impl VectorIndexSchema {
    /// The inline filter element of attribute `attribute`, if any.
    pub fn filter(&self, attribute: &str) -> Option<&'static VectorElement> {
        self.filters
            .iter()
            .find(|filter| filter.attribute == attribute)
    }

    /// Checks `vector` for this index: [`dimensions`](Self::dimensions)
    /// elements, each finite (DynamoDB takes 32-bit floats in
    /// `[-3.4028235e38, 3.4028235e38]`: no NaN, no infinity), not all zero
    /// under [`DistanceFunction::Cosine`] (undefined there). Every vector
    /// Stamp sends goes through it: an item's (put, create, batch,
    /// transaction), an update's, a search's.
    ///
    /// # Errors
    ///
    /// [`VectorError::WrongDimensions`], [`VectorError::NotFinite`] or
    /// [`VectorError::ZeroVectorUnderCosine`], for entity `entity` (the
    /// entity type name) and index `index` (its name).
    pub fn check_vector(
        &self,
        entity: &'static str,
        index: &'static str,
        vector: &[f32],
    ) -> Result<(), VectorError> {
        if vector.len() != self.dimensions as usize {
            return Err(VectorError::WrongDimensions {
                entity,
                index,
                expected: self.dimensions,
                found: vector.len(),
            });
        }
        if let Some((position, value)) = vector
            .iter()
            .enumerate()
            .find(|(_, value)| !value.is_finite())
        {
            return Err(VectorError::NotFinite {
                entity,
                index,
                position,
                value: *value,
            });
        }
        // `-0.0 == 0.0`: a vector of negative zeros is a zero vector too.
        if self.distance == DistanceFunction::Cosine && vector.iter().all(|value| *value == 0.0) {
            return Err(VectorError::ZeroVectorUnderCosine { entity, index });
        }
        Ok(())
    }
}

/// The stored form of a vector: a List (`L`) of Numbers (`N`), each the
/// shortest decimal that reads back as the same `f32`. DynamoDB stores the
/// index's copy at 32-bit precision; an `f32` loses nothing on the way.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html>.
pub fn vector_value(vector: &[f32]) -> AttributeValue {
    AttributeValue::L(
        vector
            .iter()
            .map(|element| AttributeValue::N(element.to_string()))
            .collect(),
    )
}

/// The vector of a stored List of Numbers (each read as an `f32`); `None`
/// for any other value.
pub fn vector_of(value: &AttributeValue) -> Option<Vec<f32>> {
    value
        .as_l()
        .ok()?
        .iter()
        .map(|element| element.as_n().ok()?.parse::<f32>().ok())
        .collect()
}

/// The elements of `value` (a stored vector attribute) for the vector index
/// `index` of entity `entity`, checked as [`VectorIndexSchema::check_vector`]
/// does; `Ok(None)` when the item has no such attribute (or a `NULL`), or
/// `index` is not a vector index.
///
/// # Errors
///
/// As [`VectorIndexSchema::check_vector`]; [`VectorError::NotAVector`] for
/// a value that is not a List of Numbers.
pub fn check_stored_vector(
    index: &IndexSchema,
    entity: &'static str,
    value: Option<&AttributeValue>,
) -> Result<Option<Vec<f32>>, VectorError> {
    let Some(spec) = index.vector() else {
        return Ok(None);
    };
    let Some(value) = value.filter(|value| !matches!(value, AttributeValue::Null(_))) else {
        return Ok(None);
    };
    // A NaN or an infinity is serialized as the text `NaN` or `inf`, which
    // parses back as itself, so the check below sees it.
    let vector = vector_of(value).ok_or(VectorError::NotAVector {
        entity,
        index: index.name,
        attribute: spec.attribute,
    })?;
    spec.check_vector(entity, index.name, &vector)?;
    Ok(Some(vector))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: IndexSchema = IndexSchema {
        number: 1,
        name: "VECTOR1",
        read_method: "search_similar_vector1",
        kind: crate::model::index::IndexKind::Vector(&VectorIndexSchema {
            field: "embedding",
            attribute: "embedding",
            dimensions: 3,
            distance: DistanceFunction::Cosine,
            filters: &[],
            projection: VectorProjection::All,
            optional: false,
        }),
        key: crate::model::index::IndexKeySchema::Unpartitioned,
    };

    #[test]
    fn a_vector_is_a_list_of_f32_numbers_that_reads_back_exactly() {
        let vector = [0.1f32, -2.5, 3.4028235e38];
        let value = vector_value(&vector);
        assert_eq!(
            value,
            AttributeValue::L(vec![
                AttributeValue::N("0.1".into()),
                AttributeValue::N("-2.5".into()),
                AttributeValue::N("340282350000000000000000000000000000000".into()),
            ])
        );
        assert_eq!(vector_of(&value).unwrap(), vector);
    }

    #[test]
    fn a_stored_vector_of_the_wrong_length_or_not_finite_is_refused() {
        let stored =
            |vector: &[f32]| check_stored_vector(&INDEX, "Doc", Some(&vector_value(vector)));
        assert_eq!(stored(&[1.0, 2.0, 3.0]).unwrap(), Some(vec![1.0, 2.0, 3.0]));
        assert_eq!(
            stored(&[1.0, 2.0]),
            Err(VectorError::WrongDimensions {
                entity: "Doc",
                index: "VECTOR1",
                expected: 3,
                found: 2
            })
        );
        assert!(matches!(
            stored(&[1.0, f32::NAN, 3.0]),
            Err(VectorError::NotFinite { position: 1, .. })
        ));
        assert!(matches!(
            stored(&[1.0, 2.0, f32::NEG_INFINITY]),
            Err(VectorError::NotFinite { position: 2, .. })
        ));
        assert_eq!(
            stored(&[0.0, -0.0, 0.0]),
            Err(VectorError::ZeroVectorUnderCosine {
                entity: "Doc",
                index: "VECTOR1"
            })
        );
        assert_eq!(check_stored_vector(&INDEX, "Doc", None), Ok(None));
        assert_eq!(
            check_stored_vector(&INDEX, "Doc", Some(&AttributeValue::S("x".into()))),
            Err(VectorError::NotAVector {
                entity: "Doc",
                index: "VECTOR1",
                attribute: "embedding"
            })
        );
    }
}
