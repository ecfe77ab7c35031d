//! `cargo xtask dynamodb`: the embedded DynamoDB in the foreground.

use std::process::ExitCode;

use crate::{Result, exit_code, workspace};

/// Serves 127.0.0.1:`port` with dynoxide (through the `stamp-examples`
/// binary's `dynamodb` command) until Ctrl-C.
pub fn run(port: u16) -> Result<ExitCode> {
    let root = workspace::root();
    let status = workspace::cargo(&root)
        .args(["run", "--quiet", "-p", "stamp-examples", "--"])
        .args(["dynamodb", "--port", &port.to_string()])
        .status()?;
    Ok(exit_code(status))
}
