//! The drift check of a [global table](crate::GlobalTable): the replicas'
//! Regions, the witness and the consistency mode, as `DescribeTable`
//! reports them (`Replicas`, `GlobalTableWitnesses`,
//! `MultiRegionConsistency`).
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html>.

use aws_sdk_dynamodb::types::TableDescription;

use super::super::{MultiRegionConsistency, SchemaDifference, TableDefinition};

/// Compares the live table's replicas, witness and consistency with the
/// definition's global table. `home_region` is the Region the client
/// talks to: the table described is its replica, which `Replicas` may or
/// may not list, so it counts as found.
pub(super) fn global_differences(
    definition: &TableDefinition,
    live: &TableDescription,
    home_region: Option<&str>,
    differences: &mut Vec<SchemaDifference>,
) {
    let global = definition.settings.global_table.as_ref();
    let mut found: Vec<String> = live
        .replicas()
        .iter()
        .filter_map(|replica| replica.region_name().map(str::to_owned))
        .collect();
    let is_global = !found.is_empty();
    if let Some(home) = home_region
        && is_global
        && !found.iter().any(|region| region == home)
    {
        found.push(home.to_owned());
    }
    found.sort();
    let mut expected: Vec<String> = global.map_or_else(Vec::new, |global| {
        global
            .replicas
            .iter()
            .map(|replica| replica.region.clone())
            .collect()
    });
    expected.sort();
    if expected != found {
        differences.push(SchemaDifference::Replicas { expected, found });
    }
    let found = live
        .global_table_witnesses()
        .iter()
        .find_map(|witness| witness.region_name().map(str::to_owned));
    let expected = global.and_then(|global| global.witness.clone());
    if expected != found {
        differences.push(SchemaDifference::Witness { expected, found });
    }
    if let Some(global) = global
        && is_global
    {
        let found = live
            .multi_region_consistency()
            .map_or("EVENTUAL", |consistency| consistency.as_str());
        if found != global.consistency.as_str() {
            differences.push(SchemaDifference::MultiRegionConsistency {
                expected: global.consistency,
                found: found.to_owned(),
            });
        }
    }
}

/// The stream an eventually consistent global table has though the
/// definition declares none: DynamoDB replicates through it
/// (`NEW_AND_OLD_IMAGES`), and it cannot be turned off on a replica.
pub(super) fn replication_stream(
    definition: &TableDefinition,
    live: &TableDescription,
) -> Option<String> {
    let global = definition.settings.global_table.as_ref()?;
    (global.consistency == MultiRegionConsistency::Eventual && !live.replicas().is_empty())
        .then(|| "NEW_AND_OLD_IMAGES".to_owned())
}
