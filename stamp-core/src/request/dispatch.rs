//! The dispatch of each DynamoDB operation: the only code that holds the
//! SDK client's fluent builders and calls `.send()`.
//!
//! Each operation is its SDK input type (`PutItemInput`, `QueryInput`, …):
//! what a builder of Stamp plans is that value, and [`Operation::dispatch`]
//! copies every one of its fields into the fluent builder, so the request on
//! the wire is the input that `request()` shows. The pipeline around a
//! dispatch (span, consumed capacity, item-collection metrics, the record of
//! attempts, the retry policy, failure mapping) is the executor's
//! (`executor.rs`).

use std::future::Future;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::batch_get_item::{
    BatchGetItemError, BatchGetItemInput, BatchGetItemOutput,
};
use aws_sdk_dynamodb::operation::batch_write_item::{
    BatchWriteItemError, BatchWriteItemInput, BatchWriteItemOutput,
};
use aws_sdk_dynamodb::operation::create_table::{
    CreateTableError, CreateTableInput, CreateTableOutput,
};
use aws_sdk_dynamodb::operation::delete_item::{
    DeleteItemError, DeleteItemInput, DeleteItemOutput,
};
use aws_sdk_dynamodb::operation::delete_table::{
    DeleteTableError, DeleteTableInput, DeleteTableOutput,
};
use aws_sdk_dynamodb::operation::describe_table::{
    DescribeTableError, DescribeTableInput, DescribeTableOutput,
};
use aws_sdk_dynamodb::operation::describe_time_to_live::{
    DescribeTimeToLiveError, DescribeTimeToLiveInput, DescribeTimeToLiveOutput,
};
use aws_sdk_dynamodb::operation::get_item::{GetItemError, GetItemInput, GetItemOutput};
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemInput, PutItemOutput};
use aws_sdk_dynamodb::operation::query::{QueryError, QueryInput, QueryOutput};
use aws_sdk_dynamodb::operation::scan::{ScanError, ScanInput, ScanOutput};
use aws_sdk_dynamodb::operation::search_vectors::{
    SearchVectorsError, SearchVectorsInput, SearchVectorsOutput,
};
use aws_sdk_dynamodb::operation::transact_get_items::{
    TransactGetItemsError, TransactGetItemsInput, TransactGetItemsOutput,
};
use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsInput, TransactWriteItemsOutput,
};
use aws_sdk_dynamodb::operation::update_item::{
    UpdateItemError, UpdateItemInput, UpdateItemOutput,
};
use aws_sdk_dynamodb::operation::update_time_to_live::{
    UpdateTimeToLiveError, UpdateTimeToLiveInput, UpdateTimeToLiveOutput,
};
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
pub(crate) fn client(table: &crate::Table) -> &Client {
    table.client()
}

/// Waits, up to `timeout`, until `table` is `ACTIVE` (the SDK's
/// `TableExists` waiter, which polls `DescribeTable`); the waiter's error as
/// text otherwise.
pub(crate) async fn wait_until_active(
    table: &crate::Table,
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
            $(let builder = setters!($group, builder, self);)*
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

/// The `ReturnConsumedCapacity` of an input and the `ConsumedCapacity` of
/// its output: `one` for a request on one table (at most one), `per_table`
/// for a batch or a transaction (one per table).
macro_rules! consumed_capacity {
    (one) => {
        consumed_capacity!(@ask);
        fn consumed_capacity(output: &Self::Output) -> &[ConsumedCapacity] {
            one(&output.consumed_capacity)
        }
    };
    (per_table) => {
        consumed_capacity!(@ask);
        fn consumed_capacity(output: &Self::Output) -> &[ConsumedCapacity] {
            output.consumed_capacity.as_deref().unwrap_or_default()
        }
    };
    (@ask) => {
        fn return_consumed_capacity(&mut self) -> Option<&mut Option<ReturnConsumedCapacity>> {
            Some(&mut self.return_consumed_capacity)
        }
    };
}

/// The `ReturnItemCollectionMetrics` of a write and the metrics of its
/// output: `one` for a write of one item, `per_table` for a batch or a
/// transaction (by table name).
macro_rules! item_collection_metrics {
    (one) => {
        item_collection_metrics!(@ask);
        fn item_collection_metrics<'o>(
            output: &'o Self::Output,
            _table: &str,
        ) -> Vec<&'o ItemCollectionMetrics> {
            output.item_collection_metrics.iter().collect()
        }
    };
    (per_table) => {
        item_collection_metrics!(@ask);
        fn item_collection_metrics<'o>(
            output: &'o Self::Output,
            table: &str,
        ) -> Vec<&'o ItemCollectionMetrics> {
            of_table(&output.item_collection_metrics, table)
        }
    };
    (@ask) => {
        fn return_item_collection_metrics(
            &mut self,
        ) -> Option<&mut Option<ReturnItemCollectionMetrics>> {
            Some(&mut self.return_item_collection_metrics)
        }
    };
}

/// The slice of an optional single value.
fn one<T>(value: &Option<T>) -> &[T] {
    value.as_slice()
}

/// The metrics of `table` in a batch's or transaction's map.
fn of_table<'o>(
    metrics: &'o Option<std::collections::HashMap<String, Vec<ItemCollectionMetrics>>>,
    table: &str,
) -> Vec<&'o ItemCollectionMetrics> {
    metrics
        .as_ref()
        .and_then(|map| map.get(table))
        .into_iter()
        .flatten()
        .collect()
}

impl Operation for GetItemInput {
    const NAME: &'static str = "GetItem";
    type Output = GetItemOutput;
    type Error = GetItemError;

    dispatch!(get_item {
        set_table_name(table_name), set_key(key), set_attributes_to_get(attributes_to_get),
        set_consistent_read(consistent_read),
        set_return_consumed_capacity(return_consumed_capacity),
        set_projection_expression(projection_expression),
        set_expression_attribute_names(expression_attribute_names),
    });

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(usize::from(output.item.is_some()))
    }

    consumed_capacity!(one);
}

impl Operation for PutItemInput {
    const NAME: &'static str = "PutItem";
    type Output = PutItemOutput;
    type Error = PutItemError;

    dispatch!(put_item { set_table_name(table_name), set_item(item) } + conditional_write);

    consumed_capacity!(one);
    item_collection_metrics!(one);
}

impl Operation for DeleteItemInput {
    const NAME: &'static str = "DeleteItem";
    type Output = DeleteItemOutput;
    type Error = DeleteItemError;

    dispatch!(delete_item { set_table_name(table_name), set_key(key) } + conditional_write);

    consumed_capacity!(one);
    item_collection_metrics!(one);
}

impl Operation for UpdateItemInput {
    const NAME: &'static str = "UpdateItem";
    type Output = UpdateItemOutput;
    type Error = UpdateItemError;

    dispatch!(update_item {
        set_table_name(table_name), set_key(key), set_attribute_updates(attribute_updates),
        set_update_expression(update_expression),
    } + conditional_write);

    consumed_capacity!(one);
    item_collection_metrics!(one);
}

impl Operation for QueryInput {
    const NAME: &'static str = "Query";
    type Output = QueryOutput;
    type Error = QueryError;

    dispatch!(query {
        set_table_name(table_name), set_key_conditions(key_conditions),
        set_query_filter(query_filter), set_scan_index_forward(scan_index_forward),
        set_key_condition_expression(key_condition_expression),
    } + read);

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(output.count.max(0) as usize)
    }

    consumed_capacity!(one);
}

impl Operation for ScanInput {
    const NAME: &'static str = "Scan";
    type Output = ScanOutput;
    type Error = ScanError;

    dispatch!(scan {
        set_table_name(table_name), set_scan_filter(scan_filter),
        set_total_segments(total_segments), set_segment(segment),
    } + read);

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(output.count.max(0) as usize)
    }

    consumed_capacity!(one);
}

impl Operation for SearchVectorsInput {
    const NAME: &'static str = "SearchVectors";
    type Output = SearchVectorsOutput;
    type Error = SearchVectorsError;

    dispatch!(search_vectors {
        set_table_name(table_name), set_index_name(index_name),
        set_return_consumed_capacity(return_consumed_capacity),
        set_expression_attribute_names(expression_attribute_names),
        set_expression_attribute_values(expression_attribute_values),
        set_projection_expression(projection_expression), set_search_vector(search_vector),
        set_search_condition_expression(search_condition_expression), set_top_k(top_k),
    });

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(output.search_results().len())
    }

    // Its `ConsumedCapacity` is a `VectorCapacity` (bytes, not units): the
    // search hands it back itself (`SearchResults::search_request_bytes`).
    fn return_consumed_capacity(&mut self) -> Option<&mut Option<ReturnConsumedCapacity>> {
        Some(&mut self.return_consumed_capacity)
    }
}

impl Operation for BatchGetItemInput {
    const NAME: &'static str = "BatchGetItem";
    type Output = BatchGetItemOutput;
    type Error = BatchGetItemError;

    dispatch!(batch_get_item {
        set_request_items(request_items), set_return_consumed_capacity(return_consumed_capacity),
    });

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(
            output
                .responses
                .iter()
                .flat_map(|responses| responses.values())
                .map(Vec::len)
                .sum(),
        )
    }

    consumed_capacity!(per_table);
}

impl Operation for BatchWriteItemInput {
    const NAME: &'static str = "BatchWriteItem";
    type Output = BatchWriteItemOutput;
    type Error = BatchWriteItemError;

    dispatch!(batch_write_item {
        set_request_items(request_items), set_return_consumed_capacity(return_consumed_capacity),
        set_return_item_collection_metrics(return_item_collection_metrics),
    });

    consumed_capacity!(per_table);
    item_collection_metrics!(per_table);
}

impl Operation for TransactGetItemsInput {
    const NAME: &'static str = "TransactGetItems";
    type Output = TransactGetItemsOutput;
    type Error = TransactGetItemsError;

    dispatch!(transact_get_items {
        set_transact_items(transact_items), set_return_consumed_capacity(return_consumed_capacity),
    });

    fn item_count(output: &Self::Output) -> Option<usize> {
        Some(
            output
                .responses
                .iter()
                .flatten()
                .filter(|response| response.item.is_some())
                .count(),
        )
    }

    consumed_capacity!(per_table);
}

impl Operation for TransactWriteItemsInput {
    const NAME: &'static str = "TransactWriteItems";
    type Output = TransactWriteItemsOutput;
    type Error = TransactWriteItemsError;

    dispatch!(transact_write_items {
        set_transact_items(transact_items), set_return_consumed_capacity(return_consumed_capacity),
        set_return_item_collection_metrics(return_item_collection_metrics),
        set_client_request_token(client_request_token),
    });

    consumed_capacity!(per_table);
    item_collection_metrics!(per_table);
}

impl Operation for CreateTableInput {
    const NAME: &'static str = "CreateTable";
    type Output = CreateTableOutput;
    type Error = CreateTableError;

    dispatch!(create_table {
        set_attribute_definitions(attribute_definitions), set_table_name(table_name),
        set_key_schema(key_schema), set_local_secondary_indexes(local_secondary_indexes),
        set_global_secondary_indexes(global_secondary_indexes), set_billing_mode(billing_mode),
        set_provisioned_throughput(provisioned_throughput),
        set_stream_specification(stream_specification), set_sse_specification(sse_specification),
        set_tags(tags), set_table_class(table_class),
        set_deletion_protection_enabled(deletion_protection_enabled),
        set_warm_throughput(warm_throughput), set_resource_policy(resource_policy),
        set_on_demand_throughput(on_demand_throughput),
        set_global_table_source_arn(global_table_source_arn),
        set_global_table_settings_replication_mode(global_table_settings_replication_mode),
        set_vector_indexes(vector_indexes),
    });
}

impl Operation for DeleteTableInput {
    const NAME: &'static str = "DeleteTable";
    type Output = DeleteTableOutput;
    type Error = DeleteTableError;

    dispatch!(delete_table { set_table_name(table_name) });
}

impl Operation for DescribeTableInput {
    const NAME: &'static str = "DescribeTable";
    type Output = DescribeTableOutput;
    type Error = DescribeTableError;

    dispatch!(describe_table { set_table_name(table_name) });
}

impl Operation for DescribeTimeToLiveInput {
    const NAME: &'static str = "DescribeTimeToLive";
    type Output = DescribeTimeToLiveOutput;
    type Error = DescribeTimeToLiveError;

    dispatch!(describe_time_to_live { set_table_name(table_name) });
}

impl Operation for UpdateTimeToLiveInput {
    const NAME: &'static str = "UpdateTimeToLive";
    type Output = UpdateTimeToLiveOutput;
    type Error = UpdateTimeToLiveError;

    dispatch!(update_time_to_live {
        set_table_name(table_name), set_time_to_live_specification(time_to_live_specification),
    });
}

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
