//! Index projections in queries (issue 15, part 4): a table that knows its
//! definition (`Table::with_definition`) refuses, before sending, a query of
//! a `KEYS_ONLY` or `INCLUDE` GSI that needs an attribute the index does
//! not project. DynamoDB: "A global secondary index only returns the
//! attributes that are projected into it"; an LSI fetches the others from
//! the table (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.Projections>).

use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::error::{DecodeError, DefinitionError, Refusal};
use stamp::{Error, Table, TableDefinition, schema::IndexProjection};

use crate::common;

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "PROFILE"]
#[gsi1(pk = "CITY#<city>", sk = "<customer_id>")]
#[lsi1(sk = "NAME#<name>")]
struct Member {
    customer_id: String,
    city: String,
    name: String,
    email: String,
}

/// Only attributes that `INCLUDE (name, Type)` holds, with the keys.
#[derive(stamp::Projection, Deserialize, Debug, PartialEq)]
#[stamp(entity = Member)]
struct MemberName {
    customer_id: String,
    name: String,
}

#[derive(stamp::Projection, Deserialize, Debug, PartialEq)]
#[stamp(entity = Member)]
struct MemberEmail {
    email: String,
}

fn member(id: &str) -> Member {
    Member {
        customer_id: id.to_owned(),
        city: "Oslo".to_owned(),
        name: format!("name {id}"),
        email: format!("{id}@example.com"),
    }
}

/// GSI1 with `projection`, LSI1 keys only.
fn definition(projection: IndexProjection) -> TableDefinition {
    TableDefinition::new()
        .entity::<Member>()
        .index_projection("GSI1", projection)
        .index_projection("LSI1", IndexProjection::KeysOnly)
}

async fn table(test: &str, projection: IndexProjection) -> (Table, common::RequestCounter) {
    let definition = definition(projection);
    let (table, counter) = common::fresh_counted_table(test, &definition).await;
    table.put(&member("c-1")).await.unwrap();
    table.put(&member("c-2")).await.unwrap();
    counter.reset();
    (table.with_definition(&definition).unwrap(), counter)
}

fn missing(error: &Error) -> Vec<&str> {
    match error {
        Error::Refused(Refusal::AttributesNotProjected {
            entity: "Member",
            index: "GSI1",
            missing,
            ..
        }) => missing.iter().map(String::as_str).collect(),
        other => panic!("not AttributesNotProjected: {other:?}"),
    }
}

#[tokio::test]
async fn a_keys_only_gsi_refuses_an_entity_query_before_sending() {
    let (table, counter) = table("projection-keys-only", IndexProjection::KeysOnly).await;
    let error = Member::query_gsi1("Oslo").send(&table).await.unwrap_err();
    // The key attributes (PK, SK, GSI1PK, GSI1SK) are always projected; the
    // fields `city` and `customer_id` are stored as fields too, not keys.
    assert_eq!(
        missing(&error),
        ["customer_id", "city", "name", "email", "Type"]
    );
    let error = Member::query_gsi1("Oslo").count(&table).await.unwrap_err();
    assert_eq!(missing(&error), ["Type"], "a count decodes nothing");
    // No projection can serve it: the message says what would.
    assert_eq!(
        error.to_string(),
        "index `GSI1` projects KEYS_ONLY, which leaves out [\"Type\"] that a query of `Member` reads; \
         add `.hydrate()` to read the whole items from the table (a `BatchGetItem` of each page's \
         keys), or project the type attribute `Type`, by which Stamp scopes every query of an \
         index to its entity: `IndexProjection::Include` with [\"Type\"] (and what it already \
         includes), or `IndexProjection::All`"
    );
    let error = Member::query_gsi1("Oslo")
        .project::<MemberEmail>()
        .send(&table)
        .await
        .unwrap_err();
    assert_eq!(missing(&error), ["email", "Type"]);
    assert_eq!(counter.count("Query"), 0, "{:?}", counter.operations());
    // As a stream, the first item is the error.
    use futures::StreamExt;
    let first = Member::query_gsi1("Oslo").stream(&table).next().await;
    assert!(matches!(
        first,
        Some(Err(Error::Refused(Refusal::AttributesNotProjected { .. })))
    ));
    assert_eq!(counter.count("Query"), 0);
}

#[tokio::test]
async fn an_include_gsi_serves_the_projections_it_holds() {
    let include =
        IndexProjection::Include(vec!["customer_id".into(), "name".into(), "Type".into()]);
    let (table, counter) = table("projection-include", include).await;
    let page = Member::query_gsi1("Oslo")
        .project::<MemberName>()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(
        page.items,
        [
            MemberName {
                customer_id: "c-1".into(),
                name: "name c-1".into()
            },
            MemberName {
                customer_id: "c-2".into(),
                name: "name c-2".into()
            }
        ]
    );
    assert_eq!(Member::query_gsi1("Oslo").count(&table).await.unwrap(), 2);
    // A filter on an attribute the index does not hold would match nothing.
    let error = Member::query_gsi1("Oslo")
        .project::<MemberName>()
        .filter(Member::EMAIL.eq(&"c-1@example.com".to_owned()))
        .send(&table)
        .await
        .unwrap_err();
    assert_eq!(missing(&error), ["email"]);
    assert_eq!(
        error.to_string(),
        "index `GSI1` projects INCLUDE (customer_id, name, Type), which leaves out [\"email\"] \
         that a query of `Member` reads; add `.hydrate()` to read the whole items from the table (a \
         `BatchGetItem` of each page's keys; a filter still reads the index), query a projection \
         of the projected attributes, or add [\"email\"] to the index's `IndexProjection::Include`"
    );
    let error = Member::query_gsi1("Oslo").send(&table).await.unwrap_err();
    assert_eq!(missing(&error), ["city", "email"]);
    assert_eq!(counter.count("Query"), 2);
}

#[tokio::test]
async fn without_the_definition_or_on_the_table_nothing_is_checked() {
    let (table, _) = table("projection-unknown", IndexProjection::KeysOnly).await;
    assert_eq!(
        Member::query("c-1").send(&table).await.unwrap().items.len(),
        1
    );
    // A table that does not know its definition sends the query; the
    // KEYS_ONLY index returns items without their fields, so the type
    // scope matches none of them.
    let plain = Table::new(table.client().clone(), table.name());
    let page = Member::query_gsi1("Oslo").send(&plain).await;
    if common::server() == "ministack" {
        // ministack filters the whole item, then returns the projected
        // attributes (docs/design-notes.md, "Servers").
        assert!(
            matches!(page, Err(Error::Decode(DecodeError::Deserialize { .. }))),
            "{page:?}"
        );
    } else {
        let items = page.unwrap().items;
        assert!(items.is_empty(), "{items:?}");
    }
}

// ---------------------------------------------------------------------------
// LSIs (issue 22, point 1). DynamoDB's Query reference, `Select`: without
// `Select` or a `ProjectionExpression`, a query of an index returns
// `ALL_PROJECTED_ATTRIBUTES`; with `ALL_ATTRIBUTES`, "if you query a local
// secondary index, then for each matching item in the index, DynamoDB
// fetches the entire item from the parent table"; with a
// `ProjectionExpression` (`SPECIFIC_ATTRIBUTES`), the attributes it names
// that the index does not project are fetched from the table
// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-Select>).

/// A task with an optional field, on an `INCLUDE` LSI that leaves it out,
/// a `KEYS_ONLY` multi-attribute GSI and a `KEYS_ONLY` sharded GSI.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PROJ#<project>"]
#[sk = "TASK#<task_id>"]
#[lsi1(sk = "DUE#<due>")]
#[gsi1(pk(tenant), sk(rank))]
#[gsi2(pk = "FEED#<tenant>#<shard>", sk = "<task_id>", shards = 4)]
struct Task {
    project: String,
    task_id: String,
    due: String,
    tenant: String,
    rank: i64,
    title: String,
    assignee: Option<String>,
}

#[derive(stamp::Projection, Deserialize, Debug, PartialEq)]
#[stamp(entity = Task)]
struct TaskAssignee {
    task_id: String,
    assignee: Option<String>,
}

fn task(id: &str, assignee: Option<&str>) -> Task {
    Task {
        project: "p-1".to_owned(),
        task_id: id.to_owned(),
        due: format!("2026-07-0{}", id.len()),
        tenant: "t-1".to_owned(),
        rank: id.len() as i64,
        title: format!("title {id}"),
        assignee: assignee.map(str::to_owned),
    }
}

fn task_definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Task>()
        .index_projection(
            "LSI1",
            IndexProjection::Include(vec!["title".into(), "Type".into()]),
        )
        .index_projection("GSI1", IndexProjection::KeysOnly)
        .index_projection("GSI2", IndexProjection::KeysOnly)
}

/// The `Select` and `ProjectionExpression` of every `Query` a client sends,
/// read from the JSON bodies on the wire.
#[derive(Debug, Clone, Default)]
struct Selects(std::sync::Arc<std::sync::Mutex<Vec<Sent>>>);

/// A request's `Select` and `ProjectionExpression`.
type Sent = (Option<String>, Option<String>);

impl aws_sdk_dynamodb::config::Intercept for Selects {
    fn name(&self) -> &'static str {
        "Selects"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        if request.headers().get("x-amz-target") == Some("DynamoDB_20120810.Query") {
            let body: serde_json::Value = request
                .body()
                .bytes()
                .and_then(|bytes| serde_json::from_slice(bytes).ok())
                .unwrap_or_default();
            let text = |name: &str| body[name].as_str().map(str::to_owned);
            self.0
                .lock()
                .unwrap()
                .push((text("Select"), text("ProjectionExpression")));
        }
        Ok(())
    }
}

impl Selects {
    fn take(&self) -> Vec<Sent> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

async fn task_table(test: &str) -> (Table, Selects) {
    let selects = Selects::default();
    let config = stamp::local::config(&common::endpoint())
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .interceptor(selects.clone())
        .build();
    let name = format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple());
    let table = Table::new(aws_sdk_dynamodb::Client::from_conf(config), name);
    table.create_table(&task_definition()).await.unwrap();
    table.put(&task("a", Some("ann"))).await.unwrap();
    table.put(&task("bb", None)).await.unwrap();
    selects.take();
    (table, selects)
}

#[tokio::test]
async fn an_include_lsi_reads_back_the_fields_it_does_not_project() {
    let (table, selects) = task_table("projection-lsi-include").await;
    let expected = vec![task("a", Some("ann")), task("bb", None)];
    let known = table.clone().with_definition(&task_definition()).unwrap();
    for table in [&table, &known] {
        let page = Task::query_lsi1("p-1").send(table).await;
        if common::server() == "ministack" {
            // ministack answers every query of an index with the index's
            // projected attributes, whatever `Select` asks (docs/design-notes.md,
            // "Servers").
            assert!(
                matches!(page, Err(Error::Decode(DecodeError::Deserialize { .. }))),
                "{page:?}"
            );
            continue;
        }
        assert_eq!(page.unwrap().items, expected);
        let streamed: Vec<Task> = Task::query_lsi1("p-1")
            .stream(table)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(streamed, expected);
        // A filter on an attribute the LSI does not project.
        let assigned = Task::query_lsi1("p-1")
            .filter(Task::ASSIGNEE.eq(&"ann".to_owned()))
            .send(table)
            .await
            .unwrap();
        assert_eq!(assigned.items, [task("a", Some("ann"))]);
        // A projection of fields the LSI does not project.
        let assignees = Task::query_lsi1("p-1")
            .project::<TaskAssignee>()
            .send(table)
            .await;
        assert_eq!(
            assignees.unwrap().items,
            [
                TaskAssignee {
                    task_id: "a".into(),
                    assignee: Some("ann".into())
                },
                TaskAssignee {
                    task_id: "bb".into(),
                    assignee: None
                }
            ]
        );
    }
    // On the wire: the entity queries and the projection alike ask for
    // every attribute, with no `ProjectionExpression` (docs/design-notes.md,
    // "Index projections in queries").
    let sent = selects.take();
    let all_attributes = (Some("ALL_ATTRIBUTES".to_owned()), None);
    if common::server() == "ministack" {
        assert_eq!(sent, [all_attributes.clone(), all_attributes]);
    } else {
        assert_eq!(sent, vec![all_attributes; 8]);
    }
    // The request a query would send says so too.
    let request = Task::query_lsi1("p-1").request("t").unwrap();
    assert_eq!(
        request.select(),
        Some(&aws_sdk_dynamodb::types::Select::AllAttributes)
    );
    let request = Task::query_lsi1("p-1")
        .project::<TaskAssignee>()
        .request("t")
        .unwrap();
    assert_eq!(
        request.select(),
        Some(&aws_sdk_dynamodb::types::Select::AllAttributes)
    );
    assert_eq!(request.projection_expression(), None);
    // The table and a GSI (where `ALL_ATTRIBUTES` needs an `ALL` projection)
    // send no `Select`.
    assert_eq!(Task::query("p-1").request("t").unwrap().select(), None);
    assert_eq!(Task::query_gsi1("t-1").request("t").unwrap().select(), None);
    table.delete_table().await.unwrap();
}

#[tokio::test]
async fn a_keys_only_lsi_reads_whole_entities() {
    let (table, _) = table("projection-lsi-keys-only", IndexProjection::All).await;
    let plain = Table::new(table.client().clone(), table.name());
    for table in [&table, &plain] {
        assert_eq!(Member::query_lsi1("c-1").count(table).await.unwrap(), 1);
        let page = Member::query_lsi1("c-1").send(table).await;
        if common::server() == "ministack" {
            // Only the projected attributes, whatever `Select` asks
            // (docs/design-notes.md, "Servers").
            assert!(
                matches!(page, Err(Error::Decode(DecodeError::Deserialize { .. }))),
                "{page:?}"
            );
            continue;
        }
        assert_eq!(page.unwrap().items, [member("c-1")]);
        let email = Member::query_lsi1("c-2")
            .project::<MemberEmail>()
            .send(table)
            .await
            .unwrap();
        assert_eq!(
            email.items,
            [MemberEmail {
                email: "c-2@example.com".into()
            }]
        );
    }
    table.delete_table().await.unwrap();
}

// ---------------------------------------------------------------------------
// Every GSI kind is checked (issue 22, point 2): a multi-attribute GSI and a
// sharded one, as a template GSI.

#[tokio::test]
async fn keys_only_multi_attribute_and_sharded_gsis_refuse_entity_queries() {
    let (table, _) = task_table("projection-every-gsi").await;
    let (counter_client, counter) = common::counting_client();
    let known = Table::new(counter_client, table.name())
        .with_definition(&task_definition())
        .unwrap();
    let missing_of = |error: Error| match error {
        Error::Refused(Refusal::AttributesNotProjected {
            entity: "Task",
            index,
            missing,
            ..
        }) => (index, missing),
        other => panic!("not AttributesNotProjected: {other:?}"),
    };
    let fields: Vec<String> = ["project", "task_id", "due", "title", "assignee", "Type"]
        .map(String::from)
        .to_vec();
    let error = Task::query_gsi1("t-1").send(&known).await.unwrap_err();
    // `tenant` and `rank` are the index's key attributes.
    assert_eq!(missing_of(error), ("GSI1", fields.clone()));
    let error = Task::query_gsi2("t-1").send(&known).await.unwrap_err();
    let mut sharded = fields.clone();
    sharded.insert(3, "tenant".into());
    sharded.insert(4, "rank".into());
    assert_eq!(missing_of(error), ("GSI2", sharded));
    for error in [
        Task::query_gsi1("t-1").count(&known).await.unwrap_err(),
        Task::query_gsi2("t-1").count(&known).await.unwrap_err(),
    ] {
        assert_eq!(missing_of(error).1, ["Type"]);
    }
    use futures::StreamExt;
    let first = Task::query_gsi1("t-1").stream(&known).next().await;
    assert!(
        matches!(
            first,
            Some(Err(Error::Refused(Refusal::AttributesNotProjected { .. })))
        ),
        "{first:?}"
    );
    let first = Task::query_gsi2("t-1").stream(&known).next().await;
    assert!(
        matches!(
            first,
            Some(Err(Error::Refused(Refusal::AttributesNotProjected { .. })))
        ),
        "{first:?}"
    );
    assert_eq!(counter.count("Query"), 0, "{:?}", counter.operations());
    table.delete_table().await.unwrap();
}

#[test]
fn with_definition_checks_the_definition() {
    let client = common::client();
    let error = Table::new(client, "t")
        .with_definition(&TableDefinition::new())
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::EmptyTableDefinition)
        ),
        "{error}"
    );
}
