//! The executor: the one pipeline every request of Stamp runs through.
//!
//! A builder plans its request as the SDK input (see `dispatch.rs`); then
//! [`Table::execute`] runs it:
//!
//! 1. the table's options are applied to the input: `ReturnConsumedCapacity`
//!    raised to what a [`CapacityLog`] asks for, and
//!    `ReturnItemCollectionMetrics = SIZE` on every write to a table whose
//!    definition has a local secondary index;
//! 2. the request is dispatched in its `stamp.request` span, with an
//!    interceptor that records what became of each attempt the SDK made
//!    (answered with which HTTP status, answered with an unreadable body, or
//!    no answer), and, for a write that is not idempotent, a retry
//!    classifier that stops the SDK from sending it again after an attempt
//!    that may have been applied;
//! 3. the answer's consumed capacity and item count are recorded in the span
//!    (and the log), and its item-collection metrics checked against the
//!    table's warning threshold;
//! 4. a failure comes back as a [`Failure`]: the SDK error and the attempts,
//!    which `failure.rs` turns into [`crate::Error`].

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::client::customize::CustomizableOperation;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeTransmitInterceptorContextRef, FinalizerInterceptorContextRef, InterceptorContext,
};
use aws_sdk_dynamodb::config::retry::{ClassifyRetry, RetryAction};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::types::{
    ConsumedCapacity, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::retries::classifiers::{RetryClassifierPriority, RetryReason};
use aws_smithy_types::retry::ErrorKind;
use tracing::Instrument;

use super::dispatch::Operation;
use super::throttling::{Throttle, ThrottleRetries};
use crate::request::table::Table;

/// What the executor needs to know of a request besides its input.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call<'a> {
    /// The entity type name, `(mixed)` for several, `""` for none.
    pub(crate) entity: &'static str,
    /// The index read, `""` for the table.
    pub(crate) index: &'a str,
    /// The items sent, for a write; a read's count comes from its answer.
    pub(crate) items_sent: Option<usize>,
    /// Whether sending the request twice has the effect of sending it once.
    pub(crate) retry: Retry,
}

impl<'a> Call<'a> {
    /// A request of `entity` that may be sent again (reads, puts, deletes,
    /// and the writes whose condition guards them).
    pub(crate) fn of(entity: &'static str) -> Self {
        Call {
            entity,
            index: "",
            items_sent: None,
            retry: Retry::Idempotent,
        }
    }

    /// On index `index` (`""` for the table).
    pub(crate) fn index(mut self, index: &'a str) -> Self {
        self.index = index;
        self
    }

    /// Sending `count` items.
    pub(crate) fn items(mut self, count: usize) -> Self {
        self.items_sent = Some(count);
        self
    }

    /// With the retry rule `retry`.
    pub(crate) fn retry(mut self, retry: Retry) -> Self {
        self.retry = retry;
        self
    }
}

/// Whether the SDK may send a request again after an attempt that may have
/// been applied (a timeout, a lost connection, a 5xx, an unreadable answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Twice is once: the SDK's retry policy applies unchanged.
    Idempotent,
    /// Twice is not once (`ADD`, `list_append`, a counter): only attempts
    /// that DynamoDB refused (throttling, a 4xx) are sent again.
    NotIdempotent,
}

/// What became of one attempt of a request, as the SDK saw it on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attempt {
    /// Sent, and no answer was recorded: it timed out, or the attempt was
    /// abandoned.
    Unfinished,
    /// An HTTP answer with this status, read.
    Answered(u16),
    /// An HTTP answer with this status whose body could not be read or
    /// parsed.
    Unreadable(u16),
    /// No HTTP answer: the connection failed.
    NoAnswer,
}

impl Attempt {
    /// Whether DynamoDB may have applied the attempt: anything but an answer
    /// it gave with a client-side (4xx) status.
    pub(crate) fn may_have_been_applied(self) -> bool {
        match self {
            Attempt::Answered(status) => status >= 500,
            Attempt::Unfinished | Attempt::Unreadable(_) | Attempt::NoAnswer => true,
        }
    }
}

/// The attempts of one request, recorded by an SDK interceptor, each with
/// the throttling reasons of its answer when DynamoDB throttled it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Attempts(Arc<Mutex<Vec<Recorded>>>);

/// One attempt and the throttling reasons of its answer.
type Recorded = (Attempt, Option<Vec<Throttle>>);

impl Attempts {
    fn push(&self, attempt: Attempt) {
        self.0.lock().expect("attempts lock").push((attempt, None));
    }

    fn finish(&self, attempt: Attempt, throttles: Option<Vec<Throttle>>) {
        let mut attempts = self.0.lock().expect("attempts lock");
        match attempts.last_mut() {
            Some(last @ (Attempt::Unfinished, _)) => *last = (attempt, throttles),
            _ => attempts.push((attempt, throttles)),
        }
    }

    /// The attempts so far, in order.
    pub(crate) fn list(&self) -> Vec<Attempt> {
        let attempts = self.0.lock().expect("attempts lock");
        attempts.iter().map(|(attempt, _)| *attempt).collect()
    }

    /// Whether the last attempt was throttled for a reason of the same
    /// class as `n` attempts so far (it included), by `retries`' classes;
    /// and that class's cap.
    fn throttled_in_class(&self, retries: &ThrottleRetries) -> Option<(usize, u32)> {
        let attempts = self.0.lock().expect("attempts lock");
        let last = attempts.last()?.1.as_ref()?;
        let cap = retries.cap(last);
        let same_class = |throttles: &Vec<Throttle>| retries.cap(throttles) == cap;
        let count = attempts
            .iter()
            .filter(|(_, throttles)| throttles.as_ref().is_some_and(same_class))
            .count();
        Some((count, cap))
    }
}

impl Intercept for Attempts {
    fn name(&self) -> &'static str {
        "stamp.attempts"
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.push(Attempt::Unfinished);
        Ok(())
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let throttles = context
            .response()
            .and_then(|response| response.body().bytes())
            .and_then(super::throttling::throttles_in_body);
        let attempt = match (context.response(), context.output_or_error()) {
            (None, _) => Attempt::NoAnswer,
            (Some(response), outcome) => {
                let status = response.status().as_u16();
                let unreadable = match outcome {
                    // A success status whose body did not parse into the
                    // output, or a cut-short body of any status.
                    Some(Err(error)) => {
                        (200..300).contains(&status)
                            || error.is_response_error()
                            || error.is_timeout_error()
                    }
                    _ => false,
                };
                if unreadable {
                    Attempt::Unreadable(status)
                } else {
                    Attempt::Answered(status)
                }
            }
        };
        self.finish(attempt, throttles);
        Ok(())
    }
}

/// The retry classifier of the executor: it runs after the SDK's own, and
/// refines its verdict.
///
/// - A request that is not idempotent is not sent again after an attempt
///   that may have been applied (a transient or server error); throttling
///   and other refusals are still retried.
/// - A throttled request is sent again at most as often as the table's
///   [`ThrottleRetries`] allow for the class of its reasons.
#[derive(Debug)]
struct StampRetry {
    attempts: Attempts,
    retry: Retry,
    throttle: ThrottleRetries,
}

impl ClassifyRetry for StampRetry {
    fn classify_retry(&self, _context: &InterceptorContext) -> RetryAction {
        RetryAction::NoActionIndicated
    }

    fn classify_retry_v2(
        &self,
        context: &InterceptorContext,
        previous: &RetryAction,
    ) -> RetryAction {
        let RetryAction::RetryIndicated(RetryReason::RetryableError { kind, .. }) = previous else {
            return RetryAction::NoActionIndicated;
        };
        let refused = context
            .response()
            .is_some_and(|response| (400..500).contains(&response.status().as_u16()));
        match kind {
            ErrorKind::TransientError | ErrorKind::ServerError
                if self.retry == Retry::NotIdempotent && !refused =>
            {
                RetryAction::RetryForbidden
            }
            ErrorKind::ThrottlingError => match self.attempts.throttled_in_class(&self.throttle) {
                Some((count, cap)) if count as u64 > u64::from(cap) => RetryAction::RetryForbidden,
                _ => RetryAction::NoActionIndicated,
            },
            _ => RetryAction::NoActionIndicated,
        }
    }

    fn name(&self) -> &'static str {
        "stamp.retry"
    }

    fn priority(&self) -> RetryClassifierPriority {
        // After every classifier of the SDK's (the last one runs at 20).
        RetryClassifierPriority::run_after(RetryClassifierPriority::run_after(
            RetryClassifierPriority::transient_error_classifier(),
        ))
    }
}

/// What the executor adds to one request's SDK operation.
#[derive(Debug, Clone)]
pub(crate) struct Plugins {
    attempts: Attempts,
    retry: Retry,
    throttle: ThrottleRetries,
}

impl Plugins {
    /// `operation` with the attempt recorder and, when it has anything to
    /// refine, the retry classifier.
    pub(crate) fn apply<T, E, B>(
        &self,
        operation: CustomizableOperation<T, E, B>,
    ) -> CustomizableOperation<T, E, B> {
        let operation = operation.interceptor(self.attempts.clone());
        if self.retry == Retry::Idempotent && self.throttle == ThrottleRetries::default() {
            return operation;
        }
        operation.config_override(aws_sdk_dynamodb::Config::builder().retry_classifier(
            StampRetry {
                attempts: self.attempts.clone(),
                retry: self.retry,
                throttle: self.throttle,
            },
        ))
    }
}

/// A failed request: the SDK's error and what became of each attempt.
#[derive(Debug)]
pub(crate) struct Failure<E> {
    /// The operation's name ([`Operation::NAME`]), for its error.
    pub(crate) operation: &'static str,
    pub(crate) error: SdkError<E, HttpResponse>,
    pub(crate) attempts: Vec<Attempt>,
}

impl<E> Failure<E> {
    /// The operation's own error, when DynamoDB answered with one.
    pub(crate) fn service_error(&self) -> Option<&E> {
        self.error.as_service_error()
    }

    /// Whether an attempt before the last may have been applied: then a
    /// conditional write whose condition failed may have failed on its own
    /// earlier write.
    pub(crate) fn earlier_attempt_may_have_been_applied(&self) -> bool {
        let earlier = self.attempts.len().saturating_sub(1);
        self.attempts[..earlier]
            .iter()
            .any(|attempt| attempt.may_have_been_applied())
    }
}

/// How much of `ConsumedCapacity` a [`CapacityLog`] asks DynamoDB for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CapacityDetail {
    /// `ReturnConsumedCapacity = TOTAL`: the units of each table.
    Total,
    /// `ReturnConsumedCapacity = INDEXES`: the units of each table and of
    /// each index the request touched.
    Indexes,
}

/// One request's `ConsumedCapacity`, as DynamoDB reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct CapacityRecord {
    /// DynamoDB's name of the operation, such as `PutItem`.
    pub operation: &'static str,
    /// The entity type name, `(mixed)` for a batch or transaction of
    /// several, `""` for none.
    pub entity: &'static str,
    /// The index read, `""` for the table.
    pub index: String,
    /// What DynamoDB reported: one entry per table for a batch or a
    /// transaction, else one (none when the server sent none).
    pub consumed: Vec<ConsumedCapacity>,
}

impl CapacityRecord {
    /// The capacity units of every table in the record (`CapacityUnits`,
    /// which includes the indexes).
    pub fn units(&self) -> f64 {
        self.consumed
            .iter()
            .filter_map(|capacity| capacity.capacity_units)
            .sum()
    }
}

/// Every `ConsumedCapacity` DynamoDB reported to the requests of a table
/// made with [`Table::with_capacity_log`], in the order they were answered:
/// so a test or a service can compare what an access pattern costs with
/// what `TableDefinition::capacity` (feature `schema-tooling`) says.
/// Cheap to clone; the clones share one log.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ConsumedCapacity.html>.
#[derive(Debug, Clone, Default)]
pub struct CapacityLog {
    records: Arc<Mutex<Vec<CapacityRecord>>>,
}

impl CapacityLog {
    /// An empty log.
    pub fn new() -> Self {
        CapacityLog::default()
    }

    /// The records so far, leaving the log empty.
    pub fn take(&self) -> Vec<CapacityRecord> {
        std::mem::take(&mut *self.records.lock().expect("capacity log lock"))
    }

    /// The records so far.
    pub fn records(&self) -> Vec<CapacityRecord> {
        self.records.lock().expect("capacity log lock").clone()
    }

    /// The capacity units of every record so far.
    pub fn units(&self) -> f64 {
        self.records
            .lock()
            .expect("capacity log lock")
            .iter()
            .map(CapacityRecord::units)
            .sum()
    }

    fn push(&self, record: CapacityRecord) {
        self.records.lock().expect("capacity log lock").push(record);
    }
}

/// A table's [`CapacityLog`] and what it asks for.
#[derive(Debug, Clone)]
pub(crate) struct CapacityRecording {
    pub(crate) log: CapacityLog,
    pub(crate) detail: CapacityDetail,
}

/// [`Table::execute`]: the pipeline of one request.
pub(crate) async fn execute<Op: Operation>(
    table: &Table,
    mut input: Op,
    call: Call<'_>,
) -> Result<Op::Output, Failure<Op::Error>> {
    if let (Some(recording), Some(asked)) =
        (table.capacity_recording(), input.return_consumed_capacity())
    {
        let wanted = match recording.detail {
            CapacityDetail::Total => ReturnConsumedCapacity::Total,
            CapacityDetail::Indexes => ReturnConsumedCapacity::Indexes,
        };
        if asked.as_ref() != Some(&ReturnConsumedCapacity::Indexes) {
            *asked = Some(wanted);
        }
    }
    if table.has_local_index()
        && let Some(asked) = input.return_item_collection_metrics()
    {
        *asked = Some(ReturnItemCollectionMetrics::Size);
    }
    let span = super::span::request_span(
        Op::NAME,
        table.name(),
        call.entity,
        call.index,
        call.items_sent,
    );
    let plugins = Plugins {
        attempts: Attempts::default(),
        retry: call.retry,
        throttle: table.throttle_retries(),
    };
    let result = input
        .dispatch(super::dispatch::client(table), &plugins)
        .instrument(span.clone())
        .await;
    match result {
        Ok(output) => {
            if call.items_sent.is_none()
                && let Some(count) = Op::item_count(&output)
            {
                span.record("item_count", count);
            }
            let consumed = Op::consumed_capacity(&output);
            super::span::record_capacities(&span, Some(consumed));
            if let Some(recording) = table.capacity_recording() {
                recording.log.push(CapacityRecord {
                    operation: Op::NAME,
                    entity: call.entity,
                    index: call.index.to_owned(),
                    consumed: consumed.to_vec(),
                });
            }
            for metrics in Op::item_collection_metrics(&output, table.name()) {
                super::collection_metrics::check(table, Op::NAME, Some(metrics));
            }
            Ok(output)
        }
        Err(error) => Err(Failure {
            operation: Op::NAME,
            error,
            attempts: plugins.attempts.list(),
        }),
    }
}

/// [`Table::execute_mapped`].
pub(crate) async fn execute_mapped<Op: Operation>(
    table: &Table,
    input: Op,
    call: Call<'_>,
) -> Result<Op::Output, crate::error::Error>
where
    aws_sdk_dynamodb::Error: From<SdkError<Op::Error, HttpResponse>>,
{
    execute(table, input, call)
        .await
        .map_err(|failure| crate::error::Error::from_failure(table.name(), failure))
}
