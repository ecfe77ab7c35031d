//! `cargo xtask soak`: the concurrent fault soak of the reference service
//! (`stamp_examples::soak`) over a sweep of seeds, each with the SDK's
//! standard retries and without, then a run without faults and one with,
//! for the load figures of BENCHMARKS.md.
//!
//! ```text
//! cargo run -p stamp-examples --bin soak -- [--seeds 20] [--first-seed 1] [--tasks 16]
//!     [--operations 60] [--fault-rate 0.15] [--endpoint URL] [--load]
//! ```
//!
//! Without `--endpoint` (or `$STAMP_DYNAMODB_ENDPOINT`) it starts the
//! embedded DynamoDB in its own thread. Exits with 1 at the first seed that
//! breaks an invariant, after printing it.

use std::process::ExitCode;

use clap::Parser;
use stamp_examples::soak::{self, SoakOptions, SoakReport};

/// The concurrent fault soak of the reference service.
#[derive(Debug, Parser)]
#[command(name = "soak")]
struct Cli {
    /// How many seeds to run (each twice: with the SDK's retries and without).
    #[arg(long, default_value_t = 20)]
    seeds: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    /// Run only this seed (both ways).
    #[arg(long, conflicts_with_all = ["seeds", "first_seed"])]
    seed: Option<u64>,
    /// Tasks working at once.
    #[arg(long, default_value_t = 16)]
    tasks: usize,
    /// Operations per task.
    #[arg(long, default_value_t = 60)]
    operations: usize,
    /// The share of requests that meet a fault.
    #[arg(long, default_value_t = 0.15)]
    fault_rate: f64,
    /// The DynamoDB endpoint; the embedded server when absent.
    #[arg(long)]
    endpoint: Option<String>,
    /// Only the load figures: one client on a one-thread runtime, the same
    /// work without faults and with them.
    #[arg(long)]
    load: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let embedded;
    let endpoint = match cli.endpoint.clone().or_else(|| {
        std::env::var("STAMP_DYNAMODB_ENDPOINT")
            .ok()
            .filter(|url| !url.is_empty())
    }) {
        Some(url) => url,
        None => {
            embedded = match stamp::local::LocalDynamoDb::start_in_background() {
                Ok(server) => server,
                Err(error) => {
                    eprintln!("soak: the embedded DynamoDB did not start: {error}");
                    return ExitCode::FAILURE;
                }
            };
            embedded.endpoint().to_owned()
        }
    };
    // One thread: the load figures are those of one client on one core
    // (the embedded server runs in its own thread).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let options = |seed, fault_rate, sdk_retries| SoakOptions {
            seed,
            tasks: cli.tasks,
            operations_per_task: cli.operations,
            fault_rate,
            sdk_retries,
            dishonest_throttling: false,
        };
        if cli.load {
            for fault_rate in [0.0, cli.fault_rate] {
                match soak::run(&endpoint, &options(cli.first_seed, fault_rate, true)).await {
                    Ok(report) => println!("{}", load_line(&report)),
                    Err(failure) => {
                        eprintln!("{failure}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            return ExitCode::SUCCESS;
        }
        let seeds = match cli.seed {
            Some(seed) => seed..seed + 1,
            None => cli.first_seed..cli.first_seed + cli.seeds,
        };
        let (mut runs, mut operations, mut faults, mut invariants) = (0, 0, 0, 0);
        for seed in seeds {
            for sdk_retries in [true, false] {
                match soak::run(&endpoint, &options(seed, cli.fault_rate, sdk_retries)).await {
                    Ok(report) => {
                        println!("{report}");
                        runs += 1;
                        operations += report.operations;
                        faults += report.faults.total();
                        invariants += report.invariants_checked;
                    }
                    Err(failure) => {
                        eprintln!("{failure}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        println!(
            "soak passed: {runs} runs, {operations} operations, {faults} faults injected, {invariants} invariants checked"
        );
        ExitCode::SUCCESS
    })
}

/// One line of the load figures: operations per second and latencies.
fn load_line(report: &SoakReport) -> String {
    format!(
        "faults {:>3.0} %: {} operations by {} tasks in {:.2} s: {:.0} operations/s, p50 {:.2} ms, p99 {:.2} ms ({} faults injected)",
        report.options.fault_rate * 100.0,
        report.operations,
        report.options.tasks,
        report.elapsed.as_secs_f64(),
        report.operations_per_second(),
        report.latency(0.5).as_secs_f64() * 1e3,
        report.latency(0.99).as_secs_f64() * 1e3,
        report.faults.total(),
    )
}
