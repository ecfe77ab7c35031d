//! A change-feed consumer killed anywhere, then resumed from its saved
//! checkpoint: over 100 seeds, a consumer of 10 changes is killed at a
//! seed-chosen request of its own (reading its checkpoint, `DescribeTable`,
//! `DescribeStream`, `GetShardIterator`, `GetRecords`, an effect, a
//! checkpoint save): the request is sent (the server may apply it), no
//! answer reaches the consumer and nothing after leaves it, its task is
//! aborted (`common::KillAt`). A new consumer resumes from the checkpoint
//! saved last. Each seed runs two consumers of one stream:
//!
//! - **apart**: each change's effect in a request of its own, the
//!   checkpoint saved after every `batch` changes (1 to 4). The contract
//!   (`ChangeFeed`'s docs): no change is lost, the resumed feed returns
//!   exactly the changes after the saved checkpoint, and those the killed
//!   consumer had handled since take effect again (at-least-once between
//!   checkpoints), never one before it;
//! - **together**: the effects of `batch` changes and the checkpoint in
//!   one `TransactWriteItems`: every change takes effect exactly once.
//!
//! The effect is a `list_append` of the change's event id to the run's log,
//! which is not idempotent: a change handled twice is in the log twice.
//! Each checkpoint save is conditioned on the one it replaces, so a save
//! of the killed consumer that the server applies late (the request was
//! sent) cannot overwrite a newer one: the resumed consumer then sees a
//! conflict and starts again from the checkpoint saved.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::types::StreamViewType;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use stamp::streams::{ChangeKind, Checkpoint, StreamsClient};
use stamp::{Condition, Entity, Error, Get, Put, Table, TableDefinition, TransactWrite};
use stamp_examples::{Customer, CustomerWithOrders, Order, OrderStatus};

use super::change_feed::{customer, order, put_plain};
use crate::common;

/// A run's effects: the event id of each change, once per handling.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "RUN#<run>"]
#[sk = "LOG"]
struct Log {
    run: String,
    applied: Vec<String>,
}

/// A run's saved checkpoint, and how many changes it counts.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "RUN#<run>"]
#[sk = "CHECKPOINT"]
struct Saved {
    run: String,
    checkpoint: String,
    handled: u32,
}

const SEEDS: u64 = 100;
/// The changes each seed writes.
const CHANGES: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Apart,
    Together,
}

/// What one consumer run saw, kept outside it (a kill does not lose it):
/// how many changes the checkpoint it read counts, and the event id of each
/// change the feed returned.
#[derive(Debug, Default)]
struct Seen {
    from: usize,
    delivered: Vec<String>,
}

/// The consumer: reads the run's saved checkpoint, resumes the feed after
/// it (from the oldest record without one), and handles changes as they
/// come (`ChangeFeed::next`, which waits past empty pages) until it has
/// handled the stream's 10 (a real consumer goes on). A failed checkpoint
/// condition (a save of a killed run applied late) is an error: run it
/// again.
async fn consume(
    source: &Table,
    sink: &Table,
    streams: StreamsClient,
    (run, mode, batch): (&str, Mode, usize),
    seen: &Mutex<Seen>,
) -> Result<(), Error> {
    let saved = Get::new(Saved::key(run)?)
        .consistent_read()
        .send(sink)
        .await?;
    let mut feed = source
        .changes::<CustomerWithOrders>(streams)
        .idle_backoff(Duration::from_millis(5), Duration::from_millis(50));
    let mut handled = 0;
    if let Some(saved) = saved {
        feed = feed.resume(Checkpoint::from_json(&saved.checkpoint)?);
        handled = saved.handled;
    }
    seen.lock().unwrap().from = handled as usize;
    let mut pending: Vec<String> = Vec::new();
    while (handled as usize) < CHANGES {
        let change = feed.next().await?.expect("the stream is on");
        seen.lock().unwrap().delivered.push(change.event_id.clone());
        pending.push(change.event_id);
        if mode == Mode::Apart {
            let effect = Log::update(run).append(Log::APPLIED, &pending[pending.len() - 1..]);
            effect.send(sink).await?;
        }
        if pending.len() == batch || handled as usize + pending.len() == CHANGES {
            let next = Saved {
                run: run.to_owned(),
                checkpoint: feed.checkpoint().expect("started").to_json(),
                handled: handled + pending.len() as u32,
            };
            let replaces = match handled {
                0 => Condition::attribute_not_exists("PK"),
                handled => Saved::HANDLED.eq(&handled),
            };
            let save = Put::new(&next).condition(replaces);
            match mode {
                Mode::Apart => save.send(sink).await?,
                Mode::Together => {
                    TransactWrite::new()
                        .update(Log::update(run).append(Log::APPLIED, &pending))
                        .put(save)
                        .send(sink)
                        .await?
                }
            }
            handled = next.handled;
            pending.clear();
        }
    }
    Ok(())
}

/// The fewest requests of an unkilled run from the start: reading the
/// checkpoint, `DescribeTable`, `DescribeStream`, `GetShardIterator`, one
/// `GetRecords` at least, the effects and the saves (the last request).
fn requests(mode: Mode, batch: usize) -> usize {
    let saves = CHANGES.div_ceil(batch);
    5 + saves + if mode == Mode::Apart { CHANGES } else { 0 }
}

/// A fresh table with a stream, and the 10 changes that every seed's
/// consumers read (each run keeps its own checkpoint and log): four
/// customers and three orders put, two customers renamed, an order
/// deleted.
async fn ten_changes() -> Table {
    let definition = TableDefinition::new()
        .entity::<Customer>()
        .entity::<Order>()
        .stream(StreamViewType::NewAndOldImages);
    let table = common::fresh_table("feed-kill", &definition).await;
    for n in 0..4 {
        put_plain(&table, &customer(&format!("c-{n}"), "First")).await;
    }
    let orders: Vec<Order> = (0..3)
        .map(|n| order(&format!("c-{}", n % 2), n, Some(OrderStatus::Pending)))
        .collect();
    for order in &orders {
        table.put(order).await.unwrap();
    }
    for n in [1, 3] {
        put_plain(&table, &customer(&format!("c-{n}"), "Renamed")).await;
    }
    table
        .delete(&orders[2].primary_key().unwrap())
        .await
        .unwrap();
    table
}

/// The event ids of every change of `source`'s stream, in order, read by a
/// consumer nobody kills: the 10 writes' changes.
async fn every_change(source: &Table) -> Vec<String> {
    let mut feed = source
        .changes::<CustomerWithOrders>(stamp::local::streams_client(&common::endpoint()))
        .idle_backoff(Duration::from_millis(5), Duration::from_millis(50));
    let (mut kinds, mut ids) = (Vec::new(), Vec::new());
    for _ in 0..CHANGES {
        let change = tokio::time::timeout(Duration::from_secs(10), feed.next())
            .await
            .expect("a change within 10 s")
            .unwrap()
            .unwrap();
        kinds.push(change.kind);
        ids.push(change.event_id);
    }
    assert!(feed.next_ready().await.unwrap().is_none(), "10 changes");
    let mut expected = vec![ChangeKind::Insert; 7];
    expected.extend([ChangeKind::Modify; 2]);
    expected.push(ChangeKind::Remove);
    assert_eq!(kinds, expected);
    ids
}

/// What took effect, by the log: with the checkpoint saved together, each
/// change once in order; apart, the killed run's effects (but perhaps its
/// last change's: the kill may have stopped that request), then the resumed
/// runs', and none before the first resumed run's checkpoint twice.
fn assert_effects(
    log: &[String],
    expected: &[String],
    mode: Mode,
    killed: &Seen,
    runs: &[Seen],
    at: &str,
) {
    if mode == Mode::Together {
        assert_eq!(log, expected, "{at}: each change once, in order");
        return;
    }
    let mut found = log.to_vec();
    found.sort();
    let effects = |killed_applied: usize| {
        let mut effects: Vec<String> = killed.delivered[..killed_applied]
            .iter()
            .chain(runs.iter().flat_map(|run| &run.delivered))
            .cloned()
            .collect();
        effects.sort();
        effects
    };
    let handled = killed.delivered.len();
    assert!(
        found == effects(handled) || found == effects(handled.saturating_sub(1)),
        "{at}: {log:?}"
    );
    for id in &expected[..runs[0].from] {
        let times = log.iter().filter(|applied| *applied == id).count();
        assert_eq!(times, 1, "{at}: {id}, before the checkpoint");
    }
}

/// What the resumed runs of one consumer saw, and how many of its changes
/// took effect twice.
struct Resumed {
    runs: Vec<Seen>,
    twice: usize,
}

/// One consumer of the seed's stream: killed at a seed-chosen request,
/// then resumed (again after a conflict) until it has read the stream;
/// checks what the feed returned and what took effect.
async fn kill_and_resume(
    source: &Table,
    sink: &Table,
    expected: &[String],
    seed: u64,
    mode: Mode,
) -> Resumed {
    let batch = 1 + (seed % 4) as usize;
    let total = requests(mode, batch) as u64;
    let kill_at = 1 + ((seed * 7 + mode as u64 * 3) % total) as usize;
    let at = format!("seed {seed}, {mode:?}, batch {batch}, killed at request {kill_at}");
    let run = format!("{seed}-{mode:?}");
    let log = Log {
        run: run.clone(),
        applied: Vec::new(),
    };
    sink.put(&log).await.unwrap();

    let killer = common::KillAt::new(kill_at);
    let killed = Arc::new(Mutex::new(Seen::default()));
    let first = killer
        .run({
            let source = Table::new(killer.client(), source.name());
            let sink = Table::new(killer.client(), sink.name());
            let streams = killer.streams_client();
            let (killed, run) = (killed.clone(), run.clone());
            async move { consume(&source, &sink, streams, (&run, mode, batch), &killed).await }
        })
        .await;
    assert!(first.is_none(), "{at}: not killed: {first:?}");
    let killed = std::mem::take(&mut *killed.lock().unwrap());
    let handled = killed.delivered.len();
    assert_eq!(killed.delivered, expected[..handled], "{at}");

    let mut runs: Vec<Seen> = Vec::new();
    loop {
        let seen = Mutex::new(Seen::default());
        let streams = stamp::local::streams_client(&common::endpoint());
        let resumed = consume(source, sink, streams, (&run, mode, batch), &seen);
        let result = tokio::time::timeout(Duration::from_secs(30), resumed)
            .await
            .unwrap_or_else(|_| panic!("{at}: the resumed run reads no change in 30 s"));
        let seen = seen.into_inner().unwrap();
        // Only changes after the checkpoint read, in order, none skipped.
        let after = &expected[seen.from..seen.from + seen.delivered.len()];
        assert_eq!(seen.delivered, after, "{at}");
        runs.push(seen);
        match result {
            Ok(()) => break,
            Err(Error::ConditionFailed { .. } | Error::TransactionCanceled { .. })
                if runs.len() < 3 => {}
            Err(error) => panic!("{at}: the resumed run fails: {error}"),
        }
    }
    let last = runs.last().unwrap();
    assert_eq!(
        last.delivered,
        expected[last.from..],
        "{at}: every change after the checkpoint"
    );
    assert!(
        runs[0].from <= handled,
        "{at}: the checkpoint counts only changes handled"
    );
    let saved = Get::new(Saved::key(&run).unwrap())
        .consistent_read()
        .send(sink)
        .await;
    assert_eq!(saved.unwrap().unwrap().handled as usize, CHANGES, "{at}");
    let log = Get::new(Log::key(&run).unwrap())
        .consistent_read()
        .send(sink)
        .await;
    let log = log.unwrap().unwrap().applied;
    assert_effects(&log, expected, mode, &killed, &runs, &at);
    Resumed {
        twice: log.len() - CHANGES,
        runs,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_consumer_resumed_loses_no_change_and_repeats_none_before_its_checkpoint() {
    let sink_definition = TableDefinition::new().entity::<Log>().entity::<Saved>();
    let sink = common::fresh_table("feed-kill-sink", &sink_definition).await;
    let source = ten_changes().await;
    let expected = every_change(&source).await;
    let (source, sink, expected) = (&source, &sink, &expected);
    let seeds: Vec<(u64, Resumed, Resumed)> = futures::stream::iter(0..SEEDS)
        .map(|seed| async move {
            let apart = kill_and_resume(source, sink, expected, seed, Mode::Apart).await;
            let together = kill_and_resume(source, sink, expected, seed, Mode::Together).await;
            (seed, apart, together)
        })
        .buffer_unordered(4)
        .collect()
        .await;
    assert_eq!(seeds.len(), SEEDS as usize);
    for (seed, _, together) in &seeds {
        assert_eq!(
            together.twice, 0,
            "seed {seed}: exactly once when saved together"
        );
    }
    // Apart, a kill between an effect and its checkpoint repeats changes
    // (at-least-once), at most the batch since the last save.
    let repeated = seeds.iter().filter(|(_, apart, _)| apart.twice > 0).count();
    assert!(repeated > 0, "no seed repeated a change");
    for (seed, apart, _) in &seeds {
        assert!(
            apart.twice <= 1 + (*seed % 4) as usize,
            "seed {seed}: {} twice",
            apart.twice
        );
    }
    let resumed_again = seeds
        .iter()
        .flat_map(|(_, apart, together)| [apart, together])
        .filter(|resumed| resumed.runs.len() > 1)
        .count();
    println!(
        "{repeated} of {SEEDS} seeds repeated changes apart; {resumed_again} resumed runs met a late save"
    );
}
