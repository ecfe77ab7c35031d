//! The per-request part of BENCHMARKS.md (point 4b): Stamp against the
//! hand-written SDK calls, alternated one call each, and requests per second
//! of one client on one core, read from the bench's facts
//! (`stamp-benches/benches/cost/requests.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::bench_task::format_ns;

/// The operations, in the order of the table: (fact name, label).
const OPERATIONS: [(&str, &str); 6] = [
    ("get", "get one order (`GetItem`)"),
    ("put", "put one order (`PutItem`)"),
    ("query", "query, one page of 10 orders"),
    ("update", "update, `ADD` one counter (`UpdateItem`)"),
    ("transaction", "transaction: a put and an update"),
    ("batch_load", "batch load"),
];

fn number(facts: &BTreeMap<String, String>, key: &str) -> Option<f64> {
    facts.get(key).and_then(|value| value.parse().ok())
}

/// Writes the section; pushes each operation's ratio onto `goals`.
pub fn render(
    out: &mut String,
    facts: &BTreeMap<String, String>,
    goals: &mut Vec<(String, f64, f64)>,
) {
    let fact = |key: &str| facts.get(key).map_or("?", String::as_str).to_owned();
    let _ = writeln!(
        out,
        "### 4b. Every request, alternated\n\n\
         One client on a current-thread runtime (one core; the embedded server answers on its own \
         thread), one table. Each operation runs {} times, one Stamp call then the same request by \
         hand, so both see the same server and the same machine load, and the table shows the \
         median call of each; the batch load writes {} \
         orders, {} times each way. The hand-written calls encode with `serde_dynamo::to_item` + \
         `format!` keys and decode with `serde_dynamo::from_item`.\n\n\
         | request | Stamp | SDK by hand | Stamp ÷ SDK by hand |\n|---|---:|---:|---:|",
        fact("requests.pairs"),
        fact("requests.batch_load.items"),
        fact("requests.batch_load.pairs"),
    );
    for (name, label) in OPERATIONS {
        let stamp = number(facts, &format!("requests.{name}.stamp"));
        let sdk = number(facts, &format!("requests.{name}.sdk"));
        let label = if name == "batch_load" {
            format!("{label}, {} orders", fact("requests.batch_load.items"))
        } else {
            label.to_owned()
        };
        match stamp.zip(sdk) {
            Some((stamp, sdk)) => {
                let _ = writeln!(
                    out,
                    "| {label} | {} | {} | **{:.2}** |",
                    format_ns(stamp),
                    format_ns(sdk),
                    stamp / sdk
                );
                goals.push((format!("{label}, alternated"), stamp / sdk, 1.05));
            }
            None => {
                let _ = writeln!(out, "| {label} | – | – | – |");
            }
        }
    }
    let _ = writeln!(
        out,
        "\nRequests per second, one after another, for {} s each, in alternating slices of a tenth:\n\n\
         | request | Stamp | SDK by hand | SDK's rate ÷ Stamp's (a time ratio) |\n|---|---:|---:|---:|",
        if facts.contains_key("rate.get.stamp") {
            "3"
        } else {
            "?"
        }
    );
    for name in ["get", "put", "query"] {
        let stamp = number(facts, &format!("rate.{name}.stamp"));
        let sdk = number(facts, &format!("rate.{name}.sdk"));
        let cell = |value: Option<f64>| value.map_or("–".to_owned(), |v| format!("{v:.0}/s"));
        let ratio = stamp.zip(sdk).map_or("–".to_owned(), |(stamp, sdk)| {
            format!("**{:.2}**", sdk / stamp)
        });
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {ratio} |",
            cell(stamp),
            cell(sdk)
        );
    }
    out.push('\n');
}
