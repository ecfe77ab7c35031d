//! The demo's last step: the single table exported as one Parquet file per
//! entity, and a SQL query over the orders in DuckDB (issue 17, point 3).

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Instant;

use stamp::Table;
use stamp::export::ExportFormat;
use stamp_examples::Order;
use stamp_examples::data::DataSet;
use stamp_examples::export::{export, orders_per_status_per_month, status_name};

/// The variable that names a Python with `duckdb` (`cargo xtask demo` sets
/// it to its venv's).
const PYTHON_ENV: &str = "STAMP_PYTHON";

/// The query: orders per status per month, from `Order.parquet`.
const QUERY: &str = r#"
import duckdb, json, sys
path = sys.argv[1].replace("'", "''")
rows = duckdb.sql(f"""
    SELECT status, strftime(CAST(created_at AS TIMESTAMP), '%Y-%m') AS month, count(*) AS orders
    FROM read_parquet('{path}')
    GROUP BY ALL ORDER BY ALL
""").fetchall()
print(json.dumps(rows))
"#;

/// Exports the table, then runs the query when a Python with duckdb is
/// given, and compares it with the generated data.
pub async fn run(
    table: &Table,
    data: &DataSet,
    placed: &[Order],
) -> Result<(), Box<dyn std::error::Error>> {
    crate::heading("analytics: one Parquet file per entity, then SQL in DuckDB");
    let dir = std::env::temp_dir().join(format!("stamp-demo-export-{}", std::process::id()));
    let started = Instant::now();
    let outcome = export(&dir, ExportFormat::Parquet).run(table).await?;
    println!(
        "  exported {} items by a parallel scan in {:.1} s:",
        outcome.scanned,
        started.elapsed().as_secs_f64()
    );
    for file in &outcome.files {
        let name = file.path.file_name().unwrap_or_default().to_string_lossy();
        println!("    {name:<18} {:>6} rows", file.items);
    }
    let Some(python) = std::env::var_os(PYTHON_ENV) else {
        println!(
            "  (set {PYTHON_ENV} to a Python with duckdb, or run `cargo xtask demo`, for the query)"
        );
        std::fs::remove_dir_all(&dir)?;
        return Ok(());
    };
    let order_file = dir.join("Order.parquet");
    let output = Command::new(python)
        .arg("-c")
        .arg(QUERY)
        .arg(&order_file)
        .output()?;
    std::fs::remove_dir_all(&dir)?;
    if !output.status.success() {
        return Err(format!(
            "the DuckDB query failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    let rows: Vec<(Option<String>, String, u64)> = serde_json::from_slice(&output.stdout)?;
    println!("  SELECT status, month, count(*) FROM 'Order.parquet' GROUP BY ALL ORDER BY ALL");
    println!("    {:<10} {:<8} {:>6}", "status", "month", "orders");
    for (status, month, orders) in rows.iter().take(6) {
        println!(
            "    {:<10} {month:<8} {orders:>6}",
            status.as_deref().unwrap_or("(none)")
        );
    }
    if rows.len() > 6 {
        println!("    … {} more rows", rows.len() - 6);
    }
    let counted: BTreeMap<(Option<String>, String), u64> = rows
        .into_iter()
        .map(|(status, month, orders)| ((status, month), orders))
        .collect();
    // The generated orders, and those the demo placed.
    let mut expected = orders_per_status_per_month(data);
    for order in placed {
        let key = (
            status_name(order.status).map(str::to_owned),
            order.created_at.format("%Y-%m").to_string(),
        );
        *expected.entry(key).or_insert(0) += 1;
    }
    println!(
        "  equal to the generated data: {}",
        if counted == expected { "yes" } else { "NO" }
    );
    if counted != expected {
        return Err("the DuckDB counts differ from the generated data".into());
    }
    Ok(())
}
