//! The CloudFormation template of a [`TableDefinition`]: one
//! `AWS::DynamoDB::Table` resource, written as YAML and as JSON from the
//! same serde value.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{TableBilling, TableDefinition};
use crate::{Error, IndexKind, VectorProjection};

mod definition;

/// The logical ID of the table resource in the template.
const RESOURCE: &str = "Table";

/// The name of the template parameter that names the table.
const TABLE_NAME_PARAMETER: &str = "TableName";

/// A CloudFormation template holding one `AWS::DynamoDB::Table` resource,
/// logical ID `Table`, made by [`TableDefinition::cloudformation`].
///
/// The template takes the table name as the parameter `TableName` (3 to
/// 255 characters of `a-z A-Z 0-9 _ . -`, as DynamoDB allows) and outputs
/// `TableName` and `TableArn`. The resource has:
///
/// - `AttributeDefinitions` for the key attributes only, all of type `S`;
/// - `KeySchema`, `GlobalSecondaryIndexes` and `LocalSecondaryIndexes`
///   with their projections (an LSI has no throughput of its own);
/// - `BillingMode`, and `ProvisionedThroughput` on the table and each GSI
///   when provisioned;
/// - `VectorIndexes` (each with its `VectorAttribute`, `Dimensions`,
///   `DistanceFunction`, `SearchSchema` and `Projection`), and the search
///   schemas' attributes in `AttributeDefinitions`, when an entity has a
///   `#[vectorN(…)]` index
///   (<https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-vectorindex.html>);
/// - `TimeToLiveSpecification` when an entity has a `#[stamp(ttl)]` field;
/// - `PointInTimeRecoverySpecification`;
/// - `StreamSpecification` (and the output `StreamArn`) when
///   [`TableDefinition::stream`] turned the stream on;
/// - `DeletionPolicy` and `UpdateReplacePolicy` `Retain`, so that deleting
///   or replacing the stack keeps the data.
///
/// See <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html>.
#[derive(Debug, Clone)]
pub struct CloudFormationTemplate {
    template: Template,
}

impl CloudFormationTemplate {
    /// The template as YAML, ending with a newline. Intrinsic functions are
    /// in their full form (`Ref: TableName`), so the YAML and the JSON are
    /// the same document.
    pub fn to_yaml(&self) -> String {
        serde_yaml_ng::to_string(&self.template).expect("the template serializes to YAML")
    }

    /// The template as pretty-printed JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        let mut json =
            serde_json::to_string_pretty(&self.template).expect("the template serializes to JSON");
        json.push('\n');
        json
    }

    /// The template as a JSON value, for inspection.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(&self.template).expect("the template serializes to JSON")
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Template {
    #[serde(rename = "AWSTemplateFormatVersion")]
    format_version: &'static str,
    description: String,
    parameters: BTreeMap<&'static str, Parameter>,
    resources: BTreeMap<&'static str, Resource>,
    outputs: BTreeMap<&'static str, Output>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Parameter {
    r#type: &'static str,
    description: &'static str,
    min_length: u32,
    max_length: u32,
    allowed_pattern: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Resource {
    r#type: &'static str,
    deletion_policy: &'static str,
    update_replace_policy: &'static str,
    properties: TableProperties,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TableProperties {
    table_name: Ref,
    billing_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisioned_throughput: Option<Throughput>,
    attribute_definitions: Vec<AttributeDefinition>,
    key_schema: Vec<KeySchemaElement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    local_secondary_indexes: Vec<LocalSecondaryIndex>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    vector_indexes: Vec<VectorIndex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_to_live_specification: Option<TimeToLiveSpecification>,
    point_in_time_recovery_specification: PointInTimeRecoverySpecification,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_specification: Option<StreamSpecification>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_class: Option<&'static str>,
    #[serde(rename = "SSESpecification", skip_serializing_if = "Option::is_none")]
    sse_specification: Option<SseSpecification>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<Tag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contributor_insights_specification: Option<ContributorInsightsSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    on_demand_throughput: Option<OnDemandThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_policy: Option<ResourcePolicy>,
}

/// `AWS::DynamoDB::Table SSESpecification`.
#[derive(Debug, Clone, Serialize)]
struct SseSpecification {
    #[serde(rename = "SSEEnabled")]
    enabled: bool,
    #[serde(rename = "SSEType")]
    sse_type: &'static str,
    #[serde(rename = "KMSMasterKeyId", skip_serializing_if = "Option::is_none")]
    kms_master_key_id: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Tag {
    key: String,
    value: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ContributorInsightsSpecification {
    enabled: bool,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
struct WarmThroughput {
    read_units_per_second: u64,
    write_units_per_second: u64,
}

impl From<super::WarmThroughput> for WarmThroughput {
    fn from(warm: super::WarmThroughput) -> Self {
        WarmThroughput {
            read_units_per_second: warm.read_units_per_second.get(),
            write_units_per_second: warm.write_units_per_second.get(),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "PascalCase")]
struct OnDemandThroughput {
    #[serde(skip_serializing_if = "Option::is_none")]
    max_read_request_units: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_write_request_units: Option<u64>,
}

impl From<super::MaxThroughput> for OnDemandThroughput {
    fn from(max: super::MaxThroughput) -> Self {
        OnDemandThroughput {
            max_read_request_units: max.max_read_request_units.map(|units| units.get()),
            max_write_request_units: max.max_write_request_units.map(|units| units.get()),
        }
    }
}

/// `AWS::DynamoDB::Table ResourcePolicy`: the policy document as JSON.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct ResourcePolicy {
    policy_document: serde_json::Value,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct StreamSpecification {
    stream_view_type: String,
}

#[derive(Debug, Clone, Serialize)]
struct Ref {
    #[serde(rename = "Ref")]
    name: &'static str,
}

#[derive(Debug, Clone, Serialize)]
struct GetAtt {
    #[serde(rename = "Fn::GetAtt")]
    attribute: [&'static str; 2],
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Throughput {
    read_capacity_units: i64,
    write_capacity_units: i64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct AttributeDefinition {
    attribute_name: &'static str,
    attribute_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct KeySchemaElement {
    attribute_name: &'static str,
    key_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct GlobalSecondaryIndex {
    index_name: &'static str,
    key_schema: Vec<KeySchemaElement>,
    projection: Projection,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisioned_throughput: Option<Throughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warm_throughput: Option<WarmThroughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    on_demand_throughput: Option<OnDemandThroughput>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct LocalSecondaryIndex {
    index_name: &'static str,
    key_schema: Vec<KeySchemaElement>,
    projection: Projection,
}

/// `AWS::DynamoDB::Table VectorIndex`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct VectorIndex {
    index_name: &'static str,
    vector_attribute: VectorAttribute,
    dimensions: u32,
    distance_function: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    search_schema: Vec<SearchSchemaElement>,
    projection: Projection,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct VectorAttribute {
    attribute_name: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct SearchSchemaElement {
    attribute_name: &'static str,
    search_schema_element_type: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Projection {
    projection_type: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    non_key_attributes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct TimeToLiveSpecification {
    attribute_name: &'static str,
    enabled: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct PointInTimeRecoverySpecification {
    point_in_time_recovery_enabled: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum OutputValue {
    Ref(Ref),
    GetAtt(GetAtt),
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Output {
    description: &'static str,
    value: OutputValue,
}
