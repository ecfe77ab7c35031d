//! [`RequestOutcome`]: what became of a failed request (refused, or may
//! have been applied), read off the wire, and the message of
//! [`Error::DynamoDb`](super::Error::DynamoDb) that says it.

/// What became of a request that failed with [`Error::DynamoDb`](super::Error::DynamoDb): the
/// difference between "refused" and "may have been applied", which decides
/// whether a write can be retried blindly. It is read off the wire: the HTTP
/// status of the answer, if any, and whether its body could be read.
///
/// See "Error handling with DynamoDB" in the Amazon DynamoDB Developer
/// Guide: a 4xx answer means DynamoDB did not apply the request; a 5xx
/// answer may have been applied (the guide warns so for
/// `InternalServerError`), as may a request without an answer, or one whose
/// answer could not be read.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RequestOutcome {
    /// DynamoDB answered with a client-side error (an HTTP 4xx status):
    /// `code` and `message` say which. Nothing was applied by this
    /// request, but a `TransactionInProgressException` says an earlier
    /// send of the same transaction (the same client request token) is
    /// being applied ([`may_have_been_applied`](Self::may_have_been_applied)).
    Rejected,
    /// The answer was a server error (an HTTP 5xx status), from DynamoDB
    /// (`InternalServerError`) or from something between (a proxy's 502):
    /// the request may have been applied.
    ServerError,
    /// An answer came whose body could not be read or parsed (cut short, or
    /// not DynamoDB's JSON, with a 2xx status): the request may have been
    /// applied.
    Unreadable,
    /// No answer within the SDK's timeout: the request may have been
    /// applied.
    TimedOut,
    /// The connection failed before an answer came: the request may have
    /// been applied.
    NoAnswer,
    /// The SDK did not build or send the request: nothing was applied.
    NotSent,
}

impl RequestOutcome {
    /// Whether DynamoDB may have applied the request although it failed:
    /// a server error (5xx), an unreadable answer, a timeout or a lost
    /// connection. `code` is DynamoDB's error code: a `Rejected` request
    /// whose code is `InternalServerError` or `ServiceUnavailable` (server
    /// errors) may have been applied too, and so may one refused with
    /// `TransactionInProgressException`: DynamoDB is still applying an
    /// earlier `TransactWriteItems` with the same client request token,
    /// which is exactly the request sent again ("TransactWriteItems",
    /// API reference: a retry with the same token while the first is in
    /// progress gets this error).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html>.
    pub fn may_have_been_applied(self, code: Option<&str>) -> bool {
        match self {
            RequestOutcome::Rejected => code.is_some_and(refused_but_may_have_been_applied),
            RequestOutcome::ServerError
            | RequestOutcome::Unreadable
            | RequestOutcome::TimedOut
            | RequestOutcome::NoAnswer => true,
            RequestOutcome::NotSent => false,
        }
    }
}

/// DynamoDB's error code `TransactionInProgressException`: the answer to a
/// `TransactWriteItems` whose client request token belongs to a transaction
/// DynamoDB is still applying. The SDK retries it as throttling (the same
/// input, so the same token) after a backoff; when its retries run out, the
/// transaction may still be applied.
pub(crate) const TRANSACTION_IN_PROGRESS: &str = "TransactionInProgressException";

/// Whether a refusal with DynamoDB's error `code` (an HTTP 4xx) may still
/// have been applied: a server error sent with a 4xx status
/// (`InternalServerError`, `ServiceUnavailable`), or
/// [`TRANSACTION_IN_PROGRESS`].
fn refused_but_may_have_been_applied(code: &str) -> bool {
    matches!(
        code,
        "InternalServerError" | "ServiceUnavailable" | TRANSACTION_IN_PROGRESS
    )
}

/// The `ThrottlingReasons` of an SDK error, as `(reason, resource)`; empty
/// for an error that is not throttling.
pub(crate) fn sdk_throttling_reasons(error: &aws_sdk_dynamodb::Error) -> Vec<(String, String)> {
    use aws_sdk_dynamodb::Error as Sdk;
    let reasons = match error {
        Sdk::ThrottlingException(error) => error.throttling_reasons(),
        Sdk::ProvisionedThroughputExceededException(error) => error.throttling_reasons(),
        Sdk::RequestLimitExceeded(error) => error.throttling_reasons(),
        _ => &[],
    };
    reasons
        .iter()
        .map(|reason| {
            (
                reason.reason.clone().unwrap_or_default(),
                reason.resource.clone().unwrap_or_default(),
            )
        })
        .collect()
}

/// The end of the message of [`Error::DynamoDb`](super::Error::DynamoDb): what the last attempt
/// met, then, when the last attempt was not applied but an earlier one may
/// have been, that the request may have been applied.
pub(crate) fn failure_text(
    outcome: RequestOutcome,
    status: Option<u16>,
    code: Option<&str>,
    message: Option<&str>,
    earlier_attempt_may_have_been_applied: bool,
    source: &aws_sdk_dynamodb::Error,
) -> String {
    let last = last_attempt_text(outcome, status, code, message, source);
    if earlier_attempt_may_have_been_applied && !outcome.may_have_been_applied(code) {
        format!(
            "{last}; an earlier attempt timed out, lost its answer or met a server error, so it may have been applied"
        )
    } else {
        last
    }
}

/// What the last attempt of a failed request met, for [`failure_text`].
fn last_attempt_text(
    outcome: RequestOutcome,
    status: Option<u16>,
    code: Option<&str>,
    message: Option<&str>,
    source: &aws_sdk_dynamodb::Error,
) -> String {
    let status = status
        .map(|status| format!(" (HTTP {status})"))
        .unwrap_or_default();
    let dynamodb = match (code, message) {
        (Some(code), Some(message)) if !message.is_empty() => Some(format!("{code}: {message}")),
        (Some(code), _) => Some(code.to_owned()),
        (None, _) => None,
    };
    match outcome {
        RequestOutcome::Rejected => match dynamodb {
            Some(dynamodb) => {
                let throttled: Vec<String> = sdk_throttling_reasons(source)
                    .into_iter()
                    .map(|(reason, resource)| format!("{reason} on `{resource}`"))
                    .collect();
                if code == Some(TRANSACTION_IN_PROGRESS) {
                    format!(
                        "was refused{status}: {dynamodb}; a transaction with the same client request token is still being applied, so it may have been applied (send it again with the same token to learn its outcome)"
                    )
                } else if throttled.is_empty() {
                    format!("was refused{status}: {dynamodb}")
                } else {
                    format!(
                        "was refused{status}: {dynamodb} (throttled: {})",
                        throttled.join(", ")
                    )
                }
            }
            None => format!(
                "was refused{status} without a DynamoDB error code: {}",
                sdk_error_chain(source)
            ),
        },
        RequestOutcome::ServerError => format!(
            "failed with a server error{status}: {}; it may have been applied",
            dynamodb.unwrap_or_else(|| format!(
                "no DynamoDB error code ({})",
                sdk_error_chain(source)
            ))
        ),
        RequestOutcome::Unreadable => format!(
            "got an answer{status} that could not be read ({}); it may have been applied",
            sdk_error_chain(source)
        ),
        RequestOutcome::TimedOut => {
            "timed out; it may have been applied (read the item before retrying a write that is not idempotent)".to_owned()
        }
        RequestOutcome::NoAnswer => format!(
            "got no answer ({}); it may have been applied",
            sdk_error_chain(source)
        ),
        RequestOutcome::NotSent => format!("was not sent: {}", sdk_error_chain(source)),
    }
}

/// An error and its sources, joined by `: `.
fn sdk_error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}
