//! Vector indexes (DynamoDB, August 2026): the static description of one
//! ([`VectorIndexSchema`]), DynamoDB's limits of them, and the stored form
//! of a vector (a List of Numbers, each an `f32`).
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
use crate::{KeyAttribute, KeyAttributeType};

/// The most dimensions a vector index has (DynamoDB's quota, "Vector
/// indexes" in "Quotas in Amazon DynamoDB").
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-vector-indexes>.
pub const MAX_VECTOR_DIMENSIONS: u32 = 4_096;

/// The most vector indexes one table has (DynamoDB's quota).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-vector-indexes>.
pub const MAX_VECTOR_INDEXES: usize = 5;

/// The largest `TopK` of a `SearchVectors` request (its range is 1 to 100).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.
pub const MAX_TOP_K: u32 = 100;

/// The `TopK` of a similarity search that does not set one.
pub const DEFAULT_TOP_K: u32 = 10;

/// The most bytes of one `SearchVectors` answer; there is no pagination, so
/// a larger answer cannot be had (use a narrower projection or a smaller
/// `TopK`).
pub const MAX_SEARCH_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

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

/// The `HASH` element of a vector index's search schema: every search names
/// one value of it (with `=`), so a tenant's vectors are searched apart
/// from the others'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorPartition {
    /// A key attribute Stamp builds from a template, as a GSI key
    /// (`pk = "TENANT#<tenant_id>"`, stored as a String in `VECTOR{N}PK`).
    Template(KeyAttribute),
    /// A field of the entity, stored as it is (`pk = tenant_id`).
    Field(VectorElement),
}

impl VectorPartition {
    /// The attribute of the element.
    pub fn attribute(&self) -> &'static str {
        match self {
            VectorPartition::Template(key) => key.name,
            VectorPartition::Field(element) => element.attribute,
        }
    }

    /// Its type in `AttributeDefinitions` (a template is a String).
    pub fn attribute_type(&self) -> KeyAttributeType {
        match self {
            VectorPartition::Template(_) => KeyAttributeType::S,
            VectorPartition::Field(element) => element.attribute_type,
        }
    }
}

/// A field named in a vector index's search schema: an `INLINE_FILTER`
/// element, or a partition field. DynamoDB declares each in the table's
/// `AttributeDefinitions`, so its stored type is a String, a Number or a
/// Binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorElement {
    /// The field name in the struct.
    pub field: &'static str,
    /// The attribute serde stores it under.
    pub attribute: &'static str,
    /// Its stored type.
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

/// A vector index an entity writes, from `#[vectorN(…)]`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndex.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorIndexSchema {
    /// N, from 1 to 5.
    pub number: u8,
    /// The index name, `VECTOR{N}` unless renamed with `index_name = "…"`
    /// (3 to 255 characters of `a-z A-Z 0-9 _ . -`).
    pub name: &'static str,
    /// The vector field's name in the struct.
    pub field: &'static str,
    /// The vector attribute (`VectorAttribute`): the field's, as serde
    /// stores it, a List of Numbers.
    pub attribute: &'static str,
    /// The number of elements of every vector, 1 to
    /// [`MAX_VECTOR_DIMENSIONS`].
    pub dimensions: u32,
    /// The distance function.
    pub distance: DistanceFunction,
    /// The `HASH` element, when the index has one.
    pub partition: Option<VectorPartition>,
    /// The `INLINE_FILTER` elements, the attributes a search may compare.
    pub filters: &'static [VectorElement],
    /// What the index copies from the items.
    pub projection: VectorProjection,
    /// Whether the field is an `Option`: an item whose vector is `None` is
    /// not in the index (sparse).
    pub optional: bool,
}

impl VectorIndexSchema {
    /// The attributes of its search schema: the partition element's first.
    pub fn search_attributes(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.partition
            .iter()
            .map(VectorPartition::attribute)
            .chain(self.filters.iter().map(|filter| filter.attribute))
    }

    /// The template of the partition element. Generated code calls it for
    /// an index whose partition element is a template.
    #[doc(hidden)]
    pub fn partition_template(&self) -> &crate::KeyTemplate {
        match &self.partition {
            Some(VectorPartition::Template(key)) => &key.template,
            _ => panic!("vector index `{}` has no partition template", self.name),
        }
    }

    /// The inline filter element of attribute `attribute`, if any.
    pub fn filter(&self, attribute: &str) -> Option<&'static VectorElement> {
        self.filters
            .iter()
            .find(|filter| filter.attribute == attribute)
    }

    /// Checks `vector` for this index: [`dimensions`](Self::dimensions)
    /// elements, each finite (DynamoDB takes 32-bit floats in
    /// `[-3.4028235e38, 3.4028235e38]`: no NaN, no infinity).
    ///
    /// # Errors
    ///
    /// [`VectorError::WrongDimensions`] or [`VectorError::NotFinite`], for
    /// entity `entity` (the entity type name).
    pub fn check_vector(&self, entity: &'static str, vector: &[f32]) -> Result<(), VectorError> {
        if vector.len() != self.dimensions as usize {
            return Err(VectorError::WrongDimensions {
                entity,
                index: self.name,
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
                index: self.name,
                position,
                value: *value,
            });
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

/// The elements of `value` (a stored vector attribute) for the index
/// `index` of entity `entity`, checked as [`VectorIndexSchema::check_vector`]
/// does; `Ok(None)` when the item has no such attribute (or a `NULL`).
///
/// # Errors
///
/// As [`VectorIndexSchema::check_vector`]; [`VectorError::NotAVector`] for
/// a value that is not a List of Numbers.
pub fn check_stored_vector(
    index: &VectorIndexSchema,
    entity: &'static str,
    value: Option<&AttributeValue>,
) -> Result<Option<Vec<f32>>, VectorError> {
    let Some(value) = value.filter(|value| !matches!(value, AttributeValue::Null(_))) else {
        return Ok(None);
    };
    // A NaN or an infinity is serialized as the text `NaN` or `inf`, which
    // parses back as itself, so the check below sees it.
    let vector = vector_of(value).ok_or(VectorError::NotAVector {
        entity,
        index: index.name,
        attribute: index.attribute,
    })?;
    index.check_vector(entity, &vector)?;
    Ok(Some(vector))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: VectorIndexSchema = VectorIndexSchema {
        number: 1,
        name: "VECTOR1",
        field: "embedding",
        attribute: "embedding",
        dimensions: 3,
        distance: DistanceFunction::Cosine,
        partition: None,
        filters: &[],
        projection: VectorProjection::All,
        optional: false,
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
        let stored = |vector: &[f32]| check_stored_vector(&INDEX, "Doc", Some(&vector_value(vector)));
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
