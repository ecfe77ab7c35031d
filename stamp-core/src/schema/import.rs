//! The import of files in S3 into a new table created from the definition:
//! DynamoDB's `ImportTable`, whose `TableCreationParameters` are made from
//! the definition's own `CreateTable` input ([`TableDefinition::request`]),
//! field by field, so that an imported table and a created one have the
//! same keys, indexes, billing and encryption.
//!
//! What `TableCreationParameters` has no field for: local secondary
//! indexes (an import refuses a definition with one, as an LSI can only be
//! made with its table and would be missing for good), and the settings
//! that are set on a table after it exists ([`TableDefinition::import_leaves_out`]).
//!
//! Only DynamoDB (on AWS) imports: local servers (DynamoDB Local,
//! dynoxide, ministack) do not implement `ImportTable`. Stamp's tests check
//! the request as built and as sent, not an import.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ImportTable.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableCreationParameters.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.HowItWorks.html>.

use aws_sdk_dynamodb::operation::describe_import::DescribeImportInput;
use aws_sdk_dynamodb::operation::import_table::ImportTableInput;
use aws_sdk_dynamodb::types::{
    ImportTableDescription, InputCompressionType, InputFormat, S3BucketSource,
    TableCreationParameters,
};

use super::TableDefinition;
use crate::error::{Error, ImportReason, JobError};
use crate::request::executor::Call;
use crate::request::table::Table;

/// Where the files of an import are, and how they are compressed: an S3
/// bucket and a key prefix (every object whose key starts with it is
/// imported, up to 50,000 objects), in DynamoDB's typed JSON
/// (`DYNAMODB_JSON`, the form of [`ExportFormat::DynamoDbJson`](crate::export::ExportFormat::DynamoDbJson)
/// and of the data files of `ExportTableToPointInTime`), gzipped unless
/// [`uncompressed`](Self::uncompressed). A plain value: nothing is sent
/// until [`Table::start_import`].
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_S3BucketSource.html>.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSource {
    bucket: String,
    key_prefix: String,
    bucket_owner: Option<String>,
    compression: InputCompressionType,
    client_token: Option<String>,
}

impl ImportSource {
    /// The gzipped `DYNAMODB_JSON` objects of `bucket` whose keys start
    /// with `key_prefix` (as it is: `data/` and `data` differ; empty for
    /// the whole bucket), such as the `<prefix>/AWSDynamoDB/<export id>/data/`
    /// of a point-in-time export.
    pub fn s3(bucket: impl Into<String>, key_prefix: impl Into<String>) -> Self {
        ImportSource {
            bucket: bucket.into(),
            key_prefix: key_prefix.into(),
            bucket_owner: None,
            compression: InputCompressionType::Gzip,
            client_token: None,
        }
    }

    /// Every item of an [`Export::to_s3`](crate::export::Export::to_s3) in
    /// the [`DynamoDbJson`](crate::export::ExportFormat::DynamoDbJson)
    /// format under `prefix`: the key prefix `<prefix>/entity=` (each
    /// entity's objects and the unknown types', not `<prefix>/_SUCCESS`;
    /// `entity=` alone for an empty prefix). A trailing `/` of `prefix` is
    /// dropped, as the export drops it.
    pub fn of_export(bucket: impl Into<String>, prefix: &str) -> Self {
        ImportSource::s3(bucket, format!("{}entity=", folder(prefix)))
    }

    /// The items of entity `type_name` of such an export: the key prefix
    /// `<prefix>/entity=<Type>/`.
    pub fn of_entity(bucket: impl Into<String>, prefix: &str, type_name: &str) -> Self {
        ImportSource::s3(bucket, format!("{}entity={type_name}/", folder(prefix)))
    }

    /// The account that owns the bucket (`S3BucketOwner`), for a bucket
    /// of another account.
    pub fn bucket_owner(mut self, account_id: impl Into<String>) -> Self {
        self.bucket_owner = Some(account_id.into());
        self
    }

    /// The objects are not compressed (`InputCompressionType` `NONE`).
    pub fn uncompressed(mut self) -> Self {
        self.compression = InputCompressionType::None;
        self
    }

    /// The `ClientToken` of the request: the same token sent again within
    /// 8 hours starts no second import (DynamoDB answers the first). Without
    /// one, [`Table::start_import`] makes a fresh one per call, which its
    /// own retries of the request reuse.
    pub fn client_token(mut self, token: impl Into<String>) -> Self {
        self.client_token = Some(token.into());
        self
    }

    /// The bucket.
    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// The key prefix.
    pub fn key_prefix(&self) -> &str {
        &self.key_prefix
    }
}

/// `<prefix>/`, or nothing for the bucket's root.
fn folder(prefix: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        String::new()
    } else {
        format!("{prefix}/")
    }
}

impl TableDefinition {
    /// The `ImportTable` input that imports `source` into a new table
    /// named `table_name` created from this definition.
    /// `TableCreationParameters` is made from the `CreateTable` input of
    /// [`request`](Self::request), its fields moved over as they are:
    /// `TableName`, `AttributeDefinitions`, `KeySchema`, `BillingMode`,
    /// `ProvisionedThroughput`, `OnDemandThroughput`, `SSESpecification`,
    /// `GlobalSecondaryIndexes` (with their projections, throughput and warm
    /// throughput) and `VectorIndexes`. `InputFormat` is `DYNAMODB_JSON`,
    /// `InputCompressionType` the source's (`GZIP` unless said otherwise).
    /// What the import leaves out is [`import_leaves_out`](Self::import_leaves_out).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ImportTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`request`](Self::request); then
    /// [`JobError::InvalidImport`] with
    /// [`ImportReason::LocalSecondaryIndexes`] when the definition has an
    /// LSI (`TableCreationParameters` has no `LocalSecondaryIndexes`, and
    /// an LSI cannot be added to a table once it exists), or
    /// [`ImportReason::EmptyBucket`].
    pub fn import_request(
        &self,
        table_name: &str,
        source: &ImportSource,
    ) -> Result<ImportTableInput, Error> {
        let create = self.request(table_name)?;
        let invalid = |reason| Error::Job(JobError::InvalidImport { reason });
        if let Some(local) = create.local_secondary_indexes.as_deref()
            && !local.is_empty()
        {
            return Err(invalid(ImportReason::LocalSecondaryIndexes {
                indexes: local
                    .iter()
                    .map(|index| index.index_name().to_owned())
                    .collect(),
            }));
        }
        if source.bucket.is_empty() {
            return Err(invalid(ImportReason::EmptyBucket));
        }
        let parameters = TableCreationParameters::builder()
            .table_name(create.table_name.unwrap_or_default())
            .set_attribute_definitions(create.attribute_definitions)
            .set_key_schema(create.key_schema)
            .set_billing_mode(create.billing_mode)
            .set_provisioned_throughput(create.provisioned_throughput)
            .set_on_demand_throughput(create.on_demand_throughput)
            .set_sse_specification(create.sse_specification)
            .set_global_secondary_indexes(create.global_secondary_indexes)
            .set_vector_indexes(create.vector_indexes)
            .build()
            .expect("name, attributes and key schema are set");
        let bucket = S3BucketSource::builder()
            .s3_bucket(&source.bucket)
            .set_s3_bucket_owner(source.bucket_owner.clone())
            .set_s3_key_prefix((!source.key_prefix.is_empty()).then(|| source.key_prefix.clone()))
            .build()
            .expect("the bucket is set");
        Ok(ImportTableInput::builder()
            .set_client_token(source.client_token.clone())
            .s3_bucket_source(bucket)
            .input_format(InputFormat::DynamodbJson)
            .input_compression_type(source.compression.clone())
            .table_creation_parameters(parameters)
            .build()
            .expect("ImportTableInput has no required fields"))
    }

    /// What of this definition an import does not set, because
    /// `ImportTable` takes no parameter for it: DynamoDB's name of each
    /// `CreateTable` parameter the definition sets that
    /// `TableCreationParameters` lacks (`StreamSpecification`, `Tags`,
    /// `TableClass`, `DeletionProtectionEnabled`, `WarmThroughput` of the
    /// table, `ResourcePolicy`), then `TimeToLiveSpecification` when an
    /// entity has a TTL field and `ContributorInsights` when they are on.
    /// Empty when the import makes the table the definition describes.
    ///
    /// Once the import is `COMPLETED`, [`Table::finish_import`] turns on
    /// TTL and Contributor Insights; the others are set by hand (or by the
    /// CloudFormation stack), and until then [`Table::verify`] reports each
    /// as a difference.
    ///
    /// # Errors
    ///
    /// The errors of [`request`](Self::request).
    pub fn import_leaves_out(&self) -> Result<Vec<&'static str>, Error> {
        // Any valid name: the input's table name is not looked at.
        let create = self.request("import")?;
        let mut left = Vec::new();
        for (name, set) in [
            ("StreamSpecification", create.stream_specification.is_some()),
            (
                "Tags",
                create.tags.as_ref().is_some_and(|tags| !tags.is_empty()),
            ),
            ("TableClass", create.table_class.is_some()),
            (
                "DeletionProtectionEnabled",
                create.deletion_protection_enabled == Some(true),
            ),
            ("WarmThroughput", create.warm_throughput.is_some()),
            ("ResourcePolicy", create.resource_policy.is_some()),
            (
                "TimeToLiveSpecification",
                self.time_to_live_attribute()?.is_some(),
            ),
            (
                "ContributorInsights",
                self.contributor_insights_request("import").is_some(),
            ),
        ] {
            if set {
                left.push(name);
            }
        }
        Ok(left)
    }
}

impl Table {
    /// Starts DynamoDB's import of `source` into this table, which the
    /// import creates from `definition`
    /// ([`TableDefinition::import_request`]; the table must not exist):
    /// one `ImportTable`, through the executor as every request. The
    /// import runs in DynamoDB, minutes to hours: follow it with
    /// [`describe_import`](Self::describe_import) and the returned
    /// description's `import_arn`, until `import_status` is `COMPLETED`,
    /// then call [`finish_import`](Self::finish_import). The table takes no
    /// write capacity for the import, and is usable once it is `ACTIVE`.
    /// Items with the same key overwrite one another, in no given order.
    ///
    /// Only DynamoDB on AWS imports: a local server answers an unknown
    /// operation (an [`Error::DynamoDb`]).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.HowItWorks.html>.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table, definition: stamp_core::TableDefinition) -> Result<(), stamp_core::Error> {
    /// use stamp_core::ImportSource;
    ///
    /// // Files written by `Export::to_s3(…, "seed/shop").format(ExportFormat::DynamoDbJson)`.
    /// let started = table
    ///     .start_import(&definition, &ImportSource::of_export("fixtures", "seed/shop"))
    ///     .await?;
    /// println!("{:?}", started.import_arn());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::import_request`], before sending;
    /// then [`Error::DynamoDb`] for what the service answers, such as
    /// `ResourceInUseException` when the table exists,
    /// `ImportConflictException`, or `LimitExceededException` (50 imports
    /// at once).
    pub async fn start_import(
        &self,
        definition: &TableDefinition,
        source: &ImportSource,
    ) -> Result<ImportTableDescription, Error> {
        let mut input = definition.import_request(self.name(), source)?;
        if input.client_token.is_none() {
            input.client_token = Some(uuid::Uuid::new_v4().to_string());
        }
        let output = self.execute_mapped(input, Call::of("")).await?;
        Ok(output
            .import_table_description
            .unwrap_or_else(|| ImportTableDescription::builder().build()))
    }

    /// The state of the import `import_arn` (`DescribeImport`): its
    /// status, items processed and imported, errors, and failure.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeImport.html>.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`], such as `ImportNotFoundException`.
    pub async fn describe_import(&self, import_arn: &str) -> Result<ImportTableDescription, Error> {
        let input = DescribeImportInput::builder()
            .import_arn(import_arn)
            .build()
            .expect("DescribeImportInput has no required fields");
        let output = self.execute_mapped(input, Call::of("")).await?;
        Ok(output
            .import_table_description
            .unwrap_or_else(|| ImportTableDescription::builder().build()))
    }

    /// After an import is `COMPLETED`: what [`create_table`](Self::create_table)
    /// does after `CreateTable` and `ImportTable` cannot, TTL on the TTL
    /// field (`UpdateTimeToLive`) and Contributor Insights when the
    /// definition turns them on. The rest of
    /// [`TableDefinition::import_leaves_out`] is set by hand.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`] for what the service answers.
    pub async fn finish_import(&self, definition: &TableDefinition) -> Result<(), Error> {
        crate::schema::verify::after_create(self, definition).await
    }
}
