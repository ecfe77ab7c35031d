//! The report: BENCHMARKS.md's generated part, one function per section.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::report::{
    Goal, Row, Table, allocations, estimate, fact, facts, format_bytes, format_duration, format_ns,
    thousands,
};
use super::{BEGIN, COMPILE_ENTITIES, COMPILE_RUNS, END, Run, machine, revision};
use crate::{Result, workspace};

mod budget;
mod requests;

pub(super) use budget::{compile_section, goals_and_estimates, memory_section};
pub(super) use requests::requests;

/// The generated part of BENCHMARKS.md.
pub(super) fn render(run: &Run, criterion: &Path, target: &Path) -> Result<String> {
    let facts = facts(criterion);
    let mut table = Table {
        criterion,
        out: String::new(),
        shown: Vec::new(),
        goals: Vec::new(),
        sequential: Vec::new(),
    };
    let out = &mut table.out;
    writeln!(out, "{BEGIN}\n")?;
    writeln!(out, "- **Command:** `{}`", run.command)?;
    writeln!(out, "- **Revision:** {}", revision())?;
    writeln!(
        out,
        "- **Duration:** {} in all{}",
        format_duration(run.total),
        run.runtime
            .as_ref()
            .map_or(String::new(), |(bench, _)| format!(
                ", of which `cargo bench` (build included) {}",
                format_duration(*bench)
            ))
    )?;
    writeln!(out, "- **Machine:** {}", machine())?;
    if let Some((_, dynamodb)) = &run.runtime {
        writeln!(out, "- **DynamoDB (points 4 and 5):** {dynamodb}")?;
    }
    writeln!(
        out,
        "\nTimes are criterion's estimates (the slope of its linear fit, or the mean for the server \
         batches); a ratio is Stamp's time divided by the hand-written code's, so below 1 is faster. \
         Criterion's raw data is in `target/criterion`.\n"
    )?;

    items_and_keys(&mut table, &facts)?;
    paired_section(&mut table, &facts)?;
    instructions_section(&mut table, &facts)?;
    requests(&mut table, &facts)?;
    compile_section(&mut table, run, target)?;
    memory_section(&mut table, &facts)?;
    goals_and_estimates(&mut table)?;
    Ok(table.out)
}

/// Points 1 to 3: one item encoded and decoded, key building, a full page.
pub(super) fn items_and_keys(table: &mut Table, facts: &BTreeMap<String, String>) -> Result<()> {
    let order_bytes = thousands(fact(facts, "item_bytes.order"));
    let reading_bytes = thousands(fact(facts, "item_bytes.reading"));
    writeln!(table.out, "### 1. One item, encoded and decoded\n")?;
    writeln!(
        table.out,
        "The order has 14 fields and is stored as {} attributes, {order_bytes} bytes; the reading has \
         17 fields, stored as {} attributes, {reading_bytes} bytes. `serde_dynamo + format!` is the \
         modyne way (`to_item`, keys with `format!`; `from_item`); `direct` builds the map with \
         `AttributeValue` calls and reads it back attribute by attribute.\n",
        fact(facts, "attributes.order"),
        fact(facts, "attributes.reading"),
    )?;
    table.rows(
        &["serde_dynamo + format!", "direct"],
        &[
            work_row(facts, "encode_order", "stamp", &["serde_dynamo", "direct"]),
            work_row(
                facts,
                "encode_order",
                "stamp_checked",
                &["serde_dynamo", "direct"],
            ),
            work_row(
                facts,
                "encode_reading",
                "stamp",
                &["serde_dynamo", "direct"],
            ),
            work_row(
                facts,
                "encode_reading",
                "stamp_checked",
                &["serde_dynamo", "direct"],
            ),
            work_row(facts, "decode_order", "stamp", &["serde_dynamo", "direct"]),
            work_row(
                facts,
                "decode_reading",
                "stamp",
                &["serde_dynamo", "direct"],
            ),
        ],
        Some(1),
    );
    writeln!(
        table.out,
        "Allocations per order: encode {} (Stamp) / {} (serde_dynamo + format!) / {} (direct); \
         decode {} / {} / {}.\n",
        allocations(facts, "encode_order.stamp"),
        allocations(facts, "encode_order.serde_dynamo"),
        allocations(facts, "encode_order.direct"),
        allocations(facts, "decode_order.stamp"),
        allocations(facts, "decode_order.serde_dynamo"),
        allocations(facts, "decode_order.direct"),
    )?;

    writeln!(table.out, "### 2. Key building\n")?;
    writeln!(
        table.out,
        "`SHIP#<shipped_on>#<carrier>#<shipment_id>` (a date, a string and a UUID): the sort key \
         alone, through the typed prefix that sort-key conditions use, and the whole primary key \
         (`Shipment::key`, with `WAREHOUSE#<warehouse>`). `direct` pushes into a `String` of the \
         right capacity.\n"
    )?;
    table.rows(
        &["format!", "direct"],
        &[
            work_row(facts, "key_sort_3_fields", "stamp", &["format", "direct"]),
            work_row(facts, "key_primary", "stamp", &["format", "direct"]),
        ],
        Some(1),
    );
    writeln!(
        table.out,
        "| allocations per call | Stamp | format! | direct |\n|---|---:|---:|---:|\n\
         | sort key, 3 fields | {} | {} | {} |\n\
         | primary key, 2 attributes | {} | {} | {} |\n\
         | sort key, 3 fields, a `#` in the carrier (escaped) | {} | | |\n",
        allocations(facts, "key_sort_3_fields.stamp"),
        allocations(facts, "key_sort_3_fields.format"),
        allocations(facts, "key_sort_3_fields.direct"),
        allocations(facts, "key_primary.stamp"),
        allocations(facts, "key_primary.format"),
        allocations(facts, "key_primary.direct"),
        allocations(facts, "key_sort_3_fields.stamp_escaping"),
    )?;
    let count = |key: &str| {
        facts
            .get(&format!("alloc.{key}"))
            .and_then(|count| count.parse::<f64>().ok())
    };
    let label = "allocations per call, sort key and primary key";
    let bound = "no more than the direct pushes";
    table.goals.push(
        match (
            count("key_sort_3_fields.stamp"),
            count("key_primary.stamp"),
            count("key_sort_3_fields.direct"),
            count("key_primary.direct"),
        ) {
            (Some(sort), Some(primary), Some(direct_sort), Some(direct_primary)) => Goal {
                goal: 2,
                label: label.to_owned(),
                measured: Some(format!(
                    "{} and {} (direct: {} and {})",
                    allocations(facts, "key_sort_3_fields.stamp"),
                    allocations(facts, "key_primary.stamp"),
                    allocations(facts, "key_sort_3_fields.direct"),
                    allocations(facts, "key_primary.direct"),
                )),
                bound: bound.to_owned(),
                met: sort <= direct_sort && primary <= direct_primary,
            },
            _ => Goal::missing(2, label, bound),
        },
    );

    writeln!(
        table.out,
        "### 3. A full query page\n\n{} orders, {} bytes: as many as fit in DynamoDB's 1 MB page, \
         decoded into structs (`Order::from_item` on each, as `Query::send` does; \
         `serde_dynamo::from_items`; direct reads).\n",
        thousands(fact(facts, "page.items")),
        thousands(fact(facts, "page.bytes")),
    )?;
    table.rows(
        &["serde_dynamo", "direct"],
        &[work_row(
            facts,
            "page_decode",
            "stamp",
            &["serde_dynamo", "direct"],
        )],
        Some(1),
    );

    Ok(())
}

/// A work of points 1 to 3 with a goal: its criterion group and Stamp's
/// function (`pairs.rs` records it as `pairs.GROUP.FUNCTION`, callgrind as
/// `instructions.GROUP/FUNCTION`), its label, issue 26's goal and bound.
struct Work {
    group: &'static str,
    function: &'static str,
    label: &'static str,
    goal: u8,
    bound: f64,
    /// Whether `STAMP_BENCH_PROFILE` has it (point 3c).
    counted: bool,
}

/// Every work with a goal, in the report's order.
const WORKS: [Work; 9] = [
    work("key_sort_3_fields", "stamp", "sort key, 3 fields", 2, 1.25),
    work(
        "key_primary",
        "stamp",
        "primary key, 2 attributes, 4 fields",
        2,
        1.25,
    ),
    work("encode_order", "stamp", "encode order (`to_item`)", 3, 1.05),
    work(
        "encode_order",
        "stamp_checked",
        "checked encode of order (`to_checked_item`: `to_item` with `check_item`'s checks, what a put sends)",
        3,
        1.15,
    ),
    work("encode_reading", "stamp", "encode reading", 3, 1.05),
    work(
        "encode_reading",
        "stamp_checked",
        "checked encode of reading",
        3,
        1.15,
    ),
    work(
        "decode_order",
        "stamp",
        "decode order (`from_item`)",
        3,
        1.05,
    ),
    work("decode_reading", "stamp", "decode reading", 3, 1.05),
    Work {
        counted: false,
        ..work("page_decode", "stamp", "decode a 1 MB page", 3, 1.05)
    },
];

const fn work(
    group: &'static str,
    function: &'static str,
    label: &'static str,
    goal: u8,
    bound: f64,
) -> Work {
    Work {
        group,
        function,
        label,
        goal,
        bound,
        counted: true,
    }
}

/// The table row of work `group`/`function` of [`WORKS`] against
/// `baselines`; its criterion ratio is the goal's unless the run measured
/// the work alternated (then [`paired_section`] judges it).
fn work_row(
    facts: &BTreeMap<String, String>,
    group: &'static str,
    function: &'static str,
    baselines: &'static [&'static str],
) -> Row {
    let work = WORKS
        .iter()
        .find(|work| work.group == group && work.function == function)
        .expect("a work of WORKS");
    let paired = facts.contains_key(&format!("pairs.{group}.{function}.ratio"));
    Row {
        label: work.label.to_owned(),
        group,
        stamp: function,
        baselines,
        goal: (!paired).then_some((work.goal, work.bound)),
    }
}

/// Point 3b: the one-item, key and page works alternated with the direct
/// code, batch by batch, beside criterion's ratio; their goals are judged
/// on the alternated ratio.
pub(super) fn paired_section(table: &mut Table, facts: &BTreeMap<String, String>) -> Result<()> {
    let number = |key: &str| facts.get(key).and_then(|value| value.parse::<f64>().ok());
    if !WORKS
        .iter()
        .any(|work| facts.contains_key(&format!("pairs.{}.{}.ratio", work.group, work.function)))
    {
        return Ok(());
    }
    writeln!(
        table.out,
        "### 3b. The same works alternated\n\n\
         Criterion measures one function for seconds, then the next; on this shared 2-core VM the \
         machine's speed moves between those measurements (the same encode took 2.81 µs in one run \
         and 2.27 µs in the next while the direct map stayed at 2.1 µs), more than the gaps the \
         goals judge. So each work here is also timed alternated with the direct code (`pairs.rs`): \
         a batch of calls one way, then the same batch the other way (which goes first alternates), \
         the inputs made before each batch's clock starts and the outputs dropped after it stops. \
         A ratio is the median of the pair ratios (Stamp's batch over the direct batch beside it), \
         with their middle half; goals 2 and 3 are judged on it.\n\n\
         | work | calls per batch | pairs | Stamp ÷ direct, alternated | middle half of the pairs | \
         criterion's Stamp ÷ direct |\n|---|---:|---:|---:|---|---:|"
    )?;
    for Work {
        group,
        function,
        label,
        goal,
        bound,
        ..
    } in WORKS
    {
        let fact = |what: &str| number(&format!("pairs.{group}.{function}.{what}"));
        let criterion = estimate(table.criterion, group, function)
            .zip(estimate(table.criterion, group, "direct"))
            .map_or("–".to_owned(), |(stamp, direct)| {
                format!("{:.2}", stamp.time / direct.time)
            });
        match (fact("ratio"), fact("ratio_p25"), fact("ratio_p75")) {
            (Some(ratio), Some(p25), Some(p75)) => {
                writeln!(
                    table.out,
                    "| {label} | {} | {} | **{ratio:.2}** | {p25:.2} – {p75:.2} | {criterion} |",
                    fact("batch").map_or("?".to_owned(), |batch| thousands(&batch.to_string())),
                    fact("pairs").map_or("?".to_owned(), |pairs| pairs.to_string()),
                )?;
                table.goals.push(Goal::ratio_with(
                    goal,
                    format!("{label}, alternated"),
                    ratio,
                    bound,
                    format!(", pairs {p25:.2} – {p75:.2}"),
                ));
            }
            // Not measured alternated: the row's criterion ratio is its goal's.
            _ => writeln!(table.out, "| {label} | – | – | – | – | {criterion} |")?,
        }
    }
    table.out.push('\n');
    Ok(())
}

/// Point 3c: instructions a call, Stamp against the direct code, when the
/// run counted them; each is also a goal line.
pub(super) fn instructions_section(
    table: &mut Table,
    facts: &BTreeMap<String, String>,
) -> Result<()> {
    let count = |target: &str| {
        facts
            .get(&format!("instructions.{target}"))
            .and_then(|value| value.parse::<f64>().ok())
    };
    if count("encode_order/stamp").is_none() {
        return Ok(());
    }
    writeln!(
        table.out,
        "### 3c. Instructions a call\n\n\
         `valgrind --tool=callgrind` over 10,000 calls of each work (the bench binary's \
         `STAMP_BENCH_PROFILE` loop), divided by the calls, the median of three runs; a decode's \
         count leaves out the clone of the item it starts from, which every style pays alike. \
         Unlike a time, a count does not move with the machine's speed, so this is the figure that \
         reproduces from run to run (within the allocator's few per cent).\n\n\
         | work | Stamp | direct | Stamp ÷ direct |\n|---|---:|---:|---:|"
    )?;
    for Work {
        group,
        function,
        label,
        goal,
        bound,
        ..
    } in WORKS.into_iter().filter(|work| work.counted)
    {
        let input = if group.starts_with("decode_") {
            count(&format!("{group}/input"))
        } else {
            Some(0.0)
        };
        let work = |function: &str| {
            count(&format!("{group}/{function}"))
                .zip(input)
                .map(|(count, input)| count - input)
        };
        match (work(function), work("direct")) {
            (Some(stamp), Some(direct)) => {
                let ratio = stamp / direct;
                writeln!(
                    table.out,
                    "| {label} | {} | {} | **{ratio:.2}** |",
                    thousands(&format!("{stamp:.0}")),
                    thousands(&format!("{direct:.0}")),
                )?;
                table.goals.push(Goal::ratio(
                    goal,
                    format!("{label}, by instructions"),
                    ratio,
                    bound,
                ));
            }
            _ => {
                writeln!(table.out, "| {label} | – | – | – |")?;
                table.goals.push(Goal::missing(
                    goal,
                    format!("{label}, by instructions"),
                    format!("≤ {bound:.2}"),
                ));
            }
        }
    }
    table.out.push('\n');
    Ok(())
}
