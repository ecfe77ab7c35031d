//! `cargo xtask dynamodb`: moto's DynamoDB-compatible server in the foreground.

use std::io;
use std::process::{Command, ExitCode};

use crate::endpoint::ENV;
use crate::local_server::moto_command;
use crate::venv::{MOTO_VERSION, Venv};
use crate::{Result, workspace};

/// Serves 127.0.0.1:`port` with inherited stdio until the server stops.
pub fn run(port: u16) -> Result<ExitCode> {
    let venv = Venv::ensure(&workspace::root())?;
    let url = format!("http://127.0.0.1:{port}");
    println!(
        "local DynamoDB (moto {MOTO_VERSION}) at {url} — Ctrl-C stops it; \
         export {ENV}={url} to use it"
    );
    run_in_foreground(moto_command(&venv, port))
        .map_err(|e| format!("cannot start {}: {e}", venv.bin("moto_server").display()).into())
}

/// Replaces this process with `command`, so that signals and `kill` reach
/// the server directly; returns only if that fails.
#[cfg(unix)]
fn run_in_foreground(mut command: Command) -> io::Result<ExitCode> {
    use std::os::unix::process::CommandExt;
    Err(command.exec())
}

/// Runs `command` with inherited stdio and mirrors its exit status.
#[cfg(not(unix))]
fn run_in_foreground(mut command: Command) -> io::Result<ExitCode> {
    Ok(crate::exit_code(command.status()?))
}
