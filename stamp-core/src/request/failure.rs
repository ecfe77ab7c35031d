//! One mapping of SDK failures to [`Error`]: the
//! [`RequestOutcome`](crate::RequestOutcome) (was the request applied?), DynamoDB's code and message, the `ThrottlingReasons`,
//! and the conditional failures of writes (`ConditionalCheckFailed` with the
//! old item) turned into `ItemNotFound`, `VersionConflict` or
//! `ConditionFailed`.

use std::sync::Arc;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::AttributeValue;

use super::executor::Failure;
use crate::error::Error;
use crate::error::ItemKey;
use crate::error::RequestOutcome;
use crate::error::outcome::sdk_throttling_reasons;
use crate::item::stored::{same_attribute, same_item};
use crate::model::entity::{AttributeMap, Entity};
use crate::request::table::Table;
use crate::request::throttling::Throttle;

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

    /// Why DynamoDB throttled the request, parsed: for each of its
    /// `ThrottlingReasons`, the table or index, reads or writes, the limit
    /// (a hot key, provisioned capacity, an on-demand maximum, the account's
    /// quota) and the resource's ARN. Empty when the error is not
    /// throttling, or gives no reason.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling.html>.
    pub fn throttles(&self) -> Vec<Throttle> {
        self.throttling_reasons()
            .iter()
            .map(|(reason, resource)| Throttle::parse(reason, resource))
            .collect()
    }

    /// Wraps an SDK error of `operation` on `table`.
    pub(crate) fn dynamodb<E>(
        operation: &'static str,
        table: &str,
        error: SdkError<E, HttpResponse>,
        earlier_attempt_may_have_been_applied: bool,
    ) -> Self
    where
        aws_sdk_dynamodb::Error: From<SdkError<E, HttpResponse>>,
        E: ProvideErrorMetadata,
    {
        let Answer {
            outcome,
            status,
            code,
            message,
        } = answer(&error);
        Error::DynamoDb {
            operation,
            table: table.to_owned(),
            outcome,
            status,
            code,
            message,
            earlier_attempt_may_have_been_applied,
            source: Arc::new(aws_sdk_dynamodb::Error::from(error)),
        }
    }
}

/// What a conditional write stores when it is applied, so that a failed
/// condition on an attempt the SDK sent again can be recognised as the
/// effect of an earlier attempt of the same write.
pub(crate) enum Effect<'a> {
    /// The whole item, as sent (a put).
    Item(&'a AttributeMap),
    /// These attributes with these values (`None`: removed) (an update of
    /// `SET`s and `REMOVE`s; its stamped `updated_at` and version make it
    /// unique).
    Attributes(Vec<(&'a str, Option<&'a AttributeValue>)>),
    /// Not recognisable from the stored item (a delete: an absent item may
    /// have been deleted by anyone; an update that adds or appends).
    Unknown,
}

impl Effect<'_> {
    /// Whether `stored` shows the write applied, its values compared as
    /// DynamoDB stores them ([`same_item`], [`same_attribute`]: sets in any
    /// order, Numbers as numbers, maps by key).
    fn shown_by(&self, stored: Option<&AttributeMap>) -> bool {
        match (self, stored) {
            (Effect::Item(item), Some(stored)) => same_item(item, stored),
            (Effect::Attributes(attributes), Some(stored)) => attributes
                .iter()
                .all(|(name, value)| same_attribute(stored.get(*name), *value)),
            _ => false,
        }
    }
}

/// Turns a failed conditional write into what its old item explains: no
/// item ([`Error::ItemNotFound`]), another version
/// ([`Error::VersionConflict`]) or the condition ([`Error::ConditionFailed`]);
/// other failures into [`Error::DynamoDb`].
///
/// When the SDK sent the write again after an attempt that may have been
/// applied, a failed condition may be that attempt's own doing: if the
/// stored item shows `effect`, the write was applied, and the stored item
/// is returned (`Ok`); otherwise the outcome is [`Error::OutcomeUnknown`],
/// never a plain conflict.
pub(crate) fn conditional_failure<E: Entity, O>(
    table: &Table,
    key: &ItemKey,
    expected_version: Option<u64>,
    failure: Failure<O>,
    effect: Effect<'_>,
    conditional_failure: impl Fn(&O) -> Option<Option<AttributeMap>>,
) -> Result<AttributeMap, Error>
where
    aws_sdk_dynamodb::Error: From<SdkError<O, HttpResponse>>,
    O: aws_sdk_dynamodb::error::ProvideErrorMetadata,
{
    let schema = E::SCHEMA;
    let Some(old) = failure.service_error().and_then(conditional_failure) else {
        return Err(Error::from_failure(table.name(), failure));
    };
    if failure.earlier_attempt_may_have_been_applied() {
        if effect.shown_by(old.as_ref()) {
            return Ok(old.unwrap_or_default());
        }
        return Err(Error::OutcomeUnknown {
            operation: failure.operation,
            entity: schema.type_name,
            key: key.clone(),
            item: old.map(Box::new),
        });
    }
    let Some(old) = old else {
        return Err(Error::ItemNotFound {
            entity: schema.type_name,
            key: key.clone(),
        });
    };
    if let (Some(attribute), Some(expected)) = (schema.version_attribute, expected_version) {
        let found = match old.get(attribute) {
            Some(AttributeValue::N(number)) => number.parse::<u64>().ok(),
            _ => None,
        };
        if found != Some(expected) {
            return Err(Error::VersionConflict {
                entity: schema.type_name,
                key: key.clone(),
                expected,
                found,
                item: Some(Box::new(old)),
            });
        }
    }
    Err(Error::ConditionFailed {
        entity: schema.type_name,
        key: key.clone(),
        item: Box::new(old),
    })
}

impl Error {
    /// The [`Error::DynamoDb`] of a failed request on `table`, named by its
    /// operation: what its last attempt met, and whether an attempt before
    /// it may have been applied (the SDK sent it again after a timeout, a
    /// lost answer or a server error, and the last attempt was refused, by
    /// throttling say: the request may still have been applied).
    pub(crate) fn from_failure<E>(table: &str, failure: Failure<E>) -> Self
    where
        aws_sdk_dynamodb::Error: From<SdkError<E, HttpResponse>>,
        E: ProvideErrorMetadata,
    {
        let earlier = failure.earlier_attempt_may_have_been_applied();
        Error::dynamodb(failure.operation, table, failure.error, earlier)
    }
}

/// What the wire says of a failed request.
pub(crate) struct Answer {
    pub(crate) outcome: RequestOutcome,
    pub(crate) status: Option<u16>,
    pub(crate) code: Option<String>,
    pub(crate) message: Option<String>,
}

/// What became of a failed request of either SDK (DynamoDB or DynamoDB
/// Streams), from the HTTP status of its answer, and DynamoDB's error code
/// and message when it gave them.
pub(crate) fn answer<E: ProvideErrorMetadata>(error: &SdkError<E, HttpResponse>) -> Answer {
    let status = match error {
        SdkError::ServiceError(service) => Some(service.raw().status().as_u16()),
        SdkError::ResponseError(response) => Some(response.raw().status().as_u16()),
        _ => None,
    };
    let outcome = match error {
        // DynamoDB's errors are 4xx; a 5xx may have been applied; a 2xx
        // that the SDK reports as an error is an answer it could not parse.
        SdkError::ServiceError(_) => match status.unwrap_or_default() {
            400..=499 => RequestOutcome::Rejected,
            500.. => RequestOutcome::ServerError,
            _ => RequestOutcome::Unreadable,
        },
        SdkError::ResponseError(_) => RequestOutcome::Unreadable,
        SdkError::TimeoutError(_) => RequestOutcome::TimedOut,
        SdkError::DispatchFailure(failure) if failure.is_timeout() => RequestOutcome::TimedOut,
        SdkError::DispatchFailure(failure) if failure.is_user() => RequestOutcome::NotSent,
        SdkError::DispatchFailure(_) => RequestOutcome::NoAnswer,
        SdkError::ConstructionFailure(_) => RequestOutcome::NotSent,
        _ => RequestOutcome::NoAnswer,
    };
    let (code, message) = match error {
        SdkError::ServiceError(service) => (
            service.err().code().map(str::to_owned),
            service.err().message().map(str::to_owned),
        ),
        _ => (None, None),
    };
    Answer {
        outcome,
        status,
        code,
        message,
    }
}
