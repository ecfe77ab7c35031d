//! Sending requests: the only code that calls `.send()` on an SDK client
//! (`grep -rn '\.send()' stamp-core/src` finds this file alone).
//!
//! - DynamoDB: each operation is its SDK input type (`PutItemInput`,
//!   `QueryInput`, …): what a builder of Stamp plans is that value, and
//!   [`Operation::dispatch`] (its impls in `operations.rs`, each written by
//!   [`dispatch!`]) copies every one of its fields into the fluent builder,
//!   so the request on the wire is the input that `request()` shows. The
//!   pipeline around a dispatch (span, consumed capacity, item-collection
//!   metrics, the record of attempts, the retry policy, failure mapping) is
//!   the executor's (`executor.rs`).
//! - DynamoDB Streams ([`streams`], feature `streams`) and S3 ([`s3`],
//!   feature `s3`): the change feed's and the export's requests, each in its
//!   `stamp.request` span, retried by the SDK's standard retry policy (which
//!   classifies throttling, such as S3's `SlowDown`, and transient errors
//!   by their reason), and, for S3, counted.

use std::future::Future;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{
    ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
};

use super::executor::Plugins;

/// One DynamoDB operation, as its SDK input.
pub(crate) trait Operation: Sized + Send + 'static {
    /// DynamoDB's name of the operation, such as `PutItem`: the span's
    /// `operation`, and the name in errors.
    const NAME: &'static str;
    /// The SDK's output.
    type Output: Send;
    /// The SDK's error of the operation.
    type Error: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static;

    /// Sends the input through `client`, with `plugins` (the executor's
    /// interceptor and retry policy) on this one request.
    fn dispatch(
        self,
        client: &Client,
        plugins: &Plugins,
    ) -> impl Future<Output = Result<Self::Output, SdkError<Self::Error, HttpResponse>>> + Send;

    /// The input's `ReturnConsumedCapacity`, for the operations that have one.
    fn return_consumed_capacity(&mut self) -> Option<&mut Option<ReturnConsumedCapacity>> {
        None
    }

    /// The input's `ReturnItemCollectionMetrics`, for the writes that have one.
    fn return_item_collection_metrics(
        &mut self,
    ) -> Option<&mut Option<ReturnItemCollectionMetrics>> {
        None
    }

    /// The `ConsumedCapacity` of the answer: one per table (and index, with
    /// `INDEXES`) for batches and transactions, else at most one.
    fn consumed_capacity(_output: &Self::Output) -> &[ConsumedCapacity] {
        &[]
    }

    /// The item-collection metrics of the answer, for table `table`.
    fn item_collection_metrics<'o>(
        _output: &'o Self::Output,
        _table: &str,
    ) -> Vec<&'o ItemCollectionMetrics> {
        Vec::new()
    }

    /// The items the answer holds, when it holds items.
    fn item_count(_output: &Self::Output) -> Option<usize> {
        None
    }
}

/// The SDK client of `table`: the executor's, for [`Operation::dispatch`].
pub(crate) fn client(table: &Table) -> &Client {
    table.client()
}

/// Waits, up to `timeout`, until `table` is `ACTIVE` (the SDK's
/// `TableExists` waiter, which polls `DescribeTable`); the waiter's error as
/// text otherwise.
pub(crate) async fn wait_until_active(
    table: &Table,
    timeout: std::time::Duration,
) -> Result<(), String> {
    use aws_sdk_dynamodb::client::Waiters;
    let span = super::span::request_span("DescribeTable", table.name(), "", "", None);
    tracing::Instrument::instrument(
        table
            .client()
            .wait_until_table_exists()
            .table_name(table.name())
            .wait(timeout),
        span,
    )
    .await
    .map(|_| ())
    .map_err(|error| error.to_string())
}

/// The dispatch of an operation: the client's fluent builder `$method`,
/// each field of the input given to its setter (every field of the input,
/// listed or in a `+ group` of [`setters!`], so what is sent is what
/// `request()` shows), the executor's plugins on this one request, and
/// `.send()`.
macro_rules! dispatch {
    ($method:ident { $($setter:ident($field:ident)),* $(,)? } $(+ $group:ident)*) => {
        fn dispatch(
            self,
            client: &Client,
            plugins: &Plugins,
        ) -> impl Future<Output = Result<Self::Output, SdkError<Self::Error, HttpResponse>>> + Send
        {
            let builder = client.$method()$(.$setter(self.$field))*;
            $(let builder = $crate::request::dispatch::setters!($group, builder, self);)*
            plugins.apply(builder.customize()).send()
        }
    };
}

/// The fields several inputs share, by group: `conditional_write` (a put,
/// delete or update: the condition, its placeholders, what to return) and
/// `read` (a query or scan: index, projection, filter, page).
macro_rules! setters {
    (conditional_write, $builder:expr, $input:ident) => {
        $builder
            .set_expected($input.expected)
            .set_conditional_operator($input.conditional_operator)
            .set_return_values($input.return_values)
            .set_return_consumed_capacity($input.return_consumed_capacity)
            .set_return_item_collection_metrics($input.return_item_collection_metrics)
            .set_condition_expression($input.condition_expression)
            .set_expression_attribute_names($input.expression_attribute_names)
            .set_expression_attribute_values($input.expression_attribute_values)
            .set_return_values_on_condition_check_failure(
                $input.return_values_on_condition_check_failure,
            )
    };
    (read, $builder:expr, $input:ident) => {
        $builder
            .set_index_name($input.index_name)
            .set_select($input.select)
            .set_attributes_to_get($input.attributes_to_get)
            .set_limit($input.limit)
            .set_consistent_read($input.consistent_read)
            .set_conditional_operator($input.conditional_operator)
            .set_exclusive_start_key($input.exclusive_start_key)
            .set_return_consumed_capacity($input.return_consumed_capacity)
            .set_projection_expression($input.projection_expression)
            .set_filter_expression($input.filter_expression)
            .set_expression_attribute_names($input.expression_attribute_names)
            .set_expression_attribute_values($input.expression_attribute_values)
    };
}

use crate::request::table::Table;
pub(crate) use {dispatch, setters};

/// The change feed's DynamoDB Streams operations, on the Streams client: the
/// only `.send()`s of that client. Each runs in its `stamp.request` span;
/// the feed maps their errors (`Error::DynamoDbStreams`).
#[cfg(feature = "streams")]
pub(crate) mod streams {
    use aws_sdk_dynamodbstreams::Client;
    use aws_sdk_dynamodbstreams::config::http::HttpResponse;
    use aws_sdk_dynamodbstreams::error::SdkError;
    use aws_sdk_dynamodbstreams::operation::describe_stream::{
        DescribeStreamError, DescribeStreamInput, DescribeStreamOutput,
    };
    use aws_sdk_dynamodbstreams::operation::get_records::{
        GetRecordsError, GetRecordsInput, GetRecordsOutput,
    };
    use aws_sdk_dynamodbstreams::operation::get_shard_iterator::{
        GetShardIteratorError, GetShardIteratorInput, GetShardIteratorOutput,
    };
    use tracing::Instrument;

    use crate::request::span::request_span;

    /// DynamoDB Streams' names of its operations: the spans' `operation`,
    /// and the name in errors.
    pub(crate) const DESCRIBE_STREAM: &str = "DescribeStream";
    /// See [`DESCRIBE_STREAM`].
    pub(crate) const GET_SHARD_ITERATOR: &str = "GetShardIterator";
    /// See [`DESCRIBE_STREAM`].
    pub(crate) const GET_RECORDS: &str = "GetRecords";

    /// `DescribeStream` of the stream of table `table`.
    pub(crate) async fn describe_stream(
        client: &Client,
        table: &str,
        input: DescribeStreamInput,
    ) -> Result<DescribeStreamOutput, SdkError<DescribeStreamError, HttpResponse>> {
        client
            .describe_stream()
            .set_stream_arn(input.stream_arn)
            .set_limit(input.limit)
            .set_exclusive_start_shard_id(input.exclusive_start_shard_id)
            .set_shard_filter(input.shard_filter)
            .send()
            .instrument(request_span(DESCRIBE_STREAM, table, "", "", None))
            .await
    }

    /// `GetShardIterator` of a shard of the stream of table `table`.
    pub(crate) async fn get_shard_iterator(
        client: &Client,
        table: &str,
        input: GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput, SdkError<GetShardIteratorError, HttpResponse>> {
        client
            .get_shard_iterator()
            .set_stream_arn(input.stream_arn)
            .set_shard_id(input.shard_id)
            .set_shard_iterator_type(input.shard_iterator_type)
            .set_sequence_number(input.sequence_number)
            .set_timestamp(input.timestamp)
            .send()
            .instrument(request_span(GET_SHARD_ITERATOR, table, "", "", None))
            .await
    }

    /// `GetRecords` of a shard of the stream of table `table`.
    pub(crate) async fn get_records(
        client: &Client,
        table: &str,
        input: GetRecordsInput,
    ) -> Result<GetRecordsOutput, SdkError<GetRecordsError, HttpResponse>> {
        let span = request_span(GET_RECORDS, table, "", "", None);
        let output = client
            .get_records()
            .set_shard_iterator(input.shard_iterator)
            .set_limit(input.limit)
            .send()
            .instrument(span.clone())
            .await?;
        span.record("item_count", output.records().len());
        Ok(output)
    }
}

/// The export's S3 requests (feature `s3`), on the caller's S3 client: the
/// only `.send()`s of that client. Each runs in its `stamp.request` span
/// (`operation`, `bucket`, `key`) and is counted ([`S3::requests`], which
/// the export reports as `ExportOutcome::s3_requests`); the SDK's standard
/// retry policy retries throttling (`SlowDown`) and transient errors by
/// their reason, every one of these requests being safe to send again
/// (an object or part written twice holds the same bytes; see
/// <https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html>).
/// The export maps their errors (`ExportObjectReason::Request`).
#[cfg(feature = "s3")]
pub(crate) mod s3 {
    use std::future::Future;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use aws_sdk_s3::Client;
    use aws_sdk_s3::config::http::HttpResponse;
    use aws_sdk_s3::error::SdkError;
    use aws_sdk_s3::operation::abort_multipart_upload::AbortMultipartUploadError;
    use aws_sdk_s3::operation::complete_multipart_upload::CompleteMultipartUploadError;
    use aws_sdk_s3::operation::create_multipart_upload::{
        CreateMultipartUploadError, CreateMultipartUploadOutput,
    };
    use aws_sdk_s3::operation::get_object::{GetObjectError, GetObjectOutput};
    use aws_sdk_s3::operation::list_objects_v2::{ListObjectsV2Error, ListObjectsV2Output};
    use aws_sdk_s3::operation::put_object::PutObjectError;
    use aws_sdk_s3::operation::upload_part::{UploadPartError, UploadPartOutput};
    use aws_sdk_s3::primitives::ByteStream;
    use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
    use tracing::Instrument;

    /// The result of an S3 request.
    pub(crate) type S3Result<T, E> = Result<T, SdkError<E, HttpResponse>>;

    /// An S3 client and the count of the requests sent through it (shared by
    /// its clones).
    #[derive(Debug, Clone)]
    pub(crate) struct S3 {
        client: Client,
        requests: Arc<AtomicU64>,
    }

    impl S3 {
        pub(crate) fn new(client: Client) -> Self {
            S3 {
                client,
                requests: Arc::default(),
            }
        }

        /// The requests sent so far (an SDK retry is an attempt of the
        /// same request, not counted again).
        pub(crate) fn requests(&self) -> u64 {
            self.requests.load(Ordering::Relaxed)
        }

        /// Sends `request`, counted, in its span.
        async fn send<T>(
            &self,
            operation: &'static str,
            bucket: &str,
            key: &str,
            request: impl Future<Output = T>,
        ) -> T {
            self.requests.fetch_add(1, Ordering::Relaxed);
            request
                .instrument(tracing::debug_span!(
                    "stamp.request",
                    operation,
                    bucket,
                    key
                ))
                .await
        }

        /// `ListObjectsV2` of at most `max_keys` keys under `prefix`.
        pub(crate) async fn list_objects(
            &self,
            bucket: &str,
            prefix: &str,
            max_keys: i32,
        ) -> S3Result<ListObjectsV2Output, ListObjectsV2Error> {
            let request = self
                .client
                .list_objects_v2()
                .bucket(bucket)
                .prefix(prefix)
                .max_keys(max_keys)
                .send();
            self.send("ListObjectsV2", bucket, prefix, request).await
        }

        /// `PutObject` of `body` under `key`.
        pub(crate) async fn put_object(
            &self,
            bucket: &str,
            key: &str,
            body: Vec<u8>,
        ) -> S3Result<(), PutObjectError> {
            let request = self
                .client
                .put_object()
                .bucket(bucket)
                .key(key)
                .body(ByteStream::from(body))
                .send();
            self.send("PutObject", bucket, key, request).await.map(drop)
        }

        /// `GetObject` of `key`, its body streamed.
        pub(crate) async fn get_object(
            &self,
            bucket: &str,
            key: &str,
        ) -> S3Result<GetObjectOutput, GetObjectError> {
            let request = self.client.get_object().bucket(bucket).key(key).send();
            self.send("GetObject", bucket, key, request).await
        }

        /// `CreateMultipartUpload` of `key`.
        pub(crate) async fn create_multipart_upload(
            &self,
            bucket: &str,
            key: &str,
        ) -> S3Result<CreateMultipartUploadOutput, CreateMultipartUploadError> {
            let request = self
                .client
                .create_multipart_upload()
                .bucket(bucket)
                .key(key)
                .send();
            self.send("CreateMultipartUpload", bucket, key, request)
                .await
        }

        /// `UploadPart` number `part_number` (from 1) of the upload
        /// `upload_id` of `key`.
        pub(crate) async fn upload_part(
            &self,
            bucket: &str,
            key: &str,
            upload_id: &str,
            part_number: i32,
            body: Vec<u8>,
        ) -> S3Result<UploadPartOutput, UploadPartError> {
            let request = self
                .client
                .upload_part()
                .bucket(bucket)
                .key(key)
                .upload_id(upload_id)
                .part_number(part_number)
                .body(ByteStream::from(body))
                .send();
            self.send("UploadPart", bucket, key, request).await
        }

        /// `CompleteMultipartUpload` of the upload `upload_id` of `key`
        /// from `parts`.
        pub(crate) async fn complete_multipart_upload(
            &self,
            bucket: &str,
            key: &str,
            upload_id: &str,
            parts: Vec<CompletedPart>,
        ) -> S3Result<(), CompleteMultipartUploadError> {
            let request = self
                .client
                .complete_multipart_upload()
                .bucket(bucket)
                .key(key)
                .upload_id(upload_id)
                .multipart_upload(
                    CompletedMultipartUpload::builder()
                        .set_parts(Some(parts))
                        .build(),
                )
                .send();
            self.send("CompleteMultipartUpload", bucket, key, request)
                .await
                .map(drop)
        }

        /// `AbortMultipartUpload` of the upload `upload_id` of `key`.
        pub(crate) async fn abort_multipart_upload(
            &self,
            bucket: &str,
            key: &str,
            upload_id: &str,
        ) -> S3Result<(), AbortMultipartUploadError> {
            let request = self
                .client
                .abort_multipart_upload()
                .bucket(bucket)
                .key(key)
                .upload_id(upload_id)
                .send();
            self.send("AbortMultipartUpload", bucket, key, request)
                .await
                .map(drop)
        }
    }
}
