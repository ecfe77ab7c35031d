//! Where the workspace lives and how to call cargo in it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root: the parent of this crate's manifest directory.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// A command for the cargo that started us (`$CARGO`, else `cargo`), run
/// from `root`.
pub fn cargo(root: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root);
    command
}
