//! The shapes of the template's document: each CloudFormation property a
//! table resource takes, serialized by serde as the resource spells it.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Template {
    #[serde(rename = "AWSTemplateFormatVersion")]
    pub(super) format_version: &'static str,
    pub(super) description: String,
    pub(super) parameters: BTreeMap<&'static str, Parameter>,
    pub(super) resources: BTreeMap<&'static str, Resource>,
    pub(super) outputs: BTreeMap<&'static str, Output>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Parameter {
    pub(super) r#type: &'static str,
    pub(super) description: &'static str,
    pub(super) min_length: u32,
    pub(super) max_length: u32,
    pub(super) allowed_pattern: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Resource {
    pub(super) r#type: &'static str,
    pub(super) deletion_policy: &'static str,
    pub(super) update_replace_policy: &'static str,
    pub(super) properties: Properties,
}

/// The properties of `AWS::DynamoDB::Table`, or of
/// `AWS::DynamoDB::GlobalTable` when the definition declares a global table.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(super) enum Properties {
    Table(Box<TableProperties>),
    Global(Box<super::global::GlobalTableProperties>),
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct TableProperties {
    pub(super) table_name: Ref,
    pub(super) billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) provisioned_throughput: Option<Throughput>,
    pub(super) attribute_definitions: Vec<AttributeDefinition>,
    pub(super) key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) local_secondary_indexes: Vec<LocalSecondaryIndex>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) vector_indexes: Vec<VectorIndex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) time_to_live_specification: Option<TimeToLiveSpecification>,
    pub(super) point_in_time_recovery_specification: PointInTimeRecoverySpecification,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) stream_specification: Option<StreamSpecification>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) table_class: Option<&'static str>,
    #[serde(rename = "SSESpecification", skip_serializing_if = "Option::is_none")]
    pub(super) sse_specification: Option<SseSpecification>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) tags: Vec<Tag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) contributor_insights_specification: Option<ContributorInsightsSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) on_demand_throughput: Option<OnDemandThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) resource_policy: Option<ResourcePolicy>,
}

/// `AWS::DynamoDB::Table SSESpecification`.
#[derive(Debug, Clone, Serialize)]
pub(super) struct SseSpecification {
    #[serde(rename = "SSEEnabled")]
    pub(super) enabled: bool,
    #[serde(rename = "SSEType")]
    pub(super) sse_type: &'static str,
    #[serde(rename = "KMSMasterKeyId", skip_serializing_if = "Option::is_none")]
    pub(super) kms_master_key_id: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Tag {
    pub(super) key: String,
    pub(super) value: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct ContributorInsightsSpecification {
    pub(super) enabled: bool,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct WarmThroughput {
    pub(super) read_units_per_second: u64,
    pub(super) write_units_per_second: u64,
}

impl From<crate::schema::WarmThroughput> for WarmThroughput {
    fn from(warm: crate::schema::WarmThroughput) -> Self {
        WarmThroughput {
            read_units_per_second: warm.read_units_per_second.get(),
            write_units_per_second: warm.write_units_per_second.get(),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct OnDemandThroughput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) max_read_request_units: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) max_write_request_units: Option<u64>,
}

impl From<crate::schema::MaxThroughput> for OnDemandThroughput {
    fn from(max: crate::schema::MaxThroughput) -> Self {
        OnDemandThroughput {
            max_read_request_units: max.max_read_request_units.map(|units| units.get()),
            max_write_request_units: max.max_write_request_units.map(|units| units.get()),
        }
    }
}

/// `AWS::DynamoDB::Table ResourcePolicy`: the policy document as JSON.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct ResourcePolicy {
    pub(super) policy_document: serde_json::Value,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct StreamSpecification {
    pub(super) stream_view_type: String,
}

#[derive(Debug, Clone, Serialize)]
pub(super) struct Ref {
    #[serde(rename = "Ref")]
    pub(super) name: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub(super) struct GetAtt {
    #[serde(rename = "Fn::GetAtt")]
    pub(super) attribute: [&'static str; 2],
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Throughput {
    pub(super) read_capacity_units: i64,
    pub(super) write_capacity_units: i64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct AttributeDefinition {
    pub(super) attribute_name: &'static str,
    pub(super) attribute_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct KeySchemaElement {
    pub(super) attribute_name: &'static str,
    pub(super) key_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct GlobalSecondaryIndex {
    pub(super) index_name: &'static str,
    pub(super) key_schema: Vec<KeySchemaElement>,
    pub(super) projection: Projection,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) provisioned_throughput: Option<Throughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) on_demand_throughput: Option<OnDemandThroughput>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct LocalSecondaryIndex {
    pub(super) index_name: &'static str,
    pub(super) key_schema: Vec<KeySchemaElement>,
    pub(super) projection: Projection,
}

/// `AWS::DynamoDB::Table VectorIndex`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct VectorIndex {
    pub(super) index_name: &'static str,
    pub(super) vector_attribute: VectorAttribute,
    pub(super) dimensions: u32,
    pub(super) distance_function: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) search_schema: Vec<SearchSchemaElement>,
    pub(super) projection: Projection,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct VectorAttribute {
    pub(super) attribute_name: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct SearchSchemaElement {
    pub(super) attribute_name: &'static str,
    pub(super) search_schema_element_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Projection {
    pub(super) projection_type: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) non_key_attributes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct TimeToLiveSpecification {
    pub(super) attribute_name: &'static str,
    pub(super) enabled: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct PointInTimeRecoverySpecification {
    pub(super) point_in_time_recovery_enabled: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(super) enum OutputValue {
    Ref(Ref),
    GetAtt(GetAtt),
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Output {
    pub(super) description: &'static str,
    pub(super) value: OutputValue,
}

pub(super) fn key_schema(
    partition_key: &'static str,
    sort_key: Option<&'static str>,
) -> Vec<KeySchemaElement> {
    let mut schema = vec![KeySchemaElement {
        attribute_name: partition_key,
        key_type: "HASH",
    }];
    schema.extend(sort_key.map(|name| KeySchemaElement {
        attribute_name: name,
        key_type: "RANGE",
    }));
    schema
}
