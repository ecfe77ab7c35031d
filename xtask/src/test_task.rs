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

/// The test of the derives' compile-fail fixtures (trybuild, `stamp-ui`).
pub const COMPILE_ERRORS: &str = "compile_errors";

/// The cargo options of `--lint`: clippy-driver compiles the workspace's
/// crates (`build.rustc-workspace-wrapper`, as `cargo clippy` sets it), with
/// `-D warnings` in `CLIPPY_ARGS` (clippy's own encoding of its arguments).
/// Given on the command line, so the test binaries do not inherit the
/// wrapper: trybuild's own builds of the fixtures stay plain rustc, and
/// their expected errors unchanged. Every pass of a run takes the same
/// options, so none rebuilds what another built.
const LINT_OPTIONS: &[&str] = &[
    "--config",
    "build.rustc-workspace-wrapper='clippy-driver'",
    "--config",
    "env.CLIPPY_ARGS='-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__'",
];

/// Makes the venv (ministack, cfn-lint and duckdb) beside the build, then
/// runs, each even if an earlier one failed, and every one with
/// `--no-fail-fast`:
///
/// 1. `cargo test --workspace --all-targets ARGS` on the embedded DynamoDB
///    (or `$STAMP_DYNAMODB_ENDPOINT` when set), built first with `--no-run`
///    and then run as two invocations (every target but the benches with
///    `--skip compile_errors`, then the benches), the compile-fail fixtures
///    running beside from the end of the build to the end of pass 4
///    ([`CompileErrors`]);
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
///
/// With `lint`, every pass compiles the workspace's crates with clippy
/// ([`LINT_OPTIONS`]): a clippy warning fails the build, as
/// `cargo clippy --workspace --all-targets -- -D warnings` would.
pub fn run(args: &[String], lint: bool) -> Result<ExitCode> {
    let root = workspace::root();
    // The venv (pip, half a minute on a fresh clone) is made beside the
    // build, which does not need it.
    let venv = std::thread::spawn({
        let root = root.clone();
        move || {
            let started = std::time::Instant::now();
            let venv = Venv::ensure(&root).map_err(|error| error.to_string());
            println!(
                "\n==> timing: the venv (ministack, cfn-lint, duckdb), beside the build: {:.0} s",
                started.elapsed().as_secs_f64()
            );
            venv
        }
    });
    let cfn_lint = Venv::at(&root).bin("cfn-lint");
    let python = Venv::at(&root).bin("python");
    let endpoint = endpoint::given(None);
    // ARGS are cargo's before a `--` and the test harness's after it.
    let split = args
        .iter()
        .position(|arg| arg == "--")
        .unwrap_or(args.len());
    let mut cargo_args: Vec<String> = args[..split].to_vec();
    if lint {
        cargo_args.extend(LINT_OPTIONS.iter().map(|option| (*option).to_owned()));
    }
    let (cargo_args, harness_args) = (cargo_args.as_slice(), args.get(split + 1..).unwrap_or(&[]));
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
    // Build every target first (`--all-targets`, once), so that the
    // compile-fail fixtures, which talk to no server and build in
    // trybuild's own target directory, can run beside every pass below,
    // their output kept until they end.
    let started = std::time::Instant::now();
    let built = workspace::cargo(&root)
        .args(["test", "--workspace", "--all-targets", "--no-run"])
        .args(cargo_args)
        .status()?;
    println!(
        "\n==> timing: cargo test --workspace --all-targets --no-run (the build): {:.0} s ({built})",
        started.elapsed().as_secs_f64()
    );
    venv.join().expect("the venv's thread does not panic")?;
    if !built.success() {
        return Ok(ExitCode::FAILURE);
    }
    let fixtures = if selects_compile_errors(harness_args) {
        Some(CompileErrors::spawn(&root, cargo_args)?)
    } else {
        None
    };
    // Every target but the benches, without the fixtures; then the benches
    // (criterion runs each once), apart because criterion's arguments have
    // no `--skip`.
    let all_but_benches = cargo_test(
        &["--workspace", "--lib", "--bins", "--tests", "--examples"],
        &["--skip", COMPILE_ERRORS],
        given,
        None,
    )?;
    let benches = cargo_test(&["--workspace", "--benches"], &[], given, None)?;
    let doc = cargo_test(&["--workspace", "--doc"], &[], given, None)?;
    let ministack = Ministack::start(&root)?;
    println!(
        "
==> the tests that need the venv's cfn-lint, DuckDB or ministack's S3"
    );
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
        &["--skip", COMPILE_ERRORS],
        Some((ministack.url(), "ministack")),
        None,
    )?
    .success();
    drop(ministack);
    let fixtures_passed = match fixtures {
        Some(fixtures) => fixtures.wait()?.success(),
        None => true,
    };
    Ok(
        if all_but_benches.success()
            && benches.success()
            && fixtures_passed
            && doc.success()
            && cfn_lint_tests.success()
            && on_ministack
        {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}

/// The compile-fail fixtures, run in a child `cargo test` beside the server
/// passes, its output in `target/compile-errors.log`, printed when it ends.
pub struct CompileErrors {
    child: std::process::Child,
    log: std::path::PathBuf,
    started: std::time::Instant,
}

impl CompileErrors {
    /// Starts `cargo test --workspace --tests CARGO_ARGS -- compile_errors`.
    pub fn spawn(root: &std::path::Path, cargo_args: &[String]) -> Result<Self> {
        let log = root.join("target").join("compile-errors.log");
        std::fs::create_dir_all(log.parent().expect("target/ has a parent"))?;
        let file = std::fs::File::create(&log)?;
        let child = workspace::cargo(root)
            .args(["test", "--no-fail-fast", "--workspace", "--tests"])
            .args(cargo_args)
            .arg("--")
            .arg(COMPILE_ERRORS)
            .env_remove(ENV)
            .env_remove(SERVER_ENV)
            .stdout(file.try_clone()?)
            .stderr(file)
            .spawn()?;
        Ok(CompileErrors {
            child,
            log,
            started: std::time::Instant::now(),
        })
    }

    /// Waits for the fixtures, prints their output and timing line.
    pub fn wait(mut self) -> Result<ExitStatus> {
        let status = self.child.wait()?;
        println!("\n==> the compile-fail fixtures (run beside the server passes)");
        print!("{}", std::fs::read_to_string(&self.log)?);
        println!(
            "\n==> timing: cargo test --workspace --tests {COMPILE_ERRORS}: {:.0} s, beside the passes above ({status})",
            self.started.elapsed().as_secs_f64()
        );
        Ok(status)
    }
}

/// Whether the test harness's arguments select the compile-fail fixtures:
/// no name filter, or one that `compile_errors` contains (the harness
/// matches a test whose name contains any filter).
fn selects_compile_errors(harness_args: &[String]) -> bool {
    let mut filters = Vec::new();
    let mut args = harness_args.iter();
    while let Some(arg) = args.next() {
        if arg == "--skip" {
            args.next();
        } else if !arg.starts_with('-') {
            filters.push(arg.as_str());
        }
    }
    filters.is_empty() || filters.iter().any(|filter| COMPILE_ERRORS.contains(filter))
}

#[cfg(test)]
mod compile_errors_tests {
    use super::selects_compile_errors;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|arg| (*arg).to_owned()).collect()
    }

    #[test]
    fn the_fixtures_run_unless_a_filter_leaves_them_out() {
        assert!(selects_compile_errors(&args(&[])));
        assert!(selects_compile_errors(&args(&["--skip", "ops::"])));
        assert!(selects_compile_errors(&args(&["compile_err"])));
        assert!(!selects_compile_errors(&args(&["ops::queries::"])));
        assert!(!selects_compile_errors(&args(&[
            "--nocapture",
            "schema_golden"
        ])));
    }
}
