//! What [`Faults`] injects: a [`Fault`], its [`FaultKind`], the
//! [`ThrottlingException`] of a throttled request.

use super::*;

/// A fault, as [`Faults`] injects it into one request. Each reaches the
/// code under test as DynamoDB (or the network) delivers it: an error
/// answer has DynamoDB's status, its `Content-Type:
/// application/x-amz-json-1.0`, an `x-amzn-RequestId` header and its JSON
/// body, `{"__type": "com.amazonaws.dynamodb.v20120810#<Exception>",
/// "message": "…"}`, with the throttling reasons of a throttled request
/// ("Error handling with DynamoDB",
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html>).
///
/// Which faults DynamoDB never applied and which may have been applied is
/// that page's: a 4xx was not applied; a 5xx, a timeout or a lost
/// connection may have been. The `…AfterApplied` faults send the request,
/// let the server apply it, and then lose its answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Fault {
    /// Throttled (HTTP 400, not sent): `exception` with one
    /// `ThrottlingReason` whose `reason` is `reason` (such as
    /// `TableWriteKeyRangeThroughputExceeded`,
    /// `ResourceType + OperationType + LimitType`) and whose `resource` is
    /// the table's ARN
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html>).
    /// [`Fault::throttled`] picks the exception from the reason.
    Throttled {
        /// The reason, as DynamoDB spells it.
        reason: String,
        /// The exception DynamoDB answers with.
        exception: ThrottlingException,
    },
    /// DynamoDB's `InternalServerError`, HTTP 500, without sending the
    /// request.
    ServerErrorNotSent,
    /// The server applied the request; its answer is replaced by
    /// `InternalServerError`, HTTP 500.
    ServerErrorAfterApplied,
    /// The server applied the request; a proxy answers an HTML page with
    /// HTTP 502 and no DynamoDB error code.
    BadGatewayAfterApplied,
    /// The server applied the request; its HTTP 200 body is cut in half.
    CutShortAfterApplied,
    /// The connection is reset before the request is sent.
    ResetNotSent,
    /// The server applied the request; the connection is reset before the
    /// answer arrives.
    ResetAfterApplied,
    /// The server applied the request; reading its answer times out.
    TimeoutAfterApplied,
    /// The answer arrives this much later.
    Slow(Duration),
    /// A `BatchWriteItem` or `BatchGetItem` leaves the items with these keys
    /// unprocessed, as DynamoDB does under load: they are taken out of the
    /// request before it is sent (not applied, not read) and returned in
    /// its `UnprocessedItems` / `UnprocessedKeys`, with the rest of the
    /// answer. A key is the key attributes (`PK`, `SK`), such as
    /// `PrimaryKey::to_attribute_map`. Scripted only; a rule with it
    /// matches batch requests only.
    ///
    /// The request is rewritten after the SDK signed it, so a server that
    /// checks signatures (DynamoDB itself) refuses it: for local servers.
    Unprocessed(Vec<AttributeMap>),
    /// The server applied the request, and the answer says it was
    /// throttled (`ThrottlingException`, HTTP 400): a lie DynamoDB never
    /// tells (a throttled request was not applied), for testing that a
    /// test's own checks can fail.
    ThrottledAfterApplied,
}

/// The exception a throttled request is answered with; each carries its
/// `ThrottlingReasons` as the SDK's model spells the member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottlingException {
    /// `ThrottlingException` (member `throttlingReasons`).
    Throttling,
    /// `ProvisionedThroughputExceededException` (member `ThrottlingReasons`).
    ProvisionedThroughputExceeded,
    /// `RequestLimitExceeded` (member `ThrottlingReasons`).
    RequestLimitExceeded,
}

impl Fault {
    /// Throttled with `reason` (such as `TableWriteKeyRangeThroughputExceeded`),
    /// answered as DynamoDB answers that limit: `ProvisionedThroughputExceeded`
    /// with `ProvisionedThroughputExceededException`, `AccountLimitExceeded`
    /// with `RequestLimitExceeded` (the account's quota), the others
    /// (`KeyRangeThroughputExceeded`, `MaxOnDemandThroughputExceeded`) with
    /// `ThrottlingException`. Set [`Fault::Throttled`] for another pairing.
    pub fn throttled(reason: impl Into<String>) -> Fault {
        let reason = reason.into();
        let exception = if reason.ends_with("ProvisionedThroughputExceeded") {
            ThrottlingException::ProvisionedThroughputExceeded
        } else if reason.ends_with("AccountLimitExceeded") {
            ThrottlingException::RequestLimitExceeded
        } else {
            ThrottlingException::Throttling
        };
        Fault::Throttled { reason, exception }
    }

    /// Whether the server received and applied the request.
    pub fn applied(&self) -> bool {
        !matches!(
            self,
            Fault::Throttled { .. } | Fault::ServerErrorNotSent | Fault::ResetNotSent
        )
    }

    /// The kind of this fault, as [`FaultCounts`] counts it.
    pub fn kind(&self) -> FaultKind {
        match self {
            Fault::Throttled { exception, .. } => match exception {
                ThrottlingException::ProvisionedThroughputExceeded => FaultKind::ThroughputExceeded,
                _ => FaultKind::Throttled,
            },
            Fault::ServerErrorNotSent => FaultKind::ServerErrorNotSent,
            Fault::ServerErrorAfterApplied => FaultKind::ServerErrorAfterApplied,
            Fault::BadGatewayAfterApplied => FaultKind::BadGatewayAfterApplied,
            Fault::CutShortAfterApplied => FaultKind::CutShortAfterApplied,
            Fault::ResetNotSent => FaultKind::ResetNotSent,
            Fault::ResetAfterApplied => FaultKind::ResetAfterApplied,
            Fault::TimeoutAfterApplied => FaultKind::TimeoutAfterApplied,
            Fault::Slow(_) => FaultKind::Slow,
            Fault::Unprocessed(_) => FaultKind::Unprocessed,
            Fault::ThrottledAfterApplied => FaultKind::ThrottledAfterApplied,
        }
    }
}

/// The kinds of fault, for random faults ([`Faults::rate`]) and counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FaultKind {
    /// `ThrottlingException` with a hot-key reason
    /// (`TableReadKeyRangeThroughputExceeded` for a read,
    /// `TableWriteKeyRangeThroughputExceeded` otherwise); not sent.
    Throttled,
    /// `ProvisionedThroughputExceededException`
    /// (`Table{Read,Write}ProvisionedThroughputExceeded`); not sent.
    ThroughputExceeded,
    /// [`Fault::ServerErrorNotSent`].
    ServerErrorNotSent,
    /// [`Fault::ServerErrorAfterApplied`].
    ServerErrorAfterApplied,
    /// [`Fault::BadGatewayAfterApplied`].
    BadGatewayAfterApplied,
    /// [`Fault::CutShortAfterApplied`].
    CutShortAfterApplied,
    /// [`Fault::ResetNotSent`].
    ResetNotSent,
    /// [`Fault::ResetAfterApplied`].
    ResetAfterApplied,
    /// [`Fault::TimeoutAfterApplied`].
    TimeoutAfterApplied,
    /// [`Fault::Slow`], 1 to 20 ms at random.
    Slow,
    /// [`Fault::Unprocessed`] (scripted only).
    Unprocessed,
    /// [`Fault::ThrottledAfterApplied`], the lie.
    ThrottledAfterApplied,
}

impl FaultKind {
    /// The kinds DynamoDB and the network produce, each drawn at random by
    /// [`Faults::rate_each`] (not [`Unprocessed`](Self::Unprocessed),
    /// which needs keys, nor the lie).
    pub const HONEST: [FaultKind; 10] = [
        FaultKind::Throttled,
        FaultKind::ThroughputExceeded,
        FaultKind::ServerErrorNotSent,
        FaultKind::ServerErrorAfterApplied,
        FaultKind::BadGatewayAfterApplied,
        FaultKind::CutShortAfterApplied,
        FaultKind::ResetNotSent,
        FaultKind::ResetAfterApplied,
        FaultKind::TimeoutAfterApplied,
        FaultKind::Slow,
    ];
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Throttled => "throttled (ThrottlingException, not sent)",
            FaultKind::ThroughputExceeded => "throttled (ProvisionedThroughputExceeded, not sent)",
            FaultKind::ServerErrorNotSent => "HTTP 500, not sent",
            FaultKind::ServerErrorAfterApplied => "HTTP 500 after it was applied",
            FaultKind::BadGatewayAfterApplied => "proxy's HTML 502 after it was applied",
            FaultKind::CutShortAfterApplied => "HTTP 200 cut short after it was applied",
            FaultKind::ResetNotSent => "connection reset, not sent",
            FaultKind::ResetAfterApplied => "connection reset after it was applied",
            FaultKind::TimeoutAfterApplied => "read timeout after it was applied",
            FaultKind::Slow => "slow answer (1-20 ms)",
            FaultKind::Unprocessed => "batch items left unprocessed",
            FaultKind::ThrottledAfterApplied => "throttled after it was applied (a lie)",
        })
    }
}
