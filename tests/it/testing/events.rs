//! `LambdaEvents`: the table's stream as the events a Lambda function
//! receives.

use aws_sdk_dynamodb::types::StreamViewType;
use stamp::streams::{ChangeKind, Event};
use stamp::testing::LambdaEvents;

use super::model::*;
use crate::common;

async fn streamed_table(test: &str) -> stamp::Table {
    common::fresh_table(test, &definition().stream(StreamViewType::NewAndOldImages)).await
}

fn events_of(table: &stamp::Table) -> LambdaEvents {
    LambdaEvents::new(table, stamp::local::streams_client(&common::endpoint()))
}

async fn stream_arn(table: &stamp::Table) -> String {
    table
        .client()
        .describe_table()
        .table_name(table.name())
        .send()
        .await
        .unwrap()
        .table()
        .unwrap()
        .latest_stream_arn()
        .unwrap()
        .to_owned()
}

/// The customers and orders of each event, decoded as a handler decodes them.
fn described(event: &Event) -> Vec<String> {
    stamp::streams::changes::<CustomerWithOrders>(event.clone())
        .map(|change| {
            let change = change.unwrap();
            let what = match change.new.or(change.old) {
                Some(CustomerWithOrders::Customer(customer)) => customer.customer_id,
                Some(CustomerWithOrders::Order(order)) => format!("order {}", order.order_no),
                other => format!("{other:?}"),
            };
            format!("{:?} {what}", change.kind)
        })
        .collect()
}

#[tokio::test]
async fn the_records_come_as_lambda_events_in_batches_of_the_size_chosen() {
    let table = streamed_table("kit-events").await;
    table.put(&ada()).await.unwrap();
    for n in 1..=4 {
        table.put(&order("c-1", n)).await.unwrap();
    }
    let mut events = events_of(&table).batch_size(2);
    let batches = events.batches().await.unwrap();
    let described: Vec<Vec<String>> = batches.iter().map(described).collect();
    assert_eq!(
        described,
        [
            vec!["Insert c-1".to_owned(), "Insert order 1".to_owned()],
            vec!["Insert order 2".to_owned(), "Insert order 3".to_owned()],
            vec!["Insert order 4".to_owned()],
        ]
    );
    // The envelope Lambda delivers: the record of GetRecords and the
    // stream's ARN as eventSourceARN.
    let arn = stream_arn(&table).await;
    for record in batches.iter().flat_map(|event| &event.records) {
        assert_eq!(record.event_source.as_deref(), Some("aws:dynamodb"));
        assert_eq!(record.event_source_arn.as_deref(), Some(arn.as_str()));
        assert_eq!(record.event_name, "INSERT");
        assert!(record.event_version.is_some());
        assert!(!record.aws_region.is_empty());
        assert!(!record.event_id.is_empty());
        assert!(record.change.sequence_number.is_some());
        assert!(record.change.keys.contains_key("PK"));
        assert!(record.change.keys.contains_key("SK"));
    }
    // Nothing more until something is written.
    assert!(events.next_batch().await.unwrap().is_none());
    assert!(events.batches().await.unwrap().is_empty());
}

#[tokio::test]
async fn the_records_since_a_point_are_the_later_ones_only() {
    let table = streamed_table("kit-events-since").await;
    table.put(&ada()).await.unwrap();
    let mut first = events_of(&table);
    let point = first.skip_existing().await.unwrap();
    table.put(&order("c-1", 1)).await.unwrap();
    let mut changed = order("c-1", 1);
    changed.total_cents = 250;
    table.put(&changed).await.unwrap();
    table.delete(&Order::key("c-1", &1).unwrap()).await.unwrap();

    // The reader that skipped goes on after the point.
    let later: Vec<String> = first
        .batches()
        .await
        .unwrap()
        .iter()
        .flat_map(described)
        .collect();
    assert_eq!(
        later,
        ["Insert order 1", "Modify order 1", "Remove order 1"]
    );

    // A new reader from the point gives the same records.
    let mut resumed = events_of(&table).since(point).batch_size(1);
    let batches = resumed.batches().await.unwrap();
    assert_eq!(batches.len(), 3);
    let kinds: Vec<ChangeKind> = batches
        .iter()
        .flat_map(|event| stamp::streams::changes::<CustomerWithOrders>(event.clone()))
        .map(|change| change.unwrap().kind)
        .collect();
    assert_eq!(
        kinds,
        [ChangeKind::Insert, ChangeKind::Modify, ChangeKind::Remove]
    );
    // The modify's old image is the order before the change.
    let modify = &batches[1].records[0];
    assert_eq!(modify.event_name, "MODIFY");
    let old: Order = serde_dynamo::from_item(modify.change.old_image.clone()).unwrap();
    let new: Order = serde_dynamo::from_item(modify.change.new_image.clone()).unwrap();
    assert_eq!((old, new), (order("c-1", 1), changed));
}

#[tokio::test]
async fn a_table_without_a_stream_is_a_typed_error() {
    let table = common::fresh_table("kit-events-none", &definition()).await;
    let error = events_of(&table).batches().await.unwrap_err();
    assert!(
        matches!(
            &error,
            stamp::Error::Job(stamp::error::JobError::StreamNotEnabled { table: name }) if name == table.name()
        ),
        "{error:?}"
    );
}

/// `LocalDynamoDb::lambda_events`: the embedded server's own reader, as in
/// the docs.
#[tokio::test]
async fn the_embedded_server_hands_its_stream_over_as_lambda_events() {
    let dynamodb = stamp::local::LocalDynamoDb::start().await.unwrap();
    let table = dynamodb.table("shop");
    table
        .create_table(&definition().stream(StreamViewType::NewImage))
        .await
        .unwrap();
    table.put(&ada()).await.unwrap();
    let mut events = dynamodb.lambda_events(&table);
    let event = events.next_batch().await.unwrap().unwrap();
    assert_eq!(described(&event), ["Insert c-1"]);
    assert_eq!(
        event.records[0].event_source_arn.as_deref(),
        Some(stream_arn(&table).await.as_str())
    );
    assert!(events.next_batch().await.unwrap().is_none());
}
