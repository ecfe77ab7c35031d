//! Global tables (issue 44, point 2): replicas by Region, multi-Region
//! eventual or strong consistency with a witness, each rule DynamoDB
//! documents refused before anything is sent, the `UpdateTable` requests
//! that add the replicas (built and checked as built: embedded servers do
//! not replicate across Regions), the `AWS::DynamoDB::GlobalTable`
//! template, and the drift check of the replicas.
//!
//! The rules are those of "How DynamoDB global tables work"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html>).

use std::num::{NonZeroU32, NonZeroU64};

use aws_sdk_dynamodb::types::{MultiRegionConsistency as SdkConsistency, TableClass as SdkClass};
use proptest::prelude::*;
use stamp::error::{DefinitionError, GlobalTableError};
use stamp::schema::{
    GlobalTable, MultiRegionConsistency, Replica, STRONG_CONSISTENCY_REGION_SETS, SchemaDifference,
    TableBilling, TableClass, TableEncryption,
};
use stamp::{Error, Table, TableDefinition};

use crate::common;

/// Customers and line items: no TTL, no LSI, no vector index, so strong
/// consistency allows them.
fn plain() -> TableDefinition {
    TableDefinition::new()
        .entity::<stamp_examples::Customer>()
        .entity::<stamp_examples::LineItem>()
}

fn eventual() -> GlobalTable {
    GlobalTable::new(MultiRegionConsistency::Eventual)
        .replica("us-east-1")
        .replica(
            Replica::new("eu-west-1")
                .table_class(TableClass::StandardInfrequentAccess)
                .kms_key("arn:aws:kms:eu-west-1:111122223333:key/eu-key")
                .max_read_request_units(NonZeroU64::new(300).unwrap()),
        )
        .replica("ap-southeast-2")
}

fn strong_with_witness() -> GlobalTable {
    GlobalTable::new(MultiRegionConsistency::Strong)
        .replica("us-east-1")
        .replica("us-east-2")
        .witness("us-west-2")
}

/// The global-table error of `result`.
fn global_error<T: std::fmt::Debug>(result: Result<T, Error>) -> GlobalTableError {
    match result.unwrap_err() {
        Error::Definition(DefinitionError::GlobalTable(error)) => error,
        other => panic!("expected a global-table error, got {other:?}"),
    }
}

/// `definition` is refused with `expected` by `check`, `request`,
/// `cloudformation`, `replica_requests` and `create_table`, before sending:
/// no table is made.
async fn refused(definition: TableDefinition, expected: GlobalTableError) {
    assert_eq!(global_error(definition.check()), expected);
    assert_eq!(global_error(definition.request("orders")), expected);
    assert_eq!(global_error(definition.cloudformation()), expected);
    assert_eq!(
        global_error(definition.replica_requests("orders", "us-east-1")),
        expected
    );
    let name = format!("stamp-global-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(common::client(), name.clone());
    assert_eq!(
        global_error(table.create_table(&definition).await),
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
async fn a_global_table_has_two_or_more_replicas_one_per_region() {
    refused(
        plain().global_table(GlobalTable::new(MultiRegionConsistency::Eventual)),
        GlobalTableError::TooFewReplicas { count: 0 },
    )
    .await;
    refused(
        plain()
            .global_table(GlobalTable::new(MultiRegionConsistency::Eventual).replica("us-east-1")),
        GlobalTableError::TooFewReplicas { count: 1 },
    )
    .await;
    refused(
        plain().global_table(
            GlobalTable::new(MultiRegionConsistency::Eventual)
                .replica("us-east-1")
                .replica(Replica::new("us-east-1").table_class(TableClass::Standard)),
        ),
        GlobalTableError::DuplicateRegion {
            region: "us-east-1".into(),
        },
    )
    .await;
    refused(
        plain().global_table(
            GlobalTable::new(MultiRegionConsistency::Eventual)
                .replica("us-east-1")
                .replica("US East (Ohio)"),
        ),
        GlobalTableError::InvalidRegion {
            region: "US East (Ohio)".into(),
        },
    )
    .await;
}

#[tokio::test]
async fn a_witness_is_for_strong_consistency_only() {
    refused(
        plain().global_table(eventual().witness("us-west-2")),
        GlobalTableError::WitnessWithoutStrongConsistency {
            region: "us-west-2".into(),
        },
    )
    .await;
}

#[tokio::test]
async fn strong_consistency_needs_exactly_three_regions() {
    let strong = || GlobalTable::new(MultiRegionConsistency::Strong);
    refused(
        plain().global_table(strong().replica("us-east-1").replica("us-east-2")),
        GlobalTableError::StrongConsistencyRegionCount {
            replicas: 2,
            witnesses: 0,
        },
    )
    .await;
    refused(
        plain().global_table(strong().replica("us-east-1").witness("us-east-2")),
        GlobalTableError::StrongConsistencyRegionCount {
            replicas: 1,
            witnesses: 1,
        },
    )
    .await;
    refused(
        plain().global_table(
            strong()
                .replica("eu-west-1")
                .replica("eu-west-2")
                .replica("eu-west-3")
                .witness("eu-central-1"),
        ),
        GlobalTableError::StrongConsistencyRegionCount {
            replicas: 3,
            witnesses: 1,
        },
    )
    .await;
    refused(
        plain().global_table(
            strong()
                .replica("us-east-1")
                .replica("us-east-2")
                .witness("us-east-2"),
        ),
        GlobalTableError::DuplicateRegion {
            region: "us-east-2".into(),
        },
    )
    .await;
}

#[tokio::test]
async fn strong_consistency_stays_in_one_region_set_that_offers_it() {
    refused(
        plain().global_table(
            GlobalTable::new(MultiRegionConsistency::Strong)
                .replica("us-east-1")
                .replica("us-west-1")
                .witness("us-west-2"),
        ),
        GlobalTableError::RegionWithoutStrongConsistency {
            region: "us-west-1".into(),
        },
    )
    .await;
    refused(
        plain().global_table(
            GlobalTable::new(MultiRegionConsistency::Strong)
                .replica("us-east-1")
                .replica("eu-west-1")
                .witness("us-west-2"),
        ),
        GlobalTableError::RegionSetsMixed {
            first: "us-east-1".into(),
            second: "eu-west-1".into(),
        },
    )
    .await;
}

#[tokio::test]
async fn strong_consistency_refuses_time_to_live_and_local_indexes() {
    // The reference Session expires on `expires_at`.
    refused(
        TableDefinition::new()
            .entity::<stamp_examples::Session>()
            .global_table(strong_with_witness()),
        GlobalTableError::StrongConsistencyWithTimeToLive {
            attribute: "expires_at",
        },
    )
    .await;
    refused(
        crate::ops::local_indexes::definition().global_table(strong_with_witness()),
        GlobalTableError::StrongConsistencyWithLocalIndex { index: "LSI1" },
    )
    .await;
    // Eventual consistency allows both.
    TableDefinition::new()
        .entity::<stamp_examples::Session>()
        .global_table(eventual())
        .check()
        .unwrap();
    crate::ops::local_indexes::definition()
        .global_table(eventual())
        .check()
        .unwrap();
}

/// Every MRSC topology DynamoDB allows passes: any three Regions of one
/// set, as three replicas or two and a witness.
#[test]
fn every_three_regions_of_one_set_pass() {
    for (_, set) in STRONG_CONSISTENCY_REGION_SETS {
        for a in 0..set.len() {
            for b in 0..set.len() {
                for c in 0..set.len() {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    let replicas = GlobalTable::new(MultiRegionConsistency::Strong)
                        .replica(set[a])
                        .replica(set[b]);
                    plain()
                        .global_table(replicas.clone().replica(set[c]))
                        .check()
                        .unwrap();
                    plain()
                        .global_table(replicas.witness(set[c]))
                        .check()
                        .unwrap();
                }
            }
        }
    }
}

/// The Region sets, as DynamoDB lists them.
#[test]
fn the_region_sets_are_dynamodbs() {
    assert_eq!(
        STRONG_CONSISTENCY_REGION_SETS,
        &[
            ("US", &["us-east-1", "us-east-2", "us-west-2"][..]),
            (
                "EU",
                &["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"][..]
            ),
            (
                "AP",
                &["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"][..]
            ),
        ]
    );
}

/// The set of strong consistency `region` is in, in the plain model.
fn set_of(region: &str) -> Option<usize> {
    let sets: [&[&str]; 3] = [
        &["us-east-1", "us-east-2", "us-west-2"],
        &["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"],
        &["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"],
    ];
    sets.iter().position(|set| set.contains(&region))
}

const REGIONS: &[&str] = &[
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-central-1",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ap-southeast-2",
];

proptest! {
    /// For any replicas and witness, `check` passes exactly when the plain
    /// model of DynamoDB's rules says the topology is allowed.
    #[test]
    fn check_accepts_exactly_the_allowed_topologies(
        strong in any::<bool>(),
        replicas in prop::collection::vec(prop::sample::select(REGIONS), 0..5),
        witness in prop::option::of(prop::sample::select(REGIONS)),
    ) {
        let consistency = if strong {
            MultiRegionConsistency::Strong
        } else {
            MultiRegionConsistency::Eventual
        };
        let mut global = GlobalTable::new(consistency);
        for region in &replicas {
            global = global.replica(*region);
        }
        if let Some(witness) = witness {
            global = global.witness(witness);
        }
        let mut regions = replicas.clone();
        regions.extend(witness);
        let distinct = regions
            .iter()
            .enumerate()
            .all(|(i, region)| !regions[..i].contains(region));
        let allowed = distinct
            && if strong {
                regions.len() == 3
                    && set_of(regions[0]).is_some()
                    && regions.iter().all(|region| set_of(region) == set_of(regions[0]))
            } else {
                witness.is_none() && replicas.len() >= 2
            };
        prop_assert_eq!(plain().global_table(global).check().is_ok(), allowed);
    }
}

#[test]
fn eventual_replicas_are_added_one_request_each_with_their_overrides() {
    let definition = plain()
        .encryption(TableEncryption::CustomerKey(
            "arn:aws:kms:us-east-1:111122223333:key/home-key".into(),
        ))
        .global_table(eventual());
    let requests = definition.replica_requests("orders", "us-east-1").unwrap();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(request.table_name(), Some("orders"));
        assert_eq!(request.multi_region_consistency(), None);
        assert!(request.global_table_witness_updates().is_empty());
        assert_eq!(request.replica_updates().len(), 1);
        assert!(request.replica_updates()[0].delete().is_none());
    }
    let eu = requests[0].replica_updates()[0].create().unwrap();
    assert_eq!(eu.region_name(), "eu-west-1");
    assert_eq!(
        eu.kms_master_key_id(),
        Some("arn:aws:kms:eu-west-1:111122223333:key/eu-key")
    );
    assert_eq!(
        eu.table_class_override(),
        Some(&SdkClass::StandardInfrequentAccess)
    );
    assert_eq!(
        eu.on_demand_throughput_override()
            .unwrap()
            .max_read_request_units(),
        Some(300)
    );
    let ap = requests[1].replica_updates()[0].create().unwrap();
    assert_eq!(ap.region_name(), "ap-southeast-2");
    // The definition's customer key, for a replica without its own.
    assert_eq!(
        ap.kms_master_key_id(),
        Some("arn:aws:kms:us-east-1:111122223333:key/home-key")
    );
    assert_eq!(ap.table_class_override(), None);
    assert!(ap.on_demand_throughput_override().is_none());
    // From another home Region, the other two.
    let from_eu = definition.replica_requests("orders", "eu-west-1").unwrap();
    let regions: Vec<&str> = from_eu
        .iter()
        .map(|request| request.replica_updates()[0].create().unwrap().region_name())
        .collect();
    assert_eq!(regions, ["us-east-1", "ap-southeast-2"]);
}

#[test]
fn strong_consistency_is_one_request_with_the_replica_and_the_witness() {
    let requests = plain()
        .global_table(strong_with_witness())
        .replica_requests("orders", "us-east-1")
        .unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        request.multi_region_consistency(),
        Some(&SdkConsistency::Strong)
    );
    let creates: Vec<&str> = request
        .replica_updates()
        .iter()
        .map(|update| update.create().unwrap().region_name())
        .collect();
    assert_eq!(creates, ["us-east-2"]);
    let witnesses: Vec<&str> = request
        .global_table_witness_updates()
        .iter()
        .map(|update| update.create().unwrap().region_name())
        .collect();
    assert_eq!(witnesses, ["us-west-2"]);

    let three = plain()
        .global_table(
            GlobalTable::new(MultiRegionConsistency::Strong)
                .replica("eu-west-1")
                .replica("eu-central-1")
                .replica("eu-west-3"),
        )
        .replica_requests("orders", "eu-central-1")
        .unwrap();
    assert_eq!(three.len(), 1);
    let creates: Vec<&str> = three[0]
        .replica_updates()
        .iter()
        .map(|update| update.create().unwrap().region_name())
        .collect();
    assert_eq!(creates, ["eu-west-1", "eu-west-3"]);
    assert!(three[0].global_table_witness_updates().is_empty());
}

#[test]
fn replica_requests_need_a_global_table_and_a_home_replica() {
    assert_eq!(
        global_error(plain().replica_requests("orders", "us-east-1")),
        GlobalTableError::NotGlobal
    );
    assert_eq!(
        global_error(
            plain()
                .global_table(strong_with_witness())
                .replica_requests("orders", "us-west-2")
        ),
        GlobalTableError::HomeRegionNotReplica {
            region: "us-west-2".into()
        }
    );
}

#[test]
fn a_global_table_is_one_global_table_resource() {
    let capacity = NonZeroU32::new(5).unwrap();
    let template = plain()
        .billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: NonZeroU32::new(7).unwrap(),
        })
        .deletion_protection(true)
        .tag("team", "orders")
        .encryption(TableEncryption::CustomerKey("alias/orders".into()))
        .global_table(eventual())
        .cloudformation()
        .unwrap()
        .to_json_value();
    let resource = &template["Resources"]["Table"];
    assert_eq!(resource["Type"], "AWS::DynamoDB::GlobalTable");
    let properties = &resource["Properties"];
    assert_eq!(properties["MultiRegionConsistency"], "EVENTUAL");
    assert_eq!(properties["BillingMode"], "PROVISIONED");
    assert_eq!(
        properties["WriteProvisionedThroughputSettings"],
        serde_json::json!({"WriteCapacityAutoScalingSettings": {
            "MinCapacity": 7, "MaxCapacity": 7,
            "TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}})
    );
    // DynamoDB replicates an MREC table through its stream.
    assert_eq!(
        properties["StreamSpecification"],
        serde_json::json!({"StreamViewType": "NEW_AND_OLD_IMAGES"})
    );
    assert_eq!(
        properties["SSESpecification"],
        serde_json::json!({"SSEEnabled": true, "SSEType": "KMS"})
    );
    assert!(properties.get("ProvisionedThroughput").is_none());
    assert!(properties.get("DeletionProtectionEnabled").is_none());
    assert!(properties.get("GlobalTableWitnesses").is_none());
    let replicas = properties["Replicas"].as_array().unwrap();
    let regions: Vec<&str> = replicas
        .iter()
        .map(|replica| replica["Region"].as_str().unwrap())
        .collect();
    assert_eq!(regions, ["us-east-1", "eu-west-1", "ap-southeast-2"]);
    assert_eq!(
        replicas[0],
        serde_json::json!({
            "Region": "us-east-1",
            "DeletionProtectionEnabled": true,
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true},
            "SSESpecification": {"KMSMasterKeyId": "alias/orders"},
            "Tags": [{"Key": "team", "Value": "orders"}],
            "ReadProvisionedThroughputSettings": {"ReadCapacityUnits": 5},
            "GlobalSecondaryIndexes": [{
                "IndexName": "GSI2",
                "ReadProvisionedThroughputSettings": {"ReadCapacityUnits": 5}
            }]
        })
    );
    assert_eq!(replicas[1]["TableClass"], "STANDARD_INFREQUENT_ACCESS");
    assert_eq!(
        replicas[1]["SSESpecification"]["KMSMasterKeyId"],
        "arn:aws:kms:eu-west-1:111122223333:key/eu-key"
    );
    assert_eq!(
        replicas[1]["ReadOnDemandThroughputSettings"]["MaxReadRequestUnits"],
        300
    );
    assert_eq!(
        template["Outputs"]["StreamArn"]["Value"]["Fn::GetAtt"][1],
        "StreamArn"
    );
}

#[test]
fn a_strong_global_table_names_its_witness() {
    let template = plain()
        .global_table(strong_with_witness())
        .cloudformation()
        .unwrap()
        .to_json_value();
    let properties = &template["Resources"]["Table"]["Properties"];
    assert_eq!(properties["MultiRegionConsistency"], "STRONG");
    assert_eq!(
        properties["GlobalTableWitnesses"],
        serde_json::json!([{"Region": "us-west-2"}])
    );
    // MRSC does not replicate through a stream: none unless declared.
    assert!(properties.get("StreamSpecification").is_none());
    assert!(template["Outputs"].get("StreamArn").is_none());
    assert_eq!(properties["Replicas"].as_array().unwrap().len(), 2);
}

#[test]
fn a_vector_index_cannot_go_into_a_global_table_template() {
    let definition = stamp_examples::table_definition().global_table(eventual());
    definition.check().unwrap();
    assert_eq!(
        global_error(definition.cloudformation()),
        GlobalTableError::VectorIndexInCloudFormation { index: "VECTOR1" }
    );
}

/// On a server (which does not replicate), the drift check reports the
/// replicas and the witness the definition declares and the table lacks;
/// a single-Region definition finds nothing.
#[tokio::test]
async fn verify_reports_the_missing_replicas_and_witness() {
    let table = common::fresh_table("global-verify", &plain()).await;
    assert_eq!(table.verify(&plain()).await.unwrap(), []);
    let differences = table
        .verify(&plain().global_table(strong_with_witness()))
        .await
        .unwrap();
    assert_eq!(
        differences,
        [
            SchemaDifference::Replicas {
                expected: vec!["us-east-1".into(), "us-east-2".into()],
                found: vec![],
            },
            SchemaDifference::Witness {
                expected: Some("us-west-2".into()),
                found: None,
            },
        ]
    );
    assert_eq!(
        differences[0].to_string(),
        "the replicas are in none (a single-Region table), expected us-east-1, us-east-2"
    );
    assert_eq!(
        differences[1].to_string(),
        "the witness is none, expected `us-west-2`"
    );
}

/// An eventually consistent global table with every table setting (the
/// settings test's definition, whose entities have a TTL), for cfn-lint.
pub(crate) fn eventual_definition() -> TableDefinition {
    crate::schema::settings::every_setting().global_table(eventual())
}

/// A strongly consistent global table with a witness and the settings
/// strong consistency allows, for cfn-lint.
pub(crate) fn strong_definition() -> TableDefinition {
    plain()
        .deletion_protection(true)
        .tag("team", "orders")
        .encryption(TableEncryption::AwsManaged)
        .contributor_insights(true)
        .global_table(strong_with_witness())
}

/// The plain entities as an eventually consistent global table (no
/// maximum throughput, so it can be provisioned), for cfn-lint.
pub(crate) fn plain_eventual() -> TableDefinition {
    plain().global_table(eventual())
}
