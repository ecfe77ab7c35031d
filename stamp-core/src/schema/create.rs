//! The `CreateTable` input of a table definition, and the key values of the
//! example items the catalogue shows.

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, GlobalSecondaryIndex, KeySchemaElement, KeyType, LocalSecondaryIndex,
};

use super::TableDefinition;
use crate::error::DefinitionError;
use crate::error::Error;
use crate::key::shard::shard_of;
use crate::key::template::{KeyBuilder, Segment};
use crate::model::entity::{EntitySchema, KeyAttribute};
use crate::model::index::IndexKind;
use crate::model::multi_attribute::KeyAttributeType;

impl TableDefinition {
    /// An example value of key attribute `key` of `entity`: the recorded
    /// [example](Self::example)'s, or else each field's
    /// [`KeyPart::example`](crate::KeyPart::example) encoded and escaped as
    /// the key builder does, and the placeholder `<field>` for a type
    /// without one.
    #[cfg_attr(not(feature = "schema-tooling"), allow(dead_code))]
    pub(crate) fn example_key(
        &self,
        entity: &'static EntitySchema,
        key: &'static KeyAttribute,
    ) -> String {
        let recorded = self
            .examples
            .iter()
            .find(|example| example.entity == entity.type_name)
            .and_then(|example| example.values.get(key.name));
        if let Some(value) = recorded {
            return value.clone();
        }
        let mut builder = KeyBuilder::new(entity.type_name, &key.template, 0);
        for segment in key.template.segments {
            match segment {
                Segment::Literal(text) => builder.literal(text),
                Segment::Field(name) => match entity.key_example(name) {
                    Some(encoded) => builder
                        .str_field(name, &encoded)
                        .expect("an example encoding is not empty"),
                    None => builder.literal(&format!("<{name}>")),
                },
                // The shard the example item's primary key gives.
                Segment::Shard(count) => builder.shard(shard_of(
                    &self.example_key(entity, &entity.partition_key),
                    &self.example_key(entity, &entity.sort_key),
                    *count,
                )),
            }
        }
        builder.finish()
    }

    /// The `CreateTable` input for a table named `table_name`: the key
    /// attributes (of type `S`, but for the fields of a multi-attribute
    /// index, which have their own types), the key schema (a
    /// multi-attribute index repeats `HASH`, then `RANGE`, once per
    /// attribute), every GSI with its projection, every LSI
    /// (`LocalSecondaryIndexes`: the table's partition key and the index
    /// sort key, with its projection; LSIs exist only if created with the
    /// table), and the billing mode, with the provisioned throughput of
    /// the table and each GSI when provisioned.
    ///
    /// The [settings](super::TableSettings) go in as DynamoDB takes them:
    /// `DeletionProtectionEnabled` (when on), `TableClass` (when set),
    /// `SSESpecification` (for an AWS managed or customer managed key),
    /// `Tags`, `WarmThroughput` and `OnDemandThroughput` (on the table and
    /// each GSI they are set for) and `ResourcePolicy`.
    ///
    /// TTL, point-in-time recovery and Contributor Insights are not part of
    /// `CreateTable`; [`Table::create_table`](crate::Table::create_table)
    /// sends `UpdateTimeToLive` (and `UpdateContributorInsights`, when on)
    /// after it.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check), then
    /// [`DefinitionError::InvalidTableName`] for a name DynamoDB refuses.
    pub fn request(&self, table_name: &str) -> Result<CreateTableInput, Error> {
        let resolved = self.resolve()?;
        check_table_name(table_name)?;
        let attribute_definition = |(name, attribute_type): (&str, KeyAttributeType)| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(attribute_type.to_sdk())
                .build()
                .expect("name and type are set")
        };
        let key_element = |name: &str, key_type: KeyType| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(key_type)
                .build()
                .expect("name and key type are set")
        };
        let key_schema = |partition_key: &str, sort_key: Option<&str>| {
            let mut schema = vec![key_element(partition_key, KeyType::Hash)];
            schema.extend(sort_key.map(|name| key_element(name, KeyType::Range)));
            schema
        };
        let mut global_secondary_indexes: Vec<GlobalSecondaryIndex> = Vec::new();
        let mut local_secondary_indexes: Vec<LocalSecondaryIndex> = Vec::new();
        for index in &resolved.indexes {
            let index_key_schema = super::multi_attribute::key_schema_names(index)
                .into_iter()
                .map(|(name, hash)| {
                    key_element(name, if hash { KeyType::Hash } else { KeyType::Range })
                })
                .collect();
            match index.kind {
                IndexKind::Global { .. } => global_secondary_indexes.push(
                    GlobalSecondaryIndex::builder()
                        .index_name(index.name)
                        .set_key_schema(Some(index_key_schema))
                        .projection(index.projection.to_sdk())
                        .set_provisioned_throughput(self.billing.provisioned_throughput())
                        .set_warm_throughput(
                            self.settings
                                .index_warm(index.name)
                                .map(|warm| warm.to_sdk()),
                        )
                        .set_on_demand_throughput(
                            self.settings.index_max(index.name).map(|max| max.to_sdk()),
                        )
                        .build()
                        .expect("name, key schema and projection are set"),
                ),
                // An LSI has the table's partition key and its own sort
                // key, and no throughput of its own (it shares the table's).
                IndexKind::Local => local_secondary_indexes.push(
                    LocalSecondaryIndex::builder()
                        .index_name(index.name)
                        .set_key_schema(Some(index_key_schema))
                        .projection(index.projection.to_sdk())
                        .build()
                        .expect("name, key schema and projection are set"),
                ),
                // Not in this list: `VectorIndexes`, below, from
                // `Resolved::vector_indexes`.
                IndexKind::Vector(_) => {}
            }
        }
        Ok(CreateTableInput::builder()
            .table_name(table_name)
            .set_attribute_definitions(Some(
                resolved
                    .key_attribute_types()?
                    .into_iter()
                    .map(attribute_definition)
                    .collect(),
            ))
            .set_key_schema(Some(key_schema(
                resolved.partition_key,
                Some(resolved.sort_key),
            )))
            .set_global_secondary_indexes(
                (!global_secondary_indexes.is_empty()).then_some(global_secondary_indexes),
            )
            .set_local_secondary_indexes(
                (!local_secondary_indexes.is_empty()).then_some(local_secondary_indexes),
            )
            .set_vector_indexes((!resolved.vector_indexes.is_empty()).then(|| {
                resolved
                    .vector_indexes
                    .iter()
                    .map(|index| super::vector::vector_index(index))
                    .collect()
            }))
            .billing_mode(self.billing.billing_mode())
            .set_provisioned_throughput(self.billing.provisioned_throughput())
            .set_stream_specification(self.stream_specification())
            .set_deletion_protection_enabled(self.settings.deletion_protection.then_some(true))
            .set_table_class(self.settings.table_class.map(|class| class.to_sdk()))
            .set_sse_specification(self.settings.encryption.to_sdk())
            .set_tags(self.settings.sdk_tags())
            .set_warm_throughput(self.settings.warm_throughput.map(|warm| warm.to_sdk()))
            .set_on_demand_throughput(self.settings.max_throughput.map(|max| max.to_sdk()))
            .set_resource_policy(self.settings.resource_policy.clone())
            .build()
            .expect("CreateTableInput has no required fields"))
    }
}

/// DynamoDB's naming rule for tables: 3 to 255 characters, each one of
/// `a-z`, `A-Z`, `0-9`, `_`, `-` and `.`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html>.
fn check_table_name(name: &str) -> Result<(), Error> {
    check_name(name).map_err(|reason| {
        Error::Definition(DefinitionError::InvalidTableName {
            name: name.to_owned(),
            reason,
        })
    })
}

/// DynamoDB's naming rule for tables and indexes: 3 to 255 characters
/// ([`MIN_NAME_LENGTH`](crate::limits::MIN_NAME_LENGTH),
/// [`MAX_NAME_LENGTH`](crate::limits::MAX_NAME_LENGTH)), each one of `a-z`,
/// `A-Z`, `0-9`, `_`, `-` and `.`; the rule `name` breaks.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html>.
pub(crate) fn check_name(name: &str) -> Result<(), crate::error::TableNameReason> {
    use crate::limits::{MAX_NAME_LENGTH, MIN_NAME_LENGTH};
    let length = name.chars().count();
    if !(MIN_NAME_LENGTH..=MAX_NAME_LENGTH).contains(&length) {
        return Err(crate::error::TableNameReason::Length { length });
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(crate::error::TableNameReason::Character { character: bad });
    }
    Ok(())
}
