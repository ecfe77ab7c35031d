//! Point 6 of the report: the compile cost of `#[derive(Item)]`, two
//! generated crates of 50 entities built with and without the derive.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::report::format_duration;
use super::{COMPILE_ENTITIES, COMPILE_RUNS};
use crate::{Result, workspace};

/// The median build times of the two generated crates: full builds
/// (incremental off), then incremental rebuilds after one field's edit.
#[derive(Debug, Clone)]
pub(super) struct CompileCost {
    pub(super) derive: Duration,
    pub(super) serde_only: Duration,
    pub(super) derive_runs: Vec<Duration>,
    pub(super) serde_runs: Vec<Duration>,
    pub(super) derive_edit: Duration,
    pub(super) serde_edit: Duration,
    pub(super) derive_edit_runs: Vec<Duration>,
    pub(super) serde_edit_runs: Vec<Duration>,
}

/// The field of `Entity0` whose type the incremental measurement edits,
/// in its two forms (neither is a key field, both are stored as a Number).
const EDITED_FIELD: [&str; 2] = ["pub amount_cents: u64,", "pub amount_cents: u32,"];

/// Generates the two crates, builds their dependencies, then times
/// [`COMPILE_RUNS`] builds of each crate alone (alternating), with
/// incremental compilation off so that each is a full build of the crate;
/// then, in a target directory of their own with incremental compilation
/// on, [`COMPILE_RUNS`] rebuilds of each after `Entity0`'s
/// `amount_cents` changes type (the edit a developer makes), alternating.
pub(super) fn compile_cost(root: &Path, target: &Path) -> Result<CompileCost> {
    let dir = target.join("compile-cost");
    let shared_target = dir.join("target");
    let crates = [("with-derive", true), ("serde-only", false)];
    for (name, derive) in crates {
        write_crate(root, &dir.join(name), name, derive)?;
    }
    println!(
        "\ncompile cost: {COMPILE_ENTITIES} entities with and without #[derive(Item)], in {}",
        dir.strip_prefix(root).unwrap_or(&dir).display()
    );
    let incremental_target = dir.join("target-incremental");
    let build_in = |name: &str, incremental: bool| -> Result<Duration> {
        let started = Instant::now();
        let (target, incremental) = if incremental {
            (&incremental_target, "1")
        } else {
            (&shared_target, "0")
        };
        let output = workspace::cargo(&dir.join(name))
            .args(["build", "--quiet"])
            .env("CARGO_TARGET_DIR", target)
            .env("CARGO_INCREMENTAL", incremental)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()?;
        if !output.status.success() {
            return Err(format!(
                "cargo build of the generated crate `{name}` failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        Ok(started.elapsed())
    };
    for (name, _) in crates {
        println!("  building the dependencies of `{name}` (once) ...");
        build_in(name, false)?;
    }
    // COMPILE_RUNS builds of each crate, alternating, each after `prepare`
    // changes its source; `what` names them in the output.
    let alternate = |what: &str,
                     incremental: bool,
                     prepare: &dyn Fn(&Path, usize) -> Result<()>|
     -> Result<[Vec<Duration>; 2]> {
        let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        for run in 0..COMPILE_RUNS {
            for (position, (name, _)) in crates.iter().enumerate() {
                prepare(&dir.join(name).join("src/lib.rs"), run)?;
                let time = build_in(name, incremental)?;
                println!(
                    "  {what} {}/{COMPILE_RUNS}: `{name}` {}",
                    run + 1,
                    format_duration(time)
                );
                times[position].push(time);
            }
        }
        Ok(times)
    };
    let runs = alternate("run", false, &|source, _| touch(source))?;
    for (name, _) in crates {
        println!("  building `{name}` incrementally (once) ...");
        build_in(name, true)?;
    }
    let edits = alternate("edit", true, &edit_field)?;
    for (name, derive) in crates {
        write_crate(root, &dir.join(name), name, derive)?;
    }
    let [derive_runs, serde_runs] = runs;
    let [derive_edit_runs, serde_edit_runs] = edits;
    Ok(CompileCost {
        derive: median(&derive_runs),
        serde_only: median(&serde_runs),
        derive_runs,
        serde_runs,
        derive_edit: median(&derive_edit_runs),
        serde_edit: median(&serde_edit_runs),
        derive_edit_runs,
        serde_edit_runs,
    })
}

/// Changes the type of `Entity0`'s `amount_cents` (the first run from the
/// generated `u64` to `u32`, the next back, and so on).
pub(super) fn edit_field(source: &Path, run: usize) -> Result<()> {
    let text = fs::read_to_string(source)?;
    let (from, to) = if run.is_multiple_of(2) {
        (EDITED_FIELD[0], EDITED_FIELD[1])
    } else {
        (EDITED_FIELD[1], EDITED_FIELD[0])
    };
    let Some(at) = text.find(from) else {
        return Err(format!("`{from}` is not in {}", source.display()).into());
    };
    let edited = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
    fs::write(source, edited)?;
    Ok(())
}

pub(super) fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

/// Rewrites a file with the same content, so cargo sees it changed.
pub(super) fn touch(path: &Path) -> Result<()> {
    let text = fs::read(path)?;
    fs::write(path, text)?;
    Ok(())
}

/// Writes one generated crate: a manifest of its own workspace, the
/// workspace's lock file (the same dependency versions) and the entities.
pub(super) fn write_crate(root: &Path, dir: &Path, name: &str, derive: bool) -> Result<()> {
    fs::create_dir_all(dir.join("src"))?;
    let manifest = format!(
        r#"# Generated by `cargo xtask bench` (compile cost); not part of the workspace.
[package]
name = "compile-cost-{name}"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
stamp = {{ path = "{root}" }}
serde = {{ version = "1", features = ["derive"] }}
chrono = {{ version = "0.4", default-features = false, features = ["clock", "std", "serde"] }}
"#,
        root = root.display()
    );
    fs::write(dir.join("Cargo.toml"), manifest)?;
    if !dir.join("Cargo.lock").exists() {
        fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
    }
    fs::write(dir.join("src/lib.rs"), entities_source(derive))?;
    Ok(())
}

/// The source of a crate of [`COMPILE_ENTITIES`] entities, each shaped like
/// the reference service's order: a three-field primary key, a sparse GSI
/// and nine fields.
pub(super) fn entities_source(derive: bool) -> String {
    let (imports, derives, status_derive) = if derive {
        (
            "use stamp::{Item, KeyPart};",
            "Item, Serialize, Deserialize, Debug, Clone, PartialEq",
            "KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq",
        )
    } else {
        (
            "",
            "Serialize, Deserialize, Debug, Clone, PartialEq",
            "Serialize, Deserialize, Debug, Clone, Copy, PartialEq",
        )
    };
    let mut source = format!(
        "//! Generated by `cargo xtask bench`: {COMPILE_ENTITIES} entities{}.\n\n\
         use chrono::{{DateTime, Utc}};\n\
         use serde::{{Deserialize, Serialize}};\n\
         {imports}\n\n\
         #[derive({status_derive})]\n\
         #[serde(rename_all = \"SCREAMING_SNAKE_CASE\")]\n\
         pub enum Status {{ Open, Closed }}\n",
        if derive {
            " with #[derive(Item)]"
        } else {
            ", serde only"
        }
    );
    for n in 0..COMPILE_ENTITIES {
        let attributes = if derive {
            format!(
                "#[pk = \"E{n}#<id>\"]\n\
                 #[sk = \"AT#<created_at>#<seq>\"]\n\
                 #[gsi1(pk = \"E{n}S#<status>\", sk = \"<updated_at>\")]\n"
            )
        } else {
            String::new()
        };
        write!(
            source,
            "\n#[derive({derives})]\n{attributes}pub struct Entity{n} {{\n    \
             pub id: String,\n    \
             pub seq: u32,\n    \
             pub created_at: DateTime<Utc>,\n    \
             pub updated_at: DateTime<Utc>,\n    \
             pub status: Option<Status>,\n    \
             pub name: String,\n    \
             pub amount_cents: u64,\n    \
             pub active: bool,\n    \
             pub tags: Vec<String>,\n}}\n"
        )
        .expect("writing to a String cannot fail");
    }
    source
}

// ------------------------------------------------------------------ the report
