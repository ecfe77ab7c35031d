//! The report: BENCHMARKS.md's generated part, one function per section.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::report::{Row, Table, allocations, fact, facts, format_duration, format_ns, thousands};
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
    requests(&mut table, &facts)?;
    compile_section(&mut table, run, target)?;
    goals_and_estimates(&mut table, &facts)?;
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
            Row {
                label: "encode order (`to_item`)".to_owned(),
                group: "encode_order",
                stamp: "stamp",
                baselines: &["serde_dynamo", "direct"],
                goal: true,
            },
            Row {
                label: "encode order + `check_item` (what a put sends)".to_owned(),
                group: "encode_order",
                stamp: "stamp_checked",
                baselines: &["serde_dynamo", "direct"],
                goal: false,
            },
            Row {
                label: "encode reading".to_owned(),
                group: "encode_reading",
                stamp: "stamp",
                baselines: &["serde_dynamo", "direct"],
                goal: true,
            },
            Row {
                label: "decode order (`from_item`)".to_owned(),
                group: "decode_order",
                stamp: "stamp",
                baselines: &["serde_dynamo", "direct"],
                goal: true,
            },
            Row {
                label: "decode reading".to_owned(),
                group: "decode_reading",
                stamp: "stamp",
                baselines: &["serde_dynamo", "direct"],
                goal: true,
            },
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
            Row {
                label: "sort key, 3 fields".to_owned(),
                group: "key_sort_3_fields",
                stamp: "stamp",
                baselines: &["format", "direct"],
                goal: false,
            },
            Row {
                label: "primary key, 2 attributes, 4 fields".to_owned(),
                group: "key_primary",
                stamp: "stamp",
                baselines: &["format", "direct"],
                goal: false,
            },
        ],
        None,
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
        &[Row {
            label: "decode a 1 MB page".to_owned(),
            group: "page_decode",
            stamp: "stamp",
            baselines: &["serde_dynamo", "direct"],
            goal: true,
        }],
        Some(1),
    );

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
                goal: true,
            },
            Row {
                label: "put one order".to_owned(),
                group: "server_put",
                stamp: "stamp",
                baselines: &["sdk"],
                goal: true,
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
         drift in between. The same requests alternated {} times, one Stamp call then one SDK call, \
         give a ratio over the same period: query {}; put {}.\n",
        fact(facts, "interleaved.pairs"),
        interleaved("server_query"),
        interleaved("server_put"),
    )?;

    crate::bench_requests::render(&mut table.out, facts, &mut table.goals);

    writeln!(
        table.out,
        "### 5. Loading items in batches\n\n{} orders over the same keys of a table loaded once \
         before timing: `BatchWrite::new().put_all(..).send(&table)` against a hand-written loop of \
         `BatchWriteItem` requests of 25 items, {} at once, unprocessed items sent again.\n",
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
            goal: true,
        }],
        Some(0),
    );

    Ok(())
}

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
                 The derive adds **{extra:.1} s** ({:.0} ms per entity), **{:.2}×** the serde-only build.\n",
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
            )?;
        }
        None => writeln!(
            table.out,
            "Not measured in this run (`cargo xtask bench --compile` measures it).\n"
        )?,
    }

    Ok(())
}

/// The goals, met or not, and every estimate with its interval.
pub(super) fn goals_and_estimates(
    table: &mut Table,
    facts: &BTreeMap<String, String>,
) -> Result<()> {
    writeln!(table.out, "### Goals\n")?;
    writeln!(
        table.out,
        "Stamp no slower than the hand-written equivalent: at most 1.10 times the direct map in \
         points 1 and 3, at most 1.05 times the SDK by hand in points 4 and 5:\n"
    )?;
    for (label, ratio, bound) in &table.goals {
        let mark = if ratio <= bound { "met" } else { "not met" };
        writeln!(table.out, "- {label}: {ratio:.2} (≤ {bound:.2}), {mark}")?;
    }
    let key_allocations = facts
        .get("alloc.key_primary.stamp")
        .and_then(|count| count.parse::<f64>().ok());
    writeln!(
        table.out,
        "- key building, at most one allocation per key attribute: {}\n",
        match key_allocations {
            Some(count) if count <= 2.0 => format!("{count:.0} for 2 attributes, met"),
            Some(count) => format!("{count} for 2 attributes, not met"),
            None => "not measured".to_owned(),
        }
    )?;

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
