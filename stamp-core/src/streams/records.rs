//! The requests of the change feed that need no state: `DescribeStream`
//! with every page, a `GetRecords` record decoded into a [`Change`], and
//! Streams SDK errors wrapped as [`Error::DynamoDbStreams`].

use aws_sdk_dynamodbstreams::Client as StreamsClient;
use aws_sdk_dynamodbstreams::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodbstreams::operation::describe_stream::DescribeStreamInput;
use aws_sdk_dynamodbstreams::types::{Record, StreamStatus};
use chrono::{DateTime, Utc};

use super::shards::{ShardInfo, item};
use super::{Change, RecordParts};
use crate::error::Error;
use crate::error::JobError;
use crate::model::collection::Collection;
use crate::model::entity::AttributeMap;

/// Every shard of the stream (all pages of `DescribeStream`), and whether
/// the stream is `DISABLED`.
pub(crate) async fn describe_stream(
    client: &StreamsClient,
    table: &str,
    stream_arn: &str,
) -> Result<(Vec<ShardInfo>, bool), Error> {
    let mut shards = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let input = DescribeStreamInput::builder()
            .stream_arn(stream_arn)
            .set_exclusive_start_shard_id(start.take())
            .build()
            .expect("DescribeStreamInput has no required fields");
        let output = crate::request::dispatch::streams::describe_stream(client, table, input)
            .await
            .map_err(|error| {
                streams_error(
                    crate::request::dispatch::streams::DESCRIBE_STREAM,
                    table,
                    error,
                )
            })?;
        let Some(description) = output.stream_description else {
            return Ok((shards, false));
        };
        for shard in description.shards.unwrap_or_default() {
            let range = shard.sequence_number_range;
            shards.push(ShardInfo {
                id: shard.shard_id.unwrap_or_default(),
                parent: shard.parent_shard_id,
                start: range
                    .as_ref()
                    .and_then(|range| range.starting_sequence_number.clone()),
                end: range.and_then(|range| range.ending_sequence_number),
            });
        }
        match description.last_evaluated_shard_id {
            Some(last) => start = Some(last),
            None => {
                let disabled = description.stream_status == Some(StreamStatus::Disabled);
                return Ok((shards, disabled));
            }
        }
    }
}

/// One `GetRecords` record as a typed change.
pub(crate) fn decode<C: Collection>(record: Record) -> Result<Change<C>, Error> {
    let event_id = record.event_id.unwrap_or_default();
    let stream = record.dynamodb;
    let convert = |map, which: &str| -> Result<AttributeMap, Error> {
        match map {
            None => Ok(AttributeMap::new()),
            Some(map) => item(map).ok_or_else(|| {
                Error::Job(JobError::InvalidStreamRecord {
                    event_id: event_id.clone(),
                    entity: None,
                    key: None,
                    reason: crate::error::StreamRecordReason::UnknownAttributeType {
                        image: which.to_owned(),
                    },
                })
            }),
        }
    };
    let (keys, old, new, view_type, sequence_number, time, size_bytes) = match stream {
        Some(stream) => (
            convert(stream.keys, "Keys")?,
            convert(stream.old_image, "OldImage")?,
            convert(stream.new_image, "NewImage")?,
            stream.stream_view_type.map(|view| view.as_str().to_owned()),
            stream.sequence_number,
            stream.approximate_creation_date_time,
            stream.size_bytes.unwrap_or_default(),
        ),
        None => (
            AttributeMap::new(),
            AttributeMap::new(),
            AttributeMap::new(),
            None,
            None,
            None,
            0,
        ),
    };
    let removed_by_ttl = record.user_identity.as_ref().is_some_and(|identity| {
        identity.r#type.as_deref() == Some("Service")
            && identity.principal_id.as_deref() == Some("dynamodb.amazonaws.com")
    });
    Change::from_parts(RecordParts {
        event_name: record
            .event_name
            .map(|name| name.as_str().to_owned())
            .unwrap_or_default(),
        event_id,
        keys,
        old,
        new,
        view_type,
        sequence_number,
        approximate_creation_date_time: time
            .and_then(|time| DateTime::<Utc>::from_timestamp(time.secs(), time.subsec_nanos())),
        size_bytes,
        removed_by_ttl,
    })
}

/// Wraps a Streams SDK error of `operation` on `table`.
pub(crate) fn streams_error<E>(
    operation: &'static str,
    table: &str,
    error: SdkError<E, aws_sdk_dynamodbstreams::config::http::HttpResponse>,
) -> Error
where
    aws_sdk_dynamodbstreams::Error:
        From<SdkError<E, aws_sdk_dynamodbstreams::config::http::HttpResponse>>,
    E: ProvideErrorMetadata,
{
    let answer = crate::request::failure::answer(&error);
    Error::DynamoDbStreams {
        operation,
        table: table.to_owned(),
        outcome: answer.outcome,
        code: answer.code,
        message: answer.message,
        source: std::sync::Arc::new(aws_sdk_dynamodbstreams::Error::from(error)),
    }
}
