//! Sharded GSIs (`shards = N`): items spread over N partition keys by a
//! stable function of their primary key, and queries that fan out over the
//! shards and merge them as if the index were not sharded.
//!
//! The model `Ticket` writes the same index twice: GSI1 sharded over 8
//! partition keys, GSI2 unsharded, with the same sort key. Every query
//! shape is sent to both, and the results must be identical.

use crate::common;
use stamp::error::{KeyError, Refusal};

use aws_sdk_dynamodb::types::{AttributeValue, Select};
use base64::Engine as _;
use futures::TryStreamExt;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use stamp::{BatchWrite, Cursor, Entity, Error, Page, Query, Table, TableDefinition};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
#[gsi1(pk = "GROUP#<group>#<shard>", sk = "<rank>#<id>", shards = 8)]
#[gsi2(pk = "GROUP#<group>", sk = "<rank>#<id>")]
struct Ticket {
    id: String,
    group: Option<String>,
    rank: u32,
    amount: u32,
}

use stamp::Item;

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Ticket>()
}

fn ticket(group: &str, id: u32, rank: u32) -> Ticket {
    Ticket {
        id: format!("t-{id:04}"),
        group: Some(group.to_owned()),
        rank,
        amount: id % 7,
    }
}

async fn load(table: &Table, tickets: &[Ticket]) {
    let output = BatchWrite::new()
        .put_all(tickets)
        .send(table)
        .await
        .unwrap();
    assert_eq!(output.written, tickets.len());
}

#[test]
fn the_shard_is_a_stable_function_of_the_primary_key() {
    // A storage format: these values never change. (Computed from the
    // documented algorithm, FNV-1a 64 and the high bits, by a separate
    // implementation.)
    assert_eq!(stamp::key::shard_of("TICKET#t-0001", "TICKET", 8), 2);
    assert_eq!(stamp::key::shard_of("TICKET#t-0002", "TICKET", 8), 6);
    assert_eq!(stamp::key::shard_of("TICKET#t-0003", "TICKET", 8), 3);
    assert_eq!(stamp::key::shard_of("CUST#c-1", "PROFILE", 16), 15);
    assert_eq!(stamp::key::shard_of("", "", 2), 0);
    let item = ticket("g", 1, 5).to_item().unwrap();
    assert_eq!(item["GSI1PK"], AttributeValue::S("GROUP#g#2".into()));
    assert_eq!(item["GSI2PK"], AttributeValue::S("GROUP#g".into()));
    assert_eq!(item["GSI1SK"], item["GSI2SK"]);
}

#[test]
fn the_index_key_builder_takes_the_shard_and_the_parser_checks_it() {
    let input = || TicketGsi1Key {
        group: "g",
        rank: &5,
        id: "t-1",
    };
    let key = Ticket::gsi1_key(input(), 7).unwrap();
    assert_eq!(key.partition_key(), "GROUP#g#7");
    assert_eq!(
        Ticket::gsi1_key(input(), 8).unwrap_err().to_string(),
        "shard 8 of index `GSI1` of entity `Ticket` does not exist: the index has shards 0 to 7"
    );
    assert_eq!(
        Ticket::parse_gsi1_partition_key("GROUP#g#3").unwrap(),
        ("g".to_owned(),)
    );
    for forged in ["GROUP#g#8", "GROUP#g#03", "GROUP#g#", "GROUP#g#x"] {
        let error = Ticket::parse_gsi1_partition_key(forged).unwrap_err();
        assert!(
            matches!(error, Error::Key(KeyError::KeyMismatch { .. })),
            "{forged}: {error}"
        );
    }
    assert_eq!(Ticket::SCHEMA.indexes[0].shards(), Some(8));
    assert_eq!(Ticket::SCHEMA.indexes[1].shards(), None);
}

#[test]
fn a_sharded_query_has_one_request_per_shard() {
    let query = Ticket::query_gsi1("g").sort_key_gt(&10).newest_first();
    let requests = query.requests("tickets").unwrap();
    let partitions: Vec<String> = requests
        .iter()
        .map(|request| {
            let values = request.expression_attribute_values.as_ref().unwrap();
            let names = request.expression_attribute_names.as_ref().unwrap();
            assert_eq!(request.index_name.as_deref(), Some("GSI1"));
            assert_eq!(request.scan_index_forward, Some(false));
            let condition = request.key_condition_expression.as_deref().unwrap();
            let (name, value) = condition
                .split(" AND ")
                .next()
                .unwrap()
                .split_once(" = ")
                .unwrap();
            assert_eq!(names[name], "GSI1PK");
            values[value].as_s().unwrap().clone()
        })
        .collect();
    assert_eq!(
        partitions,
        (0..8)
            .map(|shard| format!("GROUP#g#{shard}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        query.request("tickets").unwrap_err().to_string(),
        "invalid query: a query on a sharded index sends one request per shard (8); `requests` gives them"
    );
    assert_eq!(
        Ticket::query_gsi2("g").requests("tickets").unwrap().len(),
        1
    );
}

#[tokio::test]
async fn writes_under_one_group_spread_evenly_over_the_shards() {
    let table = common::fresh_table("shard-spread", &definition()).await;
    let tickets: Vec<Ticket> = (0..2_000).map(|id| ticket("hot", id, id % 100)).collect();
    load(&table, &tickets).await;
    let mut counts = Vec::new();
    for shard in 0..8 {
        let mut count = 0;
        let mut start = None;
        loop {
            let output = table
                .client()
                .query()
                .table_name(table.name())
                .index_name("GSI1")
                .key_condition_expression("GSI1PK = :pk")
                .expression_attribute_values(":pk", AttributeValue::S(format!("GROUP#hot#{shard}")))
                .select(Select::Count)
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            count += output.count;
            start = output.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        counts.push(count);
    }
    assert_eq!(counts.iter().sum::<i32>(), 2_000);
    // Uniform is 250 per shard; ±25 % is 187.5 to 312.5.
    for (shard, count) in counts.iter().enumerate() {
        assert!(
            (188..=312).contains(count),
            "shard {shard} holds {count} of 2,000 items: {counts:?}"
        );
    }
    assert_eq!(
        Ticket::query_gsi1("hot").count(&table).await.unwrap(),
        2_000
    );
    table.delete_table().await.unwrap();
}

/// Every page of `query` until the end, from `send` and its cursors.
async fn pages<I: stamp::schema::QueryIndex>(
    table: &Table,
    query: impl Fn() -> Query<Ticket, I>,
) -> Vec<Page<Ticket>> {
    let mut pages = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let query = match &cursor {
            Some(cursor) => query().after(cursor),
            None => query(),
        };
        let page = query.send(table).await.unwrap();
        cursor = page.cursor.clone();
        pages.push(page);
        if cursor.is_none() || pages.len() > 500 {
            return pages;
        }
    }
}

/// A random query shape, applied to either index.
#[derive(Debug, Clone)]
struct Shape {
    newest_first: bool,
    limit: Option<u32>,
    max_items: Option<usize>,
    filter_amount_at_least: Option<u32>,
    /// 0: none, 1: `> a`, 2: `<= a`, 3: between a and b.
    range: (u8, u32, u32),
}

macro_rules! shaped {
    ($query:expr, $shape:expr) => {{
        let shape: &Shape = $shape;
        let mut query = $query;
        let (kind, a, b) = shape.range;
        query = match kind {
            1 => query.sort_key_gt(&a),
            2 => query.sort_key_le(&a),
            3 => query.sort_key_between(&a.min(b), &a.max(b)),
            _ => query,
        };
        if shape.newest_first {
            query = query.newest_first();
        }
        if let Some(limit) = shape.limit {
            query = query.limit(limit);
        }
        if let Some(max_items) = shape.max_items {
            query = query.max_items(max_items);
        }
        if let Some(amount) = shape.filter_amount_at_least {
            query = query.filter(Ticket::AMOUNT.ge(&amount));
        }
        query
    }};
}

fn shapes() -> impl Strategy<Value = Shape> {
    (
        any::<bool>(),
        proptest::option::of(1u32..8),
        proptest::option::of(1usize..30),
        proptest::option::of(0u32..7),
        (0u8..4, 0u32..40, 0u32..40),
    )
        .prop_map(
            |(newest_first, limit, max_items, filter_amount_at_least, range)| Shape {
                newest_first,
                limit,
                max_items,
                filter_amount_at_least,
                range,
            },
        )
}

/// Random tickets of group `group` (ranks with repeats, some out of the
/// sparse index) and of a neighbour group that must never come back.
fn tickets() -> impl Strategy<Value = Vec<(u32, Option<bool>)>> {
    proptest::collection::vec((0u32..40, proptest::option::of(any::<bool>())), 0..70)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: crate::common::repetitions(40, 10) as u32,
        ..ProptestConfig::default()
    })]

    /// The sharded index answers every query shape exactly as the unsharded
    /// one over the same items: the same items in the same order from
    /// `stream`, across the pages of `send`, and the same `count`; with no
    /// filter, page for page.
    #[test]
    fn a_sharded_query_equals_the_unsharded_one(rows in tickets(), shape in shapes()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let table = common::fresh_table("sharded-equals", &definition()).await;
            let group = "g";
            let items: Vec<Ticket> = rows
                .iter()
                .enumerate()
                .map(|(id, (rank, in_group))| Ticket {
                    group: match in_group {
                        Some(true) => Some(group.to_owned()),
                        Some(false) => Some(format!("{group}#neighbour")),
                        None => None,
                    },
                    ..ticket(group, id as u32, *rank)
                })
                .collect();
            load(&table, &items).await;

            let sharded: Vec<Ticket> = shaped!(Ticket::query_gsi1(group), &shape)
                .stream(&table).try_collect().await.unwrap();
            let unsharded: Vec<Ticket> = shaped!(Ticket::query_gsi2(group), &shape)
                .stream(&table).try_collect().await.unwrap();
            // The expected items, from a plain Rust model of the index.
            let mut expected: Vec<&Ticket> = items
                .iter()
                .filter(|ticket| ticket.group.as_deref() == Some(group))
                .filter(|ticket| match shape.range {
                    (1, a, _) => ticket.rank > a,
                    (2, a, _) => ticket.rank <= a,
                    (3, a, b) => (a.min(b)..=a.max(b)).contains(&ticket.rank),
                    _ => true,
                })
                .filter(|ticket| shape.filter_amount_at_least.is_none_or(|at_least| ticket.amount >= at_least))
                .collect();
            expected.sort_by_key(|ticket| (ticket.rank, ticket.id.clone()));
            if shape.newest_first {
                expected.reverse();
            }
            if let Some(max_items) = shape.max_items {
                expected.truncate(max_items);
            }
            let expected: Vec<Ticket> = expected.into_iter().cloned().collect();
            prop_assert_eq!(&unsharded, &expected);
            prop_assert_eq!(&sharded, &expected);

            let sharded_pages = pages(&table, || shaped!(Ticket::query_gsi1(group), &shape)).await;
            let unsharded_pages = pages(&table, || shaped!(Ticket::query_gsi2(group), &shape)).await;
            let flat = |pages: &[Page<Ticket>]| -> Vec<Ticket> {
                pages.iter().flat_map(|page| page.items.clone()).collect()
            };
            if shape.max_items.is_none() {
                prop_assert_eq!(flat(&sharded_pages), expected.clone());
                prop_assert_eq!(flat(&unsharded_pages), expected.clone());
            }
            if shape.filter_amount_at_least.is_none() && shape.max_items.is_none() {
                let items = |pages: &[Page<Ticket>]| -> Vec<Vec<Ticket>> {
                    pages.iter().map(|page| page.items.clone()).filter(|items| !items.is_empty()).collect()
                };
                prop_assert_eq!(items(&sharded_pages), items(&unsharded_pages));
            }
            let first = shaped!(Ticket::query_gsi1(group), &shape).send(&table).await.unwrap();
            let unsharded_first = shaped!(Ticket::query_gsi2(group), &shape).send(&table).await.unwrap();
            // The request budget (`max_requests`, 10 by default) is per
            // shard on a sharded index: where it binds on the unsharded one
            // (`max_items` above 10 requests of `limit` items), the sharded
            // first page may hold more. Below it, the pages are equal.
            let budget_binds = shape.max_items.zip(shape.limit).is_some_and(|(max_items, limit)| {
                max_items as u64 > u64::from(stamp::ops::DEFAULT_MAX_REQUESTS) * u64::from(limit)
            });
            if shape.filter_amount_at_least.is_none() && !budget_binds {
                prop_assert_eq!(first.items, unsharded_first.items);
            }

            let count = shaped!(Ticket::query_gsi1(group), &Shape { max_items: None, ..shape.clone() })
                .count(&table).await.unwrap();
            let unsharded_count = shaped!(Ticket::query_gsi2(group), &Shape { max_items: None, ..shape.clone() })
                .count(&table).await.unwrap();
            prop_assert_eq!(count, unsharded_count);
            table.delete_table().await.unwrap();
            Ok(())
        })?;
    }
}

/// Sixty tickets of group `g` in a fresh table, their ranks equal across
/// shards (the merge breaks ties by shard); the counter starts at zero.
async fn sixty_tickets(test: &str) -> (Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table(test, &definition()).await;
    // Equal ranks across shards: the merge breaks ties by shard.
    let tickets: Vec<Ticket> = (0..60).map(|id| ticket("g", id, id % 5)).collect();
    load(&table, &tickets).await;
    counter.reset();
    (table, counter)
}

/// The cursor of the first page of seven tickets of the sharded GSI1, and
/// its decoded content; the counter is reset after it.
async fn first_sharded_cursor(
    table: &Table,
    counter: &common::RequestCounter,
) -> (Cursor, serde_json::Value) {
    let first = Ticket::query_gsi1("g").limit(7).send(table).await.unwrap();
    let cursor = first.cursor.clone().unwrap();
    let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.as_str())
        .unwrap();
    let content: serde_json::Value = serde_json::from_slice(&payload).unwrap();
    counter.reset();
    (cursor, content)
}

/// A cursor of `content`, as a client could forge it.
fn forge(content: &serde_json::Value) -> Cursor {
    Cursor::from_text(
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(serde_json::to_vec(content).unwrap()),
    )
}

#[tokio::test]
async fn a_sharded_querys_clone_sends_the_same_requests() {
    let (table, _counter) = sixty_tickets("shard-cursor-clone").await;
    // A query is a plain value: its clone sends the same requests.
    let query = Ticket::query_gsi1("g").limit(7);
    let first = query.clone().send(&table).await.unwrap();
    assert_eq!(query.send(&table).await.unwrap(), first);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_cursor_resumes_every_shard_with_no_gap_and_no_duplicate() {
    let (table, counter) = sixty_tickets("shard-cursor").await;
    let first = Ticket::query_gsi1("g").limit(7).send(&table).await.unwrap();
    assert_eq!(counter.count("Query"), 8);
    assert_eq!(first.items.len(), 7);
    let mut seen: Vec<Ticket> = first.items.clone();
    let mut cursor = first.cursor.clone();
    while let Some(at) = cursor {
        let page = Ticket::query_gsi1("g")
            .limit(7)
            .after(&at)
            .send(&table)
            .await
            .unwrap();
        seen.extend(page.items);
        cursor = page.cursor;
    }
    let ranks: Vec<u32> = seen.iter().map(|ticket| ticket.rank).collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "in sort-key order");
    let mut ids: Vec<String> = seen.iter().map(|ticket| ticket.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 60, "every ticket once");
    assert_eq!(seen.len(), 60);

    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_cursor_holds_a_position_per_shard_and_one_with_a_shard_too_few_is_refused() {
    let (table, counter) = sixty_tickets("shard-cursor-fewer").await;
    // A page's cursor holds a position per shard; forged ones are refused
    // before anything is sent.
    let (_cursor, content) = first_sharded_cursor(&table, &counter).await;
    assert_eq!(content["s"].as_array().unwrap().len(), 8);
    let mut fewer = content.clone();
    fewer["s"].as_array_mut().unwrap().pop();
    assert_eq!(
        Ticket::query_gsi1("g")
            .limit(7)
            .after(&forge(&fewer))
            .send(&table)
            .await
            .unwrap_err()
            .to_string(),
        "invalid cursor: 7 shard positions, for a query over 8 shards"
    );
    assert_eq!(counter.count("Query"), 0, "nothing was sent");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_cursor_with_a_shards_position_in_another_shards_partition_is_refused() {
    let (table, counter) = sixty_tickets("shard-cursor-moved").await;
    let (_cursor, mut content) = first_sharded_cursor(&table, &counter).await;
    // Shard 1's position moved into shard 0's partition.
    let positions = content["s"].as_array_mut().unwrap();
    let after = positions
        .iter()
        .find_map(|position| position.get("after").cloned())
        .expect("a shard has a position");
    positions[1] = serde_json::json!({ "after": after.clone() });
    positions[0] = serde_json::json!({ "after": after });
    let error = Ticket::query_gsi1("g")
        .limit(7)
        .after(&forge(&content))
        .send(&table)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid cursor: `GSI1PK` is not the query's partition"
    );
    assert_eq!(counter.count("Query"), 0, "nothing was sent");
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_cursor_of_the_unsharded_index_is_refused_on_the_sharded_one_and_back() {
    let (table, counter) = sixty_tickets("shard-cursor-mismatch").await;
    let (cursor, _content) = first_sharded_cursor(&table, &counter).await;
    // A cursor of the unsharded index on the sharded one, and back.
    let unsharded = Ticket::query_gsi2("g")
        .limit(3)
        .send(&table)
        .await
        .unwrap()
        .cursor
        .unwrap();
    assert!(matches!(
        Ticket::query_gsi1("g")
            .limit(7)
            .after(&unsharded)
            .send(&table)
            .await
            .unwrap_err(),
        Error::Refused(Refusal::CursorMismatch)
    ));
    assert!(matches!(
        Ticket::query_gsi2("g")
            .limit(3)
            .after(&cursor)
            .send(&table)
            .await
            .unwrap_err(),
        Error::Refused(Refusal::CursorMismatch)
    ));
    assert_eq!(
        counter.count("Query"),
        1,
        "only the unsharded page was sent"
    );
    table.delete_table().await.unwrap();
}

/// A sharded stream reads each item once (issue 22, point 4): a shard is
/// queried again only when the merge has returned every item it sent and
/// it has more, so each shard costs what the same query on its partition
/// alone costs. With `Limit = 10`, a shard of `k` items answers `k / 10`
/// full pages, each with a `LastEvaluatedKey` (DynamoDB returns one
/// whenever it stops at the limit), then one page that is not full and
/// has none: `k / 10 + 1` requests
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html>).
#[tokio::test]
async fn a_sharded_stream_reads_each_item_once() {
    let (table, counter) = common::fresh_counted_table("shard-stream-reads", &definition()).await;
    let tickets: Vec<Ticket> = (0..160).map(|id| ticket("g", id, id % 13)).collect();
    load(&table, &tickets).await;
    let mut per_shard = [0usize; 8];
    for ticket in &tickets {
        let item = ticket.to_item().unwrap();
        let pk = item["GSI1PK"].as_s().unwrap();
        let shard: usize = pk.rsplit('#').next().unwrap().parse().unwrap();
        per_shard[shard] += 1;
    }
    let expected: usize = per_shard.iter().map(|k| k / 10 + 1).sum();
    for newest_first in [false, true] {
        counter.reset();
        let mut query = Ticket::query_gsi1("g").limit(10);
        if newest_first {
            query = query.newest_first();
        }
        let streamed: Vec<Ticket> = query.stream(&table).try_collect().await.unwrap();
        assert_eq!(streamed.len(), 160);
        let mut keys: Vec<(u32, String)> = tickets.iter().map(|t| (t.rank, t.id.clone())).collect();
        keys.sort();
        if newest_first {
            keys.reverse();
        }
        let got: Vec<(u32, String)> = streamed.iter().map(|t| (t.rank, t.id.clone())).collect();
        assert_eq!(got, keys, "in merged order");
        assert_eq!(counter.count("Query"), expected, "{per_shard:?}");
    }
    // With `max_items`, each shard is asked for no more than the items
    // still wanted; 25 items of 160 take at most one request per shard
    // and the refills of the shards the merge empties.
    counter.reset();
    let first: Vec<Ticket> = Ticket::query_gsi1("g")
        .limit(10)
        .max_items(25)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(first.len(), 25);
    assert!(
        counter.count("Query") <= 8 + 25 / 10 + 1,
        "{}",
        counter.count("Query")
    );
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn an_update_rewrites_the_index_key_in_its_shard() {
    let table = common::fresh_table("shard-update", &definition()).await;
    let item = ticket("g", 9, 3);
    table.put(&item).await.unwrap();
    let shard = stamp::key::shard_of("TICKET#t-0009", "TICKET", 8);
    Ticket::update("t-0009")
        .set(Ticket::GROUP, &"h".to_owned())
        .set(Ticket::RANK, &4)
        .send(&table)
        .await
        .unwrap();
    let stored = table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(Ticket::key("t-0009").unwrap().to_attribute_map()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        stored["GSI1PK"],
        AttributeValue::S(format!("GROUP#h#{shard}"))
    );
    assert_eq!(stored["GSI2PK"], AttributeValue::S("GROUP#h".into()));
    let moved: Vec<Ticket> = Ticket::query_gsi1("h")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        moved,
        vec![Ticket {
            group: Some("h".into()),
            rank: 4,
            ..item
        }]
    );
    assert_eq!(Ticket::query_gsi1("g").count(&table).await.unwrap(), 0);
    // Leaving the sparse index removes both attributes.
    Ticket::update("t-0009")
        .remove(Ticket::GROUP)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(Ticket::query_gsi1("h").count(&table).await.unwrap(), 0);
    table.delete_table().await.unwrap();
}

/// `Ticket` as it was before its index went from 4 shards to 8.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
#[gsi1(pk = "GROUP#<group>#<shard>", sk = "<rank>#<id>", shards = 4)]
#[gsi2(pk = "GROUP#<group>", sk = "<rank>#<id>")]
#[stamp(type_name = "Ticket")]
struct TicketOnFourShards {
    id: String,
    group: Option<String>,
    rank: u32,
    amount: u32,
}

#[tokio::test]
async fn changing_the_shard_count_is_a_migration() {
    let table = common::fresh_table("shard-migration", &definition()).await;
    let old: Vec<TicketOnFourShards> = (0..300)
        .map(|id| {
            let ticket = ticket("g", id, id % 13);
            TicketOnFourShards {
                id: ticket.id,
                group: (id % 10 != 0).then(|| "g".to_owned()),
                rank: ticket.rank,
                amount: ticket.amount,
            }
        })
        .collect();
    BatchWrite::new().put_all(&old).send(&table).await.unwrap();
    // Written on 4 shards, read on 8: the query still finds them all, as
    // the 4 old partitions are among the 8 it reads, but an update would
    // write most of them to another shard. (From 8 down to 4, a query
    // would miss the items of shards 4 to 7 until the migration ends.)
    let in_old_shards = |shard: u16| format!("GROUP#g#{shard}");
    let stored: Vec<String> = table
        .client()
        .scan()
        .table_name(table.name())
        .send()
        .await
        .unwrap()
        .items
        .unwrap()
        .iter()
        .filter_map(|item| {
            item.get("GSI1PK")
                .map(|value| value.as_s().unwrap().clone())
        })
        .collect();
    assert_eq!(stored.len(), 270);
    assert!(
        stored
            .iter()
            .all(|pk| (0..4).map(in_old_shards).any(|old| old == *pk))
    );
    assert_eq!(Ticket::query_gsi1("g").count(&table).await.unwrap(), 270);

    let outcome = stamp::migrate::Migration::<Ticket>::new()
        .run(&table)
        .await
        .unwrap();
    let in_index = old.iter().filter(|ticket| ticket.group.is_some()).count();
    // Every item in the index moves shard unless both counts give the same
    // one; the 30 out of the index are current already.
    let moved = old
        .iter()
        .filter(|ticket| {
            ticket.group.is_some() && {
                let pk = format!("TICKET#{}", ticket.id);
                stamp::key::shard_of(&pk, "TICKET", 4) != stamp::key::shard_of(&pk, "TICKET", 8)
            }
        })
        .count() as u64;
    assert_eq!(outcome.progress.migrated, moved);
    assert_eq!(outcome.progress.already_current, 300 - moved);
    assert_eq!(outcome.progress.skipped, 0);
    assert_eq!(
        Ticket::query_gsi1("g").count(&table).await.unwrap(),
        in_index as u64
    );
    let sharded: Vec<Ticket> = Ticket::query_gsi1("g")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    let unsharded: Vec<Ticket> = Ticket::query_gsi2("g")
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(sharded, unsharded);
    assert_eq!(sharded.len(), in_index);

    // Running it again changes nothing.
    let again = stamp::migrate::Migration::<Ticket>::new()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(again.progress.migrated, 0);
    assert_eq!(again.progress.already_current, 300);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_shard_key_over_the_limit_and_max_items_zero_are_refused_before_sending() {
    let (table, counter) = common::fresh_counted_table("shard-refusals", &definition()).await;
    // `GROUP#` + 2,041 bytes + `#` is 2,048 bytes before the shard digit.
    let long = "x".repeat(2041);
    let query = || Ticket::query_gsi1(&long);
    assert_eq!(
        query().send(&table).await.unwrap_err().to_string(),
        query().requests(table.name()).unwrap_err().to_string()
    );
    match query().count(&table).await.unwrap_err() {
        Error::Key(KeyError::KeyTooLong { length, limit, .. }) => {
            assert_eq!((length, limit), (2049, 2048))
        }
        other => panic!("{other:?}"),
    }
    let fits = "x".repeat(2040);
    assert_eq!(
        Ticket::query_gsi1(&fits)
            .requests(table.name())
            .unwrap()
            .len(),
        8
    );
    let zero = || Ticket::query_gsi1("g").max_items(0);
    assert_eq!(
        zero().send(&table).await.unwrap_err().to_string(),
        "invalid query: `max_items` must be at least 1"
    );
    let streamed: Result<Vec<Ticket>, Error> = zero().stream(&table).try_collect().await;
    assert_eq!(
        streamed.unwrap_err().to_string(),
        "invalid query: `max_items` must be at least 1"
    );
    assert!(matches!(
        Ticket::query("t-1")
            .max_items(0)
            .send(&table)
            .await
            .unwrap_err(),
        Error::Refused(Refusal::InvalidQuery {
            reason: stamp::error::QueryReason::Zero {
                option: "max_items"
            }
        })
    ));
    assert_eq!(counter.count("Query"), 0);
    table.delete_table().await.unwrap();
}
