//! An export run in units (`Export::run_segment`, one segment of N each,
//! into its own folder `segment-i-of-N/`), as a runner outside Stamp
//! spreads it over machines: 4 workers in one process take units from a
//! shared list; each run of a unit is killed at its request (sent, its
//! answer never read, nothing sent after, the task aborted:
//! `common::KillAt`) or finishes, seed by seed; a killed unit goes back on
//! the list and is run again by whichever worker takes it. Some seeds
//! start over an earlier complete run of the same job (checked, marked
//! complete). Whatever the kills, `Export::check_segments` then passes, and
//! the unit folders hold every item exactly once; a unit killed leaves no
//! `_SUCCESS` in its folder nor in the export's. A unit never run, or a
//! folder of another segment count, makes the check fail, typed.

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use stamp::error::{ExportReason, JobError};
use stamp::export::{Export, ExportFormat, MANIFEST, PARTIAL_SUFFIX, SUCCESS_MARKER, ScanSegment};
use stamp::{Error, Table};
use stamp_examples::data::DataSet;
use stamp_examples::{Customer, LineItem, Order, Product, Session};

use super::files::{directory, ndjson, sorted};
use super::kill_resume::{loaded_for_long, read};
use crate::common;

/// The units of a job: segments of a parallel scan, one `Scan` each.
const UNITS: u32 = 6;
/// The workers that run them.
const WORKERS: usize = 4;
const ENTITIES: [&str; 5] = ["Customer", "Order", "LineItem", "Product", "Session"];

fn seeds() -> u64 {
    common::repetitions(24, 6)
}

fn export(dir: &Path, format: ExportFormat) -> Export {
    stamp_examples::export::export(dir, format)
}

/// A deterministic stream of numbers from a seed (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % bound
    }
}

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// The items of `entity` in every unit folder, read in `format`.
fn gathered<T: serde::de::DeserializeOwned>(
    dir: &Path,
    entity: &str,
    format: ExportFormat,
) -> Vec<T> {
    ScanSegment::all(UNITS)
        .flat_map(|unit| {
            read::<T>(
                &dir.join(unit.name())
                    .join(format!("{entity}.{}", format.extension())),
                format,
            )
        })
        .collect()
}

/// The job's output: exactly the unit folders and `_SUCCESS`; each folder
/// a complete export of its segment (its entity files, `_MANIFEST`,
/// `_SUCCESS`, the unknown types' file when it had any, no `.partial`);
/// every item of the table in exactly one folder.
fn assert_complete(dir: &Path, data: &DataSet, format: ExportFormat, seed: u64) {
    let expected: BTreeSet<String> = ScanSegment::all(UNITS)
        .map(|unit| unit.name())
        .chain([SUCCESS_MARKER.to_owned()])
        .collect();
    assert_eq!(names(dir), expected, "seed {seed}");
    let mut unknown: Vec<serde_json::Value> = Vec::new();
    for unit in ScanSegment::all(UNITS) {
        let folder = dir.join(unit.name());
        let found = names(&folder);
        let mut own: BTreeSet<String> = ENTITIES
            .iter()
            .map(|entity| format!("{entity}.{}", format.extension()))
            .chain([MANIFEST.to_owned(), SUCCESS_MARKER.to_owned()])
            .collect();
        if found.contains("_unknown.ndjson") {
            own.insert("_unknown.ndjson".to_owned());
            unknown.extend(ndjson::<serde_json::Value>(&folder.join("_unknown.ndjson")));
        }
        assert_eq!(found, own, "seed {seed}: unit {unit}");
        assert!(
            found.iter().all(|name| !name.ends_with(PARTIAL_SUFFIX)),
            "seed {seed}"
        );
    }
    let customers: Vec<Customer> = gathered(dir, "Customer", format);
    assert_eq!(
        sorted(customers),
        sorted(data.customers.clone()),
        "seed {seed}"
    );
    let orders: Vec<Order> = gathered(dir, "Order", format);
    assert_eq!(sorted(orders), sorted(data.orders.clone()), "seed {seed}");
    let line_items: Vec<LineItem> = gathered(dir, "LineItem", format);
    assert_eq!(
        sorted(line_items),
        sorted(data.line_items.clone()),
        "seed {seed}"
    );
    let products: Vec<Product> = gathered(dir, "Product", format);
    assert_eq!(
        sorted(products),
        sorted(data.products.clone()),
        "seed {seed}"
    );
    let sessions: Vec<Session> = gathered(dir, "Session", format);
    assert_eq!(
        sorted(sessions),
        sorted(data.sessions.clone()),
        "seed {seed}"
    );
    assert_eq!(
        sorted(unknown),
        [
            serde_json::json!({"PK": "COUPON#1", "SK": "X", "Type": "Coupon", "percent": 15}),
            serde_json::json!({"PK": "LEGACY#1", "SK": "X", "percent": 15}),
        ],
        "seed {seed}"
    );
}

/// One seed: perhaps an earlier complete run of the job, then the units
/// run by 4 workers, each run killed or not; then the check and the
/// output. How many runs were killed.
async fn run_by_workers(table: &Table, data: &DataSet, seed: u64) -> u64 {
    let format = match seed % 2 {
        0 => ExportFormat::Ndjson,
        _ => ExportFormat::Parquet,
    };
    let dir = directory(&format!("export-units-{seed}"));
    if seed % 3 == 1 {
        for unit in ScanSegment::all(UNITS) {
            export(&dir, format).run_segment(table, unit).await.unwrap();
        }
        export(&dir, format).check_segments(UNITS).unwrap();
        assert_complete(&dir, data, format, seed);
    }
    let queue: Arc<Mutex<VecDeque<(ScanSegment, u32)>>> = Arc::new(Mutex::new(
        ScanSegment::all(UNITS).map(|unit| (unit, 0)).collect(),
    ));
    let left = Arc::new(AtomicUsize::new(UNITS as usize));
    let rng = Arc::new(Mutex::new(Rng(seed)));
    let workers = (0..WORKERS).map(|_| {
        let (queue, left, rng, dir) = (queue.clone(), left.clone(), rng.clone(), dir.clone());
        let table_name = table.name().to_owned();
        async move {
            let mut killed = 0;
            loop {
                if left.load(Ordering::SeqCst) == 0 {
                    return killed;
                }
                let Some((unit, kills)) = queue.lock().unwrap().pop_front() else {
                    // Another worker may still put a killed unit back.
                    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                    continue;
                };
                // Killed at its one `Scan` (1) or not (2); at most 3 times.
                let kill_at = match kills {
                    0..=2 => 1 + rng.lock().unwrap().below(2) as usize,
                    _ => usize::MAX,
                };
                let killer = common::KillAt::new(kill_at);
                let killed_table = Table::new(killer.client(), &table_name);
                let run = killer
                    .run({
                        let dir = dir.clone();
                        async move { export(&dir, format).run_segment(&killed_table, unit).await }
                    })
                    .await;
                match run {
                    None => {
                        killed += 1;
                        // Nothing a reader could take for complete.
                        assert!(!dir.join(SUCCESS_MARKER).exists(), "seed {seed}");
                        assert!(
                            !dir.join(unit.name()).join(SUCCESS_MARKER).exists(),
                            "seed {seed}: unit {unit}"
                        );
                        queue.lock().unwrap().push_back((unit, kills + 1));
                    }
                    Some(outcome) => {
                        let outcome = outcome.unwrap_or_else(|error| {
                            panic!("seed {seed}: unit {unit} fails: {error}")
                        });
                        assert_eq!(
                            outcome
                                .files
                                .iter()
                                .map(|file| file.path.parent().unwrap().to_path_buf())
                                .collect::<BTreeSet<_>>(),
                            BTreeSet::from([dir.join(unit.name())]),
                            "seed {seed}"
                        );
                        left.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            }
        }
    });
    let killed: u64 = futures::future::join_all(workers).await.into_iter().sum();
    let check = export(&dir, format)
        .check_segments(UNITS)
        .unwrap_or_else(|error| panic!("seed {seed}: the check fails: {error}"));
    assert_eq!(
        check.units,
        ScanSegment::all(UNITS)
            .map(|unit| dir.join(unit.name()))
            .collect::<Vec<_>>()
    );
    assert_eq!(check.marker, dir.join(SUCCESS_MARKER));
    assert_eq!(std::fs::read(&check.marker).unwrap(), b"");
    assert_complete(&dir, data, format, seed);
    std::fs::remove_dir_all(&dir).unwrap();
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_run_in_units_by_four_workers_killed_anywhere_writes_every_item_once() {
    use futures::StreamExt;
    let (table, data) = loaded_for_long("export-units").await;
    let (table, data) = (&table, &data);
    let killed: Vec<u64> = futures::stream::iter(0..seeds())
        .map(|seed| run_by_workers(table, data, seed))
        .buffer_unordered(2)
        .collect()
        .await;
    assert_eq!(killed.len() as u64, seeds());
    assert!(
        killed.iter().filter(|&&runs| runs > 0).count() as u64 >= seeds() / 2,
        "{killed:?}"
    );
}

#[tokio::test]
async fn the_check_of_an_export_with_a_unit_never_run_or_of_another_count_fails() {
    let (table, data) = loaded_for_long("export-units-missing").await;
    let dir = directory("export-units-missing");
    let format = ExportFormat::Ndjson;
    for unit in ScanSegment::all(UNITS).filter(|unit| unit.index != 2) {
        export(&dir, format)
            .run_segment(&table, unit)
            .await
            .unwrap();
    }
    match export(&dir, format).check_segments(UNITS) {
        Err(Error::Job(JobError::ExportIncomplete {
            location,
            missing,
            stray,
        })) => {
            assert_eq!(location, dir.display().to_string());
            assert_eq!(missing, [ScanSegment::new(2, UNITS)]);
            assert!(stray.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert!(!dir.join(SUCCESS_MARKER).exists());
    // A unit of another count beside them: its items would be read twice.
    export(&dir, format)
        .run_segment(&table, ScanSegment::new(2, UNITS))
        .await
        .unwrap();
    export(&dir, format)
        .run_segment(&table, ScanSegment::new(0, 3))
        .await
        .unwrap();
    match export(&dir, format).check_segments(UNITS) {
        Err(Error::Job(JobError::ExportIncomplete { missing, stray, .. })) => {
            assert!(missing.is_empty());
            assert_eq!(stray, ["segment-0-of-3"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(!dir.join(SUCCESS_MARKER).exists());
    std::fs::remove_dir_all(dir.join("segment-0-of-3")).unwrap();
    export(&dir, format).check_segments(UNITS).unwrap();
    assert_complete(&dir, &data, format, 0);
    // A unit run again un-marks the job until the next check.
    export(&dir, format)
        .run_segment(&table, ScanSegment::new(4, UNITS))
        .await
        .unwrap();
    assert!(!dir.join(SUCCESS_MARKER).exists());
    export(&dir, format).check_segments(UNITS).unwrap();
    assert_complete(&dir, &data, format, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn units_out_of_range_or_to_s3_are_refused_before_any_request() {
    let counter = common::KillAt::new(usize::MAX);
    let table = Table::new(counter.client(), "stamp-export-units-refused");
    let dir = directory("export-units-refused");
    for unit in [ScanSegment::new(6, 6), ScanSegment::new(0, 0)] {
        match export(&dir, ExportFormat::Ndjson)
            .run_segment(&table, unit)
            .await
        {
            Err(Error::Refused(stamp::error::Refusal::InvalidQuery {
                reason: stamp::error::QueryReason::ScanSegment { segment, segments },
            })) => assert_eq!((segment, segments), (unit.index, unit.of)),
            other => panic!("{unit}: {other:?}"),
        }
    }
    match export(&dir, ExportFormat::Ndjson).check_segments(0) {
        Err(Error::Job(JobError::InvalidExport {
            reason: ExportReason::Segments { segments, limit },
        })) => assert_eq!((segments, limit), (0, 1_000_000)),
        other => panic!("{other:?}"),
    }
    let (s3, s3_requests) = super::s3::s3_client_at("http://127.0.0.1:9");
    let to_s3 = || Export::to_s3(s3.clone(), "bucket", "shop").entity::<Product>();
    match to_s3().run_segment(&table, ScanSegment::new(0, 2)).await {
        Err(Error::Job(JobError::InvalidExport {
            reason: ExportReason::SegmentsToS3,
        })) => {}
        other => panic!("{other:?}"),
    }
    match to_s3().check_segments(2) {
        Err(Error::Job(JobError::InvalidExport {
            reason: ExportReason::SegmentsToS3,
        })) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(counter.sent(), 0);
    assert!(s3_requests.operations().is_empty());
    assert!(!dir.exists(), "nothing written");
}
