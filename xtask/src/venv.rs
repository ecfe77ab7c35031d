//! The Python virtual environment that holds ministack and cfn-lint.
//!
//! It lives in `target/stamp-venv`, is created with `python3 -m venv` when
//! missing, and gets [`REQUIREMENTS`] installed with pip. A marker file records
//! what was installed, so pip only runs again when the list changes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;

/// The ministack release pinned in [`REQUIREMENTS`]: the second DynamoDB
/// implementation the server tests run against (its own DynamoDB code).
pub const MINISTACK_VERSION: &str = "1.5.33";

/// The cfn-lint release pinned in [`REQUIREMENTS`].
pub const CFN_LINT_VERSION: &str = "1.58.0";

/// The DuckDB release pinned in [`REQUIREMENTS`]: the SQL engine that reads
/// the per-entity Parquet export (`export_duckdb` tests).
pub const DUCKDB_VERSION: &str = "2.0.0";

/// What pip installs into the venv. Add packages here; the marker makes the
/// next run install them.
///
/// `ministack` serves the DynamoDB and DynamoDB Streams APIs for the second
/// run of the server tests; `cfn-lint` checks the CloudFormation template
/// that `TableDefinition` generates (the `schema_cfn_lint` tests); `duckdb`
/// queries the Parquet files of `stamp::export` (the `export_duckdb` tests).
pub const REQUIREMENTS: &[&str] = &["ministack==1.5.33", "cfn-lint==1.58.0", "duckdb==2.0.0"];

/// The venv's location relative to the workspace root.
const VENV_DIR: &str = "target/stamp-venv";

/// The file that records the installed requirement list.
const MARKER: &str = ".stamp-requirements";

/// A ready-to-use virtual environment.
#[derive(Debug, Clone)]
pub struct Venv {
    dir: PathBuf,
}

impl Venv {
    /// The venv below `root`, created and filled with [`REQUIREMENTS`] as
    /// needed.
    pub fn ensure(root: &Path) -> Result<Self> {
        let venv = Self::at(root);
        venv.create_if_missing()?;
        venv.install_if_stale()?;
        Ok(venv)
    }

    /// The venv of the workspace at `root`, made or not.
    pub fn at(root: &Path) -> Self {
        Self {
            dir: root.join(VENV_DIR),
        }
    }

    /// The venv directory; ministack's logs go here too.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of an executable in the venv's `bin` directory.
    pub fn bin(&self, name: &str) -> PathBuf {
        self.dir.join("bin").join(name)
    }

    fn create_if_missing(&self) -> Result<()> {
        if self.bin("python").exists() {
            return Ok(());
        }
        run(Command::new("python3").arg("-m").arg("venv").arg(&self.dir))
    }

    fn install_if_stale(&self) -> Result<()> {
        let marker = self.dir.join(MARKER);
        let wanted = REQUIREMENTS.join("\n");
        if fs::read_to_string(&marker).is_ok_and(|found| found.trim() == wanted) {
            return Ok(());
        }
        println!(
            "installing ministack {MINISTACK_VERSION}, cfn-lint {CFN_LINT_VERSION} and duckdb {DUCKDB_VERSION} into {VENV_DIR} ..."
        );
        run(Command::new(self.bin("pip"))
            .args(["install", "--disable-pip-version-check", "-q"])
            .args(REQUIREMENTS))?;
        fs::write(&marker, wanted)?;
        Ok(())
    }
}

/// Runs `command` to completion and fails unless it succeeds.
fn run(command: &mut Command) -> Result<()> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed: {status}").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_pin_the_advertised_ministack() {
        assert!(REQUIREMENTS.contains(&format!("ministack=={MINISTACK_VERSION}").as_str()));
    }

    #[test]
    fn requirements_pin_the_advertised_duckdb() {
        assert!(REQUIREMENTS.contains(&format!("duckdb=={DUCKDB_VERSION}").as_str()));
    }

    #[test]
    fn requirements_pin_the_advertised_cfn_lint() {
        assert!(REQUIREMENTS.contains(&format!("cfn-lint=={CFN_LINT_VERSION}").as_str()));
    }
}
