//! The import from S3 into a new table made from the definition
//! (`TableDefinition::import_request`, `Table::start_import`): the
//! `ImportTable` request as built and as sent, and the refusals made
//! before sending.
//!
//! Only DynamoDB on AWS runs an import (no local server implements
//! `ImportTable`), so the request is what is tested: its JSON body, caught
//! by an SDK interceptor before it leaves, against the request syntax of
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ImportTable.html>
//! (`S3BucketSource`, `InputFormat` `DYNAMODB_JSON`, `InputCompressionType`
//! `GZIP`, `TableCreationParameters` with the table's keys, attribute
//! definitions, billing mode and GSIs; no `LocalSecondaryIndexes`, which
//! `TableCreationParameters` does not have:
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableCreationParameters.html>).

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::types::{InputCompressionType, InputFormat};
use serde::{Deserialize, Serialize};
use stamp::error::{ImportReason, JobError};
use stamp::schema::ImportSource;
use stamp::schema::TableEncryption;
use stamp::{Error, Item, Table, TableDefinition};

use crate::common;

/// A team member, listed by role in `GSI1`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TEAM#<team>"]
#[sk = "MEMBER#<member>"]
#[gsi1(pk = "ROLE#<role>", sk = "<member>")]
struct Member {
    team: String,
    member: String,
    role: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Member>()
}

/// The JSON bodies of the requests a client sends, by operation.
#[derive(Debug, Clone, Default)]
struct Bodies(Arc<Mutex<Vec<(String, serde_json::Value)>>>);

impl aws_sdk_dynamodb::config::Intercept for Bodies {
    fn name(&self) -> &'static str {
        "Bodies"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        let body = serde_json::from_slice(request.body().bytes().unwrap_or_default())
            .unwrap_or(serde_json::Value::Null);
        self.0.lock().unwrap().push((operation, body));
        Ok(())
    }
}

/// A table named `name` on the test server whose client records the
/// bodies of its requests.
fn recorded_table(name: &str) -> (Table, Bodies) {
    let bodies = Bodies::default();
    let config = stamp::local::config(&common::endpoint())
        .retry_config(RetryConfig::disabled())
        .interceptor(bodies.clone())
        .build();
    (Table::new(Client::from_conf(config), name), bodies)
}

#[test]
fn the_import_request_carries_the_create_table_input_in_its_table_creation_parameters() {
    let definition = definition();
    let source = ImportSource::of_export("seed-bucket", "shop/2026-06-01/");
    let input = definition.import_request("shop", &source).unwrap();
    assert_eq!(input.input_format(), Some(&InputFormat::DynamodbJson));
    assert_eq!(
        input.input_compression_type(),
        Some(&InputCompressionType::Gzip)
    );
    assert_eq!(input.client_token(), None);
    let bucket = input.s3_bucket_source().unwrap();
    assert_eq!(bucket.s3_bucket(), "seed-bucket");
    assert_eq!(bucket.s3_key_prefix(), Some("shop/2026-06-01/entity="));
    assert_eq!(bucket.s3_bucket_owner(), None);
    // Field by field, what `CreateTable` of the same definition sends.
    let create = definition.request("shop").unwrap();
    let parameters = input.table_creation_parameters().unwrap();
    assert_eq!(parameters.table_name(), "shop");
    assert_eq!(
        parameters.attribute_definitions(),
        create.attribute_definitions()
    );
    assert_eq!(parameters.key_schema(), create.key_schema());
    assert_eq!(parameters.billing_mode(), create.billing_mode());
    assert_eq!(
        parameters.provisioned_throughput(),
        create.provisioned_throughput()
    );
    assert_eq!(
        parameters.global_secondary_indexes(),
        create.global_secondary_indexes()
    );
    assert_eq!(parameters.sse_specification(), create.sse_specification());
    assert_eq!(parameters.vector_indexes(), create.vector_indexes());

    let entity = ImportSource::of_entity("seed-bucket", "shop", "Member")
        .bucket_owner("111122223333")
        .uncompressed()
        .client_token("seed-1");
    let input = definition.import_request("shop", &entity).unwrap();
    let bucket = input.s3_bucket_source().unwrap();
    assert_eq!(bucket.s3_key_prefix(), Some("shop/entity=Member/"));
    assert_eq!(bucket.s3_bucket_owner(), Some("111122223333"));
    assert_eq!(
        input.input_compression_type(),
        Some(&InputCompressionType::None)
    );
    assert_eq!(input.client_token(), Some("seed-1"));
    // The bucket's root: no prefix at all.
    let root = definition
        .import_request("shop", &ImportSource::s3("seed-bucket", ""))
        .unwrap();
    assert_eq!(root.s3_bucket_source().unwrap().s3_key_prefix(), None);
    assert_eq!(
        ImportSource::of_export("b", "").key_prefix(),
        "entity=",
        "an export at the bucket's root"
    );
}

#[tokio::test]
async fn start_import_sends_exactly_the_import_table_request_the_docs_describe() {
    let (table, bodies) = recorded_table("imported-members");
    let source = ImportSource::of_export("seed-bucket", "teams").client_token("token-1");
    // No local server implements `ImportTable`: whatever it answers, the
    // request as sent is what this test checks.
    let _ = table.start_import(&definition(), &source).await;
    let sent = bodies.0.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].0, "ImportTable");
    let expected = serde_json::json!({
        "ClientToken": "token-1",
        "S3BucketSource": { "S3Bucket": "seed-bucket", "S3KeyPrefix": "teams/entity=" },
        "InputFormat": "DYNAMODB_JSON",
        "InputCompressionType": "GZIP",
        "TableCreationParameters": {
            "TableName": "imported-members",
            "AttributeDefinitions": [
                { "AttributeName": "PK", "AttributeType": "S" },
                { "AttributeName": "SK", "AttributeType": "S" },
                { "AttributeName": "GSI1PK", "AttributeType": "S" },
                { "AttributeName": "GSI1SK", "AttributeType": "S" },
            ],
            "KeySchema": [
                { "AttributeName": "PK", "KeyType": "HASH" },
                { "AttributeName": "SK", "KeyType": "RANGE" },
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "GlobalSecondaryIndexes": [{
                "IndexName": "GSI1",
                "KeySchema": [
                    { "AttributeName": "GSI1PK", "KeyType": "HASH" },
                    { "AttributeName": "GSI1SK", "KeyType": "RANGE" },
                ],
                "Projection": { "ProjectionType": "ALL" },
            }],
        },
    });
    assert_eq!(sent[0].1, expected);

    // Without a token of its own, each call gets a fresh one.
    bodies.0.lock().unwrap().clear();
    let source = ImportSource::of_export("seed-bucket", "teams");
    let _ = table.start_import(&definition(), &source).await;
    let _ = table.start_import(&definition(), &source).await;
    let sent = bodies.0.lock().unwrap().clone();
    let tokens: Vec<&str> = sent
        .iter()
        .map(|(_, body)| body["ClientToken"].as_str().unwrap())
        .collect();
    assert_eq!(tokens.len(), 2);
    assert_ne!(tokens[0], tokens[1]);
    assert_eq!(tokens[0].len(), 36, "a UUID: {}", tokens[0]);
}

#[tokio::test]
async fn an_import_of_a_definition_with_local_indexes_is_refused_before_sending() {
    let (table, bodies) = recorded_table("imported-orders");
    let source = ImportSource::of_export("seed-bucket", "orders");
    let refused = |error: Error| match error {
        Error::Job(JobError::InvalidImport { reason }) => reason,
        other => panic!("{other:?}"),
    };
    let definition = crate::ops::local_indexes::definition();
    let expected = ImportReason::LocalSecondaryIndexes {
        indexes: vec!["LSI1".to_owned(), "LSI2".to_owned()],
    };
    assert_eq!(
        refused(
            definition
                .import_request("imported-orders", &source)
                .unwrap_err()
        ),
        expected
    );
    let error = table.start_import(&definition, &source).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid import: the definition has local secondary indexes (LSI1, LSI2), which `ImportTable` cannot create and no later request can add"
    );
    assert_eq!(refused(error), expected);

    let error = table
        .start_import(&super::import::definition(), &ImportSource::s3("", "x/"))
        .await
        .unwrap_err();
    assert_eq!(refused(error), ImportReason::EmptyBucket);
    // The definition's own checks come first, as for `CreateTable`.
    let error = TableDefinition::new()
        .import_request("shop", &source)
        .unwrap_err();
    assert!(
        matches!(error, Error::Definition(_)),
        "an empty definition: {error:?}"
    );
    assert!(bodies.0.lock().unwrap().is_empty(), "nothing was sent");
}

#[test]
fn what_an_import_leaves_out_is_named() {
    assert_eq!(
        definition().import_leaves_out().unwrap(),
        Vec::<&str>::new()
    );
    // The reference service: TTL on the session's `expires_at`.
    assert_eq!(
        stamp_examples::table_definition()
            .import_leaves_out()
            .unwrap(),
        vec!["TimeToLiveSpecification"]
    );
    let with_settings = definition()
        .deletion_protection(true)
        .tag("team", "shop")
        .encryption(TableEncryption::AwsManaged);
    assert_eq!(
        with_settings.import_leaves_out().unwrap(),
        vec!["Tags", "DeletionProtectionEnabled"]
    );
    // The settings left out are not in the request.
    let input = with_settings
        .import_request("shop", &ImportSource::of_export("b", "p"))
        .unwrap();
    let parameters = input.table_creation_parameters().unwrap();
    assert_eq!(parameters.table_name(), "shop");
    // Encryption is a parameter of the import: it is carried.
    assert_eq!(
        parameters.sse_specification(),
        with_settings.request("shop").unwrap().sse_specification()
    );
    assert!(parameters.sse_specification().is_some());
}
