//! The drift check: a live table (`DescribeTable`, `DescribeTimeToLive`,
//! and for the settings `ListTagsOfResource`, `GetResourcePolicy`,
//! `DescribeContributorInsights`) compared with its [`TableDefinition`],
//! and the steps of [`Table::create_table`] after `CreateTable`.

use aws_sdk_dynamodb::operation::describe_table::DescribeTableInput;
use aws_sdk_dynamodb::operation::describe_time_to_live::DescribeTimeToLiveInput;
use aws_sdk_dynamodb::operation::update_time_to_live::UpdateTimeToLiveInput;
use aws_sdk_dynamodb::types::{
    BillingMode, Projection, ProjectionType, TableDescription, TimeToLiveSpecification,
    TimeToLiveStatus,
};

use crate::request::executor::Call;

mod global;
mod settings;

use super::{IndexProjection, KeyNames, Resolved, SchemaDifference, TableDefinition, Throughput};
use crate::error::Error;
use crate::request::table::Table;

/// The projection DynamoDB describes, with `INCLUDE` attributes sorted.
fn projection_from_sdk(projection: Option<&Projection>) -> IndexProjection {
    let Some(projection) = projection else {
        return IndexProjection::All;
    };
    match projection.projection_type() {
        Some(ProjectionType::KeysOnly) => IndexProjection::KeysOnly,
        Some(ProjectionType::Include) => {
            let mut attributes = projection.non_key_attributes().to_vec();
            attributes.sort();
            IndexProjection::Include(attributes)
        }
        _ => IndexProjection::All,
    }
}

/// `projection` with `INCLUDE` attributes sorted, for comparison.
/// Records how an index's key schema (when `expected_keys` is given) and
/// projection differ from the live index's.
fn compare_index(
    differences: &mut Vec<SchemaDifference>,
    name: &str,
    expected_keys: Option<KeyNames>,
    projection: &IndexProjection,
    live_keys: &[aws_sdk_dynamodb::types::KeySchemaElement],
    live_projection: Option<&Projection>,
) {
    if let Some(expected) = expected_keys {
        let found = KeyNames::from_sdk(live_keys);
        if expected != found {
            differences.push(SchemaDifference::KeySchema {
                index: Some(name.to_owned()),
                expected,
                found,
            });
        }
    }
    let expected = normalized(projection);
    let found = projection_from_sdk(live_projection);
    if expected != found {
        differences.push(SchemaDifference::Projection {
            index: name.to_owned(),
            expected,
            found,
        });
    }
}

fn normalized(projection: &IndexProjection) -> IndexProjection {
    match projection {
        IndexProjection::Include(attributes) => {
            let mut attributes = attributes.clone();
            attributes.sort();
            IndexProjection::Include(attributes)
        }
        other => other.clone(),
    }
}

/// [`Table::verify`].
pub(crate) async fn verify(
    table: &Table,
    definition: &TableDefinition,
) -> Result<Vec<SchemaDifference>, Error> {
    let resolved = definition.resolve()?;
    let described = table
        .execute_mapped(
            DescribeTableInput::builder()
                .table_name(table.name())
                .build()
                .expect("DescribeTableInput has no required fields"),
            Call::of(""),
        )
        .await?;
    let time_to_live = table
        .execute_mapped(
            DescribeTimeToLiveInput::builder()
                .table_name(table.name())
                .build()
                .expect("DescribeTimeToLiveInput has no required fields"),
            Call::of(""),
        )
        .await?;
    // DynamoDB always describes the table; an empty description shows as
    // every difference rather than none.
    let empty = TableDescription::builder().build();
    let handle = table;
    let table = described.table().unwrap_or(&empty);
    let mut differences = key_differences(&resolved, table);
    let compare_throughput = billing_differences(definition, table, &mut differences);
    index_differences(&resolved, table, compare_throughput, &mut differences);
    differences.extend(super::vector::vector_index_differences(
        &resolved.vector_indexes,
        table.vector_indexes(),
    ));
    let found = time_to_live
        .time_to_live_description()
        .filter(|description| {
            matches!(
                description.time_to_live_status(),
                Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
            )
        })
        .and_then(|description| description.attribute_name())
        .map(str::to_owned);
    let expected = resolved.time_to_live.map(str::to_owned);
    if expected != found {
        differences.push(SchemaDifference::TimeToLive { expected, found });
    }
    let found = table
        .stream_specification()
        .filter(|spec| spec.stream_enabled())
        .map(|spec| {
            spec.stream_view_type()
                .map_or_else(String::new, |view| view.as_str().to_owned())
        });
    let expected = definition
        .stream_view_type()
        .map(|view| view.as_str().to_owned())
        .or_else(|| global::replication_stream(definition, table));
    if expected != found {
        differences.push(SchemaDifference::Stream { expected, found });
    }
    let home_region = handle
        .client()
        .config()
        .region()
        .map(|region| region.as_ref().to_owned());
    global::global_differences(definition, table, home_region.as_deref(), &mut differences);
    settings::setting_differences(handle, definition, table, &mut differences).await?;
    Ok(differences)
}

/// What [`Table::create_table`] sends after `CreateTable`: TTL on
/// ([`enable_time_to_live`]), then Contributor Insights on when the
/// definition asks for it (`UpdateContributorInsights`).
pub(crate) async fn after_create(table: &Table, definition: &TableDefinition) -> Result<(), Error> {
    enable_time_to_live(table, definition).await?;
    if let Some(input) = definition.contributor_insights_request(table.name()) {
        table.execute_mapped(input, Call::of("")).await?;
    }
    Ok(())
}

/// Turns on TTL on `definition`'s TTL attribute with `UpdateTimeToLive`;
/// nothing when no entity has one. Called by [`Table::create_table`].
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html>.
pub(crate) async fn enable_time_to_live(
    table: &Table,
    definition: &TableDefinition,
) -> Result<(), Error> {
    let Some(attribute) = definition.time_to_live_attribute()? else {
        return Ok(());
    };
    let input = UpdateTimeToLiveInput::builder()
        .table_name(table.name())
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .attribute_name(attribute)
                .enabled(true)
                .build()
                .expect("attribute name and enabled are set"),
        )
        .build()
        .expect("UpdateTimeToLiveInput has no required fields");
    table.execute_mapped(input, Call::of("")).await?;
    Ok(())
}

/// The differences of the table's key schema and key attribute types.
fn key_differences(resolved: &Resolved, table: &TableDescription) -> Vec<SchemaDifference> {
    let mut differences = Vec::new();

    let expected = KeyNames::new(resolved.partition_key, Some(resolved.sort_key));
    let found = KeyNames::from_sdk(table.key_schema());
    if expected != found {
        differences.push(SchemaDifference::KeySchema {
            index: None,
            expected,
            found,
        });
    }
    for (attribute, expected) in resolved.key_attribute_types().unwrap_or_default() {
        let defined = table
            .attribute_definitions()
            .iter()
            .find(|definition| definition.attribute_name() == attribute);
        if let Some(defined) = defined
            && *defined.attribute_type() != expected.to_sdk()
        {
            differences.push(SchemaDifference::AttributeType {
                attribute: attribute.to_owned(),
                expected: expected.to_sdk(),
                found: defined.attribute_type().clone(),
            });
        }
    }

    differences
}

/// The differences of billing mode and table capacity; returns the capacity
/// every index must have, when the table is provisioned as defined.
fn billing_differences(
    definition: &TableDefinition,
    table: &TableDescription,
    differences: &mut Vec<SchemaDifference>,
) -> Option<Throughput> {
    let table_throughput = Throughput::from_sdk(table.provisioned_throughput());
    let found_mode = table
        .billing_mode_summary()
        .and_then(|summary| summary.billing_mode())
        .cloned()
        .unwrap_or(
            if table_throughput.read_capacity_units == 0
                && table_throughput.write_capacity_units == 0
            {
                BillingMode::PayPerRequest
            } else {
                BillingMode::Provisioned
            },
        );
    let expected_mode = definition.billing.billing_mode();
    let expected_throughput = definition.billing.throughput();
    if expected_mode != found_mode {
        differences.push(SchemaDifference::BillingMode {
            expected: expected_mode,
            found: found_mode.clone(),
        });
    }
    let compare_throughput = expected_throughput.filter(|_| found_mode == BillingMode::Provisioned);
    if let Some(expected) = compare_throughput
        && expected != table_throughput
    {
        differences.push(SchemaDifference::ProvisionedThroughput {
            index: None,
            expected,
            found: table_throughput,
        });
    }

    compare_throughput
}

/// One index as `DescribeTable` describes it, a GSI or an LSI.
struct LiveIndex<'a> {
    name: &'a str,
    local: bool,
    key_schema: &'a [aws_sdk_dynamodb::types::KeySchemaElement],
    projection: Option<&'a Projection>,
    /// A GSI's capacity; `None` for an LSI, which has none of its own.
    throughput: Option<Throughput>,
}

/// The indexes `table` describes: its GSIs, then its LSIs.
fn live_indexes(table: &TableDescription) -> Vec<LiveIndex<'_>> {
    let global = table
        .global_secondary_indexes()
        .iter()
        .map(|live| LiveIndex {
            name: live.index_name().unwrap_or_default(),
            local: false,
            key_schema: live.key_schema(),
            projection: live.projection(),
            throughput: Some(Throughput::from_sdk(live.provisioned_throughput())),
        });
    let local = table
        .local_secondary_indexes()
        .iter()
        .map(|live| LiveIndex {
            name: live.index_name().unwrap_or_default(),
            local: true,
            key_schema: live.key_schema(),
            projection: live.projection(),
            throughput: None,
        });
    global.chain(local).collect()
}

/// The differences of each index of the definition (missing, key schema,
/// projection, a GSI's capacity) and the indexes of the table the
/// definition does not have: first the GSIs, then the LSIs.
fn index_differences(
    resolved: &Resolved,
    table: &TableDescription,
    compare_throughput: Option<Throughput>,
    differences: &mut Vec<SchemaDifference>,
) {
    let live_indexes = live_indexes(table);
    for local in [false, true] {
        let live_of_kind = || live_indexes.iter().filter(|live| live.local == local);
        let expected_of_kind = || {
            resolved
                .indexes
                .iter()
                .filter(|index| index.is_local() == local)
        };
        for index in expected_of_kind() {
            let Some(live) = live_of_kind().find(|live| live.name == index.name) else {
                differences.push(SchemaDifference::MissingIndex {
                    index: index.name.to_owned(),
                });
                continue;
            };
            compare_live_index(index, live, compare_throughput.as_ref(), differences);
        }
        let mut extra: Vec<String> = live_of_kind()
            .map(|live| live.name)
            .filter(|name| !expected_of_kind().any(|index| index.name == *name))
            .map(str::to_owned)
            .collect();
        extra.sort();
        differences.extend(
            extra
                .into_iter()
                .map(|index| SchemaDifference::ExtraIndex { index }),
        );
    }
}

/// How one index differs from its live counterpart: key schema (with the
/// types of a multi-attribute key), projection, and a GSI's capacity.
fn compare_live_index(
    index: &super::TableIndex,
    live: &LiveIndex<'_>,
    compare_throughput: Option<&Throughput>,
    differences: &mut Vec<SchemaDifference>,
) {
    if index.multi_attribute.is_some() {
        let expected: Vec<String> = super::multi_attribute::key_schema_names(index)
            .into_iter()
            .map(|(name, hash)| format!("{} {name}", if hash { "HASH" } else { "RANGE" }))
            .collect();
        let found: Vec<String> = live
            .key_schema
            .iter()
            .map(|element| {
                format!(
                    "{} {}",
                    element.key_type().as_str(),
                    element.attribute_name()
                )
            })
            .collect();
        if expected != found {
            differences.push(SchemaDifference::MultiAttributeKeySchema {
                index: index.name.to_owned(),
                expected,
                found,
            });
        }
    }
    // A multi-attribute index's key schema is compared above, with its types.
    let keys = index
        .multi_attribute
        .is_none()
        .then(|| KeyNames::new(index.partition_key, index.sort_key));
    compare_index(
        differences,
        index.name,
        keys,
        &index.projection,
        live.key_schema,
        live.projection,
    );
    if let (Some(expected), Some(found)) = (compare_throughput, &live.throughput)
        && expected != found
    {
        differences.push(SchemaDifference::ProvisionedThroughput {
            index: Some(index.name.to_owned()),
            expected: *expected,
            found: *found,
        });
    }
}
