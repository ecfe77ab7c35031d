//! The manifest of an export to a directory: [`MANIFEST`] lists, one name a
//! line, the files an export there writes, so that the next run into the
//! directory removes every file of the earlier one (its entity files in
//! another format, the file of an entity it no longer exports, their
//! `.partial` files), and nothing else: a file the manifest does not name
//! is the user's, and stays.
//!
//! The order keeps a killed run safe: a run first deletes `_SUCCESS`, then
//! writes a manifest naming the earlier run's files and its own (written as
//! `_MANIFEST.partial` and renamed, so it is whole or absent), then deletes
//! the earlier run's files that it does not write itself, then writes the
//! manifest of its own files alone. Killed anywhere, the manifest names
//! every file any run left, and the next run removes them.

use std::collections::BTreeSet;
use std::path::Path;

use super::{PARTIAL_SUFFIX, file_error, remove_if_there};
use crate::error::Error;

/// The file of an export to a directory that names the files the export
/// writes there (`Order.ndjson`, `_unknown.ndjson`, …), one a line: a
/// rerun deletes every file an earlier run's manifest names (and its
/// `.partial` file) before it writes its own, and no other file. It starts
/// with `_`, so readers of the directory skip it as they skip `_SUCCESS`.
pub const MANIFEST: &str = "_MANIFEST";

/// Whether `name`, read from a manifest, is one an export writes: a plain
/// file name (no separator, not `.` or `..`) ending in `.ndjson`,
/// `.parquet` or `.json.gz`. A manifest that names anything else (edited by hand, or
/// hostile) does not make a run delete it.
fn is_export_file(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && [".ndjson", ".parquet", ".json.gz"]
            .iter()
            .any(|extension| name.ends_with(extension))
}

/// The files the manifest in `directory` names, empty when there is none
/// (an empty directory, or one an export wrote before manifests).
fn read(directory: &Path) -> Result<BTreeSet<String>, Error> {
    let path = directory.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(error) => return Err(file_error(&path, &error)),
    };
    Ok(text
        .lines()
        .filter(|name| is_export_file(name))
        .map(str::to_owned)
        .collect())
}

/// Writes the manifest of `names` in `directory`, whole or not at all.
fn write(directory: &Path, names: &BTreeSet<String>) -> Result<(), Error> {
    let path = directory.join(MANIFEST);
    let partial = directory.join(format!("{MANIFEST}{PARTIAL_SUFFIX}"));
    let text: String = names.iter().map(|name| format!("{name}\n")).collect();
    std::fs::write(&partial, text).map_err(|error| file_error(&partial, &error))?;
    std::fs::rename(&partial, &path).map_err(|error| file_error(&path, &error))
}

/// Readies `directory` for a run that writes the files `own`: removes
/// every file of an earlier run that this run does not write (and every
/// `.partial` file of one), and leaves the manifest naming `own`. The
/// files named in `own` are overwritten by the run.
pub(super) fn replace_earlier(directory: &Path, own: &BTreeSet<String>) -> Result<(), Error> {
    let earlier = read(directory)?;
    let all: BTreeSet<String> = earlier.union(own).cloned().collect();
    write(directory, &all)?;
    for name in &earlier {
        if !own.contains(name) {
            remove_if_there(&directory.join(name))?;
        }
        remove_if_there(&directory.join(format!("{name}{PARTIAL_SUFFIX}")))?;
    }
    write(directory, own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_of_export_files_are_taken_from_a_manifest() {
        for name in [
            "Order.ndjson",
            "Order.parquet",
            "_unknown.ndjson",
            "a.b.ndjson",
            "Order.json.gz",
            "_unknown.json.gz",
        ] {
            assert!(is_export_file(name), "{name}");
        }
        for name in [
            "",
            "notes.txt",
            "../Order.ndjson",
            "sub/Order.ndjson",
            "C:\\Order.ndjson",
            "_SUCCESS",
            "Order.ndjson.partial",
            ".",
        ] {
            assert!(!is_export_file(name), "{name}");
        }
    }
}
