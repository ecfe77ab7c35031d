//! `cargo xtask demo`: the `stamp-examples` demo.

use std::process::ExitCode;

use crate::venv::Venv;
use crate::{Result, endpoint, exit_code, workspace};

/// Makes the venv (for DuckDB), then runs the demo with `ARGS` (and `--endpoint URL` when one
/// is given or in `$STAMP_DYNAMODB_ENDPOINT`; without, the demo starts the
/// embedded DynamoDB itself) and returns its exit status.
pub fn run(explicit: Option<String>, args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    // The demo ends with a DuckDB query over its Parquet export: the venv
    // of `cargo xtask test` has duckdb.
    let venv = Venv::ensure(&root)?;
    let mut command = workspace::cargo(&root);
    command.env("STAMP_PYTHON", venv.bin("python"));
    // The dev profile, which builds the embedded server optimized
    // (`[profile.dev.package.*]`): the demo reuses what `cargo xtask test`
    // built instead of building everything again in release.
    command.args(["run", "--quiet", "-p", "stamp-examples"]);
    command.args(["--bin", "demo", "--"]);
    if let Some(url) = endpoint::given(explicit) {
        command.args(["--endpoint", &url]);
    }
    Ok(exit_code(command.args(args).status()?))
}
