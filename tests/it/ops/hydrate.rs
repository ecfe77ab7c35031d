//! Hydrated index reads (issue 42, point 2): a query of a `KEYS_ONLY` or
//! `INCLUDE` index asked to `hydrate()` reads the index page's keys, then
//! the whole items with `BatchGetItem` (at most 100 keys a request,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html>),
//! and returns them in the index's order; an item deleted between the two
//! reads is counted in `Page::missing`, and the cursor goes on after it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::types::AttributeValue;
use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::error::Refusal;
use stamp::schema::IndexProjection;
use stamp::{AttributeMap, Error, Table, TableDefinition};

use crate::common;

/// GSI1 keys only; GSI2 sharded, keys only; GSI3 `INCLUDE (title)`.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<ticket_id>"]
#[sk = "TICKET"]
#[gsi1(pk = "QUEUE#<queue>", sk = "<opened>")]
#[gsi2(pk = "STATE#<state>#<shard>", sk = "<opened>", shards = 4)]
#[gsi3(pk = "DESK#<queue>", sk = "<opened>")]
struct Ticket {
    ticket_id: String,
    queue: String,
    state: String,
    opened: u32,
    title: String,
    body: String,
}

/// A card and a note of a board share GSI4 (by owner, keys only); a card
/// has LSI1 (keys only) by rank.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BOARD#<board>"]
#[sk = "CARD#<card>"]
#[gsi4(pk = "OWNER#<owner>", sk = "<at>")]
#[lsi1(sk = "RANK#<rank>")]
struct Card {
    board: String,
    card: String,
    owner: String,
    at: u32,
    rank: u32,
    text: String,
}

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BOARD#<board>"]
#[sk = "NOTE#<note>"]
#[gsi4(pk = "OWNER#<owner>", sk = "<at>")]
struct Note {
    board: String,
    note: String,
    owner: String,
    at: u32,
    words: Vec<String>,
}

#[derive(stamp::Collection, Debug, PartialEq)]
#[stamp(index = 4)]
enum OwnerWork {
    Card(Card),
    Note(Note),
    Unknown(AttributeMap),
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Ticket>()
        .entity::<Card>()
        .entity::<Note>()
        .index_projection("GSI1", IndexProjection::KeysOnly)
        .index_projection("GSI2", IndexProjection::KeysOnly)
        .index_projection("GSI3", IndexProjection::Include(vec!["title".to_owned()]))
        .index_projection("GSI4", IndexProjection::KeysOnly)
        .index_projection("LSI1", IndexProjection::KeysOnly)
}

fn ticket(number: u32) -> Ticket {
    Ticket {
        ticket_id: format!("t-{number:03}"),
        queue: "support".to_owned(),
        state: "open".to_owned(),
        // Not the order of the ids: the index orders by `opened`.
        opened: number * 37 % 1009,
        title: format!("title {number}"),
        body: format!("body of ticket {number}, {}", "x".repeat(100)),
    }
}

/// The tickets in `GSI1`'s order (by `opened`, ascending).
fn by_opened(mut tickets: Vec<Ticket>) -> Vec<Ticket> {
    tickets.sort_by_key(|ticket| ticket.opened);
    tickets
}

async fn table_with(test: &str, tickets: &[Ticket]) -> (Table, common::RequestCounter) {
    let definition = definition();
    let (table, counter) = common::fresh_counted_table(test, &definition).await;
    for ticket in tickets {
        table.put(ticket).await.unwrap();
    }
    counter.reset();
    (table.with_definition(&definition).unwrap(), counter)
}

fn tickets(count: u32) -> Vec<Ticket> {
    (0..count).map(ticket).collect()
}

#[tokio::test]
async fn a_keys_only_gsi_hydrated_returns_whole_entities_in_index_order() {
    let all = tickets(6);
    let (table, counter) = table_with("hydrate-keys-only", &all).await;

    // Not hydrated, the query is refused: the index holds no `title`.
    let refused = Ticket::query_gsi1("support")
        .send(&table)
        .await
        .unwrap_err();
    assert!(matches!(
        refused,
        Error::Refused(Refusal::AttributesNotProjected { index: "GSI1", .. })
    ));
    assert!(counter.operations().is_empty());

    let page = Ticket::query_gsi1("support")
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, by_opened(all.clone()));
    assert_eq!(page.missing, 0);
    assert_eq!(page.cursor, None);
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);

    counter.reset();
    let newest = Ticket::query_gsi1("support")
        .hydrate()
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    let mut expected = by_opened(all);
    expected.reverse();
    assert_eq!(newest.items, expected);
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);
}

#[tokio::test]
async fn the_request_of_a_hydrated_query_asks_for_the_keys_only() {
    let request = Ticket::query_gsi1("support")
        .hydrate()
        .request("orders")
        .unwrap();
    assert_eq!(request.index_name.as_deref(), Some("GSI1"));
    // The table's keys and the index's, nothing else.
    let names = request.expression_attribute_names.unwrap();
    let projected: Vec<&str> = request
        .projection_expression
        .as_deref()
        .unwrap()
        .split(", ")
        .map(|placeholder| names[placeholder].as_str())
        .collect();
    assert_eq!(projected, ["PK", "SK", "GSI1PK", "GSI1SK"]);
    // The type scope is checked on the items read from the table: the
    // index does not hold `Type`.
    assert_eq!(request.filter_expression, None);
    assert_eq!(request.select, None);
}

#[tokio::test]
async fn hydrated_pages_follow_the_index_cursor() {
    let all = tickets(7);
    let (table, counter) = table_with("hydrate-pages", &all).await;
    let expected = by_opened(all);
    let mut pages = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = Ticket::query_gsi1("support").hydrate().max_items(3);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        assert_eq!(page.missing, 0);
        pages.push(page.items);
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(pages, [&expected[0..3], &expected[3..6], &expected[6..7]]);
    // One index page and one batch read per page.
    assert_eq!(counter.count("Query"), 3);
    assert_eq!(counter.count("BatchGetItem"), 3);

    // `limit` pages too, and the stream reads every page.
    let first = Ticket::query_gsi1("support")
        .hydrate()
        .limit(4)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(first.items, &expected[0..4]);
    let rest = Ticket::query_gsi1("support")
        .hydrate()
        .limit(4)
        .after(first.cursor.as_ref().unwrap())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(rest.items, &expected[4..7]);
    let streamed: Vec<Ticket> = Ticket::query_gsi1("support")
        .hydrate()
        .limit(2)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, expected);
}

/// Deletes the item `key` through a client of its own the first time
/// `BatchGetItem` is about to be sent: between a hydrated query's index
/// read and its batch read, as another writer would.
#[derive(Debug, Clone)]
struct DeleteBeforeBatchGet {
    table: Arc<std::sync::Mutex<String>>,
    key: AttributeMap,
    done: Arc<AtomicBool>,
}

impl aws_sdk_dynamodb::config::Intercept for DeleteBeforeBatchGet {
    fn name(&self) -> &'static str {
        "DeleteBeforeBatchGet"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let target = context
            .request()
            .headers()
            .get("x-amz-target")
            .unwrap_or("");
        if !target.ends_with(".BatchGetItem") || self.done.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let table = self.table.lock().unwrap().clone();
        let key = self.key.clone();
        // The interceptor is synchronous: the delete runs to its end on a
        // thread and runtime of its own (the server is on its own thread).
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                common::client()
                    .delete_item()
                    .table_name(table)
                    .set_key(Some(key))
                    .send()
                    .await
                    .unwrap();
            });
        })
        .join()
        .unwrap();
        Ok(())
    }
}

#[tokio::test]
async fn an_item_deleted_between_the_reads_is_counted_not_a_gap() {
    let expected = by_opened(tickets(6));
    let gone = &expected[2];
    let key: AttributeMap = [
        ("PK", format!("TICKET#{}", gone.ticket_id)),
        ("SK", "TICKET".to_owned()),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), AttributeValue::S(value)))
    .collect();
    let deleter = DeleteBeforeBatchGet {
        table: Arc::default(),
        key,
        done: Arc::default(),
    };
    let client = Client::from_conf(
        stamp::local::config(&common::endpoint())
            .retry_config(RetryConfig::disabled())
            .interceptor(deleter.clone())
            .build(),
    );
    let definition = definition();
    let name = format!("stamp-hydrate-deleted-{}", uuid::Uuid::new_v4().simple());
    *deleter.table.lock().unwrap() = name.clone();
    let table = Table::new(client, name);
    table.create_table(&definition).await.unwrap();
    for ticket in &expected {
        table.put(ticket).await.unwrap();
    }
    let table = table.with_definition(&definition).unwrap();

    // The first page's index read finds entries 0..=3; entry 2's item is
    // deleted before the batch read: the page holds 0, 1 and 3, counts 2.
    let first = Ticket::query_gsi1("support")
        .hydrate()
        .max_items(3)
        .send(&table)
        .await
        .unwrap();
    assert!(deleter.done.load(Ordering::SeqCst));
    assert_eq!(
        first.items,
        [
            expected[0].clone(),
            expected[1].clone(),
            expected[3].clone()
        ]
    );
    assert_eq!(first.missing, 1);
    let second = Ticket::query_gsi1("support")
        .hydrate()
        .max_items(3)
        .after(first.cursor.as_ref().unwrap())
        .send(&table)
        .await
        .unwrap();
    assert_eq!(second.items, &expected[4..6]);
    assert_eq!(second.missing, 0);
    assert_eq!(second.cursor, None);
}

#[tokio::test]
async fn more_than_a_hundred_keys_take_two_batch_gets() {
    let all = tickets(150);
    let (table, counter) = table_with("hydrate-150", &all).await;
    let page = Ticket::query_gsi1("support")
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, by_opened(all));
    assert_eq!(page.cursor, None);
    assert_eq!(counter.count("Query"), 1);
    assert_eq!(counter.count("BatchGetItem"), 2);
}

#[tokio::test]
async fn a_sharded_gsi_is_hydrated_in_merged_order() {
    let all = tickets(12);
    let (table, counter) = table_with("hydrate-sharded", &all).await;
    let expected = by_opened(all);
    let page = Ticket::query_gsi2("open")
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, expected);
    assert_eq!(page.missing, 0);
    assert_eq!(counter.count("Query"), 4);
    assert_eq!(counter.count("BatchGetItem"), 1);

    // Pages of 5 across the shards, following the cursor.
    let mut items = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = Ticket::query_gsi2("open").hydrate().max_items(5);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        assert!(page.items.len() <= 5);
        items.extend(page.items);
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(items, expected);
    let streamed: Vec<Ticket> = Ticket::query_gsi2("open")
        .hydrate()
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, expected);
}

#[tokio::test]
async fn an_include_gsi_is_hydrated_and_filters_on_what_it_projects() {
    let all = tickets(5);
    let (table, counter) = table_with("hydrate-include", &all).await;
    let expected = by_opened(all);
    let page = Ticket::query_gsi3("support")
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, expected);
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);

    // A filter runs on the index: `title` is projected, `body` is not.
    let filtered = Ticket::query_gsi3("support")
        .hydrate()
        .filter(Ticket::TITLE.eq(&"title 3".to_owned()))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(filtered.items, [ticket(3)]);
    counter.reset();
    let refused = Ticket::query_gsi3("support")
        .hydrate()
        .filter(Ticket::BODY.eq(&"b".to_owned()))
        .send(&table)
        .await
        .unwrap_err();
    match refused {
        Error::Refused(Refusal::AttributesNotProjected {
            index: "GSI3",
            missing,
            type_attribute: None,
            ..
        }) => assert_eq!(missing, ["body"]),
        other => panic!("not AttributesNotProjected: {other:?}"),
    }
    assert!(counter.operations().is_empty());
}

fn card(number: u32, rank: u32) -> Card {
    Card {
        board: "b-1".to_owned(),
        card: format!("c-{number}"),
        owner: "ann".to_owned(),
        at: 100 + number * 2,
        rank,
        text: format!("card {number}"),
    }
}

fn note(number: u32) -> Note {
    Note {
        board: "b-1".to_owned(),
        note: format!("n-{number}"),
        owner: "ann".to_owned(),
        at: 101 + number * 2,
        words: vec![format!("word {number}")],
    }
}

#[tokio::test]
async fn a_collection_of_a_keys_only_gsi_is_hydrated() {
    let (table, counter) = table_with("hydrate-collection", &[]).await;
    for number in 0..3 {
        table.put(&card(number, 10 - number)).await.unwrap();
        table.put(&note(number)).await.unwrap();
    }
    counter.reset();
    let page = Card::query_gsi4("ann")
        .collection::<OwnerWork>()
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        page.items,
        [
            OwnerWork::Card(card(0, 10)),
            OwnerWork::Note(note(0)),
            OwnerWork::Card(card(1, 9)),
            OwnerWork::Note(note(1)),
            OwnerWork::Card(card(2, 8)),
            OwnerWork::Note(note(2)),
        ]
    );
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);

    // An entity query of the shared index keeps its own type, checked on
    // the items read (the index holds no `Type`).
    counter.reset();
    let cards = Card::query_gsi4("ann")
        .hydrate()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(cards.items, [card(0, 10), card(1, 9), card(2, 8)]);
    assert_eq!(cards.missing, 0);
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);
}

#[tokio::test]
async fn a_keys_only_lsi_is_hydrated_consistently() {
    let (table, counter) = table_with("hydrate-lsi", &[]).await;
    for number in 0..4 {
        table.put(&card(number, 10 - number)).await.unwrap();
    }
    counter.reset();
    let query = Card::query_lsi1("b-1").hydrate().consistent_read();
    let request = query.request(table.name()).unwrap();
    assert_eq!(request.select, None);
    assert_eq!(request.consistent_read, Some(true));
    assert!(request.projection_expression.is_some());
    let page = query.send(&table).await.unwrap();
    // LSI1 orders by rank: card 3 (rank 7) first.
    assert_eq!(
        page.items,
        [card(3, 7), card(2, 8), card(1, 9), card(0, 10)]
    );
    assert_eq!(counter.operations(), ["Query", "BatchGetItem"]);
}

#[test]
fn the_capacity_model_counts_the_batch_reads_of_a_hydrated_page() {
    use stamp::capacity::{Access, Load, Workload};
    // An item of about 5.1 KB: 2 read units strongly consistent, 1
    // eventually, each time it is read alone (`BatchGetItem` charges each
    // item as a `GetItem`, rounded up to 4 KB).
    let big = Ticket {
        body: "x".repeat(5_000),
        ..ticket(1)
    };
    let definition = definition().example(&big).unwrap();
    let cost = definition
        .capacity()
        .unwrap()
        .into_iter()
        .find(|cost| cost.entity == "Ticket")
        .unwrap();
    // The index pages: 25 keys-only (or `title`) entries, under 4 KB.
    assert_eq!(
        cost.index_query_pages,
        [("GSI1", 0.5), ("GSI2", 0.5), ("GSI3", 0.5)]
    );
    // The batch read of a page: 25 items at 1 unit each.
    assert_eq!(
        cost.index_query_hydrations,
        [("GSI1", 25.0), ("GSI2", 25.0), ("GSI3", 25.0)]
    );
    // A page of whole items on the table rounds their sum instead.
    assert_eq!(cost.query_page.eventual, 16.0);

    let workload = Workload::new()
        .load(Load::of::<Ticket>(Access::HydratedQueryPage(1), 10.0))
        .spread("TICKET#<ticket_id>", 250.0);
    let plan = definition.plan(&workload).unwrap();
    let loads: Vec<(&str, &str, f64)> = plan
        .iter()
        .map(|load| (load.index, load.template, load.read_units))
        .collect();
    assert_eq!(
        loads,
        [
            ("table", "TICKET#<ticket_id>", 1.0),
            ("GSI1", "QUEUE#<queue>", 5.0)
        ]
    );
    let markdown = definition.catalogue().unwrap();
    assert!(
        markdown.contains("GSI1 0.5 (hydrated: + batch get 25)"),
        "{markdown}"
    );
}
