//! [`Table`]'s options that shape every request without a bound on their
//! inputs: the throttle retry caps, the capacity log, the item-collection
//! warning (the options with a generic input stay in `table.rs`, whose
//! module path a bound's compile error names).

use super::Table;
use crate::request::executor::CapacityDetail;
use crate::request::executor::CapacityLog;
use crate::request::throttling::ThrottleRetries;

impl Table {
    /// This table, capping the SDK's retries of a throttled request by the
    /// class of DynamoDB's `ThrottlingReasons`: `retries.hot_key` after a
    /// hot partition (`…KeyRangeThroughputExceeded`), `retries.limits` after
    /// a provisioned, on-demand maximum or account limit. By default both
    /// are the SDK's own (its `max_attempts`, 3 in the standard mode). A
    /// request that meets its cap fails with [`Error::DynamoDb`](crate::Error::DynamoDb), whose
    /// [`throttles`](crate::Error::throttles) name the limit and the resource.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling.html>.
    pub fn with_throttle_retries(mut self, retries: ThrottleRetries) -> Self {
        self.throttle_retries = retries;
        self
    }

    /// The caps of [`with_throttle_retries`](Self::with_throttle_retries).
    pub(crate) fn throttle_retries(&self) -> ThrottleRetries {
        self.throttle_retries
    }

    /// This table, asking DynamoDB for the consumed capacity of every
    /// request (`ReturnConsumedCapacity = TOTAL`, or `INDEXES` for
    /// [`CapacityDetail::Indexes`](crate::CapacityDetail)) and recording what
    /// it reports in `log`: gets, puts, updates, deletes, queries, scans,
    /// batches, transactions, re-keys, migrations and exports alike. Asking
    /// costs nothing.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ConsumedCapacity.html>.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(table: stamp_core::Table) {
    /// use stamp_core::{CapacityDetail, CapacityLog};
    /// let log = CapacityLog::new();
    /// let table = table.with_capacity_log(&log, CapacityDetail::Indexes);
    /// // … requests on `table` …
    /// for record in log.take() {
    ///     println!("{} {}: {} units", record.operation, record.entity, record.units());
    /// }
    /// # }
    /// ```
    pub fn with_capacity_log(mut self, log: &CapacityLog, detail: CapacityDetail) -> Self {
        self.capacity = Some(crate::request::executor::CapacityRecording {
            log: log.clone(),
            detail,
        });
        self
    }

    /// The log of [`with_capacity_log`](Self::with_capacity_log), if any.
    pub(crate) fn capacity_recording(
        &self,
    ) -> Option<&crate::request::executor::CapacityRecording> {
        self.capacity.as_ref()
    }

    /// This table, logging a `tracing` warning (target
    /// `stamp::item_collection`) when a write reports an item collection
    /// whose estimated size may be above `gigabytes`: the upper bound of
    /// `ItemCollectionMetrics.SizeEstimateRangeGB` is greater than it. The
    /// default is [`DEFAULT_ITEM_COLLECTION_WARNING_GB`](crate::DEFAULT_ITEM_COLLECTION_WARNING_GB)
    /// (8 GB); `f64::INFINITY` turns the warning off.
    ///
    /// In a table with a local secondary index, the items of one partition
    /// key value and their LSI entries (an *item collection*) may not
    /// exceed 10 GB: DynamoDB then refuses writes that would grow it
    /// (`ItemCollectionSizeLimitExceededException`, an [`Error::DynamoDb`](crate::Error::DynamoDb)).
    /// Every write of an entity with an LSI (put, create, update, delete,
    /// rekey, batch writes and transactions holding one) asks for
    /// `ReturnItemCollectionMetrics = SIZE`, so that the warning comes
    /// before the limit.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.ItemCollections.SizeLimit>.
    ///
    /// # Panics
    ///
    /// When `gigabytes` is NaN.
    pub fn warn_item_collection_above_gb(mut self, gigabytes: f64) -> Self {
        assert!(!gigabytes.is_nan(), "the warning threshold is a number");
        self.item_collection_warning_gb = gigabytes;
        self
    }

    /// The item-collection size above which a write logs a warning.
    pub fn item_collection_warning_gb(&self) -> f64 {
        self.item_collection_warning_gb
    }
}
