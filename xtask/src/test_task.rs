//! `cargo xtask test`: the workspace's tests against a DynamoDB endpoint.

use std::process::{ExitCode, ExitStatus};

use crate::endpoint::{ENV, Endpoint};
use crate::{Result, workspace};

/// Runs `cargo test --workspace --all-targets ARGS`, then
/// `cargo test --workspace --doc ARGS` even if the first failed, both with
/// `$STAMP_DYNAMODB_ENDPOINT` set. Fails if either failed.
pub fn run(args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let endpoint = Endpoint::resolve(None, &root)?;
    let cargo_test = |kind: &str| -> Result<ExitStatus> {
        Ok(workspace::cargo(&root)
            .args(["test", "--workspace", kind])
            .args(args)
            .env(ENV, endpoint.url())
            .status()?)
    };
    let all_targets = cargo_test("--all-targets")?;
    let doc = cargo_test("--doc")?;
    Ok(if all_targets.success() && doc.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
