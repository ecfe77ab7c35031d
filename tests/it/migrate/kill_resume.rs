//! A migration killed anywhere, then resumed: over 100 seeds (25 on another server than the embedded one), the task
//! running `Migration::run` is killed at a seed-chosen request (sent, its
//! answer never read, nothing sent after, the task aborted, as a killed
//! process leaves it: `common::KillAt`), and a second run resumes from the
//! checkpoint file. Whatever the point, every item
//! ends at its new key exactly once with its attributes, none stays at its
//! old key, and nothing else is written.
//!
//! The entity is `players.rs`'s (shared with the units test): a migration needs a previous key
//! format, which the reference model does not have.

use std::collections::BTreeMap;

use stamp::{AttributeMap, BatchWrite, Entity, Table, TableDefinition, migrate::Migration};

use super::players::{Player, PlayerBefore, all_items, player, text};
use crate::common;

/// Items per seed.
const PLAYERS: u32 = 30;
/// Seeds: kill points spread over the whole run (each of the 24 kill
/// points about four times on the embedded server, once elsewhere).
fn seeds() -> u64 {
    common::repetitions(100, 25)
}

fn migration(checkpoint: &std::path::Path) -> Migration<Player> {
    Migration::<Player>::new()
        .segments(2)
        .concurrency(2)
        .group_size(4)
        .page_size(8)
        .checkpoint_file(checkpoint)
}

/// One seed: seed the old format, kill the first run at request
/// `kill_at`, resume, and check the final state. Whether the first run was
/// killed (a kill point past its last request lets it finish).
async fn kill_and_resume(seed: u64, kill_at: usize) -> bool {
    let definition = TableDefinition::new().entity::<Player>();
    let table = common::fresh_table(&format!("kill-resume-{seed}"), &definition).await;
    let before: Vec<PlayerBefore> = (0..PLAYERS).map(player).collect();
    BatchWrite::new()
        .put_all(&before)
        .send(&table)
        .await
        .expect("seed the old format");
    let checkpoint = std::env::temp_dir().join(format!(
        "stamp-kill-resume-{seed}-{}.json",
        uuid::Uuid::new_v4().simple()
    ));

    let killer = common::KillAt::new(kill_at);
    let killed_table = Table::new(killer.client(), table.name());
    let first = killer
        .run({
            let checkpoint = checkpoint.clone();
            async move { migration(&checkpoint).run(&killed_table).await }
        })
        .await;
    // A kill point past the run's last request lets it finish.
    let killed = match first {
        None => true,
        Some(finished) => {
            finished.unwrap_or_else(|error| panic!("seed {seed}: an unkilled run fails: {error}"));
            false
        }
    };

    let outcome = migration(&checkpoint)
        .run(&table)
        .await
        .unwrap_or_else(|error| panic!("seed {seed}: the resumed run fails: {error}"));
    assert!(
        outcome.conflicts.is_empty() && outcome.skipped.is_empty(),
        "seed {seed}: {outcome:?}"
    );

    let after = all_items(&table).await;
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
    let expected: Vec<u32> = (0..PLAYERS).collect();
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        expected,
        "seed {seed}"
    );
    for player_before in &before {
        let moved = &seen[&player_before.player_id];
        let mut old = player_before.to_item().unwrap();
        let mut new = moved.clone();
        for key in ["PK", "SK"] {
            old.remove(key);
            new.remove(key);
        }
        assert_eq!(new, old, "seed {seed}: the attributes travel unchanged");
    }
    let _ = std::fs::remove_file(&checkpoint);
    killed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_killed_at_any_request_and_resumed_moves_every_item_once() {
    use futures::StreamExt;
    // Kill points 1 to 24 (a whole run sends about 20 requests: its scans'
    // pages and its transactions), each about four times, with the
    // interleaving of two segments varying from seed to seed.
    let kill_point = |seed: u64| 1 + (seed % 24) as usize;
    let runs: Vec<(u64, bool)> = futures::stream::iter(0..seeds())
        .map(|seed| async move { (seed, kill_and_resume(seed, kill_point(seed)).await) })
        .buffer_unordered(4)
        .collect()
        .await;
    assert_eq!(runs.len() as u64, seeds());
    // A run sends at least 10 requests (2 segments' first scans and 8
    // transactions of 4 moves for 30 items), so a kill point up to 10 always
    // stops it before its end.
    for (seed, killed) in runs {
        if kill_point(seed) <= 10 {
            assert!(
                killed,
                "seed {seed}: killed at request {}",
                kill_point(seed)
            );
        }
    }
}
