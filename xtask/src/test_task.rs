//! `cargo xtask test`: every test, then every test again on ministack.

use std::process::{ExitCode, ExitStatus};

use crate::endpoint::{self, ENV, Ministack, S3_ENV, SERVER_ENV};
use crate::venv::Venv;
use crate::{Result, workspace};

/// The environment variable that gives the tests the path of `cfn-lint`.
pub const CFN_LINT_ENV: &str = "STAMP_CFN_LINT";

/// The environment variable that gives the tests the venv's Python, which
/// has `duckdb`.
pub const PYTHON_ENV: &str = "STAMP_PYTHON";

/// The name filters of the tests that need the venv (ignored by plain
/// `cargo test`): cfn-lint on the templates, DuckDB on the export, and the
/// exports from and to ministack's S3.
pub const VENV_TESTS: &[&str] = &["schema_cfn_lint", "export_duckdb", "export_s3"];

/// Makes the venv (ministack, cfn-lint and duckdb), then runs, each even if an
/// earlier one failed, and every one with `--no-fail-fast`:
///
/// 1. `cargo test --workspace --all-targets ARGS` on the embedded DynamoDB
///    (or `$STAMP_DYNAMODB_ENDPOINT` when set);
/// 2. `cargo test --workspace --doc ARGS`;
/// 3. the tests that need the venv's cfn-lint, DuckDB or ministack's S3
///    ([`VENV_TESTS`], ignored by plain `cargo test`): every test binary with
///    `--ignored schema_cfn_lint export_duckdb export_s3`, with
///    `$STAMP_S3_ENDPOINT` set to a ministack started for the run (stopped
///    by its process id afterwards);
/// 4. every test binary once more against that ministack's DynamoDB, but
///    for the compile-fail fixtures, which talk to no server.
///
/// Passes 3 and 4 select `--workspace --tests`, never `-p` or `--test`:
/// another selection activates other dev-dependencies, unifies features
/// differently and rebuilds most dependencies (minutes of CI). Fails if any
/// pass failed.
pub fn run(args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let venv = Venv::ensure(&root)?;
    let cfn_lint = venv.bin("cfn-lint");
    let python = venv.bin("python");
    let endpoint = endpoint::given(None);
    // ARGS are cargo's before a `--` and the test harness's after it.
    let split = args
        .iter()
        .position(|arg| arg == "--")
        .unwrap_or(args.len());
    let (cargo_args, harness_args) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let cargo_test = |selection: &[&str],
                      harness: &[&str],
                      url: Option<(&str, &str)>,
                      s3: Option<&str>|
     -> Result<ExitStatus> {
        let started = std::time::Instant::now();
        let mut command = workspace::cargo(&root);
        command
            .args(["test", "--no-fail-fast"])
            .args(selection)
            .args(cargo_args)
            .arg("--")
            .args(harness)
            .args(harness_args)
            .env(CFN_LINT_ENV, &cfn_lint)
            .env(PYTHON_ENV, &python);
        match url {
            Some((url, server)) => command.env(ENV, url).env(SERVER_ENV, server),
            None => command.env_remove(ENV).env_remove(SERVER_ENV),
        };
        match s3 {
            Some(url) => command.env(S3_ENV, url),
            None => command.env_remove(S3_ENV),
        };
        let status = command.status()?;
        println!(
            "\n==> timing: cargo test {} {} on {}: {:.0} s ({status})",
            selection.join(" "),
            harness.join(" "),
            url.map_or("the embedded DynamoDB", |(_, server)| server),
            started.elapsed().as_secs_f64()
        );
        Ok(status)
    };
    let given = endpoint.as_deref().map(|url| (url, "other"));
    let all_targets = cargo_test(&["--workspace", "--all-targets"], &[], given, None)?;
    let doc = cargo_test(&["--workspace", "--doc"], &[], given, None)?;
    let ministack = Ministack::start(&root)?;
    println!("\n==> the tests that need the venv's cfn-lint, DuckDB or ministack's S3");
    let mut ignored = vec!["--ignored"];
    ignored.extend(VENV_TESTS);
    let cfn_lint_tests = cargo_test(
        &["--workspace", "--tests"],
        &ignored,
        given,
        Some(ministack.url()),
    )?;
    println!("\n==> every test again, on ministack");
    let on_ministack = cargo_test(
        &["--workspace", "--tests"],
        &["--skip", "compile_errors"],
        Some((ministack.url(), "ministack")),
        None,
    )?
    .success();
    drop(ministack);
    Ok(
        if all_targets.success() && doc.success() && cfn_lint_tests.success() && on_ministack {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}
