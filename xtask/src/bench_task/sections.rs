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

/// Points 4, 4b and 5: requests end to end on the server, and batch loads.
pub(super) fn requests(table: &mut Table, facts: &BTreeMap<String, String>) -> Result<()> {
    writeln!(
        table.out,
        "### 4. One request end to end\n\nThe same client, table and data; the hand-written calls \
         decode with `serde_dynamo::from_item` and encode with `serde_dynamo::to_item` + `format!` \
         keys. The query reads the {} newest orders of one customer (`begins_with(SK, \"ORDER#\")`, \
         newest first).\n",
        fact(facts, "server.query_items"),
    )?;
    table.rows(
        &["SDK by hand"],
        &[
            Row {
                label: "query, one page".to_owned(),
                group: "server_query",
                stamp: "stamp",
                baselines: &["sdk"],
                goal: None,
            },
            Row {
                label: "put one order".to_owned(),
                group: "server_put",
                stamp: "stamp",
                baselines: &["sdk"],
                goal: None,
            },
        ],
        Some(0),
    );

    let interleaved = |name: &str| {
        let value = |who: &str| {
            facts
                .get(&format!("interleaved.{name}.{who}"))
                .and_then(|value| value.parse::<f64>().ok())
        };
        value("stamp")
            .zip(value("sdk"))
            .map_or("?".to_owned(), |(stamp, sdk)| {
                format!(
                    "{} against {}, **{:.2}**",
                    format_ns(stamp),
                    format_ns(sdk),
                    stamp / sdk
                )
            })
    };
    writeln!(
        table.out,
        "Criterion measures all of Stamp's samples, then all of the SDK's, and the server's speed can \
         drift in between, so these ratios are not goals (the alternated ones of point 4b are). The \
         same requests alternated {} times, one Stamp call then one SDK call, give a ratio over the \
         same period (the mean call of each): query {}; put {}.\n",
        fact(facts, "interleaved.pairs"),
        interleaved("server_query"),
        interleaved("server_put"),
    )?;

    crate::bench_requests::render(&mut table.out, facts, &mut table.goals);

    writeln!(
        table.out,
        "### 5. Loading items in batches\n\n{} orders over the same keys of a table loaded once \
         before timing: `BatchWrite::new().put_all(..).send(&table)` against a hand-written loop of \
         `BatchWriteItem` requests of 25 items, {} at once, unprocessed items sent again. Criterion \
         times Stamp's samples, then the SDK's, so the ratio is not a goal; point 4b alternates a \
         smaller load.\n",
        thousands(fact(facts, "server.load_items")),
        fact(facts, "server.batch_concurrency"),
    )?;
    table.rows(
        &["SDK by hand"],
        &[Row {
            label: format!(
                "load {} orders",
                thousands(fact(facts, "server.load_items"))
            ),
            group: "server_batch_load",
            stamp: "stamp",
            baselines: &["sdk"],
            goal: None,
        }],
        Some(0),
    );

    Ok(())
}

/// Goal 1: the derive's debug build time per entity over serde's alone, in ms.
const COMPILE_BOUND_MS: f64 = 40.0;

/// The compile goal's line.
const COMPILE_GOAL: &str = "`#[derive(Item)]` over serde alone, debug build, per entity";

/// Goal 1's second bound: the incremental rebuild after one field's edit,
/// at most this many times the serde-only crate's.
const EDIT_BOUND: f64 = 1.5;

/// The incremental goal's line.
const EDIT_GOAL: &str = "incremental rebuild after one entity's field changes type, \
                         `#[derive(Item)]` + serde ÷ serde only";

/// Point 6: the compile cost of the derive, when this run measured it.
pub(super) fn compile_section(table: &mut Table, run: &Run, target: &Path) -> Result<()> {
    writeln!(table.out, "### 6. Compile cost\n")?;
    match &run.compile {
        Some(compile) => {
            let extra = compile.derive.as_secs_f64() - compile.serde_only.as_secs_f64();
            let runs = |runs: &[Duration]| {
                runs.iter()
                    .map(|run| format!("{:.1}", run.as_secs_f64()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            writeln!(
                table.out,
                "`cargo build` (debug, incremental off) of a crate of {COMPILE_ENTITIES} entities, \
                 its dependencies already built; the median of {COMPILE_RUNS} builds. The crates are \
                 generated in `{}`.\n\n\
                 | crate | build | runs (s) |\n|---|---:|---|\n\
                 | `#[derive(Item)]` + serde | {} | {} |\n\
                 | serde only | {} | {} |\n\n\
                 The derive adds **{extra:.1} s** ({:.0} ms per entity), **{:.2}×** the serde-only build.\n\n\
                 Then, incremental compilation on (a target directory of its own), the rebuild after \
                 `Entity0`'s `amount_cents` changes type (`u64` to `u32` and back), the median of \
                 {COMPILE_RUNS} edits:\n\n\
                 | crate | rebuild | runs (s) |\n|---|---:|---|\n\
                 | `#[derive(Item)]` + serde | {} | {} |\n\
                 | serde only | {} | {} |\n",
                target
                    .join("compile-cost")
                    .strip_prefix(workspace::root())
                    .unwrap_or(&target.join("compile-cost"))
                    .display(),
                format_duration(compile.derive),
                runs(&compile.derive_runs),
                format_duration(compile.serde_only),
                runs(&compile.serde_runs),
                extra * 1000.0 / COMPILE_ENTITIES as f64,
                compile.derive.as_secs_f64() / compile.serde_only.as_secs_f64(),
                format_duration(compile.derive_edit),
                runs(&compile.derive_edit_runs),
                format_duration(compile.serde_edit),
                runs(&compile.serde_edit_runs),
            )?;
            let per_entity = extra * 1000.0 / COMPILE_ENTITIES as f64;
            table.goals.push(Goal {
                goal: 1,
                label: COMPILE_GOAL.to_owned(),
                measured: Some(format!("{per_entity:.0} ms per entity")),
                bound: format!("≤ {COMPILE_BOUND_MS:.0} ms"),
                met: per_entity.round() <= COMPILE_BOUND_MS,
            });
            table.goals.push(Goal::ratio(
                1,
                EDIT_GOAL,
                compile.derive_edit.as_secs_f64() / compile.serde_edit.as_secs_f64(),
                EDIT_BOUND,
            ));
        }
        None => {
            writeln!(
                table.out,
                "Not measured in this run (`cargo xtask bench --compile` measures it).\n"
            )?;
            table.goals.push(Goal::missing(
                1,
                COMPILE_GOAL,
                format!("≤ {COMPILE_BOUND_MS:.0} ms"),
            ));
            table
                .goals
                .push(Goal::missing(1, EDIT_GOAL, format!("≤ {EDIT_BOUND:.2}")));
        }
    }

    Ok(())
}

/// Point 7: peak allocation, Stamp against the hand-written code, from the
/// bench's `peak.*` facts (bytes).
pub(super) fn memory_section(table: &mut Table, facts: &BTreeMap<String, String>) -> Result<()> {
    let peak = |key: &str| {
        facts
            .get(&format!("peak.{key}"))
            .and_then(|bytes| bytes.parse::<f64>().ok())
    };
    let cell = |bytes: Option<f64>| bytes.map_or("–".to_owned(), format_bytes);
    writeln!(
        table.out,
        "### 7. Memory\n\n\
         The peak of the bytes allocated on the calling thread above what was live when the call \
         began (the bench's counting allocator, `alloc.rs`), the median of {} calls each way. The \
         result counts (it is live at the end). The in-memory decode starts from the page as the \
         SDK hands it over, a clone made inside the measurement, which each style frees as it \
         reads. The requests run on a current-thread runtime, so the SDK's connection tasks \
         count too, and the response's bytes; the embedded server runs on its own thread and \
         does not.\n\n\
         | work | Stamp | hand-written | Stamp ÷ hand-written |\n|---|---:|---:|---:|",
        fact(facts, "peak.calls"),
    )?;
    let rows = [
        (
            "decode a 1 MB page in memory (point 3), against `direct`".to_owned(),
            "page_decode.stamp",
            "page_decode.direct",
        ),
        (
            format!(
                "query, one 1 MB page end to end ({} orders), against the SDK by hand",
                thousands(fact(facts, "requests.page_1mb.items"))
            ),
            "page_1mb.stamp",
            "page_1mb.sdk",
        ),
        (
            format!(
                "query, {} shards merged, newest {}, against the SDK by hand",
                fact(facts, "requests.sharded_query.shards"),
                fact(facts, "requests.sharded_query.items"),
            ),
            "sharded_query.stamp",
            "sharded_query.sdk",
        ),
    ];
    for (label, stamp, hand) in rows {
        let (stamp, hand) = (peak(stamp), peak(hand));
        let ratio = stamp
            .zip(hand)
            .filter(|&(_, hand)| hand > 0.0)
            .map(|(stamp, hand)| stamp / hand);
        writeln!(
            table.out,
            "| {label} | {} | {} | {} |",
            cell(stamp),
            cell(hand),
            ratio.map_or("–".to_owned(), |ratio| format!("**{ratio:.2}**")),
        )?;
        table.goals.push(match ratio {
            Some(ratio) => Goal::ratio(5, label, ratio, MEMORY_BOUND),
            None => Goal::missing(5, label, format!("≤ {MEMORY_BOUND:.2}")),
        });
    }
    writeln!(
        table.out,
        "\n`serde_dynamo::from_items` peaks at {} for the in-memory page.\n",
        cell(peak("page_decode.serde_dynamo")),
    )?;
    Ok(())
}

/// Goal 5: Stamp's peak allocation at most this many times the hand-written code's.
const MEMORY_BOUND: f64 = 1.05;

/// Issue 26's goals, in its order, each with the bound its lines are measured against.
const GOALS: [&str; 5] = [
    "Compile cost: at most 40 ms of debug build per entity over serde alone, and an incremental \
     rebuild after one entity's field changes no slower than 1.5 times the serde-only crate's \
     (point 6).",
    "Key building: at most 1.25 times the direct pushes, with no more allocations than they \
     make (point 2).",
    "The codec: `to_item` and `from_item` at most 1.05 times the direct map, for both entities \
     and the 1 MB page, `to_item` + `check_item`'s checks (`to_checked_item`) at most 1.15 times \
     (points 1 and 3); batch loads \
     at most 1.05 times the SDK by hand (alternated, point 4b).",
    "Requests end to end: at most 1.05 times the SDK by hand, every request alternated with it \
     (point 4b), the middle half of the pair ratios beside each.",
    "Memory: peak allocation at most 1.05 times the hand-written code's (point 7).",
];

/// The goals, met or not, and every estimate with its interval.
pub(super) fn goals_and_estimates(table: &mut Table) -> Result<()> {
    writeln!(table.out, "### Goals\n")?;
    writeln!(
        table.out,
        "Issue 26's goals, each line a measurement of this run against its bound (a ratio is \
         Stamp ÷ hand-written, as in the tables):\n"
    )?;
    for (position, text) in GOALS.iter().enumerate() {
        let goal = position as u8 + 1;
        writeln!(table.out, "{goal}. {text}")?;
        for line in table.goals.iter().filter(|line| line.goal == goal) {
            match &line.measured {
                Some(measured) => writeln!(
                    table.out,
                    "   - {}: {measured} ({}), {}",
                    line.label,
                    line.bound,
                    if line.met { "met" } else { "not met" }
                )?,
                None => writeln!(
                    table.out,
                    "   - {}: not measured in this run ({})",
                    line.label, line.bound
                )?,
            }
        }
    }
    if !table.sequential.is_empty() {
        writeln!(
            table.out,
            "\nNot goals: criterion's ratios of points 4 and 5 ({}). Criterion measures all of \
             Stamp's samples, then all of the SDK's, and the server drifts in between; point 4b \
             times the same requests alternated.",
            table
                .sequential
                .iter()
                .map(|(label, ratio)| format!("{label} {ratio:.2}"))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    writeln!(table.out)?;

    writeln!(
        table.out,
        "<details><summary>Every estimate, with its 95% confidence interval</summary>\n\n\
         | benchmark | time | interval |\n|---|---:|---|"
    )?;
    for (name, estimate) in &table.shown {
        writeln!(
            table.out,
            "| `{name}` | {} | {} – {} |",
            format_ns(estimate.time),
            format_ns(estimate.lower),
            format_ns(estimate.upper)
        )?;
    }
    writeln!(table.out, "\n</details>\n\n{END}")?;
    Ok(())
}
