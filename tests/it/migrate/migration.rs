//! Key migrations against the local server: 5,000 items in the previous key
//! format, a migration that crashes halfway (an SDK interceptor cuts the
//! connection after N transactions, the last one applied but its answer
//! lost), a resumed run from the checkpoint file, and then every item
//! exactly once, at its new key, with identical attributes, found by a
//! query of the new key. Also conflicts, items changed between the scan and
//! the move, items in neither format, and the previous-format key helpers.

use crate::common;
use stamp::AttributeMap;
use stamp::error::{JobError, Refusal};

use stamp::BatchWrite;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeSerializationInterceptorContextMut,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use chrono::{DateTime, Duration, Utc};
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Entity, Error, Table, TableDefinition, migrate::Migration};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Address {
    city: String,
    zip: String,
}

/// A member, now grouped under its tenant; it used to be one partition per
/// member.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TENANT#<tenant>"]
#[sk = "MEMBER#<member_id>"]
#[gsi1(pk = "NAME#<name>", sk = "<joined>")]
#[stamp(previous(pk = "MEMBER#<member_id>", sk = "PROFILE"))]
struct Member {
    tenant: String,
    member_id: u32,
    name: String,
    tags: Vec<String>,
    score: Option<i64>,
    joined: DateTime<Utc>,
    address: Address,
}

/// The same entity as the code before the change wrote it.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "MEMBER#<member_id>"]
#[sk = "PROFILE"]
#[gsi1(pk = "NAME#<name>", sk = "<joined>")]
#[stamp(type_name = "Member")]
struct MemberBefore {
    tenant: String,
    member_id: u32,
    name: String,
    tags: Vec<String>,
    score: Option<i64>,
    joined: DateTime<Utc>,
    address: Address,
}

/// An entity without a previous format.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TENANT#<tenant>"]
#[sk = "SETTINGS"]
struct Settings {
    tenant: String,
}

const TENANTS: u32 = 50;

/// Transactions in flight: more than one, so that moves overlap as they do
/// on DynamoDB.
const CONCURRENCY: usize = 4;

fn member(number: u32) -> MemberBefore {
    let base: DateTime<Utc> = "2026-01-01T00:00:00Z".parse().unwrap();
    MemberBefore {
        tenant: format!("t-{:02}", number % TENANTS),
        member_id: number,
        name: format!("Member {number}"),
        tags: (0..number % 3).map(|tag| format!("tag-{tag}")).collect(),
        score: (!number.is_multiple_of(4)).then(|| i64::from(number) * 7 - 1_000),
        joined: base + Duration::minutes(i64::from(number)),
        address: Address {
            city: ["Lyon", "Oslo", "Lima"][(number % 3) as usize].into(),
            zip: format!("{:05}", number * 13 % 100_000),
        },
    }
}

fn current(before: &MemberBefore) -> Member {
    Member {
        tenant: before.tenant.clone(),
        member_id: before.member_id,
        name: before.name.clone(),
        tags: before.tags.clone(),
        score: before.score,
        joined: before.joined,
        address: before.address.clone(),
    }
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Member>()
        .entity::<Settings>()
}

fn checkpoint_path(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "stamp-{test}-{}.checkpoint.json",
        uuid::Uuid::new_v4().simple()
    ))
}

/// Every item of the table, as stored.
async fn all_items(table: &Table) -> Vec<AttributeMap> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let output = table
            .client()
            .scan()
            .table_name(table.name())
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        items.extend(output.items.unwrap_or_default());
        match output.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return items,
        }
    }
}

fn text(item: &AttributeMap, name: &str) -> String {
    match item.get(name) {
        Some(AttributeValue::S(value)) => value.clone(),
        other => panic!("{name} is {other:?}"),
    }
}

fn without_keys(mut item: AttributeMap) -> AttributeMap {
    item.remove("PK");
    item.remove("SK");
    item
}

/// Marks the one call whose answer the injector replaces.
#[derive(Debug, Clone)]
struct LoseAnswer;

impl Storable for LoseAnswer {
    type Storer = StoreReplace<Self>;
}

/// Lets `limit` `TransactWriteItems` through, then "crashes": transaction
/// `limit + 1` reaches the server (and is applied) but its answer is
/// replaced by a 500, and from then on every request fails before it is
/// sent.
#[derive(Debug, Clone)]
struct CrashAfter {
    limit: usize,
    transactions: Arc<AtomicUsize>,
    crashed: Arc<AtomicBool>,
}

impl CrashAfter {
    fn new(limit: usize) -> Self {
        CrashAfter {
            limit,
            transactions: Arc::default(),
            crashed: Arc::default(),
        }
    }

    /// Transactions that reached the server.
    fn delivered(&self) -> usize {
        self.transactions.load(Ordering::SeqCst).min(self.limit + 1)
    }
}

impl Intercept for CrashAfter {
    fn name(&self) -> &'static str {
        "CrashAfter"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.crashed.load(Ordering::SeqCst) {
            return Err("injected crash: the migration process is gone".into());
        }
        if context
            .input_mut()
            .downcast_mut::<TransactWriteItemsInput>()
            .is_some()
        {
            let number = self.transactions.fetch_add(1, Ordering::SeqCst) + 1;
            if number > self.limit {
                self.crashed.store(true, Ordering::SeqCst);
                if number > self.limit + 1 {
                    return Err("injected crash: the migration process is gone".into());
                }
                cfg.interceptor_state().store_put(LoseAnswer);
            }
        }
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if cfg.load::<LoseAnswer>().is_none() {
            return Ok(());
        }
        let mut response = aws_smithy_runtime_api::http::Response::new(
            aws_smithy_runtime_api::http::StatusCode::try_from(500).unwrap(),
            aws_smithy_types::body::SdkBody::from(
                r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"the answer was lost (injected by the test)"}"#,
            ),
        );
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
}

/// A client for `endpoint` with a request counter and `interceptor` (SDK
/// retries off, so every fault reaches Stamp).
fn client_at<I: Intercept + 'static>(
    endpoint: &str,
    interceptor: Option<I>,
) -> (Client, common::RequestCounter) {
    let counter = common::RequestCounter::default();
    let mut config = stamp::local::config(endpoint)
        .retry_config(RetryConfig::disabled())
        .interceptor(counter.clone());
    if let Some(interceptor) = interceptor {
        config = config.interceptor(interceptor);
    }
    (Client::from_conf(config.build()), counter)
}

/// Members in the crash-and-resume run.
const ITEMS: u32 = 5_000;
/// Transactions of up to 50 moves each: about 2,000 items.
const CRASH_AFTER: usize = 40;

/// Seeds [`ITEMS`] members in the previous format and checks that an old
/// item reads as the current entity and that its old key is built and
/// parsed. Returns each member's attributes without its keys.
async fn seed_the_previous_format(table: &Table) -> HashMap<u32, AttributeMap> {
    let before: Vec<MemberBefore> = (0..ITEMS).map(member).collect();
    let expected: HashMap<u32, AttributeMap> = before
        .iter()
        .map(|member| (member.member_id, without_keys(member.to_item().unwrap())))
        .collect();
    BatchWrite::new()
        .put_all(&before)
        .send(table)
        .await
        .expect("seed the old format");
    // An old item reads as the current entity, and its old key is built and parsed.
    let stored = all_items(table).await;
    assert_eq!(stored.len(), ITEMS as usize);
    assert!(stored.iter().all(|item| text(item, "SK") == "PROFILE"));
    let sample = stored
        .iter()
        .find(|item| text(item, "PK") == "MEMBER#0000000007")
        .unwrap();
    assert_eq!(
        Member::from_item(sample.clone()).unwrap(),
        current(&member(7))
    );
    let old_key = Member::previous_key(&7).unwrap();
    assert_eq!(
        (old_key.partition_key(), old_key.sort_key()),
        ("MEMBER#0000000007", "PROFILE")
    );
    assert_eq!(
        Member::parse_previous_partition_key("MEMBER#0000000007").unwrap(),
        (7,)
    );
    assert_eq!(
        table.get(&old_key).await.unwrap(),
        Some(current(&member(7)))
    );
    expected
}

/// What the crashed first run left: its injector, its request counter, its
/// duration and how many members it moved.
struct CrashedRun {
    crash: CrashAfter,
    counter: common::RequestCounter,
    elapsed: std::time::Duration,
    moved: usize,
}

/// Runs a migration that crashes after [`CRASH_AFTER`] transactions and
/// checks what it left: a checkpoint with pages, every item once, and
/// between one and fifty moved members per delivered transaction.
async fn run_until_the_crash(table: &Table, checkpoint: &Path) -> CrashedRun {
    let crash = CrashAfter::new(CRASH_AFTER);
    let (crashing_client, crashing_counter) = client_at(&common::endpoint(), Some(crash.clone()));
    let crashing_table = Table::new(crashing_client, table.name());
    let progress_calls = Arc::new(AtomicUsize::new(0));
    let calls = progress_calls.clone();
    let started = Instant::now();
    let error = Migration::<Member>::new()
        .segments(4)
        .concurrency(CONCURRENCY)
        .group_size(50)
        .page_size(100)
        .checkpoint_file(checkpoint)
        .on_progress(move |_| {
            calls.fetch_add(1, Ordering::Relaxed);
        })
        .run(&crashing_table)
        .await
        .expect_err("the injected crash stops the first run");
    let elapsed = started.elapsed();
    assert!(
        matches!(
            &error,
            Error::Job(JobError::MigrationFailed {
                entity: "Member",
                ..
            }) | Error::DynamoDb { .. }
        ),
        "{error:?}"
    );
    assert_eq!(crash.delivered(), CRASH_AFTER + 1);
    assert!(progress_calls.load(Ordering::Relaxed) > CRASH_AFTER);
    println!("first run stopped by: {error}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(checkpoint).unwrap()).unwrap();
    let checkpointed_pages: u64 = written["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|segment| segment["pages"].as_u64().unwrap())
        .sum();
    assert!(checkpointed_pages > 0, "{written}");
    let halfway = all_items(table).await;
    assert_eq!(
        halfway.len(),
        ITEMS as usize,
        "a crash loses or duplicates nothing"
    );
    let moved = halfway
        .iter()
        .filter(|item| text(item, "PK").starts_with("TENANT#"))
        .count();
    assert!(
        (CRASH_AFTER + 1..=(CRASH_AFTER + 1) * 50).contains(&moved),
        "{moved} moved by {} transactions",
        CRASH_AFTER + 1
    );
    CrashedRun {
        crash,
        counter: crashing_counter,
        elapsed,
        moved,
    }
}

/// Resumes from the checkpoint and checks that the second run moves exactly
/// the members the first did not, with one request per transaction and per
/// page it reports.
async fn resume_from_the_checkpoint(
    table: &Table,
    counter: &common::RequestCounter,
    checkpoint: &Path,
    crashed: &CrashedRun,
) {
    counter.reset();
    let started = Instant::now();
    let outcome = Migration::<Member>::new()
        .segments(4)
        .concurrency(CONCURRENCY)
        .group_size(50)
        .page_size(100)
        .checkpoint_file(checkpoint)
        .run(table)
        .await
        .expect("the resumed run finishes");
    let second_run = started.elapsed();
    let progress = &outcome.progress;
    assert_eq!(progress.migrated as usize, ITEMS as usize - crashed.moved);
    assert_eq!(
        (progress.conflicts, progress.skipped, progress.vanished),
        (0, 0, 0)
    );
    assert!(outcome.conflicts.is_empty() && outcome.skipped.is_empty());
    assert!(outcome.resumed_segments > 0);
    assert_eq!((progress.segments_done, progress.total_segments), (4, 4));
    assert_eq!(
        counter.count("TransactWriteItems") as u64,
        progress.transactions
    );
    assert_eq!(counter.count("Scan") as u64, progress.pages);
    println!(
        "first run: {} transactions delivered in {:?} ({} requests); \
         resumed run: {progress} in {second_run:?} ({} requests: {} Scan, {} TransactWriteItems)",
        crashed.crash.delivered(),
        crashed.elapsed,
        crashed.counter.operations().len(),
        counter.operations().len(),
        counter.count("Scan"),
        counter.count("TransactWriteItems"),
    );
}

/// Every item exactly once, in the new format, with the attributes it had
/// before.
async fn assert_every_member_once_at_its_new_key(
    table: &Table,
    expected: &HashMap<u32, AttributeMap>,
) {
    let after = all_items(table).await;
    assert_eq!(after.len(), ITEMS as usize);
    let mut seen: BTreeMap<u32, AttributeMap> = BTreeMap::new();
    for item in after {
        assert_eq!(text(&item, "Type"), "Member");
        let entity = Member::from_item(item.clone()).unwrap();
        let key = entity.primary_key().unwrap();
        assert_eq!(text(&item, "PK"), key.partition_key());
        assert_eq!(text(&item, "SK"), key.sort_key());
        assert!(
            seen.insert(entity.member_id, without_keys(item)).is_none(),
            "member {} twice",
            entity.member_id
        );
    }
    assert_eq!(seen.len(), ITEMS as usize);
    for (member_id, attributes) in &seen {
        assert_eq!(attributes, &expected[member_id], "member {member_id}");
    }
}

/// A query of the new key finds each member, one request per tenant.
async fn assert_a_query_of_the_new_key_finds_each_member(
    table: &Table,
    counter: &common::RequestCounter,
) {
    counter.reset();
    let mut found = 0;
    for tenant in 0..TENANTS {
        let tenant = format!("t-{tenant:02}");
        let members: Vec<Member> = Member::query(&tenant)
            .stream(table)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(members.len(), (ITEMS / TENANTS) as usize);
        for read in members {
            assert_eq!(read.tenant, tenant);
            assert_eq!(read, current(&member(read.member_id)));
            found += 1;
        }
    }
    assert_eq!(found, ITEMS);
    assert_eq!(counter.count("Query"), TENANTS as usize);
}

/// Running again with the checkpoint sends nothing; without it, a full pass
/// finds every member current and writes nothing.
async fn assert_a_finished_migration_has_nothing_left(
    table: &Table,
    counter: &common::RequestCounter,
    checkpoint: &Path,
) {
    // Running again: the checkpoint says done, so nothing is sent.
    counter.reset();
    let again = Migration::<Member>::new()
        .segments(4)
        .checkpoint_file(checkpoint)
        .run(table)
        .await
        .unwrap();
    assert_eq!(again.progress.scanned, 0);
    assert!(counter.operations().is_empty());
    // Without the checkpoint, a full pass finds every item current.
    let fresh = Migration::<Member>::new()
        .segments(3)
        .concurrency(CONCURRENCY)
        .run(table)
        .await
        .unwrap();
    assert_eq!(fresh.progress.scanned, u64::from(ITEMS));
    assert_eq!(fresh.progress.already_current, u64::from(ITEMS));
    assert_eq!(fresh.progress.transactions, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_thousand_items_survive_a_crash_and_a_resume_exactly_once() {
    let (client, counter) = client_at(&common::endpoint(), None::<CrashAfter>);
    let table = Table::new(
        client,
        format!("stamp-migration-5000-{}", uuid::Uuid::new_v4().simple()),
    );
    table
        .create_table(&definition())
        .await
        .expect("create the test table");
    let expected = seed_the_previous_format(&table).await;
    counter.reset();

    // The first run crashes after CRASH_AFTER transactions.
    let checkpoint = checkpoint_path("migration-5000");
    let crashed = run_until_the_crash(&table, &checkpoint).await;
    // The second run resumes from the checkpoint and finishes.
    resume_from_the_checkpoint(&table, &counter, &checkpoint, &crashed).await;

    assert_every_member_once_at_its_new_key(&table, &expected).await;
    assert_a_query_of_the_new_key_finds_each_member(&table, &counter).await;
    assert_a_finished_migration_has_nothing_left(&table, &counter, &checkpoint).await;
    std::fs::remove_file(&checkpoint).unwrap();
}

#[tokio::test]
async fn conflicts_and_foreign_keys_are_reported_and_left_alone() {
    let table = common::fresh_table("migration-conflicts", &definition()).await;
    // Member 1 is in the old format, and the new code already wrote it anew.
    let old = member(1);
    let mut renamed = current(&old);
    renamed.name = "Written by the new code".into();
    // Member 2 is stored under a key of neither format.
    let mut stray = old_item(&member(2));
    stray.insert("PK".into(), AttributeValue::S("MEMBER#999".into()));
    // Member 3 moves normally.
    table.put(&old).await.unwrap();
    table.put(&renamed).await.unwrap();
    table
        .client()
        .put_item()
        .table_name(table.name())
        .set_item(Some(stray))
        .send()
        .await
        .unwrap();
    table.put(&member(3)).await.unwrap();
    table
        .put(&Settings {
            tenant: "t-01".into(),
        })
        .await
        .unwrap();

    let outcome = Migration::<Member>::new()
        .segments(1)
        .concurrency(CONCURRENCY)
        .run(&table)
        .await
        .unwrap();
    let progress = &outcome.progress;
    assert_eq!(progress.scanned, 4, "the type filter leaves out Settings");
    assert_eq!(progress.migrated, 1);
    assert_eq!(progress.already_current, 1);
    assert_eq!(progress.conflicts, 1);
    assert_eq!(progress.skipped, 1);
    // Members 1 and 3 went in one transaction, which the conflict cancelled;
    // then each in its own.
    assert_eq!(progress.transactions, 3);
    assert_eq!(
        outcome.conflicts,
        [Member::previous_key(&1).unwrap().to_attribute_map()]
    );
    assert_eq!(outcome.skipped.len(), 1);
    assert_eq!(text(&outcome.skipped[0].key, "PK"), "MEMBER#999");
    assert!(
        outcome.skipped[0]
            .reason
            .starts_with("its key fits neither the current format"),
        "{}",
        outcome.skipped[0].reason
    );
    // Both conflicting items are still there, untouched.
    assert_eq!(
        table.get(&Member::previous_key(&1).unwrap()).await.unwrap(),
        Some(current(&old))
    );
    assert_eq!(
        table.get(&renamed.primary_key().unwrap()).await.unwrap(),
        Some(renamed)
    );
    assert_eq!(
        table
            .get(&current(&member(3)).primary_key().unwrap())
            .await
            .unwrap(),
        Some(current(&member(3)))
    );
    assert_eq!(
        table.get(&Member::previous_key(&3).unwrap()).await.unwrap(),
        None
    );
}

fn old_item(member: &MemberBefore) -> AttributeMap {
    member.to_item().unwrap()
}

/// Changes the first transaction's delete condition, as if the item had
/// been written between the scan and the move.
#[derive(Debug, Clone, Default)]
struct StaleFirstRead {
    done: Arc<AtomicBool>,
}

impl Intercept for StaleFirstRead {
    fn name(&self) -> &'static str {
        "StaleFirstRead"
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(input) = context
            .input_mut()
            .downcast_mut::<TransactWriteItemsInput>()
        else {
            return Ok(());
        };
        if self.done.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let delete = input
            .transact_items
            .as_mut()
            .unwrap()
            .iter_mut()
            .find_map(|item| item.delete.as_mut())
            .expect("a move deletes the old key");
        for value in delete
            .expression_attribute_values
            .as_mut()
            .unwrap()
            .values_mut()
        {
            if let AttributeValue::S(text) = value
                && text.starts_with("Member ")
            {
                *text = "Member (as read before a concurrent write)".into();
            }
        }
        Ok(())
    }
}

#[tokio::test]
async fn an_item_changed_after_the_scan_is_moved_as_it_is_now() {
    let table = common::fresh_table("migration-stale", &definition()).await;
    table.put(&member(5)).await.unwrap();
    let (client, counter) = client_at(&common::endpoint(), Some(StaleFirstRead::default()));
    let stale = Table::new(client, table.name());
    let outcome = Migration::<Member>::new()
        .segments(1)
        .concurrency(CONCURRENCY)
        .run(&stale)
        .await
        .unwrap();
    assert_eq!(outcome.progress.migrated, 1);
    assert_eq!(outcome.progress.transactions, 2);
    assert_eq!(counter.count("TransactGetItems"), 1);
    let items = all_items(&table).await;
    assert_eq!(items.len(), 1);
    assert_eq!(text(&items[0], "PK"), "TENANT#t-05");
    assert_eq!(
        without_keys(items[0].clone()),
        without_keys(old_item(&member(5)))
    );
}

#[tokio::test]
async fn refused_before_sending() {
    let table = Table::new(common::client(), "stamp-migration-never-created");
    let error = Migration::<Settings>::new().run(&table).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::Job(JobError::NoPreviousKeyFormat { entity: "Settings" })
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "entity `Settings` declares no previous key format to migrate from: add \
         `#[stamp(previous(pk = \"…\", sk = \"…\"))]`"
    );
    let error = Migration::<Member>::new()
        .segments(0)
        .run(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::InvalidQuery {
                reason: stamp::error::QueryReason::MigrationSegments { segments: 0 }
            })
        ),
        "{error:?}"
    );

    // A checkpoint written by a scan in other segments is refused.
    let path = checkpoint_path("migration-mismatch");
    std::fs::write(
        &path,
        r#"{"format":1,"table":"stamp-migration-never-created","entity":"Member","total_segments":2,
            "segments":[{"done":false,"pages":1,"migrated":3,"last_evaluated_key":null},
                        {"done":true,"pages":1,"migrated":0,"last_evaluated_key":null}]}"#,
    )
    .unwrap();
    let error = Migration::<Member>::new()
        .segments(4)
        .checkpoint_file(&path)
        .run(&table)
        .await
        .unwrap_err();
    let Error::Job(JobError::MigrationCheckpoint { entity, reason, .. }) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*entity, "Member");
    assert_eq!(
        *reason,
        stamp::error::MigrationCheckpointReason::Segments {
            found: 2,
            segments: 4
        }
    );
    assert_eq!(
        reason.to_string(),
        "it was written by a scan in 2 segments, and this one has 4; resume with the same count"
    );
    std::fs::write(&path, "not json").unwrap();
    let error = Migration::<Member>::new()
        .checkpoint_file(&path)
        .run(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Job(JobError::MigrationCheckpoint {
                reason: stamp::error::MigrationCheckpointReason::NotJson { .. },
                ..
            })
        ),
        "{error:?}"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_previous_format_is_in_the_schema() {
    let previous = Member::SCHEMA.previous_key.expect("declared");
    assert_eq!(previous.partition_key.source, "MEMBER#<member_id>");
    assert_eq!(previous.sort_key.source, "PROFILE");
    assert_eq!(Settings::SCHEMA.previous_key, None);
    assert_eq!(Member::parse_previous_sort_key("PROFILE").unwrap(), ());
    assert!(Member::parse_previous_partition_key("TENANT#t-01").is_err());
    let value = current(&member(9));
    assert_eq!(
        value.previous_primary_key().unwrap(),
        Some(Member::previous_key(&9).unwrap())
    );
    assert_eq!(
        Settings { tenant: "t".into() }
            .previous_primary_key()
            .unwrap(),
        None
    );
}
