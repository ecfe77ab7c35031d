//! The CloudFormation template of a [`TableDefinition`]: one
//! `AWS::DynamoDB::Table` resource, written as YAML and as JSON from the
//! same serde value.

mod global;

use std::collections::BTreeMap;

use serde::Serialize;

use super::{TableBilling, TableDefinition};
use crate::{Error, IndexKind, VectorProjection};

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
/// A definition with a [`GlobalTable`](crate::GlobalTable) makes one
/// `AWS::DynamoDB::GlobalTable` instead, logical ID `Table` too: the keys,
/// indexes, TTL, stream, SSE type, warm throughput and maximum write
/// throughput table-wide, `MultiRegionConsistency` and
/// `GlobalTableWitnesses`, and one `Replicas` entry per Region with
/// deletion protection, table class, point-in-time recovery, tags,
/// Contributor Insights, the resource policy, the customer managed key and
/// the read capacity or maximum read throughput. Provisioned write capacity
/// becomes `WriteCapacityAutoScalingSettings` with the minimum and maximum
/// both at the declared units (the resource takes write capacity only as
/// auto scaling). An eventually consistent global table always has a
/// stream (`NEW_AND_OLD_IMAGES` unless the definition chose a view):
/// DynamoDB replicates through it. The stack must be deployed in one of
/// the replicas' Regions. The resource has no `VectorIndexes`: a vector
/// index is refused ([`GlobalTableError::VectorIndexInCloudFormation`](crate::GlobalTableError::VectorIndexInCloudFormation)).
///
/// See <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html>
/// and <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html>.
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
    properties: Properties,
}

/// The properties of `AWS::DynamoDB::Table`, or of
/// `AWS::DynamoDB::GlobalTable` when the definition declares a global table.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum Properties {
    Table(Box<TableProperties>),
    Global(Box<global::GlobalTableProperties>),
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

fn key_schema(
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

impl TableDefinition {
    /// The CloudFormation template of this table (see
    /// [`CloudFormationTemplate`] for its shape). Render it with
    /// [`to_yaml`](CloudFormationTemplate::to_yaml) or
    /// [`to_json`](CloudFormationTemplate::to_json).
    ///
    /// See <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check).
    pub fn cloudformation(&self) -> Result<CloudFormationTemplate, Error> {
        let resolved = self.resolve()?;
        let throughput = self.billing.throughput().map(|throughput| Throughput {
            read_capacity_units: throughput.read_capacity_units,
            write_capacity_units: throughput.write_capacity_units,
        });
        let billing_mode = match self.billing {
            TableBilling::PayPerRequest => "PAY_PER_REQUEST",
            TableBilling::Provisioned { .. } => "PROVISIONED",
        };
        let entities: Vec<&str> = self
            .entities
            .iter()
            .map(|entity| entity.type_name)
            .collect();
        let mut global_secondary_indexes = Vec::new();
        let mut local_secondary_indexes = Vec::new();
        for index in &resolved.indexes {
            let index_key_schema = super::multi_attribute::key_schema_names(index)
                .into_iter()
                .map(|(name, hash)| KeySchemaElement {
                    attribute_name: name,
                    key_type: if hash { "HASH" } else { "RANGE" },
                })
                .collect();
            let projection = Projection {
                projection_type: index.projection.type_name(),
                non_key_attributes: index.projection.non_key_attributes().to_vec(),
            };
            match index.kind {
                IndexKind::Global { .. } => global_secondary_indexes.push(GlobalSecondaryIndex {
                    index_name: index.name,
                    key_schema: index_key_schema,
                    projection,
                    provisioned_throughput: throughput.clone(),
                    warm_throughput: self.settings.index_warm(index.name).map(Into::into),
                    on_demand_throughput: self.settings.index_max(index.name).map(Into::into),
                }),
                IndexKind::Local => local_secondary_indexes.push(LocalSecondaryIndex {
                    index_name: index.name,
                    key_schema: index_key_schema,
                    projection,
                }),
                // Not in this list: `VectorIndexes`, from
                // `Resolved::vector_indexes`.
                IndexKind::Vector(_) => {}
            }
        }
        let properties = TableProperties {
            table_name: Ref {
                name: TABLE_NAME_PARAMETER,
            },
            billing_mode,
            provisioned_throughput: throughput.clone(),
            attribute_definitions: resolved
                .key_attribute_types()?
                .into_iter()
                .map(|(name, attribute_type)| AttributeDefinition {
                    attribute_name: name,
                    attribute_type: attribute_type.as_str(),
                })
                .collect(),
            key_schema: key_schema(resolved.partition_key, Some(resolved.sort_key)),
            global_secondary_indexes,
            local_secondary_indexes,
            vector_indexes: resolved
                .vector_indexes
                .iter()
                .map(|index| {
                    let vector = index.vector().expect("a vector index");
                    let (projection_type, non_key_attributes) = match vector.projection {
                        VectorProjection::All => ("ALL", Vec::new()),
                        VectorProjection::KeysOnly => ("KEYS_ONLY", Vec::new()),
                        VectorProjection::Include(names) => (
                            "INCLUDE",
                            names.iter().map(|name| (*name).to_owned()).collect(),
                        ),
                    };
                    VectorIndex {
                        index_name: index.name,
                        vector_attribute: VectorAttribute {
                            attribute_name: vector.attribute,
                        },
                        dimensions: vector.dimensions,
                        distance_function: vector.distance.as_str(),
                        search_schema: index
                            .search_partition()
                            .into_iter()
                            .map(|(partition, _)| SearchSchemaElement {
                                attribute_name: partition,
                                search_schema_element_type: "HASH",
                            })
                            .chain(vector.filters.iter().map(|filter| SearchSchemaElement {
                                attribute_name: filter.attribute,
                                search_schema_element_type: "INLINE_FILTER",
                            }))
                            .collect(),
                        projection: Projection {
                            projection_type,
                            non_key_attributes,
                        },
                    }
                })
                .collect(),
            time_to_live_specification: resolved.time_to_live.map(|attribute| {
                TimeToLiveSpecification {
                    attribute_name: attribute,
                    enabled: true,
                }
            }),
            point_in_time_recovery_specification: PointInTimeRecoverySpecification {
                point_in_time_recovery_enabled: self.point_in_time_recovery,
            },
            stream_specification: self
                .stream_view_type()
                .map(|view_type| StreamSpecification {
                    stream_view_type: view_type.as_str().to_owned(),
                }),
            deletion_protection_enabled: self.settings.deletion_protection,
            table_class: self.settings.table_class.map(|class| class.as_str()),
            sse_specification: match &self.settings.encryption {
                super::TableEncryption::AwsOwned => None,
                super::TableEncryption::AwsManaged => Some(SseSpecification {
                    enabled: true,
                    sse_type: "KMS",
                    kms_master_key_id: None,
                }),
                super::TableEncryption::CustomerKey(key) => Some(SseSpecification {
                    enabled: true,
                    sse_type: "KMS",
                    kms_master_key_id: Some(key.clone()),
                }),
            },
            tags: self
                .settings
                .tags
                .iter()
                .map(|(key, value)| Tag {
                    key: key.clone(),
                    value: value.clone(),
                })
                .collect(),
            contributor_insights_specification: self
                .settings
                .contributor_insights
                .then_some(ContributorInsightsSpecification { enabled: true }),
            warm_throughput: self.settings.warm_throughput.map(Into::into),
            on_demand_throughput: self.settings.max_throughput.map(Into::into),
            resource_policy: self.settings.resource_policy.as_deref().map(|policy| {
                ResourcePolicy {
                    policy_document: serde_json::from_str(policy)
                        .expect("check parsed the policy document"),
                }
            }),
        };
        let mut outputs = BTreeMap::from([
            (
                "TableName",
                Output {
                    description: "The name of the table.",
                    value: OutputValue::Ref(Ref { name: RESOURCE }),
                },
            ),
            (
                "TableArn",
                Output {
                    description: "The ARN of the table.",
                    value: OutputValue::GetAtt(GetAtt {
                        attribute: [RESOURCE, "Arn"],
                    }),
                },
            ),
        ]);
        let (resource_type, properties) = match &self.settings.global_table {
            None => (
                "AWS::DynamoDB::Table",
                Properties::Table(Box::new(properties)),
            ),
            Some(global) => {
                // `AWS::DynamoDB::GlobalTable` has no `VectorIndexes`
                // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html).
                if let Some(index) = properties.vector_indexes.first() {
                    return Err(crate::DefinitionError::GlobalTable(
                        crate::error::GlobalTableError::VectorIndexInCloudFormation {
                            index: index.index_name,
                        },
                    )
                    .into());
                }
                (
                    "AWS::DynamoDB::GlobalTable",
                    Properties::Global(Box::new(global::properties(
                        properties,
                        global,
                        &self.settings.encryption,
                    ))),
                )
            }
        };
        let has_stream = match &properties {
            Properties::Table(table) => table.stream_specification.is_some(),
            Properties::Global(global) => global.has_stream(),
        };
        if has_stream {
            outputs.insert(
                "StreamArn",
                Output {
                    description: "The ARN of the table's DynamoDB Stream.",
                    value: OutputValue::GetAtt(GetAtt {
                        attribute: [RESOURCE, "StreamArn"],
                    }),
                },
            );
        }
        Ok(CloudFormationTemplate {
            template: Template {
                format_version: "2010-09-09",
                description: format!(
                    "The DynamoDB table of entities {}, generated by Stamp.",
                    entities.join(", ")
                ),
                parameters: BTreeMap::from([(
                    TABLE_NAME_PARAMETER,
                    Parameter {
                        r#type: "String",
                        description: "The name of the DynamoDB table.",
                        min_length: 3,
                        max_length: 255,
                        allowed_pattern: "[a-zA-Z0-9_.-]+",
                    },
                )]),
                resources: BTreeMap::from([(
                    RESOURCE,
                    Resource {
                        r#type: resource_type,
                        deletion_policy: "Retain",
                        update_replace_policy: "Retain",
                        properties,
                    },
                )]),
                outputs,
            },
        })
    }
}
