//! The CloudFormation template of a [`TableDefinition`]: one
//! `AWS::DynamoDB::Table` resource, written as YAML and as JSON from the
//! same serde value.

mod global;
mod resource;

use std::collections::BTreeMap;

use super::{TableBilling, TableDefinition};
use crate::error::DefinitionError;
use crate::error::Error;
use crate::model::index::IndexKind;
use crate::model::vector::VectorProjection;
use resource::{
    AttributeDefinition, ContributorInsightsSpecification, GetAtt, GlobalSecondaryIndex,
    KeySchemaElement, LocalSecondaryIndex, OnDemandThroughput, Output, OutputValue, Parameter,
    PointInTimeRecoverySpecification, Projection, Properties, Ref, Resource, ResourcePolicy,
    SearchSchemaElement, SseSpecification, StreamSpecification, TableProperties, Tag, Template,
    Throughput, TimeToLiveSpecification, VectorAttribute, VectorIndex, WarmThroughput, key_schema,
};

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
                    return Err(DefinitionError::GlobalTable(
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
