//! The per-request part of BENCHMARKS.md (point 4b): Stamp against the
//! hand-written SDK calls, alternated one call each, with the spread of the
//! pair ratios, and requests per second of one client on one core, read
//! from the bench's facts (`stamp-benches/benches/cost/requests.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::bench_task::{Goal, format_ns, thousands};

/// The operations, in the order of the table: (fact name, label). The
/// labels of the sharded query, the 1 MB page and the batch load take their
/// sizes from the facts.
const OPERATIONS: [(&str, &str); 9] = [
    ("get", "get one order (`GetItem`)"),
    ("put", "put one order (`PutItem`)"),
    ("query", "query, one page of 10 orders"),
    ("update", "update, `ADD` one counter (`UpdateItem`)"),
    ("transaction", "transaction: a put and an update"),
    (
        "transaction_10",
        "transaction of 10 actions: 5 puts and 5 updates",
    ),
    ("sharded_query", "sharded query"),
    ("page_1mb", "query, one 1 MB page"),
    ("batch_load", "batch load"),
];

/// The largest Stamp ÷ SDK ratio of a request (goal 4) and of a batch load
/// (goal 3).
const BOUND: f64 = 1.05;

fn number(facts: &BTreeMap<String, String>, key: &str) -> Option<f64> {
    facts.get(key).and_then(|value| value.parse().ok())
}

/// The label of operation `name`, with its sizes.
fn label(facts: &BTreeMap<String, String>, name: &str, label: &str) -> String {
    let fact = |key: &str| facts.get(key).map_or("?", String::as_str).to_owned();
    match name {
        "sharded_query" => format!(
            "query, {} shards merged, newest {}",
            fact("requests.sharded_query.shards"),
            fact("requests.sharded_query.items"),
        ),
        "page_1mb" => format!(
            "{label}: {} orders, {} bytes",
            thousands(&fact("requests.page_1mb.items")),
            thousands(&fact("requests.page_1mb.bytes")),
        ),
        "batch_load" => format!("{label}, {} orders", fact("requests.batch_load.items")),
        _ => label.to_owned(),
    }
}

/// Writes the section; pushes each operation's ratio onto `goals`.
pub fn render(out: &mut String, facts: &BTreeMap<String, String>, goals: &mut Vec<Goal>) {
    let fact = |key: &str| facts.get(key).map_or("?", String::as_str).to_owned();
    let _ = writeln!(
        out,
        "### 4b. Every request, alternated\n\n\
         One client on a current-thread runtime (one core; the embedded server answers on its own \
         thread), one table per data set. Each operation runs the number of times shown, one Stamp \
         call then the same request by hand, so both see the same server and the same machine \
         load; the table shows the median call of each, their ratio, and the middle half (25th to \
         75th percentile) of the ratios of the pairs, one Stamp call over the SDK call after it. \
         The hand-written calls encode with `serde_dynamo::to_item` + `format!` keys and decode \
         with `serde_dynamo::from_item`. The sharded query reads the newest orders of one status \
         over the {} shards of GSI1 (`ShardedOrder::query_gsi1(&status).newest_first().limit(..)`, \
         the order sharded as the reference service's, {} orders in the index) against {} `Query` \
         requests sent together by hand, merged by the index sort key and cut to the same count, \
         decoding only those; the 1 MB page is a query without a limit over a partition holding \
         more than 1 MB. The hand-written requests are the ones Stamp sends: each asks for \
         `ReturnConsumedCapacity` `TOTAL` (Stamp's metrics read it), and each transaction \
         carries a `ClientRequestToken` (Stamp's a UUID of the send, the SDK's its idempotency \
         token), so a retry is applied once either way.\n\n\
         | request | pairs | Stamp | SDK by hand | Stamp ÷ SDK by hand | pair ratios, middle half |\n\
         |---|---:|---:|---:|---:|---:|",
        fact("requests.sharded_query.shards"),
        thousands(&fact("requests.sharded_query.orders")),
        fact("requests.sharded_query.shards"),
    );
    for (name, base_label) in OPERATIONS {
        let value = |what: &str| number(facts, &format!("requests.{name}.{what}"));
        let label = label(facts, name, base_label);
        let pairs = fact(&format!("requests.{name}.pairs"));
        let spread = value("ratio_p25").zip(value("ratio_p75"));
        let spread_cell = spread.map_or("–".to_owned(), |(low, high)| {
            format!("{low:.2} – {high:.2}")
        });
        let goal = if name == "batch_load" { 3 } else { 4 };
        match value("stamp").zip(value("sdk")) {
            Some((stamp, sdk)) => {
                let _ = writeln!(
                    out,
                    "| {label} | {pairs} | {} | {} | **{:.2}** | {spread_cell} |",
                    format_ns(stamp),
                    format_ns(sdk),
                    stamp / sdk
                );
                goals.push(Goal::ratio_with(
                    goal,
                    format!("{label}, alternated"),
                    stamp / sdk,
                    BOUND,
                    spread.map_or(String::new(), |(low, high)| {
                        format!(", pairs {low:.2} – {high:.2}")
                    }),
                ));
            }
            None => {
                let _ = writeln!(out, "| {label} | {pairs} | – | – | – | – |");
                goals.push(Goal::missing(
                    goal,
                    format!("{label}, alternated"),
                    format!("≤ {BOUND:.2}"),
                ));
            }
        }
    }
    let _ = writeln!(
        out,
        "\nRequests per second, one after another, for {} s each way, in alternating slices of a \
         tenth:\n\n\
         | request | Stamp | SDK by hand | SDK's rate ÷ Stamp's (a time ratio) |\n|---|---:|---:|---:|",
        fact("rate.seconds"),
    );
    for (name, base_label) in OPERATIONS {
        if name == "batch_load" {
            continue;
        }
        let stamp = number(facts, &format!("rate.{name}.stamp"));
        let sdk = number(facts, &format!("rate.{name}.sdk"));
        let cell = |value: Option<f64>| value.map_or("–".to_owned(), |v| format!("{v:.0}/s"));
        let ratio = stamp.zip(sdk).map_or("–".to_owned(), |(stamp, sdk)| {
            format!("**{:.2}**", sdk / stamp)
        });
        let _ = writeln!(
            out,
            "| {} | {} | {} | {ratio} |",
            label(facts, name, base_label),
            cell(stamp),
            cell(sdk)
        );
    }
    out.push('\n');
}
