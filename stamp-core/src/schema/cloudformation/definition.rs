//! [`TableDefinition::cloudformation`]: the template of a table definition.

use super::*;

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
            let index_key_schema = super::super::multi_attribute::key_schema_names(index)
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
                super::super::TableEncryption::AwsOwned => None,
                super::super::TableEncryption::AwsManaged => Some(SseSpecification {
                    enabled: true,
                    sse_type: "KMS",
                    kms_master_key_id: None,
                }),
                super::super::TableEncryption::CustomerKey(key) => Some(SseSpecification {
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
        if self.stream_view_type().is_some() {
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
                        r#type: "AWS::DynamoDB::Table",
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
