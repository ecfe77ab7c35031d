//! `cargo xtask doc`: the API docs of the published crates, as docs.rs
//! builds them, with rustdoc's warnings as errors.

use std::process::ExitCode;

use crate::{Result, exit_code, workspace};

/// The crates published to crates.io, whose docs docs.rs builds.
const PUBLISHED: [&str; 3] = ["stamp", "stamp-core", "stamp-derive"];

/// Documents [`PUBLISHED`] with every feature (docs.rs's `all-features`),
/// without their dependencies (`--no-deps`: a link into another crate's
/// docs must then still resolve, as it does on docs.rs), and
/// `RUSTDOCFLAGS=-D warnings`: a broken or private intra-doc link, an
/// unclosed HTML tag or a bare URL fails the task. docs.rs's
/// `--cfg docsrs` (the feature badges) needs a nightly rustdoc and is left
/// out; it changes no link.
pub fn run() -> Result<ExitCode> {
    let root = workspace::root();
    let mut command = workspace::cargo(&root);
    command.env("RUSTDOCFLAGS", "-D warnings");
    command.args(["doc", "--no-deps", "--all-features"]);
    for package in PUBLISHED {
        command.args(["-p", package]);
    }
    Ok(exit_code(command.status()?))
}
