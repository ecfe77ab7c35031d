//! `Table::create_table` and `Table::verify` against the local server that
//! `cargo xtask test` starts: TTL turned on at creation, a clean table, and
//! tables made with raw SDK calls that drift from the reference model.

use crate::common;
use stamp::error::{DefinitionError, Refusal};

use std::num::NonZeroU32;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ProvisionedThroughput, ScalarAttributeType, TimeToLiveSpecification,
    TimeToLiveStatus,
};
use stamp::{
    Error, Table,
    schema::{IndexProjection, KeyNames, SchemaDifference, TableBilling, Throughput},
};

fn attribute(name: &str, kind: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(kind)
        .build()
        .unwrap()
}

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .unwrap()
}

fn throughput(read: i64, write: i64) -> ProvisionedThroughput {
    ProvisionedThroughput::builder()
        .read_capacity_units(read)
        .write_capacity_units(write)
        .build()
        .unwrap()
}

fn unique_name(test: &str) -> String {
    format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple())
}

async fn enable_ttl(client: &Client, table: &str, attribute: &str) {
    client
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .attribute_name(attribute)
                .enabled(true)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn schema_create_table_turns_on_ttl_and_verifies_clean() {
    let definition = stamp_examples::table_definition();
    let table = common::fresh_table("schema-clean", &definition).await;
    let ttl = table
        .client()
        .describe_time_to_live()
        .table_name(table.name())
        .send()
        .await
        .unwrap()
        .time_to_live_description
        .unwrap();
    assert_eq!(ttl.attribute_name(), Some("expires_at"));
    assert!(matches!(
        ttl.time_to_live_status(),
        Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
    ));
    assert_eq!(table.verify(&definition).await.unwrap(), []);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn schema_verify_finds_a_gsi_left_out_of_the_table() {
    // The reference model's table made by hand, everything right but GSI1.
    let client = common::client();
    let name = unique_name("schema-no-gsi1");
    client
        .create_table()
        .table_name(&name)
        .attribute_definitions(attribute("PK", ScalarAttributeType::S))
        .attribute_definitions(attribute("SK", ScalarAttributeType::S))
        .attribute_definitions(attribute("GSI2PK", ScalarAttributeType::S))
        .attribute_definitions(attribute("GSI2SK", ScalarAttributeType::S))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI2")
                .key_schema(key("GSI2PK", KeyType::Hash))
                .key_schema(key("GSI2SK", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
    enable_ttl(&client, &name, "expires_at").await;
    let table = Table::new(client, name);
    let differences = table
        .verify(&stamp_examples::table_definition())
        .await
        .unwrap();
    assert_eq!(
        differences,
        [
            SchemaDifference::MissingIndex {
                index: "GSI1".into()
            },
            SchemaDifference::MissingIndex {
                index: "GSI3".into()
            },
            // The table made by hand has no vector index either.
            SchemaDifference::MissingIndex {
                index: "VECTOR1".into()
            },
            SchemaDifference::MissingIndex {
                index: "VECTOR2".into()
            },
        ]
    );
    assert_eq!(differences[0].to_string(), "index `GSI1` is missing");
    table.delete_table().await.unwrap();
}

/// A table made with raw SDK calls that drifts from the reference model in
/// every way `verify` knows: PK of type N, provisioned billing, GSI1 without
/// its sort key and with KEYS_ONLY, no GSI2, an extra GSI4, and TTL on
/// another attribute.
async fn drifted_table(test: &str) -> Table {
    let client = common::client();
    let name = unique_name(test);
    client
        .create_table()
        .table_name(&name)
        .attribute_definitions(attribute("PK", ScalarAttributeType::N))
        .attribute_definitions(attribute("SK", ScalarAttributeType::S))
        .attribute_definitions(attribute("GSI1PK", ScalarAttributeType::S))
        .attribute_definitions(attribute("GSI4PK", ScalarAttributeType::S))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key("GSI1PK", KeyType::Hash))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::KeysOnly)
                        .build(),
                )
                .provisioned_throughput(throughput(1, 1))
                .build()
                .unwrap(),
        )
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI4")
                .key_schema(key("GSI4PK", KeyType::Hash))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .provisioned_throughput(throughput(1, 1))
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::Provisioned)
        .provisioned_throughput(throughput(1, 1))
        .send()
        .await
        .unwrap();
    enable_ttl(&client, &name, "ttl").await;
    Table::new(client, name)
}

#[tokio::test]
async fn schema_verify_reports_every_kind_of_drift() {
    let table = drifted_table("schema-drift").await;
    let differences = table
        .verify(&stamp_examples::table_definition())
        .await
        .unwrap();
    assert_eq!(
        differences,
        [
            SchemaDifference::AttributeType {
                attribute: "PK".into(),
                expected: ScalarAttributeType::S,
                found: ScalarAttributeType::N,
            },
            SchemaDifference::BillingMode {
                expected: BillingMode::PayPerRequest,
                found: BillingMode::Provisioned,
            },
            SchemaDifference::KeySchema {
                index: Some("GSI1".into()),
                expected: KeyNames {
                    partition_key: "GSI1PK".into(),
                    sort_key: Some("GSI1SK".into()),
                },
                found: KeyNames {
                    partition_key: "GSI1PK".into(),
                    sort_key: None,
                },
            },
            SchemaDifference::Projection {
                index: "GSI1".into(),
                expected: IndexProjection::All,
                found: IndexProjection::KeysOnly,
            },
            SchemaDifference::MissingIndex {
                index: "GSI2".into()
            },
            SchemaDifference::MissingIndex {
                index: "GSI3".into()
            },
            SchemaDifference::ExtraIndex {
                index: "GSI4".into()
            },
            SchemaDifference::MissingIndex {
                index: "VECTOR1".into()
            },
            SchemaDifference::MissingIndex {
                index: "VECTOR2".into()
            },
            SchemaDifference::TimeToLive {
                expected: Some("expires_at".into()),
                found: Some("ttl".into()),
            },
        ]
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn schema_verify_describes_each_drift_in_words() {
    let table = drifted_table("schema-drift-words").await;
    let differences = table
        .verify(&stamp_examples::table_definition())
        .await
        .unwrap();
    assert_eq!(
        differences
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "key attribute `PK` has type N, expected S",
            "billing mode is PROVISIONED, expected PAY_PER_REQUEST",
            "index `GSI1` has keys (GSI1PK), expected (GSI1PK, GSI1SK)",
            "index `GSI1` projects KEYS_ONLY, expected ALL",
            "index `GSI2` is missing",
            "index `GSI3` is missing",
            "index `GSI4` is not in the definition",
            "index `VECTOR1` is missing",
            "index `VECTOR2` is missing",
            "TTL is on `ttl`, expected on `expires_at`",
        ]
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn schema_verify_compares_capacities_when_the_definition_is_provisioned_too() {
    let table = drifted_table("schema-drift-capacity").await;
    // Provisioned in the definition too: the capacities are compared.
    let capacity = NonZeroU32::new(5).unwrap();
    let provisioned =
        common::reference_without_vector_indexes().billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: capacity,
        });
    let differences = table.verify(&provisioned).await.unwrap();
    let expected = Throughput {
        read_capacity_units: 5,
        write_capacity_units: 5,
    };
    let found = Throughput {
        read_capacity_units: 1,
        write_capacity_units: 1,
    };
    assert_eq!(
        differences
            .iter()
            .filter(|difference| matches!(
                difference,
                SchemaDifference::ProvisionedThroughput { .. }
            ))
            .collect::<Vec<_>>(),
        [
            &SchemaDifference::ProvisionedThroughput {
                index: None,
                expected,
                found,
            },
            &SchemaDifference::ProvisionedThroughput {
                index: Some("GSI1".into()),
                expected,
                found,
            },
        ]
    );
    assert!(
        !differences
            .iter()
            .any(|difference| matches!(difference, SchemaDifference::BillingMode { .. })),
        "{differences:?}"
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn schema_a_provisioned_definition_creates_a_provisioned_table() {
    let capacity = NonZeroU32::new(3).unwrap();
    // A provisioned table has no vector index.
    let definition = common::reference_without_vector_indexes()
        .billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: capacity,
        })
        .index_projection(
            "GSI1",
            IndexProjection::Include(vec!["total_cents".into(), "customer_id".into()]),
        );
    let table = common::fresh_table("schema-provisioned", &definition).await;
    assert_eq!(table.verify(&definition).await.unwrap(), []);
    // The same table against the on-demand, ALL-projection reference.
    assert_eq!(
        table
            .verify(&stamp_examples::table_definition())
            .await
            .unwrap(),
        [
            SchemaDifference::BillingMode {
                expected: BillingMode::PayPerRequest,
                found: BillingMode::Provisioned,
            },
            SchemaDifference::Projection {
                index: "GSI1".into(),
                expected: IndexProjection::All,
                found: IndexProjection::Include(vec!["customer_id".into(), "total_cents".into()]),
            },
            // The products' GSI3 (this definition has no products), and the
            // reference's vector indexes, which a provisioned table cannot have.
            SchemaDifference::MissingIndex {
                index: "GSI3".into()
            },
            SchemaDifference::MissingIndex {
                index: "VECTOR1".into()
            },
            SchemaDifference::MissingIndex {
                index: "VECTOR2".into()
            },
        ]
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn schema_verify_of_an_absent_table_is_a_dynamodb_error() {
    let table = Table::new(common::client(), unique_name("schema-absent"));
    let error = table
        .verify(&stamp_examples::table_definition())
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::DynamoDb {
                operation: "DescribeTable",
                source,
                ..
            } if matches!(**source, aws_sdk_dynamodb::Error::ResourceNotFoundException(_))
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn create_table_refuses_a_name_dynamodb_would_refuse_and_sends_nothing() {
    let (client, counter) = common::counting_client();
    let error = Table::new(client, "ab")
        .create_table(&stamp_examples::table_definition())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Definition(DefinitionError::InvalidTableName { name, .. }) if name == "ab"),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[derive(stamp::Item, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[pk = "TENANT#<tenant_id>"]
#[sk = "TASK#<task_id>"]
#[gsi1(pk = "ASSIGNEE#<assignee>", sk = "<task_id>")]
struct Task {
    tenant_id: String,
    task_id: String,
    assignee: String,
    title: String,
}

#[tokio::test]
async fn a_table_made_by_create_table_knows_its_index_projections() {
    // A KEYS_ONLY GSI holds neither the fields nor the type attribute that
    // every entity query filters on: DynamoDB would answer an empty page.
    // The table that created it knows, and refuses before sending.
    let definition = stamp::TableDefinition::new()
        .entity::<Task>()
        .index_projection("GSI1", IndexProjection::KeysOnly);
    let (client, counter) = common::counting_client();
    let table = Table::new(client, unique_name("known-projection"));
    table.create_table(&definition).await.unwrap();
    let clone = table.clone();
    counter.reset();
    let error = Task::query_gsi1("alice")
        .send(&clone)
        .await
        .expect_err("refused");
    assert!(
        matches!(&error, Error::Refused(Refusal::AttributesNotProjected { index, .. }) if *index == "GSI1"),
        "{error:?}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new(), "nothing sent");
}
