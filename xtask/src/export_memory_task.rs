//! `cargo xtask export-memory`: the peak memory of an export from S3 to S3
//! at scale, on ministack's S3 (the figure in BENCHMARKS.md).

use std::process::ExitCode;

use crate::endpoint::{Ministack, S3_ENV};
use crate::{Result, exit_code, workspace};

/// The test that measures it (`tests/it/export/memory.rs`), ignored under
/// `cargo test`.
const TEST: &str = "export::memory::peak_memory_of_an_export_from_s3_to_s3";

/// Starts ministack with S3 and runs [`TEST`] on `items` generated items,
/// printing its figures. The test binary is the debug build of `cargo xtask
/// test` (`--workspace --tests`, so nothing is rebuilt for it).
pub fn run(items: u64) -> Result<ExitCode> {
    let root = workspace::root();
    let ministack = Ministack::start(&root)?;
    let status = workspace::cargo(&root)
        .args([
            "test",
            "--workspace",
            "--tests",
            "--",
            "--ignored",
            "--exact",
            TEST,
        ])
        .arg("--nocapture")
        .env(S3_ENV, ministack.url())
        .env("STAMP_EXPORT_ITEMS", items.to_string())
        .status()?;
    drop(ministack);
    Ok(exit_code(status))
}
