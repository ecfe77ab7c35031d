//! Per-entity export (`Table::export`) of the reference table on a real
//! server: one file per entity with exactly the items written, typed
//! Parquet columns, unknown types in a file of their own, refusals before
//! any request; and (ignored under plain `cargo test`, run by `cargo xtask
//! test` with the venv's Python) DuckDB counting orders per status per month
//! in the Parquet file.

use crate::common;
use stamp::error::JobError;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use aws_sdk_dynamodb::types::AttributeValue;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::de::DeserializeOwned;
use stamp::export::{Export, ExportFormat, ExportProgress};
use stamp::{Error, Table};
use stamp_examples::data::{self, DataSet, Size};
use stamp_examples::{Customer, LineItem, Order, Product, Session, table_definition};

const SIZE: Size = Size {
    customers: 30,
    products: 12,
    orders: 400,
    orders_with_line_items: 50,
};

pub(super) fn directory(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple()))
}

/// A fresh reference table holding `size`'s generated data, plus one item
/// of a type no entity has and one without a type attribute.
pub(super) async fn loaded(test: &str, size: Size) -> (Table, DataSet) {
    let table = common::fresh_table(test, &table_definition()).await;
    let data = data::generate(data::SEED, size);
    stamp_examples::scenario::load(&table, &data, 25, |_| {})
        .await
        .unwrap();
    // The customers' unique e-mails put a guard item each
    // (`UNIQUE#Customer#email#…`, type `UniqueValue`), which an export
    // writes to `_unknown` (no entity has that type; an import restores
    // them). These tests are about the entity files and the two unknown
    // items below: the guards are taken out again, by the raw client.
    for customer in &data.customers {
        let guard = format!("UNIQUE#Customer#email#{}", customer.email);
        table
            .client()
            .delete_item()
            .table_name(table.name())
            .key("PK", AttributeValue::S(guard.clone()))
            .key("SK", AttributeValue::S(guard))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await
            .unwrap();
    }
    for (pk, kind) in [("COUPON#1", Some("Coupon")), ("LEGACY#1", None)] {
        let mut item = stamp::AttributeMap::from([
            ("PK".to_owned(), AttributeValue::S(pk.to_owned())),
            ("SK".to_owned(), AttributeValue::S("X".to_owned())),
            ("percent".to_owned(), AttributeValue::N("15".to_owned())),
        ]);
        if let Some(kind) = kind {
            item.insert("Type".to_owned(), AttributeValue::S(kind.to_owned()));
        }
        table
            .client()
            .put_item()
            .table_name(table.name())
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    (table, data)
}

pub(super) fn sorted<T: std::fmt::Debug>(mut values: Vec<T>) -> Vec<T> {
    values.sort_by_key(|value| format!("{value:?}"));
    values
}

pub(super) fn ndjson<T: DeserializeOwned>(path: &Path) -> Vec<T> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn parquet_batches(path: &Path) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

pub(super) fn parquet<T: DeserializeOwned>(path: &Path) -> Vec<T> {
    parquet_batches(path)
        .iter()
        .flat_map(|batch| serde_arrow::from_record_batch::<Vec<T>>(batch).unwrap())
        .collect()
}

pub(super) fn expected_counts(data: &DataSet) -> Vec<(Option<&'static str>, u64)> {
    vec![
        (Some("Customer"), data.customers.len() as u64),
        (Some("Order"), data.orders.len() as u64),
        (Some("LineItem"), data.line_items.len() as u64),
        (Some("Product"), data.products.len() as u64),
        (Some("Session"), data.sessions.len() as u64),
        (None, 2),
    ]
}

#[tokio::test]
async fn export_writes_one_ndjson_file_per_entity_with_exactly_its_items() {
    let (table, data) = loaded("export-ndjson", SIZE).await;
    let dir = directory("export-ndjson");
    let reports = std::sync::Arc::new(std::sync::Mutex::new(Vec::<ExportProgress>::new()));
    let seen = reports.clone();
    let outcome = stamp_examples::export::export(&dir, ExportFormat::Ndjson)
        .segments(3)
        .progress(move |progress| seen.lock().unwrap().push(*progress))
        .run(&table)
        .await
        .unwrap();
    let counts: Vec<(Option<&str>, u64)> = outcome
        .files
        .iter()
        .map(|file| (file.entity, file.items))
        .collect();
    assert_eq!(counts, expected_counts(&data));
    assert_eq!(outcome.scanned, data.len() as u64 + 2);
    let names: Vec<String> = outcome
        .files
        .iter()
        .map(|file| {
            file.path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "Customer.ndjson",
            "Order.ndjson",
            "LineItem.ndjson",
            "Product.ndjson",
            "Session.ndjson",
            "_unknown.ndjson"
        ]
    );
    assert_eq!(
        sorted(ndjson::<Customer>(&dir.join("Customer.ndjson"))),
        sorted(data.customers.clone())
    );
    assert_eq!(
        sorted(ndjson::<Order>(&dir.join("Order.ndjson"))),
        sorted(data.orders.clone())
    );
    assert_eq!(
        sorted(ndjson::<LineItem>(&dir.join("LineItem.ndjson"))),
        sorted(data.line_items.clone())
    );
    assert_eq!(
        sorted(ndjson::<Product>(&dir.join("Product.ndjson"))),
        sorted(data.products.clone())
    );
    assert_eq!(
        sorted(ndjson::<Session>(&dir.join("Session.ndjson"))),
        sorted(data.sessions.clone())
    );
    // Unknown items as stored, keys and all.
    let unknown: Vec<serde_json::Value> = sorted(ndjson(&dir.join("_unknown.ndjson")));
    assert_eq!(
        unknown,
        [
            serde_json::json!({"PK": "COUPON#1", "SK": "X", "Type": "Coupon", "percent": 15}),
            serde_json::json!({"PK": "LEGACY#1", "SK": "X", "percent": 15}),
        ]
    );
    // No key attribute in an entity file: its columns are the fields.
    let first = std::fs::read_to_string(dir.join("Order.ndjson")).unwrap();
    let first: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    let mut columns: Vec<&String> = first.as_object().unwrap().keys().collect();
    columns.sort();
    assert_eq!(
        columns,
        [
            "created_at",
            "created_month",
            "customer_id",
            "line_count",
            "order_embedding",
            "order_id",
            "status",
            "total_cents",
            "updated_at"
        ]
    );
    let reports = reports.lock().unwrap();
    assert_eq!(reports.last().unwrap().scanned, outcome.scanned);
    assert!(
        reports
            .windows(2)
            .all(|pair| pair[0].scanned <= pair[1].scanned)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn export_parquet_has_typed_columns_and_reads_back_to_the_items() {
    let (table, data) = loaded("export-parquet", SIZE).await;
    let dir = directory("export-parquet");
    let outcome = stamp_examples::export::export(&dir, ExportFormat::Parquet)
        .run(&table)
        .await
        .unwrap();
    let counts: Vec<(Option<&str>, u64)> = outcome
        .files
        .iter()
        .map(|file| (file.entity, file.items))
        .collect();
    assert_eq!(counts, expected_counts(&data));
    assert_eq!(
        sorted(parquet::<Order>(&dir.join("Order.parquet"))),
        sorted(data.orders.clone())
    );
    assert_eq!(
        sorted(parquet::<Customer>(&dir.join("Customer.parquet"))),
        sorted(data.customers.clone())
    );
    assert_eq!(
        sorted(parquet::<LineItem>(&dir.join("LineItem.parquet"))),
        sorted(data.line_items.clone())
    );
    assert_eq!(
        sorted(parquet::<Product>(&dir.join("Product.parquet"))),
        sorted(data.products.clone())
    );
    assert_eq!(
        sorted(parquet::<Session>(&dir.join("Session.parquet"))),
        sorted(data.sessions.clone())
    );
    let batches = parquet_batches(&dir.join("Order.parquet"));
    let schema = batches[0].schema();
    let types: BTreeMap<&str, String> = schema
        .fields()
        .iter()
        .map(|field| {
            (
                field.name().as_str(),
                format!(
                    "{}{}",
                    field.data_type(),
                    if field.is_nullable() { "?" } else { "" }
                ),
            )
        })
        .collect();
    assert_eq!(
        types,
        BTreeMap::from([
            ("created_at", "Utf8".to_owned()),
            ("created_month", "Utf8".to_owned()),
            ("customer_id", "Utf8".to_owned()),
            ("line_count", "UInt32".to_owned()),
            // The vector: a list of 32-bit floats.
            (
                "order_embedding",
                "LargeList(non-null Float32, field: 'element')".to_owned()
            ),
            ("order_id", "Utf8".to_owned()),
            ("status", "Dictionary(UInt32, Utf8)?".to_owned()),
            ("total_cents", "UInt64".to_owned()),
            ("updated_at", "Utf8".to_owned()),
        ])
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn an_export_that_cannot_run_is_refused_before_any_request() {
    let (client, counter) = common::counting_client();
    let table = Table::new(client, "stamp-export-never-created");
    let dir = directory("export-refused");
    let cases = [
        (Export::new(&dir).run(&table).await, "no entity"),
        (
            Export::new(&dir)
                .entity::<Order>()
                .segments(0)
                .run(&table)
                .await,
            "0 segments",
        ),
        (
            Export::new(&dir)
                .entity::<Order>()
                .segments(1_000_001)
                .run(&table)
                .await,
            "1000001 segments",
        ),
        (
            Export::new(&dir)
                .entity::<Order>()
                .concurrency(0)
                .run(&table)
                .await,
            "concurrency 0",
        ),
    ];
    for (result, case) in cases {
        let error = result.unwrap_err();
        assert!(
            matches!(error, Error::Job(JobError::InvalidExport { .. })),
            "{case}: {error:?}"
        );
    }
    assert_eq!(counter.operations(), Vec::<String>::new());
    assert!(!dir.exists(), "nothing written");
}

/// Runs `script` with the venv's Python (`$STAMP_PYTHON`, set by `cargo
/// xtask test`), which has DuckDB, and returns its standard output.
fn python(script: &str, args: &[&str]) -> String {
    let python = std::env::var("STAMP_PYTHON").unwrap_or_else(|_| {
        panic!("STAMP_PYTHON is not set: run `cargo xtask test`, which installs duckdb in its venv")
    });
    let output = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
#[ignore = "needs Python's duckdb: `cargo xtask test` runs it with the venv's (STAMP_PYTHON)"]
async fn export_duckdb_counts_orders_per_status_per_month() {
    let size = Size {
        customers: 200,
        products: 50,
        orders: 3_000,
        orders_with_line_items: 300,
    };
    let (table, data) = loaded("export-duckdb", size).await;
    let dir = directory("export-duckdb");
    stamp_examples::export::export(&dir, ExportFormat::Parquet)
        .run(&table)
        .await
        .unwrap();
    let script = r#"
import duckdb, json, sys
path = sys.argv[1].replace("'", "''")
rows = duckdb.sql(f"""
    SELECT status, strftime(CAST(created_at AS TIMESTAMP), '%Y-%m') AS month,
           count(*) AS orders, sum(total_cents) AS cents, any_value(typeof(total_cents)) AS type
    FROM read_parquet('{path}')
    GROUP BY ALL ORDER BY ALL
""").fetchall()
print(json.dumps(rows))
"#;
    let order_file = dir.join("Order.parquet");
    let rows: Vec<(Option<String>, String, u64, u64, String)> =
        serde_json::from_str(&python(script, &[order_file.to_str().unwrap()])).unwrap();
    let counted: BTreeMap<(Option<String>, String), u64> = rows
        .iter()
        .map(|(status, month, orders, _, _)| ((status.clone(), month.clone()), *orders))
        .collect();
    assert_eq!(
        counted,
        stamp_examples::export::orders_per_status_per_month(&data)
    );
    let cents: u64 = rows.iter().map(|row| row.3).sum();
    assert_eq!(
        cents,
        data.orders
            .iter()
            .map(|order| order.total_cents)
            .sum::<u64>()
    );
    assert!(rows.iter().all(|row| row.4 == "UBIGINT"), "{rows:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Lines of a `DYNAMODB_JSON` data file as DynamoDB's export documentation
/// shows them: `{"Item": {<attribute>: {<type>: <value>}}}`; a customer, a
/// product with its vector (a List of Numbers), an item of no entity.
fn export_lines() -> String {
    let embedding: Vec<String> = stamp_examples::embedding::product("Gear", "workshop")
        .iter()
        .map(|element| format!(r#"{{"N":"{element}"}}"#))
        .collect();
    concat!(
        r#"{"Item":{"PK":{"S":"CUST#c-7"},"SK":{"S":"PROFILE"},"Type":{"S":"Customer"},"customer_id":{"S":"c-7"},"name":{"S":"Ada"},"email":{"S":"ada@example.com"},"order_count":{"N":"2"},"created_at":{"S":"2026-01-02T03:04:05Z"}}}
"#,
        r#"{"Item":{"PK":{"S":"PRODUCT#SKU-1"},"SK":{"S":"PRODUCT"},"Type":{"S":"Product"},"sku":{"S":"SKU-1"},"name":{"S":"Gear"},"category":{"S":"workshop"},"price_cents":{"N":"150"},"stock":{"N":"9"},"embedding":{"L":[EMBEDDING]}}}
"#,
        r#"{"Item":{"PK":{"S":"COUPON#1"},"SK":{"S":"X"},"Type":{"S":"Coupon"},"tags":{"SS":["a","b"]},"active":{"BOOL":true}}}
"#,
    )
    .replace("EMBEDDING", &embedding.join(","))
}

#[tokio::test]
async fn export_reads_the_dynamodb_json_files_of_a_point_in_time_export() {
    use std::io::Write;

    let source = directory("export-files-source");
    std::fs::create_dir_all(&source).unwrap();
    let lines = export_lines();
    let (first, second) = lines.split_at(lines.find("{\"Item\":{\"PK\":{\"S\":\"COUPON").unwrap());
    let gzipped = source.join("part-1.json.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        File::create(&gzipped).unwrap(),
        flate2::Compression::default(),
    );
    encoder.write_all(first.as_bytes()).unwrap();
    encoder.finish().unwrap();
    let plain = source.join("part-2.json");
    std::fs::write(&plain, second).unwrap();

    // No table: `run_from_files` takes none, so it cannot send a request.
    let dir = directory("export-files");
    let outcome = stamp_examples::export::export(&dir, ExportFormat::Ndjson)
        .run_from_files([&gzipped, &plain])
        .await
        .unwrap();
    assert_eq!(
        (
            outcome.scanned,
            outcome.items("Customer"),
            outcome.items("Product"),
            outcome.unknown()
        ),
        (3, 1, 1, 1)
    );
    assert_eq!(
        ndjson::<Customer>(&dir.join("Customer.ndjson")),
        [Customer {
            customer_id: "c-7".to_owned(),
            name: "Ada".to_owned(),
            email: "ada@example.com".to_owned(),
            order_count: 2,
            created_at: "2026-01-02T03:04:05Z".parse().unwrap(),
        }]
    );
    assert_eq!(
        ndjson::<Product>(&dir.join("Product.ndjson")),
        [Product::new("SKU-1", "Gear", "workshop", 150, 9)]
    );
    let unknown: Vec<serde_json::Value> = ndjson(&dir.join("_unknown.ndjson"));
    assert_eq!(
        unknown,
        [
            serde_json::json!({"PK": "COUPON#1", "SK": "X", "Type": "Coupon", "tags": ["a", "b"], "active": true})
        ]
    );

    // A missing file is refused before anything is written; a line that is
    // not DYNAMODB_JSON names its file and line.
    let missing = directory("export-files-missing");
    let error = stamp_examples::export::export(&missing, ExportFormat::Ndjson)
        .run_from_files([source.join("absent.json.gz")])
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportFile { path, .. }) if path.ends_with("absent.json.gz")),
        "{error:?}"
    );
    assert!(!missing.exists());
    let broken_dir = directory("export-files-broken");
    let broken = source.join("broken.json");
    std::fs::write(
        &broken,
        format!("{first}{{\"PK\":{{\"S\":\"no Item wrapper\"}}}}\n"),
    )
    .unwrap();
    let error = stamp_examples::export::export(&broken_dir, ExportFormat::Ndjson)
        .run_from_files([&broken])
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportFile { path, detail }) if path == &broken && detail.starts_with("line 3 ")),
        "{error:?}"
    );
    std::fs::remove_dir_all(source).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    let _ = std::fs::remove_dir_all(broken_dir);
}

/// The Order of the reference model as serde names its fields, in order.
const ORDER_COLUMNS: [&str; 9] = [
    "customer_id",
    "order_id",
    "created_at",
    "created_month",
    "status",
    "updated_at",
    "total_cents",
    "line_count",
    "order_embedding",
];

/// A table with customers and no order: `Order.parquet` has no row to
/// trace its columns from (`Order` has `DateTime` fields, which do not
/// describe themselves to serde_arrow).
async fn exported_without_orders(test: &str) -> PathBuf {
    let table = common::fresh_table(test, &table_definition()).await;
    let data = data::generate(data::SEED, SIZE);
    for customer in &data.customers[..3] {
        table.put(customer).await.unwrap();
    }
    let dir = directory(test);
    let outcome = stamp_examples::export::export(&dir, ExportFormat::Parquet)
        .run(&table)
        .await
        .unwrap();
    assert_eq!((outcome.items("Customer"), outcome.items("Order")), (3, 0));
    dir
}

#[tokio::test]
async fn export_parquet_of_an_entity_with_no_items_has_its_columns() {
    let dir = exported_without_orders("export-empty-parquet").await;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(File::open(dir.join("Order.parquet")).unwrap())
            .unwrap();
    let columns: Vec<String> = builder
        .schema()
        .fields()
        .iter()
        .map(|field| {
            format!(
                "{}: {}{}",
                field.name(),
                field.data_type(),
                if field.is_nullable() { "?" } else { "" }
            )
        })
        .collect();
    let expected: Vec<String> = ORDER_COLUMNS
        .iter()
        .map(|name| format!("{name}: Utf8?"))
        .collect();
    assert_eq!(columns, expected);
    assert_eq!(builder.metadata().file_metadata().num_rows(), 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
#[ignore = "needs Python's duckdb: `cargo xtask test` runs it with the venv's (STAMP_PYTHON)"]
async fn export_duckdb_reads_the_parquet_file_of_an_entity_with_no_items() {
    let dir = exported_without_orders("export-duckdb-empty").await;
    let script = r#"
import duckdb, json, sys
path = sys.argv[1].replace("'", "''")
count = duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}')").fetchall()[0][0]
columns = [row[0] for row in duckdb.sql(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()]
print(json.dumps([count, columns]))
"#;
    let order_file = dir.join("Order.parquet");
    let (count, columns): (u64, Vec<String>) =
        serde_json::from_str(&python(script, &[order_file.to_str().unwrap()])).unwrap();
    assert_eq!(count, 0);
    assert_eq!(columns, ORDER_COLUMNS);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn export_unknown_items_keep_their_numbers_exactly() {
    let table = common::fresh_table("export-exact-numbers", &table_definition()).await;
    let n = |text: &str| AttributeValue::N(text.to_owned());
    let item = stamp::AttributeMap::from([
        ("PK".to_owned(), AttributeValue::S("COUPON#9".to_owned())),
        ("SK".to_owned(), AttributeValue::S("X".to_owned())),
        ("Type".to_owned(), AttributeValue::S("Coupon".to_owned())),
        ("big".to_owned(), n("12345678901234567890123")),
        ("small".to_owned(), n("-0.000000000000000000001")),
        (
            "ids".to_owned(),
            AttributeValue::Ns(vec!["98765432109876543210".to_owned()]),
        ),
        (
            "nested".to_owned(),
            AttributeValue::M(std::collections::HashMap::from([(
                "list".to_owned(),
                AttributeValue::L(vec![n("3.14159265358979323846264338327950288"), n("7")]),
            )])),
        ),
    ]);
    table
        .client()
        .put_item()
        .table_name(table.name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let dir = directory("export-exact-numbers");
    let outcome = stamp_examples::export::export(&dir, ExportFormat::Ndjson)
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.unknown(), 1);
    let text = std::fs::read_to_string(dir.join("_unknown.ndjson")).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"PK":"COUPON#9","SK":"X","Type":"Coupon","big":12345678901234567890123,"#,
            r#""ids":[98765432109876543210],"nested":{"list":[3.14159265358979323846264338327950288,7]},"#,
            r#""small":-0.000000000000000000001}"#,
            "\n"
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn export_reads_at_most_its_concurrency_of_segments_at_once() {
    let (table, in_flight) =
        common::fresh_measured_table("export-concurrency", &table_definition()).await;
    let data = data::generate(data::SEED, SIZE);
    for product in &data.products {
        table.put(product).await.unwrap();
    }
    for (concurrency, expected) in [
        (None, stamp::export::DEFAULT_CONCURRENCY as usize),
        (Some(2), 2),
    ] {
        in_flight.max.store(0, std::sync::atomic::Ordering::SeqCst);
        let dir = directory("export-concurrency");
        let mut export = Export::new(&dir).entity::<Product>().segments(16);
        if let Some(concurrency) = concurrency {
            export = export.concurrency(concurrency);
        }
        let outcome = export.run(&table).await.unwrap();
        assert_eq!(outcome.items("Product"), data.products.len() as u64);
        assert_eq!(
            in_flight.max.load(std::sync::atomic::Ordering::SeqCst),
            expected,
            "{concurrency:?}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
    assert_eq!(stamp::export::DEFAULT_CONCURRENCY, 4);
}
