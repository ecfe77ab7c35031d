//! The one retry of Stamp's own loops (batches' unprocessed items and
//! throttled requests, the migration's scans and moves): [`BatchRetry`]'s
//! exponential backoff with full jitter, which failures are retried, and the
//! debug event each retry leaves.

use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

/// How a batch retries the items DynamoDB leaves unprocessed and the
/// requests it throttles: up to `max_retries` more requests per group of
/// items, each after a random delay from zero to
/// `min(max_delay, base_delay × 2^retry)` ("full jitter").
///
/// A request is retried when DynamoDB returns `UnprocessedItems` or
/// `UnprocessedKeys`, or fails with `ProvisionedThroughputExceededException`,
/// `ThrottlingException`, `RequestLimitExceeded`, an HTTP 5xx error, a
/// timeout or an I/O error. These retries come on top of the SDK's own.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.RetryAndBackoff>.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchRetry {
    /// Requests after the first for one group of items. Default 10.
    pub max_retries: u32,
    /// The delay bound of the first retry. Default 50 ms.
    pub base_delay: Duration,
    /// The largest delay bound. Default 5 s.
    pub max_delay: Duration,
}

impl Default for BatchRetry {
    fn default() -> Self {
        BatchRetry {
            max_retries: 10,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
        }
    }
}

impl BatchRetry {
    /// No retry: whatever the first request leaves is returned in the error.
    pub fn none() -> Self {
        BatchRetry {
            max_retries: 0,
            ..BatchRetry::default()
        }
    }

    /// The upper bound of the delay before retry `retry` (0 for the first):
    /// `min(max_delay, base_delay × 2^retry)`.
    pub fn delay_bound(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.min(31));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }

    /// A random delay from zero to [`delay_bound`](Self::delay_bound).
    pub(crate) fn delay(&self, retry: u32) -> Duration {
        self.delay_bound(retry).mul_f64(fastrand::f64())
    }
}

/// Whether a failed request is worth sending again: throttling, a server
/// error, a timeout or an I/O error.
pub(crate) fn is_retryable<E: ProvideErrorMetadata>(error: &SdkError<E, HttpResponse>) -> bool {
    match error {
        SdkError::TimeoutError(_) => true,
        SdkError::DispatchFailure(failure) => failure.is_timeout() || failure.is_io(),
        SdkError::ServiceError(service) => {
            matches!(
                error.code(),
                Some(
                    "ProvisionedThroughputExceededException"
                        | "ThrottlingException"
                        | "RequestLimitExceeded"
                        | "InternalServerError"
                        | "ServiceUnavailable"
                )
            ) || service.raw().status().is_server_error()
        }
        _ => false,
    }
}

/// The retries left to one unit of work (a batch group, a page, a move):
/// each [`wait`](Self::wait) sleeps for [`BatchRetry::delay`] of the
/// retries so far, until `max_retries` are spent.
#[derive(Debug)]
pub(crate) struct Backoff {
    retry: BatchRetry,
    retries: u32,
}

impl Backoff {
    pub(crate) fn new(retry: BatchRetry) -> Self {
        Backoff { retry, retries: 0 }
    }

    /// Sleeps before the next attempt and counts it; `false` (at once)
    /// when every retry is spent.
    pub(crate) async fn wait(&mut self) -> bool {
        if self.retries >= self.retry.max_retries {
            return false;
        }
        tokio::time::sleep(self.retry.delay(self.retries)).await;
        self.retries += 1;
        true
    }

    /// Counts an attempt that needs no delay (the migration's re-read of a
    /// changed item); `false` when that was one too many.
    pub(crate) fn spend(&mut self) -> bool {
        self.retries += 1;
        self.retries <= self.retry.max_retries
    }
}

/// Leaves the debug event of a retried request, with the
/// `ThrottlingReasons` DynamoDB gave (a hot key range, or a table, index or
/// account maximum).
pub(crate) fn log_retry(operation: &'static str, table: &str, error: &aws_sdk_dynamodb::Error) {
    let throttling_reasons = crate::error::outcome::sdk_throttling_reasons(error);
    tracing::debug!(
        operation,
        table,
        %error,
        ?throttling_reasons,
        "the request will be retried"
    );
}

/// The same for a failure already made a [`crate::Error`] (the migration's
/// retries), with the reasons of [`crate::Error::throttling_reasons`].
pub(crate) fn log_retried(error: &crate::error::Error) {
    let throttling_reasons = error.throttling_reasons();
    tracing::debug!(%error, ?throttling_reasons, "the request will be retried");
}
