//! The vector indexes of a table definition: their checks (on-demand only,
//! at most 5, 1 to 4,096 dimensions, one definition per name, one number
//! of dimensions per vector attribute), their
//! `VectorIndexes` entries of `CreateTable` with the `AttributeDefinitions`
//! of their search schemas, and their drift against `DescribeTable`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchWorkingWith.html>.

use aws_sdk_dynamodb::types::{
    Projection, ProjectionType, SearchSchemaElement, SearchSchemaElementType,
    VectorAttributeDefinition, VectorIndex, VectorIndexDescription,
};

use super::{SchemaDifference, TableBilling};
use crate::error::VectorError;
use crate::limits::{MAX_VECTOR_DIMENSIONS, MAX_VECTOR_INDEXES};
use crate::model::index::IndexSchema;
use crate::model::multi_attribute::KeyAttributeType;
use crate::model::vector::{VectorIndexSchema, VectorProjection};

/// What a vector index is besides its key (every index here is one).
fn spec(index: &IndexSchema) -> &'static VectorIndexSchema {
    index.vector().expect("a vector index")
}

/// Checks the vector indexes among `indexes` (each with the entity that
/// declares it) of a table billed as `billing`, and returns them merged by
/// name, in the order of their numbers.
///
/// # Errors
///
/// [`VectorError::ProvisionedTable`] on a provisioned table (vector indexes
/// need on-demand capacity), [`VectorError::TooManyVectorIndexes`] above
/// [`MAX_VECTOR_INDEXES`], [`VectorError::DimensionsOutOfRange`],
/// [`VectorError::ConflictingFilterType`] for an inline filter attribute
/// of one index given two types, [`VectorError::ConflictingVectorIndex`]
/// for one name declared twice otherwise differently,
/// [`VectorError::ConflictingDimensions`] for two indexes of one vector
/// attribute with different dimensions.
pub(crate) fn check_vector_indexes(
    billing: TableBilling,
    indexes: &[(&'static str, &'static IndexSchema)],
) -> Result<Vec<&'static IndexSchema>, VectorError> {
    let mut merged: Vec<(&'static str, &'static IndexSchema)> = Vec::new();
    for &(entity, index) in indexes.iter().filter(|(_, index)| index.is_vector()) {
        let dimensions = spec(index).dimensions;
        if !(1..=MAX_VECTOR_DIMENSIONS).contains(&dimensions) {
            return Err(VectorError::DimensionsOutOfRange {
                index: index.name,
                dimensions,
                limit: MAX_VECTOR_DIMENSIONS,
            });
        }
        let known = merged.iter().find(|(_, known)| known.name == index.name);
        if let Some(&(first_entity, known)) = known {
            check_filter_types(first_entity, known, entity, index)?;
        }
        match known {
            Some((first_entity, known)) if !same_index(known, index) => {
                return Err(VectorError::ConflictingVectorIndex {
                    index: index.name,
                    first_entity,
                    second_entity: entity,
                });
            }
            Some(_) => {}
            None => merged.push((entity, index)),
        }
    }
    // One number of dimensions per vector attribute, whatever the indexes'
    // names (one name declared twice is compared whole above).
    for (position, &(first_entity, first)) in merged.iter().enumerate() {
        for &(second_entity, second) in &merged[position + 1..] {
            let (a, b) = (spec(first), spec(second));
            if a.attribute == b.attribute && a.dimensions != b.dimensions {
                return Err(VectorError::ConflictingDimensions {
                    attribute: a.attribute,
                    first_index: first.name,
                    first_entity,
                    first_dimensions: a.dimensions,
                    second_index: second.name,
                    second_entity,
                    second_dimensions: b.dimensions,
                });
            }
        }
    }
    if let (TableBilling::Provisioned { .. }, Some((_, index))) = (billing, merged.first()) {
        return Err(VectorError::ProvisionedTable { index: index.name });
    }
    if merged.len() > MAX_VECTOR_INDEXES {
        return Err(VectorError::TooManyVectorIndexes {
            count: merged.len(),
            limit: MAX_VECTOR_INDEXES,
        });
    }
    merged.sort_by_key(|(_, index)| (index.number, index.name));
    Ok(merged.into_iter().map(|(_, index)| index).collect())
}

/// Refuses an inline filter attribute that two entities' declarations of
/// one index give two types.
fn check_filter_types(
    first_entity: &'static str,
    first: &IndexSchema,
    second_entity: &'static str,
    second: &IndexSchema,
) -> Result<(), VectorError> {
    for filter in spec(second).filters {
        if let Some(known) = spec(first).filter(filter.attribute)
            && known.attribute_type != filter.attribute_type
        {
            return Err(VectorError::ConflictingFilterType {
                index: second.name,
                attribute: filter.attribute,
                first_entity,
                first_type: known.attribute_type.as_str(),
                second_entity,
                second_type: filter.attribute_type.as_str(),
            });
        }
    }
    Ok(())
}

/// Whether two entities' declarations of one index make the same index in
/// DynamoDB (fields may be named differently; attributes may not).
fn same_index(a: &IndexSchema, b: &IndexSchema) -> bool {
    let (partition_a, partition_b) = (a.search_partition(), b.search_partition());
    let (a, b) = (spec(a), spec(b));
    a.attribute == b.attribute
        && a.dimensions == b.dimensions
        && a.distance == b.distance
        && partition_a == partition_b
        && a.filters
            .iter()
            .map(|f| (f.attribute, f.attribute_type))
            .eq(b.filters.iter().map(|f| (f.attribute, f.attribute_type)))
        && a.projection == b.projection
}

/// The attributes the search schemas of `indexes` declare in the table's
/// `AttributeDefinitions`, with their types, each once.
pub(crate) fn attribute_definitions(
    indexes: &[&'static IndexSchema],
) -> Vec<(&'static str, KeyAttributeType)> {
    let mut attributes: Vec<(&'static str, KeyAttributeType)> = Vec::new();
    for index in indexes {
        let elements = index.search_partition().into_iter().chain(
            spec(index)
                .filters
                .iter()
                .map(|filter| (filter.attribute, filter.attribute_type)),
        );
        for element in elements {
            if !attributes.iter().any(|(name, _)| *name == element.0) {
                attributes.push(element);
            }
        }
    }
    attributes
}

/// The `Projection` of a vector index.
fn projection(index: &IndexSchema) -> Projection {
    let (projection_type, included) = match spec(index).projection {
        VectorProjection::All => (ProjectionType::All, None),
        VectorProjection::KeysOnly => (ProjectionType::KeysOnly, None),
        VectorProjection::Include(attributes) => (
            ProjectionType::Include,
            Some(attributes.iter().map(|name| (*name).to_owned()).collect()),
        ),
    };
    Projection::builder()
        .projection_type(projection_type)
        .set_non_key_attributes(included)
        .build()
}

/// The search schema of a vector index: `HASH` first, then each
/// `INLINE_FILTER`.
pub(crate) fn search_schema(index: &IndexSchema) -> Vec<SearchSchemaElement> {
    let element = |name: &str, element_type: SearchSchemaElementType| {
        SearchSchemaElement::builder()
            .attribute_name(name)
            .search_schema_element_type(element_type)
            .build()
            .expect("name and type are set")
    };
    index
        .search_partition()
        .into_iter()
        .map(|(partition, _)| element(partition, SearchSchemaElementType::Hash))
        .chain(
            spec(index)
                .filters
                .iter()
                .map(|filter| element(filter.attribute, SearchSchemaElementType::InlineFilter)),
        )
        .collect()
}

/// The `VectorIndexes` entry of `CreateTable` for `index`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndex.html>.
pub(crate) fn vector_index(index: &IndexSchema) -> VectorIndex {
    let schema = search_schema(index);
    let vector = spec(index);
    VectorIndex::builder()
        .index_name(index.name)
        .vector_attribute(
            VectorAttributeDefinition::builder()
                .attribute_name(vector.attribute)
                .build()
                .expect("the name is set"),
        )
        .set_search_schema((!schema.is_empty()).then_some(schema))
        .projection(projection(index))
        .dimensions(i64::from(vector.dimensions))
        .distance_function(vector.distance.to_sdk())
        .build()
        .expect("name, dimensions and distance function are set")
}

/// A vector index as text for [`SchemaDifference::VectorIndex`]:
/// `embedding[64] COSINE, HASH VECTOR1PK, INLINE_FILTER price, ALL`.
fn describe(
    attribute: &str,
    dimensions: Option<i64>,
    distance: Option<&str>,
    schema: &[SearchSchemaElement],
    projection: Option<&Projection>,
) -> String {
    let mut parts = vec![format!(
        "{attribute}[{}] {}",
        dimensions.map_or_else(|| "?".to_owned(), |d| d.to_string()),
        distance.unwrap_or("?")
    )];
    parts.extend(schema.iter().map(|element| {
        format!(
            "{} {}",
            element.search_schema_element_type().as_str(),
            element.attribute_name()
        )
    }));
    let projection = match projection {
        Some(projection) => {
            let mut included: Vec<&str> = projection
                .non_key_attributes()
                .iter()
                .map(String::as_str)
                .collect();
            included.sort_unstable();
            match projection.projection_type() {
                Some(ProjectionType::Include) => format!("INCLUDE {}", included.join(" ")),
                Some(other) => other.as_str().to_owned(),
                None => "?".to_owned(),
            }
        }
        None => "?".to_owned(),
    };
    parts.push(projection);
    parts.join(", ")
}

/// The text of an index of the definition.
pub(crate) fn expected_text(index: &IndexSchema) -> String {
    let schema = search_schema(index);
    let projection = projection(index);
    let vector = spec(index);
    describe(
        vector.attribute,
        Some(i64::from(vector.dimensions)),
        Some(vector.distance.as_str()),
        &schema,
        Some(&projection),
    )
}

/// The text of a live index.
pub(crate) fn found_text(description: &VectorIndexDescription) -> String {
    describe(
        description
            .vector_attribute()
            .map_or("?", |attribute| attribute.attribute_name()),
        description.dimensions(),
        description.distance_function().map(|d| d.as_str()),
        description.search_schema(),
        description.projection(),
    )
}

/// The differences between the vector indexes of the definition and the
/// live table's: missing, extra, or defined otherwise (vector attribute,
/// dimensions, distance, search schema, projection).
pub(crate) fn vector_index_differences(
    expected: &[&'static IndexSchema],
    found: &[VectorIndexDescription],
) -> Vec<SchemaDifference> {
    let mut differences = Vec::new();
    for index in expected {
        match found
            .iter()
            .find(|live| live.index_name() == Some(index.name))
        {
            None => differences.push(SchemaDifference::MissingIndex {
                index: index.name.to_owned(),
            }),
            Some(live) => {
                let (expected, found) = (expected_text(index), found_text(live));
                if expected != found {
                    differences.push(SchemaDifference::VectorIndex {
                        index: index.name.to_owned(),
                        expected,
                        found,
                    });
                }
            }
        }
    }
    differences.extend(
        found
            .iter()
            .filter_map(|live| live.index_name())
            .filter(|name| !expected.iter().any(|index| index.name == *name))
            .map(|name| SchemaDifference::ExtraIndex {
                index: name.to_owned(),
            }),
    );
    differences
}
