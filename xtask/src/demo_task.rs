//! `cargo xtask demo`: the `stamp-examples` demo against a DynamoDB endpoint.

use std::process::ExitCode;

use crate::endpoint::Endpoint;
use crate::{Result, exit_code, workspace};

/// Runs the release-built demo with `--endpoint URL ARGS` and returns its
/// exit status; a server started for it stops afterwards.
pub fn run(endpoint: Option<String>, args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let endpoint = Endpoint::resolve(endpoint, &root)?;
    let status = workspace::cargo(&root)
        .args(["run", "--quiet", "--release", "-p", "stamp-examples"])
        .args(["--bin", "demo", "--", "--endpoint", endpoint.url()])
        .args(args)
        .status()?;
    Ok(exit_code(status))
}
