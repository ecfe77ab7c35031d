//! The table's settings besides its keys and indexes ([`TableSettings`]):
//! deletion protection, table class, encryption, tags, Contributor
//! Insights, warm throughput, on-demand maximum throughput and the
//! resource-based policy, each checked by DynamoDB's documented rules
//! before anything is sent.

use std::num::NonZeroU64;

use aws_sdk_dynamodb::operation::update_contributor_insights::UpdateContributorInsightsInput;
use aws_sdk_dynamodb::types::{
    ContributorInsightsAction, OnDemandThroughput, SseSpecification, SseType, Tag,
};

use super::TableDefinition;
use crate::error::TableSettingError;
use crate::error::{DefinitionError, Error};

/// The most tags a DynamoDB table can have.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TaggingRestrictions.html>.
pub const MAX_TAGS: usize = 50;
/// The longest tag key, in Unicode characters.
pub const MAX_TAG_KEY_CHARS: usize = 128;
/// The longest tag value, in Unicode characters.
pub const MAX_TAG_VALUE_CHARS: usize = 256;
/// The largest resource-based policy document, in bytes (20 KB).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/rbac-considerations.html>.
pub const MAX_RESOURCE_POLICY_BYTES: usize = 20 * 1024;

/// DynamoDB's table classes: the storage price against the throughput price.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.TableClasses.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableClass {
    /// `STANDARD` (DynamoDB's default).
    #[default]
    Standard,
    /// `STANDARD_INFREQUENT_ACCESS`: cheaper storage, dearer reads and writes.
    StandardInfrequentAccess,
}

impl TableClass {
    /// DynamoDB's name: `STANDARD` or `STANDARD_INFREQUENT_ACCESS`.
    pub fn as_str(&self) -> &'static str {
        match self {
            TableClass::Standard => "STANDARD",
            TableClass::StandardInfrequentAccess => "STANDARD_INFREQUENT_ACCESS",
        }
    }

    pub(crate) fn to_sdk(self) -> aws_sdk_dynamodb::types::TableClass {
        aws_sdk_dynamodb::types::TableClass::from(self.as_str())
    }
}

/// Encryption at rest: every DynamoDB table is encrypted; this chooses whose
/// key.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/EncryptionAtRest.html>.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TableEncryption {
    /// A key AWS owns and manages (DynamoDB's default; no `SSESpecification`
    /// is sent).
    #[default]
    AwsOwned,
    /// The AWS managed key `aws/dynamodb` in the account (`SSEType: KMS`).
    AwsManaged,
    /// A customer managed KMS key: its ID, ARN, alias name or alias ARN
    /// (`SSEType: KMS`, `KMSMasterKeyId`).
    CustomerKey(String),
}

impl TableEncryption {
    /// The `SSESpecification` of `CreateTable`: none for [`AwsOwned`](Self::AwsOwned).
    pub(super) fn to_sdk(&self) -> Option<SseSpecification> {
        let key = match self {
            TableEncryption::AwsOwned => return None,
            TableEncryption::AwsManaged => None,
            TableEncryption::CustomerKey(key) => Some(key.clone()),
        };
        Some(
            SseSpecification::builder()
                .enabled(true)
                .sse_type(SseType::Kms)
                .set_kms_master_key_id(key)
                .build(),
        )
    }
}

/// The read and write units per second a table or GSI can serve at once,
/// raised ahead of a known peak ("pre-warming"). DynamoDB raises warm
/// throughput by itself as traffic grows and never lowers it, so a live
/// value above the declared one is no drift. Each value is at least 1.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html>
/// and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_WarmThroughput.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmThroughput {
    /// Read units per second.
    pub read_units_per_second: NonZeroU64,
    /// Write units per second.
    pub write_units_per_second: NonZeroU64,
}

impl WarmThroughput {
    pub(super) fn to_sdk(self) -> aws_sdk_dynamodb::types::WarmThroughput {
        aws_sdk_dynamodb::types::WarmThroughput::builder()
            .read_units_per_second(self.read_units_per_second.get() as i64)
            .write_units_per_second(self.write_units_per_second.get() as i64)
            .build()
    }
}

/// The most request units per second an on-demand table or GSI may consume
/// (`OnDemandThroughput`): requests above it are throttled, which caps the
/// bill. `None` is no maximum. Only for on-demand billing.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MaxThroughput {
    /// The most read request units per second.
    pub max_read_request_units: Option<NonZeroU64>,
    /// The most write request units per second.
    pub max_write_request_units: Option<NonZeroU64>,
}

impl MaxThroughput {
    pub(super) fn to_sdk(self) -> OnDemandThroughput {
        let units = |units: Option<NonZeroU64>| units.map(|units| units.get() as i64);
        OnDemandThroughput::builder()
            .set_max_read_request_units(units(self.max_read_request_units))
            .set_max_write_request_units(units(self.max_write_request_units))
            .build()
    }
}

/// What a [`TableDefinition`] declares of its table besides keys, indexes,
/// billing, TTL, streams and point-in-time recovery: each goes into
/// `CreateTable` (Contributor Insights into `UpdateContributorInsights`
/// after it), the CloudFormation template and the drift check.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TableSettings {
    /// Deletion protection: `DeleteTable` is refused while it is on.
    /// Off unless set (DynamoDB's default).
    pub deletion_protection: bool,
    /// The table class; `None` leaves DynamoDB's default, `STANDARD`.
    pub table_class: Option<TableClass>,
    /// Whose key encrypts the table at rest.
    pub encryption: TableEncryption,
    /// The table's tags, key and value, in the order given.
    pub tags: Vec<(String, String)>,
    /// CloudWatch Contributor Insights on the table's keys.
    pub contributor_insights: bool,
    /// The table's warm throughput.
    pub warm_throughput: Option<WarmThroughput>,
    /// Warm throughput per GSI, by index name.
    pub index_warm_throughput: Vec<(String, WarmThroughput)>,
    /// The table's on-demand maximum throughput.
    pub max_throughput: Option<MaxThroughput>,
    /// On-demand maximum throughput per GSI, by index name.
    pub index_max_throughput: Vec<(String, MaxThroughput)>,
    /// The resource-based policy, a JSON policy document.
    pub resource_policy: Option<String>,
    /// The global table: replicas by Region and multi-Region consistency
    /// ([`TableDefinition::global_table`]); `None` is a single-Region table.
    pub global_table: Option<super::GlobalTable>,
}

impl TableSettings {
    /// The tags as `CreateTable` takes them; `None` when there are none.
    pub(super) fn sdk_tags(&self) -> Option<Vec<Tag>> {
        (!self.tags.is_empty()).then(|| {
            self.tags
                .iter()
                .map(|(key, value)| {
                    Tag::builder()
                        .key(key)
                        .value(value)
                        .build()
                        .expect("key and value are set")
                })
                .collect()
        })
    }

    /// The warm throughput declared for GSI `index`.
    pub(super) fn index_warm(&self, index: &str) -> Option<WarmThroughput> {
        self.index_warm_throughput
            .iter()
            .find(|(name, _)| name == index)
            .map(|(_, warm)| *warm)
    }

    /// The maximum throughput declared for GSI `index`.
    pub(super) fn index_max(&self, index: &str) -> Option<MaxThroughput> {
        self.index_max_throughput
            .iter()
            .find(|(name, _)| name == index)
            .map(|(_, max)| *max)
    }

    /// Checks the settings by DynamoDB's rules; `gsis` are the table's GSI
    /// names, `on_demand` whether the table is billed on demand.
    pub(super) fn check(&self, gsis: &[&'static str], on_demand: bool) -> Result<(), Error> {
        let refuse = |error: TableSettingError| Err(DefinitionError::TableSetting(error).into());
        let unknown = |index: &str| {
            Err(Error::Definition(DefinitionError::UnknownIndex {
                index: index.to_owned(),
                known: gsis.to_vec(),
            }))
        };
        let warm = self.index_warm_throughput.iter().map(|(index, _)| index);
        let max = self.index_max_throughput.iter().map(|(index, _)| index);
        if let Some(index) = warm
            .chain(max)
            .find(|index| !gsis.contains(&index.as_str()))
        {
            return unknown(index);
        }
        // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html:
        // a maximum only applies to on-demand tables and indexes.
        if !on_demand && (self.max_throughput.is_some() || !self.index_max_throughput.is_empty()) {
            return refuse(TableSettingError::MaxThroughputNotOnDemand);
        }
        if self.tags.len() > MAX_TAGS {
            return refuse(TableSettingError::TooManyTags {
                count: self.tags.len(),
                limit: MAX_TAGS,
            });
        }
        for (position, (key, value)) in self.tags.iter().enumerate() {
            if let Some(reason) = tag_key_problem(key) {
                return refuse(TableSettingError::InvalidTagKey {
                    key: key.clone(),
                    reason,
                });
            }
            if self.tags[..position]
                .iter()
                .any(|(earlier, _)| earlier == key)
            {
                return refuse(TableSettingError::DuplicateTagKey { key: key.clone() });
            }
            let chars = value.chars().count();
            if chars > MAX_TAG_VALUE_CHARS || value.chars().any(|c| !tag_char(c)) {
                return refuse(TableSettingError::InvalidTagValue {
                    key: key.clone(),
                    value: value.clone(),
                });
            }
        }
        if let TableEncryption::CustomerKey(key) = &self.encryption
            && key.trim().is_empty()
        {
            return refuse(TableSettingError::EmptyKmsKey);
        }
        if let Some(policy) = &self.resource_policy {
            if policy.len() > MAX_RESOURCE_POLICY_BYTES {
                return refuse(TableSettingError::ResourcePolicyTooLarge {
                    bytes: policy.len(),
                    limit: MAX_RESOURCE_POLICY_BYTES,
                });
            }
            match serde_json::from_str::<serde_json::Value>(policy) {
                Ok(serde_json::Value::Object(_)) => {}
                Ok(_) => {
                    return refuse(TableSettingError::InvalidResourcePolicy {
                        detail: "the policy document is not a JSON object".to_owned(),
                    });
                }
                Err(error) => {
                    return refuse(TableSettingError::InvalidResourcePolicy {
                        detail: error.to_string(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// The characters DynamoDB allows in tag keys and values: letters, white
/// space, numbers and `+ - = . _ : /`
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TaggingRestrictions.html>).
fn tag_char(c: char) -> bool {
    c.is_alphanumeric() || c.is_whitespace() || matches!(c, '+' | '-' | '=' | '.' | '_' | ':' | '/')
}

/// Why DynamoDB refuses `key` as a tag key, if it does.
fn tag_key_problem(key: &str) -> Option<&'static str> {
    let chars = key.chars().count();
    if chars == 0 {
        Some("a tag key is 1 to 128 characters; this one is empty")
    } else if chars > MAX_TAG_KEY_CHARS {
        Some("a tag key is 1 to 128 characters")
    } else if key.starts_with("aws:") {
        Some("the prefix `aws:` is reserved for AWS")
    } else if key.chars().any(|c| !tag_char(c)) {
        Some("a tag key holds letters, white space, numbers and `+ - = . _ : /` only")
    } else {
        None
    }
}

impl TableDefinition {
    /// The table's settings besides keys and indexes.
    pub fn settings(&self) -> &TableSettings {
        &self.settings
    }

    /// Turns deletion protection on or off (off unless set): while on,
    /// DynamoDB refuses `DeleteTable`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithTables.Basics.html#WorkingWithTables.Basics.DeletionProtection>.
    pub fn deletion_protection(mut self, enabled: bool) -> Self {
        self.settings.deletion_protection = enabled;
        self
    }

    /// Sets the table class (`STANDARD` unless set).
    pub fn table_class(mut self, class: TableClass) -> Self {
        self.settings.table_class = Some(class);
        self
    }

    /// Chooses the key that encrypts the table at rest (an AWS owned key
    /// unless set).
    pub fn encryption(mut self, encryption: TableEncryption) -> Self {
        self.settings.encryption = encryption;
        self
    }

    /// Adds a tag. [`check`](Self::check) refuses more than [`MAX_TAGS`],
    /// a key given twice, a key or value DynamoDB refuses.
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.settings.tags.push((key.into(), value.into()));
        self
    }

    /// Turns CloudWatch Contributor Insights on for the table (off unless
    /// set): [`Table::create_table`](crate::Table::create_table) sends
    /// `UpdateContributorInsights` after `CreateTable`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html>.
    pub fn contributor_insights(mut self, enabled: bool) -> Self {
        self.settings.contributor_insights = enabled;
        self
    }

    /// The `UpdateContributorInsights` that
    /// [`Table::create_table`](crate::Table::create_table) sends after
    /// `CreateTable` for a table named `table_name`: `ENABLE` when
    /// [`contributor_insights`](Self::contributor_insights) is on, else none.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContributorInsights.html>.
    pub fn contributor_insights_request(
        &self,
        table_name: &str,
    ) -> Option<UpdateContributorInsightsInput> {
        self.settings.contributor_insights.then(|| {
            UpdateContributorInsightsInput::builder()
                .table_name(table_name)
                .contributor_insights_action(ContributorInsightsAction::Enable)
                .build()
                .expect("UpdateContributorInsightsInput has no required fields")
        })
    }

    /// Sets the table's warm throughput.
    pub fn warm_throughput(mut self, warm: WarmThroughput) -> Self {
        self.settings.warm_throughput = Some(warm);
        self
    }

    /// Sets the warm throughput of GSI `index` ([`check`](Self::check)
    /// refuses a name that is not a GSI of the table).
    pub fn index_warm_throughput(mut self, index: impl Into<String>, warm: WarmThroughput) -> Self {
        let index = index.into();
        self.settings
            .index_warm_throughput
            .retain(|(name, _)| *name != index);
        self.settings.index_warm_throughput.push((index, warm));
        self
    }

    /// Sets the table's on-demand maximum throughput ([`check`](Self::check)
    /// refuses it on a provisioned table).
    pub fn max_throughput(mut self, max: MaxThroughput) -> Self {
        self.settings.max_throughput = Some(max);
        self
    }

    /// Sets the on-demand maximum throughput of GSI `index`.
    pub fn index_max_throughput(mut self, index: impl Into<String>, max: MaxThroughput) -> Self {
        let index = index.into();
        self.settings
            .index_max_throughput
            .retain(|(name, _)| *name != index);
        self.settings.index_max_throughput.push((index, max));
        self
    }

    /// Attaches a resource-based policy (a JSON policy document, at most
    /// [`MAX_RESOURCE_POLICY_BYTES`]), as zero-ETL integrations and
    /// cross-account access need. `CreateTable` takes it as
    /// `ResourcePolicy`; CloudFormation as `ResourcePolicy.PolicyDocument`.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/access-control-resource-based.html>.
    pub fn resource_policy(mut self, policy_document: impl Into<String>) -> Self {
        self.settings.resource_policy = Some(policy_document.into());
        self
    }
}
