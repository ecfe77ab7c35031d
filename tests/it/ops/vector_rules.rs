//! Vector search's rules before sending (issue 40, points 2 to 5): a zero
//! vector under `COSINE`, one number of dimensions per vector attribute,
//! the types of the attributes a vector index reads, unit enums as inline
//! filters.
//!
//! Expected values follow DynamoDB's documentation:
//! - "If multiple vector indexes reference the same attribute, they must
//!   all use the same number of dimensions"
//!   (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>);
//! - a vector attribute of another type than a List of Numbers makes the
//!   write fail ("Invalid parameter type"), and the search schema's
//!   attributes are declared in `AttributeDefinitions` as key attributes
//!   are (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>);
//! - DynamoDB's vector pages say nothing of a zero vector; `COSINE` is
//!   `1 - cos`, undefined for one (`0 / 0`), and Amazon S3 Vectors refuses
//!   zero vectors in cosine indexes: Stamp refuses them before sending.

use serde::{Deserialize, Serialize};
use stamp::{
    Entity, Error, Item, TableDefinition,
    error::{DefinitionError, Refusal, VectorError},
    schema::KeyAttributeType,
};

use crate::common;

/// A product of a tenant on a 4-dimension cosine index, filterable by price.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PRODUCT#<sku>"]
#[sk = "PRODUCT"]
#[vector1(
    field = embedding,
    dimensions = 4,
    distance = cosine,
    pk = "TENANT#<tenant_id>",
    filter(price, category)
)]
struct Product {
    tenant_id: String,
    sku: String,
    price: u32,
    category: String,
    embedding: Vec<f32>,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Product>()
}

fn refused(result: Result<impl std::fmt::Debug, Error>) -> VectorError {
    match result {
        Err(Error::Refused(Refusal::Vector(error))) => error,
        other => panic!("not refused: {other:?}"),
    }
}

const ZERO: VectorError = VectorError::ZeroVectorUnderCosine {
    entity: "Product",
    index: "VECTOR1",
};

#[tokio::test]
async fn a_zero_query_vector_under_cosine_is_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("vector-zero-query", &definition()).await;
    for zero in [[0.0f32; 4], [-0.0, 0.0, -0.0, 0.0]] {
        let search = Product::search_similar("t1", &zero);
        assert_eq!(refused(search.request(table.name())), ZERO);
        assert_eq!(refused(search.send(&table).await), ZERO);
    }
    assert_eq!(counter.operations(), Vec::<String>::new());
    assert_eq!(
        ZERO.to_string(),
        "the vector of index `VECTOR1` of entity `Product` is all zeros, and the index's \
         distance is COSINE, which is undefined for a zero vector"
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_zero_vector_under_cosine_is_refused_in_every_write_before_sending() {
    let (table, counter) = common::fresh_counted_table("vector-zero-write", &definition()).await;
    let zero = Product {
        tenant_id: "t1".into(),
        sku: "Z".into(),
        price: 1,
        category: "shoes".into(),
        embedding: vec![0.0; 4],
    };
    assert_eq!(refused(table.put(&zero).await), ZERO);
    assert_eq!(refused(table.create(&zero).await), ZERO);
    let update = Product::update("Z")
        .given(Product::TENANT_ID, &"t1".to_owned())
        .set(Product::EMBEDDING, &vec![0.0; 4])
        .send(&table)
        .await;
    assert_eq!(refused(update), ZERO);
    assert_eq!(counter.operations(), Vec::<String>::new());
    table.delete_table().await.unwrap();
}

/// A document on a `DOT_PRODUCT` index: a zero vector is defined there
/// (every score 0) and goes through.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "DOT#<id>"]
#[sk = "DOT"]
#[vector1(field = v, dimensions = 2, distance = dot_product)]
struct Dotted {
    id: String,
    v: Vec<f32>,
}

#[tokio::test]
async fn a_zero_vector_under_another_distance_is_sent() {
    let table = common::fresh_table(
        "vector-zero-dot",
        &TableDefinition::new().entity::<Dotted>(),
    )
    .await;
    let zero = Dotted {
        id: "z".into(),
        v: vec![0.0, 0.0],
    };
    table.put(&zero).await.unwrap();
    let found = Dotted::search_similar(&[0.0, 0.0])
        .send(&table)
        .await
        .unwrap();
    assert_eq!(found.results.len(), 1);
    assert_eq!(found.results[0].item, zero);
    assert_eq!(found.results[0].score, 0.0);
    table.delete_table().await.unwrap();
}

/// Products again, with another index on the same `embedding` attribute.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PHOTO#<id>"]
#[sk = "PHOTO"]
#[vector2(field = embedding, dimensions = 8, distance = euclidean, index_name = "PHOTOS")]
struct Photo {
    id: String,
    embedding: Vec<f32>,
}

#[test]
fn two_vector_indexes_of_one_attribute_with_different_dimensions_are_a_definition_error() {
    let error = definition().entity::<Photo>().check().unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Definition(DefinitionError::Vector(
                VectorError::ConflictingDimensions {
                    attribute: "embedding",
                    first_index: "VECTOR1",
                    first_entity: "Product",
                    first_dimensions: 4,
                    second_index: "PHOTOS",
                    second_entity: "Photo",
                    second_dimensions: 8,
                }
            ))
        ),
        "{error:?}"
    );
    assert!(
        definition().entity::<Photo>().request("t").is_err(),
        "CreateTable is planned only for a definition that checks"
    );
}

/// An entity whose `embedding` is text, and whose `price` is text.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TAG#<id>"]
#[sk = "TAG"]
struct Tag {
    id: String,
    embedding: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "OFFER#<id>"]
#[sk = "OFFER"]
struct Offer {
    id: String,
    price: String,
}

/// An entity whose `embedding` is a list too: it passes (a List, of
/// elements the derive does not name).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHAPE#<id>"]
#[sk = "SHAPE"]
struct Shape {
    id: String,
    embedding: Vec<f32>,
}

#[test]
fn a_field_of_another_type_under_a_vector_attribute_or_inline_filter_is_a_definition_error() {
    let error = definition().entity::<Tag>().check().unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Tag",
                field: "embedding",
                field_type: "S",
                index_entity: "Product",
                index: "VECTOR1",
                attribute: "embedding",
                key_type: "L, a vector of Numbers",
            })
        ),
        "{error:?}"
    );
    let error = definition().entity::<Offer>().check().unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Offer",
                field: "price",
                field_type: "S",
                index_entity: "Product",
                index: "VECTOR1",
                attribute: "price",
                key_type: "N",
            })
        ),
        "{error:?}"
    );
    definition().entity::<Shape>().check().unwrap();
}

/// A genre, a unit enum stored as its variant name.
#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
enum Genre {
    Jazz,
    Rock,
}

/// A song filterable by its genre.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SONG#<id>"]
#[sk = "SONG"]
#[vector1(field = v, dimensions = 2, distance = euclidean, filter(genre, year))]
struct Song {
    id: String,
    genre: Genre,
    year: Option<u16>,
    v: Vec<f32>,
}

#[tokio::test]
async fn a_unit_enum_is_an_inline_filter_stored_as_a_string() {
    let definition = TableDefinition::new().entity::<Song>();
    let index = <Song as Entity>::SCHEMA
        .indexes
        .iter()
        .find(|index| index.is_vector())
        .unwrap();
    let types: Vec<(&str, KeyAttributeType)> = index
        .vector()
        .unwrap()
        .filters
        .iter()
        .map(|filter| (filter.attribute, filter.attribute_type))
        .collect();
    assert_eq!(
        types,
        [
            ("genre", KeyAttributeType::S),
            ("year", KeyAttributeType::N)
        ]
    );
    let table = common::fresh_table("vector-enum-filter", &definition).await;
    let songs = [
        (Genre::Jazz, [1.0, 0.0]),
        (Genre::Rock, [1.0, 0.1]),
        (Genre::Jazz, [0.0, 1.0]),
    ];
    for (id, (genre, v)) in songs.iter().enumerate() {
        table
            .put(&Song {
                id: id.to_string(),
                genre: *genre,
                year: None,
                v: v.to_vec(),
            })
            .await
            .unwrap();
    }
    let jazz = Song::search_similar(&[1.0, 0.0])
        .filter(|f| f.genre.eq(&Genre::Jazz))
        .send(&table)
        .await
        .unwrap();
    let ids: Vec<&str> = jazz.results.iter().map(|r| r.item.id.as_str()).collect();
    assert_eq!(ids, ["0", "2"]);
    table.delete_table().await.unwrap();
}

#[test]
fn a_conjunction_joins_the_partition_without_parentheses_and_a_disjunction_with_them() {
    let conjunction = Product::search_similar("t1", &[1.0, 0.0, 0.0, 0.0])
        .filter(|f| f.price.eq(&1).and(f.category.eq(&"hats".to_owned())))
        .request("products")
        .unwrap();
    assert_eq!(
        conjunction.search_condition_expression(),
        Some("#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2")
    );
    let disjunction = Product::search_similar("t1", &[1.0, 0.0, 0.0, 0.0])
        .filter(|f| f.price.eq(&1).or(f.price.eq(&2)))
        .request("products")
        .unwrap();
    assert_eq!(
        disjunction.search_condition_expression(),
        Some("#n0 = :v0 AND ((#n1 = :v1) OR (#n1 = :v2))")
    );
}

/// Both local servers take `=` joined by `AND` without parentheses
/// (ministack 1.5.33 refuses any parenthesis; DynamoDB documents `AND` of
/// comparisons), so a search filtered on two inline filters runs on each.
#[tokio::test]
async fn a_conjunction_of_equalities_runs_on_every_server() {
    let table = common::fresh_table("vector-conjunction", &definition()).await;
    let products = [
        ("a", 1, "hats", [1.0, 0.0, 0.0, 0.0]),
        ("b", 2, "hats", [1.0, 0.1, 0.0, 0.0]),
        ("c", 1, "shoes", [1.0, 0.2, 0.0, 0.0]),
    ];
    for (sku, price, category, embedding) in products {
        table
            .put(&Product {
                tenant_id: "t1".into(),
                sku: sku.into(),
                price,
                category: category.into(),
                embedding: embedding.to_vec(),
            })
            .await
            .unwrap();
    }
    let found = Product::search_similar("t1", &[1.0, 0.0, 0.0, 0.0])
        .filter(|f| f.price.eq(&1))
        .filter(|f| f.category.eq(&"hats".to_owned()))
        .send(&table)
        .await
        .unwrap();
    let skus: Vec<&str> = found.results.iter().map(|r| r.item.sku.as_str()).collect();
    assert_eq!(skus, ["a"]);
    table.delete_table().await.unwrap();
}
