//! `stamp-examples export`: the reference table into one file per entity,
//! with a progress bar.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use stamp::Table;
use stamp::export::ExportFormat;

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

/// Runs the export and prints one line per file.
pub async fn run(
    table: &Table,
    directory: PathBuf,
    format: FileFormat,
    segments: u32,
    from_export_files: Vec<PathBuf>,
) -> ExitCode {
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
    let export = stamp_examples::export::export(&directory, format)
        .segments(segments)
        .progress(move |progress| {
            shown.set_message(format!(
                "{} items read in {} pages",
                progress.scanned, progress.pages
            ));
            shown.tick();
        });
    let result = if from_export_files.is_empty() {
        export.run(table).await
    } else {
        export.run_from_files(from_export_files).await
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
