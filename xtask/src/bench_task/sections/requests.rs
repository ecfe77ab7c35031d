//! The requests section: requests end to end on the server, and batch loads.

use super::*;

/// Points 4, 4b and 5: requests end to end on the server, and batch loads.
pub(crate) fn requests(table: &mut Table, facts: &BTreeMap<String, String>) -> Result<()> {
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
