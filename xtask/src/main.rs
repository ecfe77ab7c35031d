//! Project tasks for Stamp, run as `cargo xtask TASK`.
//!
//! The tests, the demo and the benches run on the embedded DynamoDB
//! (`stamp::local`, dynoxide, inside their own process) unless
//! `$STAMP_DYNAMODB_ENDPOINT` names another server. `test` also runs the
//! server tests on ministack, from a Python venv in `target/stamp-venv`.

mod bench_requests;
mod bench_task;
mod demo_task;
mod doc_task;
mod dynamodb_task;
mod endpoint;
mod export_memory_task;
mod local_server;
mod test_task;
mod venv;
mod workspace;

use std::process::{ExitCode, ExitStatus};

use clap::{Parser, Subcommand};

/// The error type of all tasks.
type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

/// Project tasks for Stamp.
#[derive(Debug, Parser)]
#[command(name = "xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Run the workspace's tests (all targets, then doc tests), then the
    /// server tests again on ministack.
    ///
    /// The first runs use the embedded DynamoDB, or $STAMP_DYNAMODB_ENDPOINT
    /// when set; ministack is started on a free loopback port for the run
    /// and stopped afterwards.
    Test {
        /// Also lint: the workspace's crates are compiled by clippy-driver
        /// with `-D warnings` (as `cargo clippy --all-targets` would), in the
        /// same build as the tests, so CI compiles them once.
        #[arg(long)]
        lint: bool,
        /// Passed to both `cargo test` runs, e.g. `key_template -- --nocapture`.
        /// (`-p` does not narrow them: cargo ignores it next to `--workspace`.)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Build the API docs of stamp, stamp-core and stamp-derive as docs.rs
    /// does (every feature, without dependencies), rustdoc's warnings
    /// (broken intra-doc links among them) as errors.
    Doc,
    /// Run the embedded DynamoDB (dynoxide, in memory) in the foreground
    /// until Ctrl-C.
    ///
    /// With Docker you can instead run `docker compose up`, which starts
    /// DynamoDB Local on port 8000.
    Dynamodb {
        /// The port to serve on 127.0.0.1.
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
    /// Measure Stamp against hand-written SDK code and rewrite BENCHMARKS.md.
    ///
    /// Runs the criterion benches (stamp-benches) on the embedded DynamoDB (or
    /// $STAMP_DYNAMODB_ENDPOINT), then the compile cost of
    /// #[derive(Item)] (two generated crates of 50 entities).
    Bench {
        /// Only the compile cost (no criterion benches, no server).
        #[arg(long, conflicts_with = "skip_compile")]
        compile: bool,
        /// Only the criterion benches.
        #[arg(long)]
        skip_compile: bool,
        /// Criterion filters, such as `encode_` (BENCHMARKS.md then mixes
        /// this run with the estimates of earlier ones).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        filters: Vec<String>,
    },
    /// Measure the peak memory (VmHWM) of an export from S3 to S3 of
    /// generated items, on ministack's S3 (the figure in BENCHMARKS.md).
    ExportMemory {
        /// How many items the source export holds.
        #[arg(long, default_value_t = 1_000_000)]
        items: u64,
    },
    /// Run the stamp-examples demo against DynamoDB.
    ///
    /// The endpoint is --endpoint, else $STAMP_DYNAMODB_ENDPOINT, else the
    /// embedded DynamoDB that the demo starts in its own process.
    Demo {
        /// The DynamoDB endpoint URL to use.
        #[arg(long)]
        endpoint: Option<String>,
        /// Passed to the demo after `--endpoint URL`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run the concurrent fault soak of the reference service over a
    /// sweep of seeds (`stamp_examples::soak`, `--bin soak`).
    ///
    /// Each seed runs twice, with the SDK's retries and without; `--load`
    /// prints the load figures instead (one client, one thread, without
    /// faults and with them). The endpoint is $STAMP_DYNAMODB_ENDPOINT, else
    /// the embedded DynamoDB.
    Soak {
        /// Passed to the soak, e.g. `--seeds 50` or `--seed 7` or `--load`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().task {
        Task::Test { lint, args } => test_task::run(&args, lint),
        Task::Doc => doc_task::run(),
        Task::Dynamodb { port } => dynamodb_task::run(port),
        Task::Demo { endpoint, args } => demo_task::run(endpoint, &args),
        Task::ExportMemory { items } => export_memory_task::run(items),
        Task::Soak { args } => soak_task(&args),
        Task::Bench {
            compile,
            skip_compile,
            filters,
        } => bench_task::run(&bench_task::Options {
            compile_only: compile,
            skip_compile,
            filters,
        }),
    };
    result.unwrap_or_else(|error| {
        eprintln!("xtask: {error}");
        ExitCode::FAILURE
    })
}

/// `cargo xtask soak ARGS`: `--bin soak` of stamp-examples, in the dev
/// profile (the embedded server is built optimized there), so it reuses
/// what `cargo xtask test` built.
fn soak_task(args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let mut command = workspace::cargo(&root);
    command.args([
        "run",
        "--quiet",
        "-p",
        "stamp-examples",
        "--bin",
        "soak",
        "--",
    ]);
    Ok(exit_code(command.args(args).status()?))
}

/// The exit code that mirrors a child's `status`; failure if a signal ended it.
fn exit_code(status: ExitStatus) -> ExitCode {
    match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => u8::try_from(code).map_or(ExitCode::FAILURE, ExitCode::from),
        None => ExitCode::FAILURE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Task {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied()))
            .unwrap()
            .task
    }

    #[test]
    fn test_args_pass_through_verbatim() {
        let Task::Test { lint, args } = parse(&["test", "-p", "stamp-core", "--", "--nocapture"])
        else {
            panic!("not the test task");
        };
        assert!(!lint);
        assert_eq!(args, ["-p", "stamp-core", "--", "--nocapture"]);
        let Task::Test { lint, args } = parse(&["test", "--lint", "ops::"]) else {
            panic!("not the test task");
        };
        assert!(lint);
        assert_eq!(args, ["ops::"]);
    }

    #[test]
    fn demo_takes_an_endpoint_and_passes_the_rest() {
        let Task::Demo { endpoint, args } =
            parse(&["demo", "--endpoint", "http://x:1", "--verbose", "run"])
        else {
            panic!("not the demo task");
        };
        assert_eq!(endpoint.as_deref(), Some("http://x:1"));
        assert_eq!(args, ["--verbose", "run"]);
    }

    #[test]
    fn dynamodb_defaults_to_port_8000() {
        assert!(matches!(
            parse(&["dynamodb"]),
            Task::Dynamodb { port: 8000 }
        ));
    }
}
