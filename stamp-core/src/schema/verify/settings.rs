//! The drift check of the table's [settings](crate::schema::TableSettings):
//! what `DescribeTable` reports (deletion protection, table class,
//! encryption, maximum and warm throughput), the tags
//! (`ListTagsOfResource`), and, when the definition declares them, the
//! resource policy (`GetResourcePolicy`) and Contributor Insights
//! (`DescribeContributorInsights`). Also the Contributor Insights step of
//! [`Table::create_table`](crate::Table::create_table).

use std::num::NonZeroU64;

use aws_sdk_dynamodb::operation::describe_contributor_insights::DescribeContributorInsightsInput;
use aws_sdk_dynamodb::operation::get_resource_policy::GetResourcePolicyInput;
use aws_sdk_dynamodb::operation::list_tags_of_resource::ListTagsOfResourceInput;
use aws_sdk_dynamodb::types::{
    ContributorInsightsStatus, OnDemandThroughput, SseStatus, TableDescription,
};

use super::super::{MaxThroughput, SchemaDifference, TableDefinition, TableEncryption};
use crate::error::Error;
use crate::request::executor::Call;
use crate::request::table::Table;

/// DynamoDB's answer to an operation an endpoint does not have.
const UNKNOWN_OPERATION: &str = "UnknownOperationException";

/// Whether `error` is an endpoint's answer that it has no such operation.
fn unknown_operation(error: &Error) -> bool {
    matches!(error, Error::DynamoDb { code: Some(code), .. } if code == UNKNOWN_OPERATION)
}

/// Compares the settings of the live `table` (described as `live`) with
/// `definition`'s, each difference into `differences`.
pub(super) async fn setting_differences(
    table: &Table,
    definition: &TableDefinition,
    live: &TableDescription,
    differences: &mut Vec<SchemaDifference>,
) -> Result<(), Error> {
    let settings = &definition.settings;
    let found = live.deletion_protection_enabled().unwrap_or(false);
    if found != settings.deletion_protection {
        differences.push(SchemaDifference::DeletionProtection {
            expected: settings.deletion_protection,
            found,
        });
    }
    let expected = settings.table_class.unwrap_or_default().as_str();
    let found = live
        .table_class_summary()
        .and_then(|summary| summary.table_class())
        .map_or("STANDARD", |class| class.as_str());
    if expected != found {
        differences.push(SchemaDifference::TableClass {
            expected: expected.to_owned(),
            found: found.to_owned(),
        });
    }
    encryption_difference(&settings.encryption, live, differences);
    throughput_differences(definition, live, differences);
    let Some(arn) = live.table_arn() else {
        return Ok(());
    };
    tag_differences(table, definition, arn, differences).await?;
    if let Some(expected) = &settings.resource_policy {
        policy_difference(table, expected, arn, differences).await?;
    }
    contributor_insights_difference(table, definition, differences).await
}

/// The resource policy, when the definition declares one (compared as
/// JSON values).
async fn policy_difference(
    table: &Table,
    expected: &str,
    arn: &str,
    differences: &mut Vec<SchemaDifference>,
) -> Result<(), Error> {
    let input = GetResourcePolicyInput::builder()
        .resource_arn(arn)
        .build()
        .expect("GetResourcePolicyInput has no required fields");
    let found = match table.execute_mapped(input, Call::of("")).await {
        Ok(output) => output.policy().map(str::to_owned),
        Err(Error::DynamoDb {
            code: Some(code), ..
        }) if code == "PolicyNotFoundException" => None,
        Err(error) if unknown_operation(&error) => {
            differences.push(SchemaDifference::NotDescribed {
                setting: "resource policy",
            });
            return Ok(());
        }
        Err(error) => return Err(error),
    };
    let same = found.as_deref().is_some_and(|found| {
        serde_json::from_str::<serde_json::Value>(found).ok()
            == serde_json::from_str::<serde_json::Value>(expected).ok()
    });
    if !same {
        differences.push(SchemaDifference::ResourcePolicy {
            expected: Some(expected.to_owned()),
            found,
        });
    }
    Ok(())
}

/// Contributor Insights, when the definition turns it on.
async fn contributor_insights_difference(
    table: &Table,
    definition: &TableDefinition,
    differences: &mut Vec<SchemaDifference>,
) -> Result<(), Error> {
    if !definition.settings.contributor_insights {
        return Ok(());
    }
    let input = DescribeContributorInsightsInput::builder()
        .table_name(table.name())
        .build()
        .expect("DescribeContributorInsightsInput has no required fields");
    match table.execute_mapped(input, Call::of("")).await {
        Ok(output) => {
            let found = matches!(
                output.contributor_insights_status(),
                Some(ContributorInsightsStatus::Enabled | ContributorInsightsStatus::Enabling)
            );
            if !found {
                differences.push(SchemaDifference::ContributorInsights {
                    expected: true,
                    found,
                });
            }
            Ok(())
        }
        Err(error) if unknown_operation(&error) => {
            differences.push(SchemaDifference::NotDescribed {
                setting: "Contributor Insights",
            });
            Ok(())
        }
        Err(error) => Err(error),
    }
}

/// The tags, compared as sets, without the `aws:` tags AWS assigns.
async fn tag_differences(
    table: &Table,
    definition: &TableDefinition,
    arn: &str,
    differences: &mut Vec<SchemaDifference>,
) -> Result<(), Error> {
    let mut found = Vec::new();
    let mut next_token = None;
    loop {
        let input = ListTagsOfResourceInput::builder()
            .resource_arn(arn)
            .set_next_token(next_token.take())
            .build()
            .expect("ListTagsOfResourceInput has no required fields");
        let output = match table.execute_mapped(input, Call::of("")).await {
            Ok(output) => output,
            Err(error) if unknown_operation(&error) => {
                if !definition.settings.tags.is_empty() {
                    differences.push(SchemaDifference::NotDescribed { setting: "tags" });
                }
                return Ok(());
            }
            Err(error) => return Err(error),
        };
        found.extend(
            output
                .tags()
                .iter()
                .filter(|tag| !tag.key().starts_with("aws:"))
                .map(|tag| (tag.key().to_owned(), tag.value().to_owned())),
        );
        match output.next_token() {
            Some(token) => next_token = Some(token.to_owned()),
            None => break,
        }
    }
    found.sort();
    let mut expected = definition.settings.tags.clone();
    expected.sort();
    if expected != found {
        differences.push(SchemaDifference::Tags { expected, found });
    }
    Ok(())
}

/// The kind of key (and a customer managed key's ID or ARN) encrypting the
/// table.
fn encryption_difference(
    expected: &TableEncryption,
    live: &TableDescription,
    differences: &mut Vec<SchemaDifference>,
) {
    let kms_arn = live
        .sse_description()
        .filter(|sse| matches!(sse.status(), Some(SseStatus::Enabled | SseStatus::Updating)))
        .map(|sse| sse.kms_master_key_arn().unwrap_or_default());
    let same = match (expected, kms_arn) {
        (TableEncryption::AwsOwned, None) => true,
        (TableEncryption::AwsManaged, Some(_)) => true,
        (TableEncryption::CustomerKey(key), Some(arn)) => {
            // An alias cannot be matched to the key's ARN without KMS.
            key.starts_with("alias/")
                || key.contains(":alias/")
                || arn == key
                || arn.ends_with(&format!("key/{key}"))
        }
        _ => false,
    };
    if !same {
        let expected = match expected {
            TableEncryption::AwsOwned => "AWS owned key".to_owned(),
            TableEncryption::AwsManaged => "KMS key".to_owned(),
            TableEncryption::CustomerKey(key) => format!("KMS key {key}"),
        };
        let found = match kms_arn {
            None => "AWS owned key".to_owned(),
            Some(arn) => format!("KMS key {arn}").trim_end().to_owned(),
        };
        differences.push(SchemaDifference::Encryption { expected, found });
    }
}

/// A maximum as DynamoDB describes it: absent, or -1, is no maximum.
fn max_from_sdk(throughput: Option<&OnDemandThroughput>) -> Option<MaxThroughput> {
    let units = |units: Option<i64>| {
        units
            .and_then(|units| u64::try_from(units).ok())
            .and_then(NonZeroU64::new)
    };
    let max = MaxThroughput {
        max_read_request_units: units(throughput.and_then(|t| t.max_read_request_units())),
        max_write_request_units: units(throughput.and_then(|t| t.max_write_request_units())),
    };
    (max != MaxThroughput::default()).then_some(max)
}

/// Maximum and warm throughput of the table and each GSI.
fn throughput_differences(
    definition: &TableDefinition,
    live: &TableDescription,
    differences: &mut Vec<SchemaDifference>,
) {
    let settings = &definition.settings;
    let normalized =
        |max: Option<MaxThroughput>| max.filter(|max| *max != MaxThroughput::default());
    let expected = normalized(settings.max_throughput);
    let found = max_from_sdk(live.on_demand_throughput());
    if expected != found {
        differences.push(SchemaDifference::MaxThroughput {
            index: None,
            expected,
            found,
        });
    }
    if let Some(expected) = settings.warm_throughput {
        match live.warm_throughput() {
            Some(warm) => warm_difference(
                None,
                expected,
                (warm.read_units_per_second(), warm.write_units_per_second()),
                differences,
            ),
            None => differences.push(SchemaDifference::NotDescribed {
                setting: "warm throughput",
            }),
        }
    }
    for index in live.global_secondary_indexes() {
        let Some(name) = index.index_name() else {
            continue;
        };
        let expected = normalized(settings.index_max(name));
        let found = max_from_sdk(index.on_demand_throughput());
        if expected != found {
            differences.push(SchemaDifference::MaxThroughput {
                index: Some(name.to_owned()),
                expected,
                found,
            });
        }
        if let Some(expected) = settings.index_warm(name) {
            match index.warm_throughput() {
                Some(warm) => warm_difference(
                    Some(name),
                    expected,
                    (warm.read_units_per_second(), warm.write_units_per_second()),
                    differences,
                ),
                None => differences.push(SchemaDifference::NotDescribed {
                    setting: "warm throughput of a GSI",
                }),
            }
        }
    }
}

/// A warm throughput below the definition's.
fn warm_difference(
    index: Option<&str>,
    expected: super::super::WarmThroughput,
    (read, write): (Option<i64>, Option<i64>),
    differences: &mut Vec<SchemaDifference>,
) {
    let (read, write) = (read.unwrap_or(0), write.unwrap_or(0));
    let below = |found: i64, expected: NonZeroU64| {
        u64::try_from(found).map_or(true, |found| found < expected.get())
    };
    if below(read, expected.read_units_per_second) || below(write, expected.write_units_per_second)
    {
        differences.push(SchemaDifference::WarmThroughput {
            index: index.map(str::to_owned),
            expected,
            found: (read, write),
        });
    }
}
