//! The [`Operation`] impl of each DynamoDB operation Stamp sends: its name,
//! its dispatch (written by [`dispatch!`], which copies every field of the
//! input into the fluent builder), and where its answer keeps the consumed
//! capacity, the item-collection metrics and the item count.

use std::future::Future;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::SdkError;
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
use aws_sdk_dynamodb::operation::describe_contributor_insights::{
    DescribeContributorInsightsError, DescribeContributorInsightsInput,
    DescribeContributorInsightsOutput,
};
use aws_sdk_dynamodb::operation::describe_import::{
    DescribeImportError, DescribeImportInput, DescribeImportOutput,
};
use aws_sdk_dynamodb::operation::describe_table::{
    DescribeTableError, DescribeTableInput, DescribeTableOutput,
};
use aws_sdk_dynamodb::operation::describe_time_to_live::{
    DescribeTimeToLiveError, DescribeTimeToLiveInput, DescribeTimeToLiveOutput,
};
use aws_sdk_dynamodb::operation::get_item::{GetItemError, GetItemInput, GetItemOutput};
use aws_sdk_dynamodb::operation::get_resource_policy::{
    GetResourcePolicyError, GetResourcePolicyInput, GetResourcePolicyOutput,
};
use aws_sdk_dynamodb::operation::import_table::{
    ImportTableError, ImportTableInput, ImportTableOutput,
};
use aws_sdk_dynamodb::operation::list_tags_of_resource::{
    ListTagsOfResourceError, ListTagsOfResourceInput, ListTagsOfResourceOutput,
};
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
use aws_sdk_dynamodb::operation::update_contributor_insights::{
    UpdateContributorInsightsError, UpdateContributorInsightsInput, UpdateContributorInsightsOutput,
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

use super::dispatch::{Operation, dispatch};
use super::executor::Plugins;

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

impl Operation for UpdateContributorInsightsInput {
    const NAME: &'static str = "UpdateContributorInsights";
    type Output = UpdateContributorInsightsOutput;
    type Error = UpdateContributorInsightsError;

    dispatch!(update_contributor_insights {
        set_table_name(table_name), set_index_name(index_name),
        set_contributor_insights_action(contributor_insights_action),
        set_contributor_insights_mode(contributor_insights_mode),
    });
}

impl Operation for DescribeContributorInsightsInput {
    const NAME: &'static str = "DescribeContributorInsights";
    type Output = DescribeContributorInsightsOutput;
    type Error = DescribeContributorInsightsError;

    dispatch!(describe_contributor_insights { set_table_name(table_name), set_index_name(index_name) });
}

impl Operation for ListTagsOfResourceInput {
    const NAME: &'static str = "ListTagsOfResource";
    type Output = ListTagsOfResourceOutput;
    type Error = ListTagsOfResourceError;

    dispatch!(list_tags_of_resource { set_resource_arn(resource_arn), set_next_token(next_token) });
}

impl Operation for GetResourcePolicyInput {
    const NAME: &'static str = "GetResourcePolicy";
    type Output = GetResourcePolicyOutput;
    type Error = GetResourcePolicyError;

    dispatch!(get_resource_policy { set_resource_arn(resource_arn) });
}

impl Operation for ImportTableInput {
    const NAME: &'static str = "ImportTable";
    type Output = ImportTableOutput;
    type Error = ImportTableError;

    dispatch!(import_table {
        set_client_token(client_token), set_s3_bucket_source(s3_bucket_source),
        set_input_format(input_format), set_input_format_options(input_format_options),
        set_input_compression_type(input_compression_type),
        set_table_creation_parameters(table_creation_parameters),
    });
}

impl Operation for DescribeImportInput {
    const NAME: &'static str = "DescribeImport";
    type Output = DescribeImportOutput;
    type Error = DescribeImportError;

    dispatch!(describe_import { set_import_arn(import_arn) });
}
