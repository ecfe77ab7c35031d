//! A key migration on the reference table: product reviews.
//!
//! Reviews were first stored one per partition, `REVIEW#<review_id>` /
//! `REVIEW`, so showing a product with its reviews took one request per
//! review. They now live next to their product, `PRODUCT#<sku>` /
//! `REVIEW#<review_id>`, so a product and its reviews are one query of the
//! product's partition. [`Review`] declares both formats; [`run`] moves the
//! stored reviews with [`stamp::migrate::Migration`], resumably, with a progress bar.
//!
//! ```text
//! cargo run -p stamp-examples -- migrate --endpoint http://localhost:8000 --table shop --seed 2000
//! ```

use stamp::BatchWrite;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use stamp::{
    Item, Table,
    migrate::{Migration, MigrationCheck, MigrationOutcome, ScanSegment},
};
use uuid::Uuid;

/// A customer's review of a product, in its product's partition.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PRODUCT#<sku>"]
#[sk = "REVIEW#<review_id>"]
#[stamp(previous(pk = "REVIEW#<review_id>", sk = "REVIEW"))]
pub struct Review {
    /// The product reviewed.
    pub sku: String,
    /// The review's id.
    pub review_id: Uuid,
    /// Who wrote it.
    pub customer_id: String,
    /// From 1 to 5 stars.
    pub rating: u8,
    /// What the customer wrote.
    pub text: String,
    /// When it was written.
    pub created_at: DateTime<Utc>,
}

/// A review as the code before the change stored it, one per partition;
/// the demo writes these to have something to migrate.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "REVIEW#<review_id>"]
#[sk = "REVIEW"]
#[stamp(type_name = "Review")]
pub struct ReviewBefore {
    /// The product reviewed.
    pub sku: String,
    /// The review's id.
    pub review_id: Uuid,
    /// Who wrote it.
    pub customer_id: String,
    /// From 1 to 5 stars.
    pub rating: u8,
    /// What the customer wrote.
    pub text: String,
    /// When it was written.
    pub created_at: DateTime<Utc>,
}

/// Review number `number` of the demo data, in the old format:
/// deterministic, spread over 100 products.
pub fn old_review(number: u32) -> ReviewBefore {
    let start: DateTime<Utc> = "2026-01-01T00:00:00Z".parse().expect("a valid time");
    ReviewBefore {
        sku: format!("SKU-{:05}", number % 100),
        review_id: Uuid::from_u128(0x5e71_e700_0000_0000_0000_0000_0000_0000 | u128::from(number)),
        customer_id: format!("c-{:04}", number % 997),
        rating: (number % 5 + 1) as u8,
        text: format!("Review {number}: works as described."),
        created_at: start + chrono::Duration::minutes(i64::from(number)),
    }
}

/// What `migrate` is asked to do.
#[derive(Debug, Clone)]
pub struct MigrateOptions {
    /// Write this many reviews in the old format first (creating the table
    /// if it does not exist).
    pub seed: Option<u32>,
    /// Parallel scan segments.
    pub segments: u32,
    /// The checkpoint file; the run resumes from it when it exists.
    pub checkpoint: Option<PathBuf>,
    /// Run this one unit (segment `index` of `of`) instead of every
    /// segment: a worker of a job spread over machines.
    pub unit: Option<ScanSegment>,
}

/// The final step of the review migration run in units: checks that no
/// review is left to move ([`Migration::check`], a scan of `segments`
/// segments).
///
/// # Errors
///
/// [`stamp::error::JobError::MigrationIncomplete`] when a review is still
/// at its old key, and the errors of [`Migration::check`].
pub async fn check(table: &Table, segments: u32) -> Result<MigrationCheck, stamp::Error> {
    Migration::<Review>::new()
        .segments(segments)
        .check(table)
        .await
}

/// Runs the review migration on `table`, with an indicatif progress bar on
/// standard error.
///
/// # Errors
///
/// The errors of creating the table and writing the seed reviews
/// ([`stamp::Error::DynamoDb`], [`stamp::Error::UnprocessedItems`]), and of
/// [`Migration::run`] (or [`Migration::run_segment`] for a unit).
pub async fn run(
    table: &Table,
    options: &MigrateOptions,
) -> Result<MigrationOutcome, stamp::Error> {
    if let Some(count) = options.seed {
        let definition = crate::table_definition().entity::<Review>();
        match table.create_table(&definition).await {
            Ok(()) => eprintln!("created table `{}`", table.name()),
            Err(stamp::Error::DynamoDb { source, .. })
                if matches!(
                    *source,
                    stamp::aws_sdk_dynamodb::Error::ResourceInUseException(_)
                ) => {}
            Err(error) => return Err(error),
        }
        let reviews: Vec<ReviewBefore> = (0..count).map(old_review).collect();
        BatchWrite::new().put_all(&reviews).send(table).await?;
        eprintln!("wrote {count} reviews in the old format (REVIEW#<review_id> / REVIEW)");
    }
    let bar = match options.seed {
        Some(count) => ProgressBar::new(u64::from(count)),
        None => ProgressBar::new_spinner(),
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} reviews seen {msg}",
        )
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    let progress_bar = bar.clone();
    let mut migration = Migration::<Review>::new()
        .segments(options.segments)
        .on_progress(move |progress| {
            progress_bar.set_position(
                progress.migrated
                    + progress.already_current
                    + progress.conflicts
                    + progress.skipped
                    + progress.vanished,
            );
            progress_bar.set_message(format!(
                "({} moved, segments {}/{})",
                progress.migrated, progress.segments_done, progress.total_segments
            ));
        });
    if let Some(path) = &options.checkpoint {
        migration = migration.checkpoint_file(path);
    }
    let outcome = match options.unit {
        Some(unit) => migration.run_segment(table, unit).await,
        None => migration.run(table).await,
    };
    bar.finish_and_clear();
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use stamp::Entity;

    #[test]
    fn a_review_moves_next_to_its_product() {
        let old = old_review(7);
        let review = Review::from_item(old.to_item().unwrap()).unwrap();
        let new_key = review.primary_key().unwrap();
        assert_eq!(new_key.partition_key(), "PRODUCT#SKU-00007");
        assert_eq!(
            new_key.sort_key(),
            "REVIEW#5e71e700-0000-0000-0000-000000000007"
        );
        let (old_pk, old_sk) = old.primary_key().unwrap().into_parts();
        let previous = review.previous_primary_key().unwrap().unwrap();
        assert_eq!(
            (previous.partition_key(), previous.sort_key()),
            (old_pk.as_str(), old_sk.as_str())
        );
        assert_eq!(previous, Review::previous_key(&old.review_id).unwrap());
        // The new format shares the product's partition without colliding with it.
        crate::table_definition()
            .entity::<Review>()
            .check()
            .unwrap();
    }
}
