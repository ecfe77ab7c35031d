//! The table's settings besides keys and indexes (issue 44, point 1):
//! deletion protection, table class, encryption, tags, Contributor
//! Insights, warm and maximum throughput, the resource policy, each in
//! `CreateTable`, in CloudFormation and in the drift check, and each rule
//! DynamoDB documents refused before anything is sent.

use std::num::{NonZeroU32, NonZeroU64};

use aws_sdk_dynamodb::types::{ContributorInsightsAction, SseType, TableClass as SdkTableClass};
use stamp::error::{DefinitionError, TableSettingError};
use stamp::schema::{
    MaxThroughput, SchemaDifference, TableBilling, TableClass, TableEncryption, WarmThroughput,
};
use stamp::{Error, Table, TableDefinition};

use crate::common;

fn units(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).unwrap()
}

const POLICY: &str = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"dynamodb:GetItem","Resource":"*"}]}"#;

/// The reference model with every setting declared.
pub(crate) fn every_setting() -> TableDefinition {
    common::reference_without_vector_indexes()
        .deletion_protection(true)
        .table_class(TableClass::StandardInfrequentAccess)
        .encryption(TableEncryption::CustomerKey("alias/orders".into()))
        .tag("team", "orders")
        .tag("cost-center", "4711")
        .contributor_insights(true)
        .warm_throughput(WarmThroughput {
            read_units_per_second: units(15_000),
            write_units_per_second: units(5_000),
        })
        .index_warm_throughput(
            "GSI1",
            WarmThroughput {
                read_units_per_second: units(13_000),
                write_units_per_second: units(4_500),
            },
        )
        .max_throughput(MaxThroughput {
            max_read_request_units: Some(units(40_000)),
            max_write_request_units: Some(units(10_000)),
        })
        .index_max_throughput(
            "GSI1",
            MaxThroughput {
                max_read_request_units: Some(units(20_000)),
                max_write_request_units: None,
            },
        )
        .resource_policy(POLICY)
}

#[test]
fn every_setting_goes_into_create_table_as_dynamodb_takes_it() {
    let input = every_setting().request("orders").unwrap();
    assert_eq!(input.deletion_protection_enabled(), Some(true));
    assert_eq!(
        input.table_class(),
        Some(&SdkTableClass::StandardInfrequentAccess)
    );
    let sse = input.sse_specification().unwrap();
    assert_eq!(sse.enabled(), Some(true));
    assert_eq!(sse.sse_type(), Some(&SseType::Kms));
    assert_eq!(sse.kms_master_key_id(), Some("alias/orders"));
    let tags: Vec<(&str, &str)> = input
        .tags()
        .iter()
        .map(|tag| (tag.key(), tag.value()))
        .collect();
    assert_eq!(tags, [("team", "orders"), ("cost-center", "4711")]);
    let warm = input.warm_throughput().unwrap();
    assert_eq!(
        (warm.read_units_per_second(), warm.write_units_per_second()),
        (Some(15_000), Some(5_000))
    );
    let max = input.on_demand_throughput().unwrap();
    assert_eq!(
        (max.max_read_request_units(), max.max_write_request_units()),
        (Some(40_000), Some(10_000))
    );
    assert_eq!(input.resource_policy(), Some(POLICY));
    let gsi1 = input
        .global_secondary_indexes()
        .iter()
        .find(|index| index.index_name() == "GSI1")
        .unwrap();
    let warm = gsi1.warm_throughput().unwrap();
    assert_eq!(
        (warm.read_units_per_second(), warm.write_units_per_second()),
        (Some(13_000), Some(4_500))
    );
    let max = gsi1.on_demand_throughput().unwrap();
    assert_eq!(
        (max.max_read_request_units(), max.max_write_request_units()),
        (Some(20_000), None)
    );
    // Another GSI gets neither.
    let gsi2 = input
        .global_secondary_indexes()
        .iter()
        .find(|index| index.index_name() == "GSI2")
        .unwrap();
    assert_eq!(gsi2.warm_throughput(), None);
    assert_eq!(gsi2.on_demand_throughput(), None);
    // Contributor Insights is its own request, sent after CreateTable.
    let insights = every_setting()
        .contributor_insights_request("orders")
        .unwrap();
    assert_eq!(insights.table_name(), Some("orders"));
    assert_eq!(
        insights.contributor_insights_action(),
        Some(&ContributorInsightsAction::Enable)
    );
    assert_eq!(insights.index_name(), None);
}

#[test]
fn no_setting_sends_nothing_new() {
    let definition = common::reference_without_vector_indexes();
    let input = definition.request("orders").unwrap();
    assert_eq!(input.deletion_protection_enabled(), None);
    assert_eq!(input.table_class(), None);
    assert_eq!(input.sse_specification(), None);
    assert!(input.tags().is_empty());
    assert_eq!(input.warm_throughput(), None);
    assert_eq!(input.on_demand_throughput(), None);
    assert_eq!(input.resource_policy(), None);
    assert!(definition.contributor_insights_request("orders").is_none());
    let template = definition.cloudformation().unwrap().to_json_value();
    let properties = &template["Resources"]["Table"]["Properties"];
    for property in [
        "DeletionProtectionEnabled",
        "TableClass",
        "SSESpecification",
        "Tags",
        "ContributorInsightsSpecification",
        "WarmThroughput",
        "OnDemandThroughput",
        "ResourcePolicy",
    ] {
        assert!(properties.get(property).is_none(), "{property}");
    }
}

#[test]
fn an_aws_managed_key_is_kms_without_a_key_id() {
    let input = common::reference_without_vector_indexes()
        .encryption(TableEncryption::AwsManaged)
        .request("orders")
        .unwrap();
    let sse = input.sse_specification().unwrap();
    assert_eq!(sse.enabled(), Some(true));
    assert_eq!(sse.sse_type(), Some(&SseType::Kms));
    assert_eq!(sse.kms_master_key_id(), None);
}

#[test]
fn every_setting_goes_into_cloudformation() {
    let template = every_setting().cloudformation().unwrap().to_json_value();
    let properties = &template["Resources"]["Table"]["Properties"];
    assert_eq!(properties["DeletionProtectionEnabled"], true);
    assert_eq!(properties["TableClass"], "STANDARD_INFREQUENT_ACCESS");
    assert_eq!(
        properties["SSESpecification"],
        serde_json::json!({"SSEEnabled": true, "SSEType": "KMS", "KMSMasterKeyId": "alias/orders"})
    );
    assert_eq!(
        properties["Tags"],
        serde_json::json!([{"Key": "team", "Value": "orders"}, {"Key": "cost-center", "Value": "4711"}])
    );
    assert_eq!(
        properties["ContributorInsightsSpecification"],
        serde_json::json!({"Enabled": true})
    );
    assert_eq!(
        properties["WarmThroughput"],
        serde_json::json!({"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000})
    );
    assert_eq!(
        properties["OnDemandThroughput"],
        serde_json::json!({"MaxReadRequestUnits": 40000, "MaxWriteRequestUnits": 10000})
    );
    assert_eq!(
        properties["ResourcePolicy"]["PolicyDocument"],
        serde_json::from_str::<serde_json::Value>(POLICY).unwrap()
    );
    let gsi1 = properties["GlobalSecondaryIndexes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|index| index["IndexName"] == "GSI1")
        .unwrap();
    assert_eq!(
        gsi1["WarmThroughput"],
        serde_json::json!({"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 4500})
    );
    assert_eq!(
        gsi1["OnDemandThroughput"],
        serde_json::json!({"MaxReadRequestUnits": 20000})
    );
}

/// The definition error in `error`.
fn definition_error(error: Error) -> DefinitionError {
    match error {
        Error::Definition(error) => error,
        other => panic!("expected a definition error, got {other:?}"),
    }
}

/// `definition.request(…)` refuses with `expected`, and so does
/// `create_table`, before sending: no table is made.
async fn refused(definition: TableDefinition, expected: TableSettingError) {
    let expected = format!("{:?}", DefinitionError::TableSetting(expected));
    let debug = |error: Error| format!("{:?}", definition_error(error));
    assert_eq!(debug(definition.request("orders").unwrap_err()), expected);
    assert_eq!(debug(definition.check().unwrap_err()), expected);
    let name = format!("stamp-settings-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(common::client(), name.clone());
    assert_eq!(
        debug(table.create_table(&definition).await.unwrap_err()),
        expected
    );
    let described = table
        .client()
        .describe_table()
        .table_name(&name)
        .send()
        .await;
    assert!(described.is_err(), "the table was created");
}

#[tokio::test]
async fn a_maximum_throughput_on_a_provisioned_table_is_refused_before_sending() {
    let capacity = NonZeroU32::new(5).unwrap();
    let provisioned = || {
        common::reference_without_vector_indexes().billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: capacity,
        })
    };
    refused(
        provisioned().max_throughput(MaxThroughput {
            max_read_request_units: Some(units(100)),
            max_write_request_units: None,
        }),
        TableSettingError::MaxThroughputNotOnDemand,
    )
    .await;
    refused(
        provisioned().index_max_throughput("GSI1", MaxThroughput::default()),
        TableSettingError::MaxThroughputNotOnDemand,
    )
    .await;
}

#[tokio::test]
async fn tags_dynamodb_refuses_are_refused_before_sending() {
    let base = common::reference_without_vector_indexes;
    let mut fifty_one = base();
    for n in 0..51 {
        fifty_one = fifty_one.tag(format!("tag-{n}"), "x");
    }
    refused(
        fifty_one,
        TableSettingError::TooManyTags {
            count: 51,
            limit: 50,
        },
    )
    .await;
    refused(
        base().tag("aws:owner", "me"),
        TableSettingError::InvalidTagKey {
            key: "aws:owner".into(),
            reason: "the prefix `aws:` is reserved for AWS",
        },
    )
    .await;
    refused(
        base().tag("", "x"),
        TableSettingError::InvalidTagKey {
            key: String::new(),
            reason: "a tag key is 1 to 128 characters; this one is empty",
        },
    )
    .await;
    let long = "k".repeat(129);
    refused(
        base().tag(long.clone(), "x"),
        TableSettingError::InvalidTagKey {
            key: long,
            reason: "a tag key is 1 to 128 characters",
        },
    )
    .await;
    refused(
        base().tag("team#1", "x"),
        TableSettingError::InvalidTagKey {
            key: "team#1".into(),
            reason: "a tag key holds letters, white space, numbers and `+ - = . _ : /` only",
        },
    )
    .await;
    refused(
        base().tag("team", "a&b"),
        TableSettingError::InvalidTagValue {
            key: "team".into(),
            value: "a&b".into(),
        },
    )
    .await;
    refused(
        base().tag("team", "v".repeat(257)),
        TableSettingError::InvalidTagValue {
            key: "team".into(),
            value: "v".repeat(257),
        },
    )
    .await;
    refused(
        base().tag("team", "a").tag("team", "b"),
        TableSettingError::DuplicateTagKey { key: "team".into() },
    )
    .await;
    // The edges DynamoDB accepts: 128 and 256 characters (multi-byte ones
    // count as one), an empty value, 50 tags, every allowed symbol.
    let mut fifty = base()
        .tag("ü".repeat(128), "é".repeat(256))
        .tag("empty", "")
        .tag("sym + - = . _ : /", "Ä 1 + - = . _ : /");
    for n in 0..47 {
        fifty = fifty.tag(format!("tag-{n}"), "x");
    }
    fifty.check().unwrap();
}

#[tokio::test]
async fn a_resource_policy_dynamodb_refuses_is_refused_before_sending() {
    let base = common::reference_without_vector_indexes;
    let padding = "x".repeat(20 * 1024);
    let large = format!(r#"{{"Version":"2012-10-17","Sid":"{padding}"}}"#);
    refused(
        base().resource_policy(large.clone()),
        TableSettingError::ResourcePolicyTooLarge {
            bytes: large.len(),
            limit: 20 * 1024,
        },
    )
    .await;
    refused(
        base().resource_policy("[1, 2]"),
        TableSettingError::InvalidResourcePolicy {
            detail: "the policy document is not a JSON object".into(),
        },
    )
    .await;
    refused(
        base().resource_policy("{\"Version\":"),
        TableSettingError::InvalidResourcePolicy {
            detail: "EOF while parsing a value at line 1 column 11".into(),
        },
    )
    .await;
    refused(
        base().encryption(TableEncryption::CustomerKey(" ".into())),
        TableSettingError::EmptyKmsKey,
    )
    .await;
}

#[test]
fn a_setting_for_an_index_that_is_not_a_gsi_is_refused() {
    let known = common::reference_without_vector_indexes()
        .indexes()
        .unwrap()
        .into_iter()
        .filter(|index| !index.is_local())
        .map(|index| index.name)
        .collect::<Vec<_>>();
    let error = common::reference_without_vector_indexes()
        .index_warm_throughput(
            "GSI9",
            WarmThroughput {
                read_units_per_second: units(1),
                write_units_per_second: units(1),
            },
        )
        .check()
        .unwrap_err();
    assert!(matches!(
        definition_error(error),
        DefinitionError::UnknownIndex { index, known: found } if index == "GSI9" && found == known
    ));
}

/// The settings both local servers describe, made on the server and
/// compared: nothing differs; then each differs from another definition.
#[tokio::test]
async fn verify_compares_the_settings_the_table_describes() {
    let made = common::reference_without_vector_indexes()
        .table_class(TableClass::StandardInfrequentAccess)
        .encryption(TableEncryption::AwsManaged)
        .tag("team", "orders")
        .tag("cost-center", "4711")
        .max_throughput(MaxThroughput {
            max_read_request_units: Some(units(40_000)),
            max_write_request_units: Some(units(10_000)),
        });
    let table = common::fresh_table("settings-verify", &made).await;
    assert_eq!(table.verify(&made).await.unwrap(), []);

    let other = common::reference_without_vector_indexes()
        .deletion_protection(true)
        .tag("team", "payments");
    let mut differences = table.verify(&other).await.unwrap();
    differences.sort_by_key(|difference| format!("{difference:?}"));
    assert_eq!(
        differences,
        [
            SchemaDifference::DeletionProtection {
                expected: true,
                found: false,
            },
            SchemaDifference::Encryption {
                expected: "AWS owned key".into(),
                found: format!(
                    "KMS key {}",
                    table
                        .client()
                        .describe_table()
                        .table_name(table.name())
                        .send()
                        .await
                        .unwrap()
                        .table()
                        .unwrap()
                        .sse_description()
                        .unwrap()
                        .kms_master_key_arn()
                        .unwrap_or_default()
                )
                .trim_end()
                .to_owned(),
            },
            SchemaDifference::MaxThroughput {
                index: None,
                expected: None,
                found: Some(MaxThroughput {
                    max_read_request_units: Some(units(40_000)),
                    max_write_request_units: Some(units(10_000)),
                }),
            },
            SchemaDifference::TableClass {
                expected: "STANDARD".into(),
                found: "STANDARD_INFREQUENT_ACCESS".into(),
            },
            SchemaDifference::Tags {
                expected: vec![("team".into(), "payments".into())],
                found: vec![
                    ("cost-center".into(), "4711".into()),
                    ("team".into(), "orders".into()),
                ],
            },
        ]
    );
    table.delete_table().await.unwrap();
}
