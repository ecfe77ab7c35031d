//! An export killed anywhere, then run again. The export has no
//! checkpoint: its contract (`stamp::export`, "A run that does not
//! finish") is that a run that does not finish leaves no `_SUCCESS` and
//! no file of its own under a final name, and that a run again into the
//! same directory writes every item exactly once and then `_SUCCESS`.
//!
//! Over 100 seeds, the task running `Export::run` (12 segments, 2 at a
//! time: 12 `Scan` requests), into an empty directory or one holding an
//! earlier complete export, in NDJSON or Parquet, is killed at a
//! seed-chosen request (sent, its answer never read, nothing sent after,
//! the task aborted: `common::KillAt`), or, for a point past its 12
//! requests, finishes; then the export runs again into the same directory.
//! The files are written by synchronous code between requests, so the
//! kill points are the requests: a kill while the files are renamed at
//! the end is covered by the marker's order (deleted first, written last),
//! not by this test.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_s3::Client as S3Client;
use futures::StreamExt;
use serde::de::DeserializeOwned;
use stamp::export::{
    Export, ExportFormat, ExportOutcome, MANIFEST, PARTIAL_SUFFIX, SUCCESS_MARKER,
};
use stamp::{
    Error, Table,
    error::{ExportObjectReason, JobError},
};
use stamp_examples::data::{self, DataSet, Size};
use stamp_examples::{Customer, LineItem, Order, Product, Session};

use super::files::{directory, expected_counts, loaded, ndjson, parquet, sorted};
use crate::common;

const SEEDS: u64 = 100;
/// The scan's segments: one `Scan` request each (every segment fits in a
/// page), so 12 requests a run.
const SEGMENTS: u32 = 12;
const SIZE: Size = Size {
    customers: 8,
    products: 5,
    orders: 40,
    orders_with_line_items: 10,
};

/// The loaded reference table, its sessions renewed to expire tomorrow: a
/// server that deletes expired items by their TTL (ministack does, DynamoDB
/// within days) would take the generated ones, which expired in 2026,
/// while the seeds read the table.
pub(super) async fn loaded_for_long(test: &str) -> (Table, DataSet) {
    let (table, mut data) = loaded(test, SIZE).await;
    let tomorrow = chrono::Utc::now().timestamp() + 24 * 3600;
    for session in &mut data.sessions {
        session.expires_at = chrono::DateTime::from_timestamp(tomorrow, 0).unwrap();
        table.put(&*session).await.unwrap();
    }
    (table, data)
}

fn export(dir: &Path, format: ExportFormat) -> Export {
    stamp_examples::export::export(dir, format)
        .segments(SEGMENTS)
        .concurrency(2)
}

/// Each name in `dir`, with the file's bytes.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect()
}

pub(super) fn read<T: DeserializeOwned>(path: &Path, format: ExportFormat) -> Vec<T> {
    match format {
        ExportFormat::Ndjson => ndjson(path),
        ExportFormat::Parquet => parquet(path),
        ExportFormat::DynamoDbJson => panic!("the kill tests write NDJSON and Parquet"),
    }
}

/// `dir` holds a complete export of `data`, as `outcome` says: exactly its
/// files and `_SUCCESS`, every item once.
fn assert_complete(dir: &Path, outcome: &ExportOutcome, data: &DataSet, format: ExportFormat) {
    let counts: Vec<(Option<&str>, u64)> = outcome
        .files
        .iter()
        .map(|file| (file.entity, file.items))
        .collect();
    assert_eq!(counts, expected_counts(data));
    assert_eq!(outcome.scanned, data.len() as u64 + 2);
    let extension = format.extension();
    let mut names: Vec<String> = ["Customer", "Order", "LineItem", "Product", "Session"]
        .iter()
        .map(|entity| format!("{entity}.{extension}"))
        .chain([
            "_unknown.ndjson".to_owned(),
            MANIFEST.to_owned(),
            SUCCESS_MARKER.to_owned(),
        ])
        .collect();
    names.sort();
    let found = contents(dir);
    assert_eq!(found.keys().cloned().collect::<Vec<_>>(), names);
    assert_eq!(found[SUCCESS_MARKER], b"");
    let mut manifest: Vec<String> = names
        .iter()
        .filter(|name| name.ends_with(".ndjson") || name.ends_with(".parquet"))
        .cloned()
        .collect();
    manifest.sort();
    assert_eq!(
        found[MANIFEST],
        manifest
            .iter()
            .map(|name| format!("{name}\n"))
            .collect::<String>()
            .into_bytes()
    );
    let path = |entity: &str| dir.join(format!("{entity}.{extension}"));
    let customers: Vec<Customer> = read(&path("Customer"), format);
    assert_eq!(sorted(customers), sorted(data.customers.clone()));
    let orders: Vec<Order> = read(&path("Order"), format);
    assert_eq!(sorted(orders), sorted(data.orders.clone()));
    let line_items: Vec<LineItem> = read(&path("LineItem"), format);
    assert_eq!(sorted(line_items), sorted(data.line_items.clone()));
    let products: Vec<Product> = read(&path("Product"), format);
    assert_eq!(sorted(products), sorted(data.products.clone()));
    let sessions: Vec<Session> = read(&path("Session"), format);
    assert_eq!(sorted(sessions), sorted(data.sessions.clone()));
    let unknown: Vec<serde_json::Value> = sorted(ndjson(&dir.join("_unknown.ndjson")));
    assert_eq!(
        unknown,
        [
            serde_json::json!({"PK": "COUPON#1", "SK": "X", "Type": "Coupon", "percent": 15}),
            serde_json::json!({"PK": "LEGACY#1", "SK": "X", "percent": 15}),
        ]
    );
}

/// The request the seed's first run is killed at: 1 to 14, so 13 and 14
/// (past its 12 requests) let it finish.
fn kill_point(seed: u64) -> usize {
    1 + (seed % (u64::from(SEGMENTS) + 2)) as usize
}

/// One seed: maybe an earlier complete export in the directory, a run
/// killed at `kill_point`, what it left, a run again, its output. Whether
/// the first run was killed.
async fn kill_and_rerun(table: &Table, data: &DataSet, seed: u64) -> bool {
    let format = match (seed / 14) % 2 {
        0 => ExportFormat::Ndjson,
        _ => ExportFormat::Parquet,
    };
    let dir = directory(&format!("export-kill-{seed}"));
    let earlier = if (seed / 28) % 2 == 1 {
        let outcome = export(&dir, format).run(table).await.unwrap();
        assert_complete(&dir, &outcome, data, format);
        contents(&dir)
    } else {
        BTreeMap::new()
    };

    let killer = common::KillAt::new(kill_point(seed));
    let killed_table = Table::new(killer.client(), table.name());
    let first = killer
        .run({
            let dir = dir.clone();
            async move { export(&dir, format).run(&killed_table).await }
        })
        .await;
    let killed = first.is_none();
    match first {
        Some(outcome) => {
            let outcome = outcome.unwrap_or_else(|error| panic!("seed {seed}: {error}"));
            assert_complete(&dir, &outcome, data, format);
        }
        None => {
            // Nothing a reader could take for a complete export: no marker,
            // and under a final name only the earlier export's files, whole
            // (the manifest names this run's files, the same as the earlier
            // run's: one format, one set of entities).
            let left = contents(&dir);
            assert!(!left.contains_key(SUCCESS_MARKER), "seed {seed}: {left:?}");
            let finals: BTreeMap<&String, &Vec<u8>> = left
                .iter()
                .filter(|(name, _)| !name.ends_with(PARTIAL_SUFFIX) && *name != MANIFEST)
                .collect();
            let earlier_files: BTreeMap<&String, &Vec<u8>> = earlier
                .iter()
                .filter(|(name, _)| *name != SUCCESS_MARKER && *name != MANIFEST)
                .collect();
            assert_eq!(finals, earlier_files, "seed {seed}");
        }
    }

    let outcome = export(&dir, format)
        .run(table)
        .await
        .unwrap_or_else(|error| panic!("seed {seed}: the run again fails: {error}"));
    assert_complete(&dir, &outcome, data, format);
    std::fs::remove_dir_all(&dir).unwrap();
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_killed_at_any_request_and_run_again_writes_every_item_once() {
    let (table, data) = loaded_for_long("export-kill").await;
    let (table, data) = (&table, &data);
    let runs: Vec<(u64, bool)> = futures::stream::iter(0..SEEDS)
        .map(|seed| async move { (seed, kill_and_rerun(table, data, seed).await) })
        .buffer_unordered(4)
        .collect()
        .await;
    assert_eq!(runs.len(), SEEDS as usize);
    // Killed at one of its 12 requests, the run stops; past them, it
    // finishes.
    for (seed, killed) in runs {
        let kill_point = kill_point(seed);
        let stops = kill_point <= SEGMENTS as usize;
        assert_eq!(killed, stops, "seed {seed}: killed at request {kill_point}");
    }
}

#[tokio::test]
async fn a_run_into_a_used_directory_drops_its_marker_first_and_a_stale_unknown_file() {
    let table = common::fresh_table("export-used-dir", &stamp_examples::table_definition()).await;
    let products = data::generate(data::SEED, SIZE).products;
    for product in &products {
        table.put(product).await.unwrap();
    }
    // An earlier export's files (one of unknown types, which this table
    // has none of), a killed run's partial file, and a file of the user's.
    let dir = directory("export-used-dir");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        (SUCCESS_MARKER, ""),
        ("Product.ndjson", "{\"sku\":\"OLD\"}\n"),
        ("Product.ndjson.partial", "{\"sku\":\"PART"),
        ("_unknown.ndjson", "{\"PK\":\"GONE#1\"}\n"),
        ("notes.txt", "mine"),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let marker = dir.join(SUCCESS_MARKER);
    let marked_while_running = Arc::new(AtomicBool::new(false));
    let seen = marked_while_running.clone();
    let outcome = Export::new(&dir)
        .entity::<Product>()
        .segments(3)
        .progress(move |_| {
            seen.fetch_or(marker.exists(), Ordering::SeqCst);
        })
        .run(&table)
        .await
        .unwrap();
    assert!(!marked_while_running.load(Ordering::SeqCst));
    assert_eq!(outcome.items("Product"), products.len() as u64);
    let found = contents(&dir);
    assert_eq!(
        found.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Product.ndjson", MANIFEST, SUCCESS_MARKER, "notes.txt"]
    );
    assert_eq!(found["notes.txt"], b"mine");
    let exported: Vec<Product> = ndjson(&dir.join("Product.ndjson"));
    assert_eq!(sorted(exported), sorted(products));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The requests of an export to S3 of the loaded table: two listings of
/// the prefix, 12 `Scan`s, one `PutObject` per entity and the unknown
/// types' (6), the marker's.
const S3_REQUESTS: usize = 2 + SEGMENTS as usize + 6 + 1;

/// The objects under `prefix` of `bucket` (keys without the prefix), each
/// with its body.
async fn objects(client: &S3Client, bucket: &str, prefix: &str) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    for key in super::s3::keys(client, bucket, prefix).await {
        let body = super::s3::body(client, bucket, &key).await;
        found.insert(key[prefix.len()..].to_owned(), body);
    }
    found
}

fn lines<T: DeserializeOwned + std::fmt::Debug>(bytes: &[u8]) -> Vec<T> {
    let text = std::str::from_utf8(bytes).unwrap();
    sorted(
        text.lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect(),
    )
}

/// The object `name` (`entity=<Type>/part-00000.ndjson`) holds every item
/// of its entity in `data`, once: an object under its final key is whole.
fn assert_whole(name: &str, bytes: &[u8], data: &DataSet, at: &str) {
    let entity = name
        .strip_prefix("entity=")
        .and_then(|rest| rest.split('/').next());
    match entity {
        Some("Customer") => assert_eq!(
            lines::<Customer>(bytes),
            sorted(data.customers.clone()),
            "{at}"
        ),
        Some("Order") => assert_eq!(lines::<Order>(bytes), sorted(data.orders.clone()), "{at}"),
        Some("LineItem") => assert_eq!(
            lines::<LineItem>(bytes),
            sorted(data.line_items.clone()),
            "{at}"
        ),
        Some("Product") => assert_eq!(
            lines::<Product>(bytes),
            sorted(data.products.clone()),
            "{at}"
        ),
        Some("Session") => assert_eq!(
            lines::<Session>(bytes),
            sorted(data.sessions.clone()),
            "{at}"
        ),
        Some("_unknown") => assert_eq!(lines::<serde_json::Value>(bytes).len(), 2, "{at}"),
        _ => panic!("{at}: an object {name}"),
    }
}

/// Under `prefix`: the six objects, whole, and the empty `_SUCCESS`.
fn assert_complete_s3(found: &BTreeMap<String, Vec<u8>>, data: &DataSet, at: &str) {
    let mut names: Vec<String> = ["Customer", "Order", "LineItem", "Product", "Session"]
        .iter()
        .map(|entity| format!("entity={entity}/part-00000.ndjson"))
        .chain([
            "entity=_unknown/part-00000.ndjson".to_owned(),
            SUCCESS_MARKER.to_owned(),
        ])
        .collect();
    names.sort();
    assert_eq!(found.keys().cloned().collect::<Vec<_>>(), names, "{at}");
    assert_eq!(found[SUCCESS_MARKER], b"", "{at}");
    for (name, bytes) in found.iter().filter(|(name, _)| *name != SUCCESS_MARKER) {
        assert_whole(name, bytes, data, at);
    }
}

/// One seed of the export to S3: killed at a request of either service,
/// then run again into the same prefix (refused once it holds an object)
/// and into a fresh one. Whether the first run was killed.
async fn kill_and_rerun_s3(table: &Table, data: &DataSet, bucket: &str, seed: u64) -> bool {
    let kill_at = 1 + (seed % (S3_REQUESTS as u64 + 1)) as usize;
    let at = format!("seed {seed}: killed at request {kill_at}");
    let endpoint = super::s3::s3_endpoint();
    let (client, _) = super::s3::s3_client_at(&endpoint);
    let to_s3 = |client: &S3Client, prefix: &str| {
        super::s3::reference(Export::to_s3(client.clone(), bucket, prefix))
            .segments(SEGMENTS)
            .concurrency(2)
    };
    let first = format!("seed-{seed}/first/");
    let killer = common::KillAt::new(kill_at);
    let killed_s3 = S3Client::from_conf(
        super::s3::s3_config(&endpoint)
            .interceptor(killer.clone())
            .build(),
    );
    let killed_table = Table::new(killer.client(), table.name());
    let export = to_s3(&killed_s3, &first);
    let run = killer
        .run(async move { export.run(&killed_table).await })
        .await;
    let left = objects(&client, bucket, &first).await;
    match &run {
        Some(outcome) => {
            outcome
                .as_ref()
                .unwrap_or_else(|error| panic!("{at}: {error}"));
            assert_complete_s3(&left, data, &at);
        }
        // Killed as it put the marker: the marker may be there, then
        // after every object.
        None if left.contains_key(SUCCESS_MARKER) => assert_complete_s3(&left, data, &at),
        // Else no marker, and only whole objects.
        None => {
            for (name, bytes) in &left {
                assert_whole(name, bytes, data, &at);
            }
        }
    }

    // The same prefix is refused once it holds an object; a fresh one has
    // every item once.
    let again = match to_s3(&client, &first).run(table).await {
        Ok(_) => {
            assert!(left.is_empty(), "{at}: ran again over {left:?}");
            first
        }
        Err(Error::Job(JobError::ExportObject {
            reason: ExportObjectReason::AlreadyExists,
            ..
        })) => {
            assert!(!left.is_empty(), "{at}");
            let fresh = format!("seed-{seed}/again/");
            to_s3(&client, &fresh)
                .run(table)
                .await
                .unwrap_or_else(|error| panic!("{at}: {error}"));
            fresh
        }
        Err(error) => panic!("{at}: {error}"),
    };
    assert_complete_s3(&objects(&client, bucket, &again).await, data, &at);
    run.is_none()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs S3: `cargo xtask test` runs it on ministack (STAMP_S3_ENDPOINT)"]
async fn export_s3_killed_at_any_request_leaves_no_marker_and_runs_again_into_a_fresh_prefix() {
    let (table, data) = loaded_for_long("export-kill-s3").await;
    let (_, _, bucket) = super::s3::fresh_bucket("export-kill").await;
    let (table, data, bucket) = (&table, &data, bucket.as_str());
    let runs: Vec<(u64, bool)> = futures::stream::iter(0..SEEDS)
        .map(|seed| async move { (seed, kill_and_rerun_s3(table, data, bucket, seed).await) })
        .buffer_unordered(4)
        .collect()
        .await;
    for (seed, killed) in runs {
        let kill_at = 1 + (seed % (S3_REQUESTS as u64 + 1)) as usize;
        assert_eq!(
            killed,
            kill_at <= S3_REQUESTS,
            "seed {seed}: killed at request {kill_at}"
        );
    }
}
