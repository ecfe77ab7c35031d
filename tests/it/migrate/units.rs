//! A migration run in units (`Migration::run_segment`, one segment of N
//! each), as a runner outside Stamp spreads it over machines: 4 workers in
//! one process take units from a shared list; each run of a unit is killed
//! at a seed-chosen request (sent, its answer never read, nothing sent
//! after, the task aborted: `common::KillAt`) or finishes; a killed unit
//! goes back on the list and is run again by whichever worker takes it
//! (its own checkpoint file when the same worker does, none when another
//! one does: the checkpoint is an optimisation, the conditional moves are
//! the truth). Over many seeds, every item ends at its new key exactly
//! once with its attributes, none stays at its old key, and the final
//! `Migration::check` passes. A unit never run makes the check fail, typed.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use stamp::error::{JobError, QueryReason, Refusal};
use stamp::migrate::{Migration, MigrationCheck, ScanSegment};
use stamp::{AttributeMap, BatchWrite, Entity, Error, Table, TableDefinition};

use super::players::{Player, PlayerBefore, all_items, player, text};
use crate::common;

/// Items per seed.
const PLAYERS: u32 = 40;
/// The units of a job: segments of a parallel scan.
const UNITS: u32 = 8;
/// The workers that run them.
const WORKERS: usize = 4;

fn seeds() -> u64 {
    common::repetitions(24, 6)
}

/// A unit's migration: small pages and groups, so a unit sends several
/// requests (its scan's pages and its transactions) to be killed at.
fn migration() -> Migration<Player> {
    Migration::<Player>::new()
        .concurrency(2)
        .group_size(2)
        .page_size(4)
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

async fn seeded_table(test: &str) -> (Table, Vec<PlayerBefore>) {
    let definition = TableDefinition::new().entity::<Player>();
    let table = common::fresh_table(test, &definition).await;
    let before: Vec<PlayerBefore> = (0..PLAYERS).map(player).collect();
    BatchWrite::new()
        .put_all(&before)
        .send(&table)
        .await
        .expect("seed the old format");
    (table, before)
}

/// Every player at its new key exactly once, with its attributes; nothing
/// at an old key; nothing else (the existing kill test's checks).
async fn assert_moved_once(table: &Table, before: &[PlayerBefore], seed: u64) {
    let after = all_items(table).await;
    assert_eq!(
        after.len(),
        PLAYERS as usize,
        "seed {seed}: nothing lost or doubled"
    );
    let mut seen: BTreeMap<u32, AttributeMap> = BTreeMap::new();
    for item in after {
        assert!(
            text(&item, "PK").starts_with("TEAM#"),
            "seed {seed}: an item left at its old key: {item:?}"
        );
        let current = Player::from_item(item).expect("a current item decodes");
        assert!(
            seen.insert(current.player_id, current.to_item().unwrap())
                .is_none(),
            "seed {seed}: player {} twice",
            current.player_id
        );
    }
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        (0..PLAYERS).collect::<Vec<_>>(),
        "seed {seed}"
    );
    for player_before in before {
        let mut old = player_before.to_item().unwrap();
        let mut new = seen[&player_before.player_id].clone();
        for key in ["PK", "SK"] {
            old.remove(key);
            new.remove(key);
        }
        assert_eq!(new, old, "seed {seed}: the attributes travel unchanged");
    }
}

/// One seed: the units run by 4 workers, each run killed or not; then the
/// state and the check. How many runs were killed.
async fn run_by_workers(seed: u64) -> u64 {
    let (table, before) = seeded_table(&format!("migrate-units-{seed}")).await;
    let queue: Arc<Mutex<VecDeque<(ScanSegment, u32)>>> = Arc::new(Mutex::new(
        ScanSegment::all(UNITS).map(|unit| (unit, 0)).collect(),
    ));
    let rng = Arc::new(Mutex::new(Rng(seed)));
    // The units not yet run to their end.
    let left = Arc::new(AtomicUsize::new(UNITS as usize));
    let folder = std::env::temp_dir().join(format!(
        "stamp-migrate-units-{seed}-{}",
        uuid::Uuid::new_v4().simple()
    ));
    let workers = (0..WORKERS).map(|worker| {
        let queue = queue.clone();
        let rng = rng.clone();
        let left = left.clone();
        let table_name = table.name().to_owned();
        // Each worker's own disk: a unit run again by another worker
        // starts without the checkpoint of the killed run.
        let disk: PathBuf = folder.join(format!("worker-{worker}"));
        async move {
            std::fs::create_dir_all(&disk).unwrap();
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
                // A unit is killed at most 3 times, then runs to its end.
                let kill_at = match kills {
                    0..=2 => 1 + rng.lock().unwrap().below(9) as usize,
                    _ => usize::MAX,
                };
                let killer = common::KillAt::new(kill_at);
                let killed_table = Table::new(killer.client(), &table_name);
                let checkpoint = disk.join(format!("{}.json", unit.name()));
                let run = killer
                    .run(async move {
                        migration()
                            .checkpoint_file(checkpoint)
                            .run_segment(&killed_table, unit)
                            .await
                    })
                    .await;
                match run {
                    None => {
                        killed += 1;
                        queue.lock().unwrap().push_back((unit, kills + 1));
                    }
                    Some(outcome) => {
                        let outcome = outcome.unwrap_or_else(|error| {
                            panic!("seed {seed}: unit {unit} fails: {error}")
                        });
                        assert!(
                            outcome.conflicts.is_empty() && outcome.skipped.is_empty(),
                            "seed {seed}: {outcome:?}"
                        );
                        assert_eq!(outcome.progress.total_segments, UNITS);
                        left.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            }
        }
    });
    let killed: u64 = futures::future::join_all(workers).await.into_iter().sum();
    assert_moved_once(&table, &before, seed).await;
    let check = migration()
        .segments(3)
        .check(&table)
        .await
        .unwrap_or_else(|error| panic!("seed {seed}: the check fails: {error}"));
    assert_eq!(
        check,
        MigrationCheck {
            scanned: u64::from(PLAYERS),
            current: u64::from(PLAYERS),
            unmovable: 0,
        },
        "seed {seed}"
    );
    let _ = std::fs::remove_dir_all(&folder);
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_run_in_units_by_four_workers_killed_anywhere_moves_every_item_once() {
    use futures::StreamExt;
    let killed: Vec<u64> = futures::stream::iter(0..seeds())
        .map(run_by_workers)
        .buffer_unordered(2)
        .collect()
        .await;
    assert_eq!(killed.len() as u64, seeds());
    // Kill points 1 to 9 over units of about 4 to 6 requests: most seeds
    // kill some runs.
    assert!(
        killed.iter().filter(|&&runs| runs > 0).count() as u64 >= seeds() / 2,
        "{killed:?}"
    );
}

#[tokio::test]
async fn the_check_of_a_migration_with_a_unit_never_run_fails_with_the_items_left() {
    let (table, before) = seeded_table("migrate-units-missing").await;
    for unit in ScanSegment::all(UNITS).filter(|unit| unit.index != 5) {
        migration().run_segment(&table, unit).await.unwrap();
    }
    let left: Vec<AttributeMap> = all_items(&table)
        .await
        .into_iter()
        .filter(|item| text(item, "PK").starts_with("PLAYER#"))
        .collect();
    assert!(!left.is_empty(), "segment 5 of 8 holds some of 40 items");
    match migration().check(&table).await {
        Err(Error::Job(JobError::MigrationIncomplete {
            entity,
            remaining,
            first,
        })) => {
            assert_eq!(entity, "Player");
            assert_eq!(remaining, left.len() as u64);
            assert!(
                left.iter().any(|item| first.to_string()
                    == format!("PK={}, SK={}", text(item, "PK"), text(item, "SK"))),
                "{first} is one of the items left"
            );
        }
        other => panic!("{other:?}"),
    }
    // The missing unit, run, completes the job.
    migration()
        .run_segment(&table, ScanSegment::new(5, UNITS))
        .await
        .unwrap();
    assert_moved_once(&table, &before, 0).await;
    assert_eq!(
        migration().check(&table).await.unwrap().current,
        u64::from(PLAYERS)
    );
}

#[tokio::test]
async fn a_segment_dynamodb_does_not_have_is_refused_before_any_request() {
    let (table, _) = seeded_table("migrate-units-refused").await;
    for unit in [
        ScanSegment::new(8, 8),
        ScanSegment::new(0, 0),
        ScanSegment::new(0, 1_000_001),
    ] {
        let counter = common::KillAt::new(usize::MAX);
        let counted = Table::new(counter.client(), table.name());
        match migration().run_segment(&counted, unit).await {
            Err(Error::Refused(Refusal::InvalidQuery {
                reason: QueryReason::ScanSegment { segment, segments },
            })) => assert_eq!((segment, segments), (unit.index, unit.of)),
            other => panic!("{unit}: {other:?}"),
        }
        assert_eq!(counter.sent(), 0, "{unit}: nothing sent");
    }
}
