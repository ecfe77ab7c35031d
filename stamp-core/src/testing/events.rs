//! Lambda events from a table's stream: [`LambdaEvents`].

use aws_sdk_dynamodbstreams::primitives::Blob;
use aws_sdk_dynamodbstreams::types::{AttributeValue, Record};
use base64::Engine;
use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::request::table::Table;
use crate::streams::feed::ChangeFeed;
use crate::streams::{Checkpoint, Event, StreamsClient};

/// Lambda's default batch size for a DynamoDB Streams event source
/// (`BatchSize` of the event source mapping: 100, at most 10,000).
///
/// See <https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html>.
pub const DEFAULT_BATCH_SIZE: usize = 100;

/// The most records Lambda puts in one batch of a DynamoDB stream
/// (`BatchSize` at most 10,000).
pub const MAX_BATCH_SIZE: usize = 10_000;

/// The records of a table's DynamoDB stream as the events a Lambda function
/// receives: `aws_lambda_events`' DynamoDB [`Event`]
/// (`{"Records": [...]}`), in batches of a chosen size, each record with the
/// envelope Lambda delivers (`eventID`, `eventName`, `eventVersion`,
/// `eventSource` = `aws:dynamodb`, `awsRegion`, `dynamodb` with `Keys`,
/// `NewImage`, `OldImage`, `SequenceNumber`, `SizeBytes`,
/// `StreamViewType` and `ApproximateCreationDateTime`, `userIdentity` for a
/// TTL deletion) and the field Lambda adds, `eventSourceARN` (the stream's
/// ARN). A record the server leaves without `eventSource`,
/// `eventVersion` or `awsRegion` gets `aws:dynamodb`, `1.1` and the
/// Streams client's region.
///
/// It reads the stream as the change feed does ([`Table::changes`]: every
/// shard, each after its parent, every page), from the oldest record, or
/// after a [`Checkpoint`] ([`since`](Self::since)): "the records since a
/// point". Like Lambda's event source mapping, a batch holds records of one
/// shard, in order, and at most [`batch_size`](Self::batch_size) of them.
/// Feature `local` and `streams`.
///
/// See <https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html> (the
/// event and its batching) and
/// <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Record.html>
/// (the record).
///
/// # Example
///
/// ```ignore
/// use stamp::testing::LambdaEvents;
///
/// let mut events = LambdaEvents::new(&table, dynamodb.streams_client());
/// events.skip_existing().await?;          // only what the test does next
/// table.put(&order).await?;
/// for event in events.batches().await? {
///     let response = my_handler(event).await;
///     assert!(response.batch_item_failures.is_empty());
/// }
/// ```
#[derive(Debug)]
pub struct LambdaEvents {
    feed: ChangeFeed<Raw>,
    region: String,
    batch_size: usize,
    /// A record read past the end of a batch (another shard's): the first
    /// of the next.
    pending: Option<(String, Value)>,
}

/// The feed's marker: records are read raw, not decoded.
#[derive(Debug)]
struct Raw;

impl LambdaEvents {
    /// The events of `table`'s stream, read through `streams` (such as
    /// [`LocalDynamoDb::streams_client`](crate::local::LocalDynamoDb::streams_client)
    /// or [`local::streams_client`](crate::local::streams_client)), from the
    /// oldest record of every shard, in batches of
    /// [`DEFAULT_BATCH_SIZE`].
    pub fn new(table: &Table, streams: StreamsClient) -> Self {
        let region = streams
            .config()
            .region()
            .map_or_else(|| "us-east-1".to_owned(), |region| region.to_string());
        LambdaEvents {
            feed: crate::streams::feed::changes(table, streams),
            region,
            batch_size: DEFAULT_BATCH_SIZE,
            pending: None,
        }
    }

    /// Only the records after `checkpoint` (from [`checkpoint`](Self::checkpoint)
    /// of an earlier reader, or a change feed's): the records since a point.
    pub fn since(mut self, checkpoint: Checkpoint) -> Self {
        self.feed = self.feed.resume(checkpoint);
        self
    }

    /// At most `size` records per event, clamped to 1 to [`MAX_BATCH_SIZE`]
    /// as Lambda's `BatchSize` is (default [`DEFAULT_BATCH_SIZE`]).
    pub fn batch_size(mut self, size: usize) -> Self {
        self.batch_size = size.clamp(1, MAX_BATCH_SIZE);
        self
    }

    /// The point after every record returned (or skipped) so far, for
    /// [`since`](Self::since); `None` before the first read. A batch ends
    /// where the next record is another shard's: that record, held for the
    /// next batch, is counted too.
    pub fn checkpoint(&self) -> Option<&Checkpoint> {
        self.feed.checkpoint()
    }

    /// Reads past every record the stream holds now, so that the next
    /// batches hold only later records; the point it stopped at.
    ///
    /// # Errors
    ///
    /// As [`batches`](Self::batches).
    pub async fn skip_existing(&mut self) -> Result<Checkpoint, Error> {
        self.pending = None;
        while self.feed.next_ready_record().await?.is_some() {}
        Ok(self
            .feed
            .checkpoint()
            .cloned()
            .expect("a started feed has a checkpoint"))
    }

    /// The next event: at most [`batch_size`](Self::batch_size) records of
    /// one shard that the stream holds now, in order; `None` when it holds
    /// no record after the ones returned.
    ///
    /// # Errors
    ///
    /// [`JobError::StreamNotEnabled`](crate::JobError::StreamNotEnabled)
    /// when the table has no stream, and the errors of `DescribeTable`,
    /// `DescribeStream`, `GetShardIterator` and `GetRecords`
    /// ([`Error::DynamoDb`], [`Error::DynamoDbStreams`]). After an error,
    /// the next call reads from where the reader stood.
    pub async fn next_batch(&mut self) -> Result<Option<Event>, Error> {
        let mut records = Vec::new();
        let mut shard: Option<String> = None;
        while records.len() < self.batch_size {
            if let Some(pending) = self.pending.take() {
                // Held back from the previous batch: another shard's record.
                let (shard_id, record) = pending;
                shard = Some(shard_id);
                records.push(record);
                continue;
            }
            let Some((shard_id, record)) = self.feed.next_ready_record().await? else {
                break;
            };
            let record = self.lambda_record(record);
            match &shard {
                Some(current) if *current != shard_id => {
                    self.pending = Some((shard_id, record));
                    break;
                }
                _ => {
                    shard = Some(shard_id);
                    records.push(record);
                }
            }
        }
        if records.is_empty() {
            return Ok(None);
        }
        Ok(Some(event(records)))
    }

    /// Every record the stream holds now after the ones returned, as
    /// events of at most [`batch_size`](Self::batch_size) records of one
    /// shard each (empty when there is none): what Lambda would invoke the
    /// function with, batch after batch.
    ///
    /// # Errors
    ///
    /// As [`next_batch`](Self::next_batch).
    pub async fn batches(&mut self) -> Result<Vec<Event>, Error> {
        let mut events = Vec::new();
        while let Some(event) = self.next_batch().await? {
            events.push(event);
        }
        Ok(events)
    }

    /// One record of `GetRecords` as Lambda delivers it, as JSON.
    fn lambda_record(&self, record: Record) -> Value {
        let arn = self.feed.stream_arn().unwrap_or_default().to_owned();
        let mut out = Map::new();
        out.insert("eventID".into(), json!(record.event_id.unwrap_or_default()));
        out.insert(
            "eventName".into(),
            json!(
                record
                    .event_name
                    .map(|name| name.as_str().to_owned())
                    .unwrap_or_default()
            ),
        );
        out.insert(
            "eventVersion".into(),
            json!(record.event_version.unwrap_or_else(|| "1.1".to_owned())),
        );
        out.insert(
            "eventSource".into(),
            json!(
                record
                    .event_source
                    .unwrap_or_else(|| "aws:dynamodb".to_owned())
            ),
        );
        out.insert(
            "awsRegion".into(),
            json!(record.aws_region.unwrap_or_else(|| self.region.clone())),
        );
        let mut change = Map::new();
        if let Some(stream) = record.dynamodb {
            if let Some(time) = stream.approximate_creation_date_time {
                change.insert(
                    "ApproximateCreationDateTime".into(),
                    json!(time.secs() as f64 + f64::from(time.subsec_nanos()) / 1e9),
                );
            }
            for (name, image) in [
                ("Keys", stream.keys),
                ("NewImage", stream.new_image),
                ("OldImage", stream.old_image),
            ] {
                if let Some(image) = image {
                    change.insert(name.into(), image_json(image));
                }
            }
            if let Some(sequence_number) = stream.sequence_number {
                change.insert("SequenceNumber".into(), json!(sequence_number));
            }
            change.insert("SizeBytes".into(), json!(stream.size_bytes.unwrap_or(0)));
            if let Some(view) = stream.stream_view_type {
                change.insert("StreamViewType".into(), json!(view.as_str()));
            }
        }
        out.insert("dynamodb".into(), Value::Object(change));
        if let Some(identity) = record.user_identity {
            out.insert(
                "userIdentity".into(),
                json!({
                    "type": identity.r#type.unwrap_or_default(),
                    "principalId": identity.principal_id.unwrap_or_default(),
                }),
            );
        }
        out.insert("eventSourceARN".into(), json!(arn));
        Value::Object(out)
    }
}

/// The event of `records` (Lambda's JSON records).
fn event(records: Vec<Value>) -> Event {
    serde_json::from_value(json!({ "Records": records }))
        .expect("the records are Lambda's DynamoDB event records")
}

/// An image or key map in DynamoDB JSON (`{"name": {"S": "…"}}`).
fn image_json(image: std::collections::HashMap<String, AttributeValue>) -> Value {
    Value::Object(
        image
            .into_iter()
            .map(|(name, value)| (name, value_json(value)))
            .collect(),
    )
}

/// One attribute value in DynamoDB JSON.
fn value_json(value: AttributeValue) -> Value {
    let blob = |blob: Blob| json!(base64::engine::general_purpose::STANDARD.encode(blob.as_ref()));
    match value {
        AttributeValue::S(text) => json!({ "S": text }),
        AttributeValue::N(number) => json!({ "N": number }),
        AttributeValue::B(value) => json!({ "B": blob(value) }),
        AttributeValue::Bool(value) => json!({ "BOOL": value }),
        AttributeValue::Null(value) => json!({ "NULL": value }),
        AttributeValue::Ss(values) => json!({ "SS": values }),
        AttributeValue::Ns(values) => json!({ "NS": values }),
        AttributeValue::Bs(values) => {
            json!({ "BS": values.into_iter().map(blob).collect::<Vec<_>>() })
        }
        AttributeValue::L(values) => {
            json!({ "L": values.into_iter().map(value_json).collect::<Vec<_>>() })
        }
        AttributeValue::M(map) => json!({ "M": image_json(map) }),
        _ => json!({ "NULL": true }),
    }
}
