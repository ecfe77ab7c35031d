//! [`Error::client_message`]: what an error means to a client of the
//! caller's service, without anything internal.

use crate::error::{CancellationCode, Error, KeyError, Refusal};

/// DynamoDB's throttling error codes
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html>).
const THROTTLING_CODES: [&str; 3] = [
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
];

impl Error {
    /// A message for a client of your service, such as the body of an HTTP
    /// answer: what failed, in the terms of the client's request, and
    /// nothing internal. It names no table, key value, entity, attribute or
    /// index, and carries no DynamoDB message or request id, all of which
    /// the [`Display`](std::fmt::Display) text has: log that one.
    ///
    /// | error | message |
    /// |---|---|
    /// | [`Error::AlreadyExists`] | `the item already exists` |
    /// | [`Error::UniqueValueTaken`] | `a value that must be unique is taken` |
    /// | [`Error::ItemNotFound`] | `the item does not exist` |
    /// | [`Error::VersionConflict`] | `the item was changed by another request; read it again` |
    /// | [`Error::ConditionFailed`] | `the item is not in the state the request requires` |
    /// | [`Error::OutcomeUnknown`] | `the write may have been applied; read the item before retrying` |
    /// | [`Error::TransactionCanceled`] with a `ConditionalCheckFailed` | `an item is not in the state the request requires` |
    /// | … with a `TransactionConflict`, `ThrottlingError` or `ProvisionedThroughputExceeded` (and no failed condition) | `the service is busy; retry later` |
    /// | … otherwise | `the request was not applied` |
    /// | [`Error::DynamoDb`] throttled (`ThrottlingException`, `ProvisionedThroughputExceededException`, `RequestLimitExceeded`) | `the service is busy; retry later` |
    /// | … that [may have been applied](Error::may_have_been_applied) | `the request may have been applied; read before retrying` |
    /// | … otherwise | `the request failed` |
    /// | [`Error::UnprocessedItems`] | `some writes were not confirmed; retry later` |
    /// | [`Error::UnprocessedKeys`] | `some items could not be read; retry later` |
    /// | [`Error::Key`]: [`KeyError::EmptyKeyValue`] | `a value that identifies the item is empty` |
    /// | … [`KeyError::KeyTooLong`], [`KeyError::KeyAttributeTooLong`] | `a value that identifies the item is too long` |
    /// | … otherwise | `a value that identifies the item is not valid` |
    /// | [`Error::Refused`]: [`Refusal::InvalidCursor`], [`Refusal::CursorMismatch`] | `the cursor is not valid for this request` |
    /// | … [`Refusal::ItemTooLarge`] | `the item is too large` |
    /// | … otherwise | `the request is not valid` |
    /// | [`Error::Decode`] | `a stored item could not be read` |
    /// | [`Error::Definition`] | `the service is not set up for this request` |
    /// | [`Error::Job`] | `the operation could not be completed` |
    /// | [`Error::TableNotActive`] | `the service is not ready; retry later` |
    /// | `Error::DynamoDbStreams` (feature `streams`) | `the change feed could not be read` |
    ///
    /// Whether a message tells the client it may retry follows
    /// [`Error::may_have_been_applied`] and DynamoDB's retryable errors;
    /// the HTTP status is yours to choose (the README's "Errors as HTTP
    /// statuses" maps them).
    ///
    /// ```
    /// use stamp_core::Error;
    ///
    /// fn answer(error: &Error) -> String {
    ///     eprintln!("request failed: {error}"); // the full text, for the logs
    ///     error.client_message().to_owned() // for the client
    /// }
    /// ```
    pub fn client_message(&self) -> &'static str {
        match self {
            Error::AlreadyExists { .. } => "the item already exists",
            Error::UniqueValueTaken { .. } => "a value that must be unique is taken",
            Error::ItemNotFound { .. } => "the item does not exist",
            Error::VersionConflict { .. } => {
                "the item was changed by another request; read it again"
            }
            Error::ConditionFailed { .. } => "the item is not in the state the request requires",
            Error::OutcomeUnknown { .. } => {
                "the write may have been applied; read the item before retrying"
            }
            Error::TransactionCanceled { reasons, .. } => {
                let any = |codes: &[CancellationCode]| {
                    reasons.iter().any(|reason| codes.contains(&reason.code))
                };
                if any(&[CancellationCode::ConditionalCheckFailed]) {
                    "an item is not in the state the request requires"
                } else if any(&[
                    CancellationCode::TransactionConflict,
                    CancellationCode::ThrottlingError,
                    CancellationCode::ProvisionedThroughputExceeded,
                ]) {
                    BUSY
                } else {
                    "the request was not applied"
                }
            }
            Error::DynamoDb { code, .. } => {
                if code
                    .as_deref()
                    .is_some_and(|code| THROTTLING_CODES.contains(&code))
                {
                    BUSY
                } else if self.may_have_been_applied() {
                    "the request may have been applied; read before retrying"
                } else {
                    "the request failed"
                }
            }
            Error::UnprocessedItems { .. } => "some writes were not confirmed; retry later",
            Error::UnprocessedKeys { .. } => "some items could not be read; retry later",
            Error::Key(KeyError::EmptyKeyValue { .. }) => {
                "a value that identifies the item is empty"
            }
            Error::Key(KeyError::KeyTooLong { .. } | KeyError::KeyAttributeTooLong { .. }) => {
                "a value that identifies the item is too long"
            }
            Error::Key(_) => "a value that identifies the item is not valid",
            Error::Refused(Refusal::InvalidCursor { .. } | Refusal::CursorMismatch) => {
                "the cursor is not valid for this request"
            }
            Error::Refused(Refusal::ItemTooLarge { .. }) => "the item is too large",
            Error::Refused(_) => "the request is not valid",
            Error::Decode(_) => "a stored item could not be read",
            Error::Definition(_) => "the service is not set up for this request",
            Error::Job(_) => "the operation could not be completed",
            Error::TableNotActive { .. } => "the service is not ready; retry later",
            #[cfg(feature = "streams")]
            Error::DynamoDbStreams { .. } => "the change feed could not be read",
        }
    }
}

/// A throttled or conflicting request, which the client may send again.
const BUSY: &str = "the service is busy; retry later";

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use aws_sdk_dynamodb::types::AttributeValue;
    use aws_sdk_dynamodb::types::error::ResourceNotFoundException;

    use crate::error::{
        CancellationCode, CancellationReason, CursorReason, DecodeError, DefinitionError, Error,
        ItemKey, JobError, KeyError, Refusal, RequestOutcome,
    };

    const TABLE: &str = "shop-prod";

    fn key() -> ItemKey {
        let item = [
            ("PK".to_owned(), AttributeValue::S("CUST#c-secret".into())),
            ("SK".to_owned(), AttributeValue::S("ORDER#7".into())),
        ]
        .into();
        ItemKey::named(&item, "PK", "SK")
    }

    fn dynamodb(outcome: RequestOutcome, code: Option<&str>) -> Error {
        Error::DynamoDb {
            operation: "PutItem",
            table: TABLE.to_owned(),
            outcome,
            status: Some(400),
            code: code.map(str::to_owned),
            message: Some("Requested resource not found (request id 4KBNVRGD25RG)".to_owned()),
            earlier_attempt_may_have_been_applied: false,
            source: Arc::new(aws_sdk_dynamodb::Error::ResourceNotFoundException(
                ResourceNotFoundException::builder()
                    .message("Requested resource not found")
                    .build(),
            )),
        }
    }

    fn canceled(codes: &[CancellationCode]) -> Error {
        Error::TransactionCanceled {
            table: TABLE.to_owned(),
            reasons: codes
                .iter()
                .enumerate()
                .map(|(index, code)| CancellationReason {
                    index,
                    entity: "Order",
                    key: key(),
                    code: code.clone(),
                    message: None,
                    old_item: None,
                })
                .collect(),
        }
    }

    /// Every top-level variant (and the nested reasons that change the
    /// message): the exact message, and the `Display` text keeps the
    /// internals that the message leaves out.
    #[test]
    fn every_error_has_a_client_message_without_internals() {
        use CancellationCode::{
            ConditionalCheckFailed, None as Passed, ThrottlingError, TransactionConflict,
            ValidationError,
        };
        let cases: Vec<(Error, &str)> = vec![
            (
                Error::AlreadyExists {
                    entity: "Order",
                    key: key(),
                    item: None,
                },
                "the item already exists",
            ),
            (
                Error::ItemNotFound {
                    entity: "Order",
                    key: key(),
                },
                "the item does not exist",
            ),
            (
                Error::VersionConflict {
                    entity: "Order",
                    key: key(),
                    expected: 3,
                    found: Some(4),
                    item: None,
                },
                "the item was changed by another request; read it again",
            ),
            (
                Error::ConditionFailed {
                    entity: "Order",
                    key: key(),
                    item: Box::default(),
                },
                "the item is not in the state the request requires",
            ),
            (
                Error::OutcomeUnknown {
                    operation: "UpdateItem",
                    entity: "Order",
                    key: key(),
                    item: None,
                },
                "the write may have been applied; read the item before retrying",
            ),
            (
                canceled(&[Passed, ConditionalCheckFailed, TransactionConflict]),
                "an item is not in the state the request requires",
            ),
            (
                canceled(&[Passed, TransactionConflict]),
                "the service is busy; retry later",
            ),
            (
                canceled(&[ThrottlingError]),
                "the service is busy; retry later",
            ),
            (canceled(&[ValidationError]), "the request was not applied"),
            (
                dynamodb(
                    RequestOutcome::Rejected,
                    Some("ProvisionedThroughputExceededException"),
                ),
                "the service is busy; retry later",
            ),
            (
                dynamodb(RequestOutcome::TimedOut, None),
                "the request may have been applied; read before retrying",
            ),
            (
                dynamodb(RequestOutcome::Rejected, Some("ResourceNotFoundException")),
                "the request failed",
            ),
            (
                Error::UnprocessedItems {
                    table: TABLE.to_owned(),
                    attempts: 9,
                    written: 24,
                    unprocessed: Vec::new(),
                    cause: None,
                },
                "some writes were not confirmed; retry later",
            ),
            (
                Error::UnprocessedKeys {
                    table: TABLE.to_owned(),
                    entity: "Order",
                    attempts: 9,
                    keys: Vec::new(),
                    items: Vec::new(),
                    cause: None,
                },
                "some items could not be read; retry later",
            ),
            (
                KeyError::EmptyKeyValue {
                    entity: "Order",
                    field: "customer_id",
                }
                .into(),
                "a value that identifies the item is empty",
            ),
            (
                KeyError::KeyTooLong {
                    entity: "Order",
                    template: "CUST#<customer_id>",
                    length: 2_100,
                    limit: 2_048,
                }
                .into(),
                "a value that identifies the item is too long",
            ),
            (
                KeyError::InvalidShard {
                    entity: "Order",
                    index: "GSI1",
                    shard: 16,
                    shards: 16,
                }
                .into(),
                "a value that identifies the item is not valid",
            ),
            (
                Refusal::InvalidCursor {
                    reason: CursorReason::SignatureMismatch,
                }
                .into(),
                "the cursor is not valid for this request",
            ),
            (
                Refusal::CursorMismatch.into(),
                "the cursor is not valid for this request",
            ),
            (
                Refusal::ItemTooLarge {
                    entity: "Order",
                    key: key(),
                    size: 409_601,
                    limit: 409_600,
                }
                .into(),
                "the item is too large",
            ),
            (Refusal::EmptyTransaction.into(), "the request is not valid"),
            (
                DecodeError::EntityTypeMismatch {
                    attribute: "Type",
                    expected: "Order",
                    found: "Customer".to_owned(),
                }
                .into(),
                "a stored item could not be read",
            ),
            (
                DefinitionError::EmptyTableDefinition.into(),
                "the service is not set up for this request",
            ),
            (
                JobError::NoPreviousKeyFormat { entity: "Order" }.into(),
                "the operation could not be completed",
            ),
            (
                Error::TableNotActive {
                    table: TABLE.to_owned(),
                    detail: "timed out".to_owned(),
                },
                "the service is not ready; retry later",
            ),
        ];
        #[cfg(feature = "streams")]
        let cases = {
            use aws_sdk_dynamodbstreams::types::error::ExpiredIteratorException;
            let mut cases = cases;
            cases.push((
                Error::DynamoDbStreams {
                    operation: "GetRecords",
                    table: TABLE.to_owned(),
                    outcome: RequestOutcome::Rejected,
                    code: Some("ExpiredIteratorException".to_owned()),
                    message: None,
                    source: Arc::new(aws_sdk_dynamodbstreams::Error::ExpiredIteratorException(
                        ExpiredIteratorException::builder().build(),
                    )),
                },
                "the change feed could not be read",
            ));
            cases
        };
        for (error, expected) in &cases {
            assert_eq!(error.client_message(), *expected, "{error}");
        }
        // The logs keep what the client does not see.
        assert!(cases[0].0.to_string().contains("CUST#c-secret"));
        assert!(cases[11].0.to_string().contains(TABLE));
    }
}
