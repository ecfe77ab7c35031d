//! `cargo xtask test`: the workspace's tests against a DynamoDB endpoint.

use std::process::{ExitCode, ExitStatus};

use crate::endpoint::{ENV, Endpoint};
use crate::venv::Venv;
use crate::{Result, workspace};

/// The environment variable that gives the tests the path of `cfn-lint`.
pub const CFN_LINT_ENV: &str = "STAMP_CFN_LINT";

/// Makes the venv (moto and cfn-lint) even when `$STAMP_DYNAMODB_ENDPOINT`
/// is set, then runs `cargo test --workspace --all-targets ARGS`, then
/// `cargo test --workspace --doc ARGS` even if the first failed, both with
/// `$STAMP_DYNAMODB_ENDPOINT` and `$STAMP_CFN_LINT` set. Fails if either
/// failed.
pub fn run(args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let venv = Venv::ensure(&root)?;
    let cfn_lint = venv.bin("cfn-lint");
    let endpoint = Endpoint::resolve(None, &root)?;
    let cargo_test = |kind: &str| -> Result<ExitStatus> {
        Ok(workspace::cargo(&root)
            .args(["test", "--workspace", kind])
            .args(args)
            .env(ENV, endpoint.url())
            .env(CFN_LINT_ENV, &cfn_lint)
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
