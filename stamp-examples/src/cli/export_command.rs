//! `stamp-examples export`: the reference table into one file per entity,
//! with a progress bar.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use stamp::Table;
use stamp::export::{ExportFormat, ScanSegment};

/// The file format of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FileFormat {
    /// Apache Parquet, typed columns.
    Parquet,
    /// Newline-delimited JSON.
    Ndjson,
    /// The files DynamoDB's import from S3 reads: gzipped DYNAMODB_JSON,
    /// every item as stored (`<Type>.json.gz`, `_unknown.json.gz`).
    DynamodbJson,
}

/// What `export` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// The whole table, in a parallel scan of this many segments.
    Scan {
        /// The segment count.
        segments: u32,
    },
    /// These DYNAMODB_JSON files of an ExportTableToPointInTime.
    Files(Vec<PathBuf>),
    /// One unit of a job spread over machines, into its folder.
    Unit(ScanSegment),
    /// The final step of a job run in units of `of` segments.
    Check {
        /// The segment count.
        of: u32,
    },
}

/// Runs the export and prints one line per file.
pub async fn run(table: &Table, directory: PathBuf, format: FileFormat, job: Job) -> ExitCode {
    let format = match format {
        FileFormat::Parquet => ExportFormat::Parquet,
        FileFormat::Ndjson => ExportFormat::Ndjson,
        FileFormat::DynamodbJson => ExportFormat::DynamoDbJson,
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let shown = bar.clone();
    let export = stamp_examples::export::export(&directory, format).progress(move |progress| {
        shown.set_message(format!(
            "{} items read in {} pages",
            progress.scanned, progress.pages
        ));
        shown.tick();
    });
    let result = match job {
        Job::Scan { segments } => export.segments(segments).run(table).await,
        Job::Files(files) => export.run_from_files(files).await,
        Job::Unit(unit) => export.run_segment(table, unit).await,
        Job::Check { of } => {
            bar.finish_and_clear();
            return check(&directory, format, of);
        }
    };
    bar.finish_and_clear();
    match result {
        Ok(outcome) => {
            for file in &outcome.files {
                println!(
                    "{:>8} {:<9} {}",
                    file.items,
                    file.entity.unwrap_or("(unknown)"),
                    file.path.display()
                );
            }
            println!("{} items read from `{}`", outcome.scanned, table.name());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("export: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `export --check --of N`: the final step of an export run in units.
fn check(directory: &std::path::Path, format: ExportFormat, of: u32) -> ExitCode {
    match stamp_examples::export::export(directory, format).check_segments(of) {
        Ok(check) => {
            println!(
                "complete: {} units; wrote {}",
                check.units.len(),
                check.marker.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("export --check: {error}");
            ExitCode::FAILURE
        }
    }
}
