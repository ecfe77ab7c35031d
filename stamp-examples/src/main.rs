//! The reference service's schema as code.
//!
//! ```text
//! cargo run -p stamp-examples -- schema --format cloudformation   # CloudFormation, YAML
//! cargo run -p stamp-examples -- schema --format json             # CloudFormation, JSON
//! cargo run -p stamp-examples -- schema --format markdown         # the access-pattern catalogue
//! cargo run -p stamp-examples -- verify --endpoint URL --table NAME
//! cargo run -p stamp-examples -- migrate --endpoint URL --table NAME [--seed N] [--checkpoint FILE]
//! cargo run -p stamp-examples -- migrate --endpoint URL --table NAME --segment I --of N   # one unit of a job
//! cargo run -p stamp-examples -- migrate --endpoint URL --table NAME --check [--of N]     # the job's final step
//! cargo run -p stamp-examples -- export --endpoint URL --table NAME --dir DIR [--format parquet|ndjson|dynamodb-json]
//! cargo run -p stamp-examples -- export --endpoint URL --table NAME --dir DIR --segment I --of N
//! cargo run -p stamp-examples -- export --endpoint URL --table NAME --dir DIR --check --of N
//! cargo run -p stamp-examples -- dynamodb [--port 8000]           # the embedded DynamoDB, in the foreground
//! ```
//!
//! The outputs of `schema` are committed under `stamp-examples/schema/` and
//! compared exactly by this binary's tests; `STAMP_BLESS=1 cargo xtask test
//! schema_golden` rewrites them on purpose.

use std::process::ExitCode;

mod cli {
    pub mod export_command;
}

use clap::{Parser, Subcommand, ValueEnum};
use stamp::migrate::ScanSegment;
use stamp::{Table, TableDefinition};
use stamp_examples::{client, table_definition};

/// The reference e-commerce service of Stamp: its table's schema.
#[derive(Debug, Parser)]
#[command(name = "stamp-examples")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the table's CloudFormation template or its access-pattern
    /// catalogue.
    Schema {
        /// What to print.
        #[arg(long, value_enum, default_value_t = Format::Cloudformation)]
        format: Format,
    },
    /// Compare a live table with the definition and print each difference;
    /// exits with 1 when there is any.
    Verify {
        /// The DynamoDB endpoint, such as http://localhost:8000; AWS when absent.
        #[arg(long)]
        endpoint: Option<String>,
        /// The table to compare.
        #[arg(long)]
        table: String,
    },
    /// Move the reviews stored in their previous key format to the current
    /// one (`stamp_examples::migration`); resumable from a checkpoint file.
    Migrate {
        /// The DynamoDB endpoint, such as http://localhost:8000; AWS when absent.
        #[arg(long)]
        endpoint: Option<String>,
        /// The table to migrate.
        #[arg(long)]
        table: String,
        /// First write this many reviews in the old format (a demo; creates
        /// the table when it does not exist).
        #[arg(long)]
        seed: Option<u32>,
        /// Parallel scan segments.
        #[arg(long, default_value_t = 4)]
        segments: u32,
        /// The checkpoint file; an interrupted run resumes from it.
        #[arg(long)]
        checkpoint: Option<std::path::PathBuf>,
        /// Run one unit of the migration: segment INDEX (from 0) of
        /// `--of` (a worker of a job spread over machines, such as an
        /// indexed Kubernetes Job's `$JOB_COMPLETION_INDEX`).
        #[arg(long, requires = "of", conflicts_with_all = ["seed", "check"])]
        segment: Option<u32>,
        /// The segment count of a job run in units (`--segment`, `--check`).
        #[arg(long)]
        of: Option<u32>,
        /// The final step of a job run in units: check that no review is
        /// left at its old key (exits with 1 when one is).
        #[arg(long, conflicts_with = "seed")]
        check: bool,
    },
    /// Write every item of the table into one file per entity type
    /// (`<Type>.parquet` or `.ndjson`, `_unknown.ndjson` for other types;
    /// `.json.gz` files DynamoDB's import from S3 reads with
    /// `--format dynamodb-json`) from a parallel scan.
    Export {
        /// The DynamoDB endpoint, such as http://localhost:8000; AWS when absent.
        #[arg(long)]
        endpoint: Option<String>,
        /// The table to export.
        #[arg(long)]
        table: String,
        /// The directory of the files (created if missing).
        #[arg(long)]
        dir: std::path::PathBuf,
        /// The file format of the entity files.
        #[arg(long, value_enum, default_value_t = cli::export_command::FileFormat::Parquet)]
        format: cli::export_command::FileFormat,
        /// Parallel scan segments.
        #[arg(long, default_value_t = 4)]
        segments: u32,
        /// Read these DYNAMODB_JSON data files of an ExportTableToPointInTime
        /// (`*.json.gz`) instead of scanning the table.
        #[arg(long, num_args = 1..)]
        from_export_files: Vec<std::path::PathBuf>,
        /// Run one unit of the export: segment INDEX (from 0) of `--of`,
        /// into `DIR/segment-INDEX-of-N/` (a worker of a job spread over
        /// machines, such as an indexed Kubernetes Job's
        /// `$JOB_COMPLETION_INDEX`).
        #[arg(long, requires = "of", conflicts_with_all = ["from_export_files", "check"])]
        segment: Option<u32>,
        /// The segment count of a job run in units (`--segment`, `--check`).
        #[arg(long)]
        of: Option<u32>,
        /// The final step of a job run in units: check that every unit's
        /// folder is complete, then write `DIR/_SUCCESS` (exits with 1 when
        /// one is not).
        #[arg(long, requires = "of", conflicts_with = "from_export_files")]
        check: bool,
    },
    /// Serve the embedded DynamoDB (dynoxide, in memory) on 127.0.0.1 until
    /// Ctrl-C, for your own experiments (`cargo xtask dynamodb`).
    Dynamodb {
        /// The port to serve on 127.0.0.1.
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
}

/// An output of `schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The CloudFormation template, as YAML.
    Cloudformation,
    /// The CloudFormation template, as JSON.
    Json,
    /// The access-pattern catalogue, as Markdown.
    Markdown,
}

impl Format {
    /// The committed golden file of this output, below `stamp-examples/`.
    #[cfg(test)]
    fn golden_file(self) -> &'static str {
        match self {
            Format::Cloudformation => "schema/cloudformation.yaml",
            Format::Json => "schema/cloudformation.json",
            Format::Markdown => "schema/catalogue.md",
        }
    }
}

/// The table definition with one example item per entity, whose keys the
/// catalogue shows as they are stored, and the settings the service
/// deploys with ([`stamp_examples::with_deployed_settings`]), which the
/// CloudFormation template declares.
fn definition() -> Result<TableDefinition, stamp::Error> {
    stamp_examples::examples::definition().map(stamp_examples::with_deployed_settings)
}

/// The text `schema --format FORMAT` prints.
fn render(format: Format) -> Result<String, stamp::Error> {
    let definition = definition()?;
    Ok(match format {
        Format::Cloudformation => definition.cloudformation()?.to_yaml(),
        Format::Json => definition.cloudformation()?.to_json(),
        Format::Markdown => definition.catalogue()?,
    })
}

/// Serves dynoxide on 127.0.0.1:`port` until Ctrl-C.
async fn serve_dynamodb(port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|error| format!("cannot listen on 127.0.0.1:{port}: {error}"))?;
    println!(
        "embedded DynamoDB (dynoxide, in memory) at http://127.0.0.1:{port}; Ctrl-C stops it. \
         export STAMP_DYNAMODB_ENDPOINT=http://127.0.0.1:{port} to use it"
    );
    let database = dynoxide::Database::memory()?;
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    dynoxide::server::serve_with_shutdown(listener, database, shutdown).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Dynamodb { port } => match serve_dynamodb(port).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("dynamodb: {error}");
                ExitCode::FAILURE
            }
        },
        Command::Schema { format } => match render(format) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("schema: {error}");
                ExitCode::FAILURE
            }
        },
        Command::Verify { endpoint, table } => {
            let table = Table::new(client(endpoint.as_deref()).await, table);
            match table.verify(&table_definition()).await {
                Ok(differences) if differences.is_empty() => {
                    println!("table `{}` matches the definition", table.name());
                    ExitCode::SUCCESS
                }
                Ok(differences) => {
                    for difference in differences {
                        println!("{difference}");
                    }
                    ExitCode::FAILURE
                }
                Err(error) => {
                    eprintln!("verify: {error}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Export {
            endpoint,
            table,
            dir,
            format,
            segments,
            from_export_files,
            segment,
            of,
            check,
        } => {
            let table = Table::new(client(endpoint.as_deref()).await, table);
            let job = match (segment, of, check) {
                (_, Some(of), true) => cli::export_command::Job::Check { of },
                (Some(index), Some(of), false) => {
                    cli::export_command::Job::Unit(ScanSegment::new(index, of))
                }
                _ if from_export_files.is_empty() => cli::export_command::Job::Scan { segments },
                _ => cli::export_command::Job::Files(from_export_files),
            };
            cli::export_command::run(&table, dir, format, job).await
        }
        Command::Migrate {
            endpoint,
            table,
            seed,
            segments,
            checkpoint,
            segment,
            of,
            check,
        } => {
            let table = Table::new(client(endpoint.as_deref()).await, table);
            if check {
                return match stamp_examples::migration::check(&table, of.unwrap_or(segments)).await
                {
                    Ok(found) => {
                        println!(
                            "complete: {} reviews at their current key ({} that cannot be moved)",
                            found.current, found.unmovable
                        );
                        ExitCode::SUCCESS
                    }
                    Err(error) => {
                        eprintln!("migrate --check: {error}");
                        ExitCode::FAILURE
                    }
                };
            }
            let options = stamp_examples::migration::MigrateOptions {
                seed,
                segments,
                checkpoint,
                unit: segment
                    .zip(of)
                    .map(|(index, of)| ScanSegment::new(index, of)),
            };
            match stamp_examples::migration::run(&table, &options).await {
                Ok(outcome) => {
                    println!("{} in {:.1?}", outcome.progress, outcome.elapsed);
                    for key in &outcome.conflicts {
                        println!("conflict: the new key of {key:?} is taken; both items are kept");
                    }
                    for skipped in &outcome.skipped {
                        println!("skipped {:?}: {}", skipped.key, skipped.reason);
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("migrate: {error}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Golden files: every output of `schema`, compared exactly with the
    //! committed file. `STAMP_BLESS=1` rewrites the files instead.

    use std::path::Path;

    use super::*;

    fn check_golden(format: Format) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format.golden_file());
        let rendered = render(format).expect("the reference model is a valid table");
        if std::env::var_os("STAMP_BLESS").is_some_and(|value| value == "1") {
            std::fs::write(&path, &rendered).expect("write the golden file");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "cannot read {}: {error}; create it with `STAMP_BLESS=1 cargo xtask test schema_golden`",
                path.display()
            )
        });
        if rendered != committed {
            let line = rendered
                .lines()
                .zip(committed.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| rendered.lines().count().min(committed.lines().count()));
            panic!(
                "`schema --format {format:?}` differs from {} at line {}:\n  generated: {:?}\n  committed: {:?}\n\
                 If the change is intended, rewrite the file with `STAMP_BLESS=1 cargo xtask test schema_golden` \
                 and review the diff.",
                path.display(),
                line + 1,
                rendered.lines().nth(line),
                committed.lines().nth(line),
            );
        }
    }

    #[test]
    fn schema_golden_cloudformation_yaml() {
        check_golden(Format::Cloudformation);
    }

    #[test]
    fn schema_golden_cloudformation_json() {
        check_golden(Format::Json);
    }

    #[test]
    fn schema_golden_catalogue_markdown() {
        check_golden(Format::Markdown);
    }

    #[test]
    fn unit_flags_parse_together_and_alone_are_refused() {
        let cli = Cli::try_parse_from([
            "stamp-examples",
            "migrate",
            "--table",
            "shop",
            "--segment",
            "3",
            "--of",
            "16",
        ])
        .unwrap();
        assert!(matches!(
            cli.command,
            Command::Migrate {
                segment: Some(3),
                of: Some(16),
                check: false,
                ..
            }
        ));
        let cli = Cli::try_parse_from([
            "stamp-examples",
            "export",
            "--table",
            "shop",
            "--dir",
            "out",
            "--check",
            "--of",
            "16",
        ])
        .unwrap();
        assert!(matches!(
            cli.command,
            Command::Export {
                segment: None,
                of: Some(16),
                check: true,
                ..
            }
        ));
        for refused in [
            &["migrate", "--table", "shop", "--segment", "3"][..],
            &[
                "migrate",
                "--table",
                "shop",
                "--segment",
                "3",
                "--of",
                "4",
                "--check",
            ],
            &[
                "export",
                "--table",
                "shop",
                "--dir",
                "out",
                "--segment",
                "3",
            ],
            &["export", "--table", "shop", "--dir", "out", "--check"],
            &[
                "export",
                "--table",
                "shop",
                "--dir",
                "out",
                "--segment",
                "1",
                "--of",
                "2",
                "--from-export-files",
                "a.json.gz",
            ],
        ] {
            let args = std::iter::once("stamp-examples").chain(refused.iter().copied());
            assert!(Cli::try_parse_from(args).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn schema_command_line_parses_each_format() {
        for (text, format) in [
            ("cloudformation", Format::Cloudformation),
            ("json", Format::Json),
            ("markdown", Format::Markdown),
        ] {
            let cli = Cli::try_parse_from(["stamp-examples", "schema", "--format", text]).unwrap();
            assert!(matches!(cli.command, Command::Schema { format: parsed } if parsed == format));
        }
        let cli = Cli::try_parse_from(["stamp-examples", "schema"]).unwrap();
        assert!(matches!(
            cli.command,
            Command::Schema {
                format: Format::Cloudformation
            }
        ));
        assert!(Cli::try_parse_from(["stamp-examples", "schema", "--format", "toml"]).is_err());
    }

    #[test]
    fn export_command_line_parses_each_file_format() {
        use cli::export_command::FileFormat;
        for (text, format) in [
            ("parquet", FileFormat::Parquet),
            ("ndjson", FileFormat::Ndjson),
            ("dynamodb-json", FileFormat::DynamodbJson),
        ] {
            let cli = Cli::try_parse_from([
                "stamp-examples",
                "export",
                "--table",
                "shop",
                "--dir",
                "seed",
                "--format",
                text,
            ])
            .unwrap();
            assert!(
                matches!(cli.command, Command::Export { format: parsed, .. } if parsed == format),
                "{text}"
            );
        }
    }
}
