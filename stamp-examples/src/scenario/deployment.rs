//! The deployed table's settings: the drift check against the definition,
//! and lifting deletion protection before the demo deletes its table.

use std::time::Duration;

use stamp::{Error, Table};

/// What the drift check ([`Table::verify`]) of the deployed table found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriftCheck {
    /// Every difference, as `verify` reports it.
    pub differences: Vec<stamp::schema::SchemaDifference>,
}

impl DriftCheck {
    /// The settings the endpoint does not describe, so that they could not
    /// be compared (on the embedded server: warm throughput and the
    /// resource policy).
    pub fn not_described(&self) -> Vec<&'static str> {
        self.differences
            .iter()
            .filter_map(|difference| match difference {
                stamp::schema::SchemaDifference::NotDescribed { setting } => Some(*setting),
                _ => None,
            })
            .collect()
    }

    /// The differences that are drift: every one but the settings not
    /// described. The demo expects none.
    pub fn drift(&self) -> Vec<&stamp::schema::SchemaDifference> {
        self.differences
            .iter()
            .filter(|difference| {
                !matches!(
                    difference,
                    stamp::schema::SchemaDifference::NotDescribed { .. }
                )
            })
            .collect()
    }
}

/// The drift check of `table` against `definition`.
pub async fn drift_check(
    table: &Table,
    definition: &stamp::TableDefinition,
) -> Result<DriftCheck, Error> {
    Ok(DriftCheck {
        differences: table.verify(definition).await?,
    })
}

/// Turns deletion protection off on `table` (`UpdateTable`,
/// `DeletionProtectionEnabled: false`) and waits until it is `ACTIVE`
/// again, so that `DeleteTable` can delete it: the deployed definition
/// turns protection on.
pub async fn lift_deletion_protection(table: &Table) -> Result<(), aws_sdk_dynamodb::Error> {
    table
        .client()
        .update_table()
        .table_name(table.name())
        .deletion_protection_enabled(false)
        .send()
        .await?;
    for _ in 0..120 {
        let described = table
            .client()
            .describe_table()
            .table_name(table.name())
            .send()
            .await?;
        let status = described.table().and_then(|table| table.table_status());
        if status == Some(&aws_sdk_dynamodb::types::TableStatus::Active) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Ok(())
}
