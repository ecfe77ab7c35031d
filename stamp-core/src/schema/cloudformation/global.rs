//! The `AWS::DynamoDB::GlobalTable` resource of a definition that declares
//! a [`GlobalTable`](crate::GlobalTable): the table's properties moved to
//! where that resource takes them (table-wide, or per replica).
//!
//! See <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html>.

use serde::Serialize;

use super::{
    AttributeDefinition, ContributorInsightsSpecification, KeySchemaElement, LocalSecondaryIndex,
    OnDemandThroughput, PointInTimeRecoverySpecification, Projection, Ref, ResourcePolicy,
    StreamSpecification, TableProperties, Tag, Throughput, TimeToLiveSpecification, WarmThroughput,
};
use crate::schema::{GlobalTable, MultiRegionConsistency, TableEncryption};

/// The target utilisation of the write auto scaling a provisioned global
/// table needs (CloudFormation takes its write capacity only as auto
/// scaling settings); with the minimum equal to the maximum it never moves.
const TARGET_UTILIZATION: f64 = 70.0;

/// `AWS::DynamoDB::GlobalTable` properties.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct GlobalTableProperties {
    table_name: Ref,
    billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_provisioned_throughput_settings: Option<WriteProvisionedThroughputSettings>,
    attribute_definitions: Vec<AttributeDefinition>,
    key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    local_secondary_indexes: Vec<LocalSecondaryIndex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_to_live_specification: Option<TimeToLiveSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_specification: Option<StreamSpecification>,
    #[serde(rename = "SSESpecification", skip_serializing_if = "Option::is_none")]
    sse_specification: Option<SseSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_on_demand_throughput_settings: Option<WriteOnDemand>,
    multi_region_consistency: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    global_table_witnesses: Vec<Witness>,
    replicas: Vec<ReplicaSpecification>,
}

impl GlobalTableProperties {
    /// Whether the resource has a stream (and so the output `StreamArn`).
    pub(super) fn has_stream(&self) -> bool {
        self.stream_specification.is_some()
    }
}

/// `SSESpecification` of the global table: the key's owner only; a
/// customer managed key is per replica.
#[derive(Debug, Clone, Serialize)]
struct SseSpecification {
    #[serde(rename = "SSEEnabled")]
    enabled: bool,
    #[serde(rename = "SSEType")]
    sse_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
struct ReplicaSseSpecification {
    #[serde(rename = "KMSMasterKeyId")]
    kms_master_key_id: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct WriteProvisionedThroughputSettings {
    write_capacity_auto_scaling_settings: AutoScaling,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct AutoScaling {
    min_capacity: i64,
    max_capacity: i64,
    target_tracking_scaling_policy_configuration: TargetTracking,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TargetTracking {
    target_value: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReadProvisioned {
    read_capacity_units: i64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct WriteOnDemand {
    max_write_request_units: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReadOnDemand {
    max_read_request_units: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Witness {
    region: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct GlobalSecondaryIndex {
    index_name: &'static str,
    key_schema: Vec<KeySchemaElement>,
    projection: Projection,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_provisioned_throughput_settings: Option<WriteProvisionedThroughputSettings>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    write_on_demand_throughput_settings: Option<WriteOnDemand>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReplicaGlobalSecondaryIndex {
    index_name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_provisioned_throughput_settings: Option<ReadProvisioned>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_on_demand_throughput_settings: Option<ReadOnDemand>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ReplicaSpecification {
    region: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_class: Option<&'static str>,
    point_in_time_recovery_specification: PointInTimeRecoverySpecification,
    #[serde(rename = "SSESpecification", skip_serializing_if = "Option::is_none")]
    sse_specification: Option<ReplicaSseSpecification>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<Tag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contributor_insights_specification: Option<ContributorInsightsSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_policy: Option<ResourcePolicy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_provisioned_throughput_settings: Option<ReadProvisioned>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_on_demand_throughput_settings: Option<ReadOnDemand>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    global_secondary_indexes: Vec<ReplicaGlobalSecondaryIndex>,
}

/// Write capacity as the auto scaling a provisioned global table takes,
/// pinned at the declared units.
fn write_scaling(throughput: &Option<Throughput>) -> Option<WriteProvisionedThroughputSettings> {
    throughput
        .as_ref()
        .map(|throughput| WriteProvisionedThroughputSettings {
            write_capacity_auto_scaling_settings: AutoScaling {
                min_capacity: throughput.write_capacity_units,
                max_capacity: throughput.write_capacity_units,
                target_tracking_scaling_policy_configuration: TargetTracking {
                    target_value: TARGET_UTILIZATION,
                },
            },
        })
}

fn read_provisioned(throughput: &Option<Throughput>) -> Option<ReadProvisioned> {
    throughput.as_ref().map(|throughput| ReadProvisioned {
        read_capacity_units: throughput.read_capacity_units,
    })
}

fn read_on_demand(max: &Option<OnDemandThroughput>) -> Option<ReadOnDemand> {
    max.and_then(|max| max.max_read_request_units)
        .map(|units| ReadOnDemand {
            max_read_request_units: units,
        })
}

fn write_on_demand(max: &Option<OnDemandThroughput>) -> Option<WriteOnDemand> {
    max.and_then(|max| max.max_write_request_units)
        .map(|units| WriteOnDemand {
            max_write_request_units: units,
        })
}

/// The global table's properties from the single table's: keys, indexes,
/// TTL, stream, the key's owner, warm throughput and the maximum write
/// throughput stay table-wide; deletion protection, table class, point-in-time
/// recovery, tags, Contributor Insights, the resource policy, a customer
/// managed key, read capacity and the maximum read throughput go into each
/// replica. An eventually consistent global table has a stream
/// (`NEW_AND_OLD_IMAGES` unless the definition chose a view): DynamoDB
/// replicates through it, and CloudFormation needs `StreamSpecification`
/// for more than one replica.
pub(super) fn properties(
    table: TableProperties,
    global: &GlobalTable,
    encryption: &TableEncryption,
) -> GlobalTableProperties {
    let replica_indexes: Vec<ReplicaGlobalSecondaryIndex> = table
        .global_secondary_indexes
        .iter()
        .filter(|index| {
            index.provisioned_throughput.is_some()
                || read_on_demand(&index.on_demand_throughput).is_some()
        })
        .map(|index| ReplicaGlobalSecondaryIndex {
            index_name: index.index_name,
            read_provisioned_throughput_settings: read_provisioned(&index.provisioned_throughput),
            read_on_demand_throughput_settings: read_on_demand(&index.on_demand_throughput),
        })
        .collect();
    let replicas = global
        .replicas
        .iter()
        .map(|replica| {
            let kms_key = replica.kms_key.clone().or(match encryption {
                TableEncryption::CustomerKey(key) => Some(key.clone()),
                TableEncryption::AwsOwned | TableEncryption::AwsManaged => None,
            });
            ReplicaSpecification {
                region: replica.region.clone(),
                deletion_protection_enabled: table.deletion_protection_enabled,
                table_class: replica
                    .table_class
                    .map(|class| class.as_str())
                    .or(table.table_class),
                point_in_time_recovery_specification: table
                    .point_in_time_recovery_specification
                    .clone(),
                sse_specification: kms_key.map(|key| ReplicaSseSpecification {
                    kms_master_key_id: key,
                }),
                tags: table.tags.clone(),
                contributor_insights_specification: table
                    .contributor_insights_specification
                    .clone(),
                resource_policy: table.resource_policy.clone(),
                read_provisioned_throughput_settings: read_provisioned(
                    &table.provisioned_throughput,
                ),
                read_on_demand_throughput_settings: replica
                    .max_read_request_units
                    .map(|units| ReadOnDemand {
                        max_read_request_units: units.get(),
                    })
                    .or_else(|| read_on_demand(&table.on_demand_throughput)),
                global_secondary_indexes: replica_indexes.clone(),
            }
        })
        .collect();
    let stream_specification = match global.consistency {
        MultiRegionConsistency::Eventual => Some(table.stream_specification.clone().unwrap_or(
            StreamSpecification {
                stream_view_type: "NEW_AND_OLD_IMAGES".to_owned(),
            },
        )),
        MultiRegionConsistency::Strong => table.stream_specification.clone(),
    };
    GlobalTableProperties {
        write_provisioned_throughput_settings: write_scaling(&table.provisioned_throughput),
        global_secondary_indexes: table
            .global_secondary_indexes
            .into_iter()
            .map(|index| GlobalSecondaryIndex {
                write_provisioned_throughput_settings: write_scaling(&index.provisioned_throughput),
                write_on_demand_throughput_settings: write_on_demand(&index.on_demand_throughput),
                index_name: index.index_name,
                key_schema: index.key_schema,
                projection: index.projection,
                warm_throughput: index.warm_throughput,
            })
            .collect(),
        table_name: table.table_name,
        billing_mode: table.billing_mode,
        attribute_definitions: table.attribute_definitions,
        key_schema: table.key_schema,
        local_secondary_indexes: table.local_secondary_indexes,
        time_to_live_specification: table.time_to_live_specification,
        stream_specification,
        sse_specification: table.sse_specification.map(|sse| SseSpecification {
            enabled: sse.enabled,
            sse_type: sse.sse_type,
        }),
        warm_throughput: table.warm_throughput,
        write_on_demand_throughput_settings: write_on_demand(&table.on_demand_throughput),
        multi_region_consistency: global.consistency.as_str(),
        global_table_witnesses: global
            .witness
            .iter()
            .map(|region| Witness {
                region: region.clone(),
            })
            .collect(),
        replicas,
    }
}
