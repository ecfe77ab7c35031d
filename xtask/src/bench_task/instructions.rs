//! Point 3c: the instructions one call of each one-item and key work
//! executes, Stamp's and the direct code's, counted by callgrind
//! (`valgrind --tool=callgrind`) over the bench binary's
//! `STAMP_BENCH_PROFILE` loop. Wall-clock ratios of microbenchmarks move
//! between runs and builds on a shared VM (code layout, the heap's state,
//! the machine's speed); an instruction count does not, so it is the
//! figure that reproduces.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{Result, workspace};

/// The profile targets counted (`GROUP/FUNCTION`, as `STAMP_BENCH_PROFILE`
/// takes them); `…/input` is the clone of the item each decode starts
/// from, subtracted from the decodes.
pub(super) const TARGETS: [&str; 18] = [
    "encode_order/stamp",
    "encode_order/stamp_checked",
    "encode_order/direct",
    "encode_reading/stamp",
    "encode_reading/stamp_checked",
    "encode_reading/direct",
    "decode_order/stamp",
    "decode_order/direct",
    "decode_order/input",
    "decode_reading/stamp",
    "decode_reading/direct",
    "decode_reading/input",
    "key_sort_3_fields/stamp",
    "key_sort_3_fields/direct",
    "key_primary/stamp",
    "key_primary/direct",
    "encode_order/serde_dynamo",
    "decode_order/serde_dynamo",
];

/// Callgrind runs of each target; the median is kept (the allocator's
/// state moves a decode's count by up to 4 % between runs).
const RUNS: usize = 3;

/// The calls of one profile loop: `PROFILE_CALLS` in
/// `stamp-benches/benches/cost/main.rs`.
const PROFILE_CALLS: f64 = 10_000.0;

/// Counts each of [`TARGETS`] (the median of [`RUNS`] runs, divided by
/// the calls) and appends them to the facts in `criterion` as
/// `instructions.GROUP/FUNCTION`. `Ok(false)`, counting nothing, when
/// valgrind is not installed.
pub(super) fn count(root: &Path, criterion: &Path) -> Result<bool> {
    if Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_err()
    {
        println!("\nvalgrind is not installed: no instruction counts (point 3c)");
        return Ok(false);
    }
    let binary = bench_binary(root)?;
    println!("\ninstruction counts (callgrind, median of {RUNS} runs):");
    let mut facts = String::new();
    for target in TARGETS {
        let mut counts = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let output = Command::new("valgrind")
                .args([
                    "--tool=callgrind",
                    "--toggle-collect=cost::profile_loop",
                    "--callgrind-out-file=/dev/null",
                ])
                .arg(&binary)
                .env("STAMP_BENCH_PROFILE", target)
                .stdout(Stdio::null())
                .output()?;
            let stderr = String::from_utf8_lossy(&output.stderr);
            match (output.status.success(), collected(&stderr)) {
                (true, Some(count)) => counts.push(count),
                _ => {
                    return Err(format!(
                        "callgrind of `{target}` failed ({}):\n{stderr}",
                        output.status
                    )
                    .into());
                }
            }
        }
        counts.sort_unstable();
        let per_call = counts[RUNS / 2] as f64 / PROFILE_CALLS;
        println!("  {target}: {per_call:.0} a call");
        writeln!(facts, "instructions.{target}\t{per_call}")?;
    }
    let path = criterion.join("stamp-facts.tsv");
    let mut text = fs::read_to_string(&path).unwrap_or_default();
    text.push_str(&facts);
    fs::write(&path, text)?;
    Ok(true)
}

/// The instructions callgrind collected, from its summary line
/// (`==PID== Collected : N`).
pub(super) fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|line| line.split_once("Collected : "))
        .and_then(|(_, count)| count.trim().parse().ok())
}

/// The bench binary `cargo bench` built, from cargo's
/// `Executable benches/cost/main.rs (PATH)` line.
fn bench_binary(root: &Path) -> Result<PathBuf> {
    let output = workspace::cargo(root)
        .args([
            "bench",
            "-p",
            "stamp-benches",
            "--bench",
            "cost",
            "--no-run",
        ])
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find_map(|line| {
            let path = line
                .trim()
                .strip_prefix("Executable benches/cost/main.rs (")?;
            path.strip_suffix(')')
        })
        .map(|path| root.join(path))
        .ok_or_else(|| format!("no bench binary in cargo's output:\n{stderr}").into())
}
