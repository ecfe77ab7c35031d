//! One mapping of SDK failures to [`Error`]: [`RequestOutcome`] (was the
//! request applied?), DynamoDB's code and message, the `ThrottlingReasons`,
//! and the conditional failures of writes (`ConditionalCheckFailed` with the
//! old item) turned into `ItemNotFound`, `VersionConflict` or
//! `ConditionFailed`.

use std::sync::Arc;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::AttributeValue;

use crate::{Entity, Error, Item, Table};

/// What became of a request that failed with [`Error::DynamoDb`]: the
/// difference between "refused" and "may have been applied", which decides
/// whether a write can be retried blindly.
///
/// See "Error handling with DynamoDB" in the Amazon DynamoDB Developer
/// Guide: a 4xx or 5xx answer means DynamoDB did not apply the request
/// (a 5xx may still have been applied, as the guide warns for
/// `InternalServerError`); a request without an answer may have been.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RequestOutcome {
    /// DynamoDB answered with an error: `code` and `message` say which.
    /// A 4xx error was not applied; an `InternalServerError` (5xx) may
    /// have been.
    Rejected,
    /// No answer within the SDK's timeout: the request may have been
    /// applied.
    TimedOut,
    /// The connection failed or the answer could not be read: the request
    /// may have been applied.
    NoAnswer,
    /// The SDK did not build or send the request: nothing was applied.
    NotSent,
}

impl RequestOutcome {
    /// Whether DynamoDB may have applied the request although it failed:
    /// a timeout, a lost answer, or a server error (5xx).
    pub fn may_have_been_applied(self, code: Option<&str>) -> bool {
        match self {
            RequestOutcome::Rejected => code
                .is_some_and(|code| code == "InternalServerError" || code == "ServiceUnavailable"),
            RequestOutcome::TimedOut | RequestOutcome::NoAnswer => true,
            RequestOutcome::NotSent => false,
        }
    }
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

/// The end of the message of [`Error::DynamoDb`].
pub(crate) fn failure_text(
    outcome: RequestOutcome,
    code: Option<&str>,
    message: Option<&str>,
    source: &aws_sdk_dynamodb::Error,
) -> String {
    match outcome {
        RequestOutcome::Rejected => match (code, message) {
            (Some(code), Some(message)) if !message.is_empty() => {
                format!("was refused: {code}: {message}")
            }
            (Some(code), _) => format!("was refused: {code}"),
            (None, _) => format!("was refused: {source}"),
        },
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

impl Error {
    /// Why DynamoDB throttled the request, when it did: the
    /// `ThrottlingReasons` of a `ThrottlingException`,
    /// `ProvisionedThroughputExceededException` or `RequestLimitExceeded`,
    /// as `(reason, resource)` pairs such as
    /// `("TableWriteKeyRangeThroughputExceeded", "arn:aws:dynamodb:…:table/shop")`.
    /// A `…KeyRangeThroughputExceeded` reason is a hot partition (one
    /// partition's 1,000 write or 3,000 read units per second: shard the
    /// key); the others are table, index or account maxima ("Diagnosing
    /// throttling" in the Amazon DynamoDB Developer Guide). Empty for every
    /// other error, and for a throttling error that gives no reason.
    pub fn throttling_reasons(&self) -> Vec<(String, String)> {
        let source = match self {
            Error::DynamoDb { source, .. } => Some(source.as_ref()),
            Error::UnprocessedItems { cause, .. } | Error::UnprocessedKeys { cause, .. } => {
                cause.as_deref()
            }
            _ => None,
        };
        source.map(sdk_throttling_reasons).unwrap_or_default()
    }

    /// Wraps an SDK error of `operation` on `table`.
    pub(crate) fn dynamodb<E, R>(
        operation: &'static str,
        table: &str,
        error: SdkError<E, R>,
    ) -> Self
    where
        aws_sdk_dynamodb::Error: From<SdkError<E, R>>,
        E: ProvideErrorMetadata,
    {
        let (outcome, code, message) = answer(&error);
        Error::DynamoDb {
            operation,
            table: table.to_owned(),
            outcome,
            code,
            message,
            source: Arc::new(aws_sdk_dynamodb::Error::from(error)),
        }
    }
}

/// Turns a failed conditional write into the typed error its old item
/// explains: no item ([`Error::ItemNotFound`]), another version
/// ([`Error::VersionConflict`]) or the condition ([`Error::ConditionFailed`]);
/// other failures into [`Error::DynamoDb`].
pub(crate) fn conditional_failure<E: Entity, O, R>(
    operation: &'static str,
    table: &Table,
    key: &crate::ItemKey,
    expected_version: Option<u64>,
    error: SdkError<O, R>,
    conditional_failure: impl Fn(&O) -> Option<Option<Item>>,
) -> Error
where
    aws_sdk_dynamodb::Error: From<SdkError<O, R>>,
    O: aws_sdk_dynamodb::error::ProvideErrorMetadata,
{
    let schema = E::SCHEMA;
    match error.as_service_error().and_then(conditional_failure) {
        Some(old) => {
            let Some(old) = old else {
                return Error::ItemNotFound {
                    entity: schema.type_name,
                    key: key.clone(),
                };
            };
            if let (Some(attribute), Some(expected)) = (schema.version_attribute, expected_version)
            {
                let found = match old.get(attribute) {
                    Some(AttributeValue::N(number)) => number.parse::<u64>().ok(),
                    _ => None,
                };
                if found != Some(expected) {
                    return Error::VersionConflict {
                        entity: schema.type_name,
                        key: key.clone(),
                        expected,
                        found,
                    };
                }
            }
            Error::ConditionFailed {
                entity: schema.type_name,
                key: key.clone(),
                item: Box::new(old),
            }
        }
        None => Error::dynamodb(operation, table.name(), error),
    }
}

/// What became of a failed request of either SDK (DynamoDB or DynamoDB
/// Streams), and DynamoDB's error code and message when it answered.
pub(crate) fn answer<E: ProvideErrorMetadata, R>(
    error: &SdkError<E, R>,
) -> (RequestOutcome, Option<String>, Option<String>) {
    let outcome = match error {
        SdkError::ServiceError(_) => RequestOutcome::Rejected,
        SdkError::TimeoutError(_) => RequestOutcome::TimedOut,
        SdkError::DispatchFailure(failure) if failure.is_timeout() => RequestOutcome::TimedOut,
        SdkError::DispatchFailure(failure) if failure.is_user() => RequestOutcome::NotSent,
        SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => RequestOutcome::NoAnswer,
        SdkError::ConstructionFailure(_) => RequestOutcome::NotSent,
        _ => RequestOutcome::NoAnswer,
    };
    match error {
        SdkError::ServiceError(service) => (
            outcome,
            service.err().code().map(str::to_owned),
            service.err().message().map(str::to_owned),
        ),
        _ => (outcome, None, None),
    }
}
