//! Faults on demand: [`Faults`], an HTTP client of the SDK whose requests
//! fail as DynamoDB's fail, scripted or at random.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::{AttributeMap, Table};

mod connector;
mod wire;

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

/// Which requests a scripted fault applies to: an operation (DynamoDB's
/// name, such as `PutItem`, `TransactWriteItems`, `BatchWriteItem`), a
/// table, both, or any request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct On {
    operation: Option<String>,
    table: Option<String>,
}

impl On {
    /// Any request.
    pub fn any() -> On {
        On::default()
    }

    /// Requests of `operation`, DynamoDB's name of it (`PutItem`,
    /// `UpdateItem`, `Query`, `TransactWriteItems`, `BatchWriteItem`, …).
    pub fn operation(operation: impl Into<String>) -> On {
        On {
            operation: Some(operation.into()),
            table: None,
        }
    }

    /// The next transaction: `TransactWriteItems`.
    pub fn transaction() -> On {
        On::operation("TransactWriteItems")
    }

    /// Only requests that name table `table` (its `TableName`, a
    /// transaction's actions, a batch's `RequestItems`).
    pub fn table(mut self, table: impl Into<String>) -> On {
        self.table = Some(table.into());
        self
    }

    fn matches(&self, request: &wire::Request, fault: &Fault) -> bool {
        let batch = matches!(
            request.operation.as_str(),
            "BatchWriteItem" | "BatchGetItem"
        );
        self.operation
            .as_ref()
            .is_none_or(|operation| *operation == request.operation)
            && self
                .table
                .as_ref()
                .is_none_or(|table| request.tables.contains(table))
            && (!matches!(fault, Fault::Unprocessed(_)) || batch)
    }
}

/// What went through a [`Faults`] client: requests by operation, faults by
/// kind, and the attempts the SDK sent again after an applied attempt lost
/// its answer.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FaultCounts {
    /// Requests (HTTP attempts) that went through the client, faulted or not.
    pub requests: u64,
    /// Requests by DynamoDB operation (`PutItem`, `Query`, …).
    pub by_operation: BTreeMap<String, u64>,
    /// Faults injected, by kind.
    pub by_kind: BTreeMap<FaultKind, u64>,
    /// Attempts the SDK sent again after an attempt of the same request
    /// (its `amz-sdk-invocation-id`) was applied and its answer lost, by
    /// operation: the conditional writes that may then meet their own
    /// earlier write.
    pub resent_after_applied: BTreeMap<String, u64>,
}

impl FaultCounts {
    /// Faults injected in all.
    pub fn total(&self) -> u64 {
        self.by_kind.values().sum()
    }

    /// Requests of `operation` (`PutItem`, …).
    pub fn requests_of(&self, operation: &str) -> u64 {
        self.by_operation.get(operation).copied().unwrap_or(0)
    }
}

/// Faults on demand for the requests of an SDK client, for testing how a
/// service answers DynamoDB's failures: an HTTP client, wrapping the SDK's
/// own (hyper, rustls), that fails chosen requests exactly as DynamoDB or
/// the network would ([`Fault`]) and passes the others through. It works
/// with any endpoint (the embedded server, ministack, DynamoDB Local), as
/// the faults are made on the client's side, and it counts requests by
/// operation ([`counts`](Self::counts)). Cheap to clone: clones share
/// their script, their random draws and their counts.
///
/// - **Scripted**: [`next`](Self::next) queues a fault for the next request
///   that matches ([`On`]): "the next `PutItem` on table T is throttled
///   with reason R", "the next transaction's answer is lost after it was
///   applied", "the next batch leaves these keys unprocessed". Each is used
///   once, in the order queued.
/// - **Random**: [`seeded`](Self::seeded) with a seed, and a rate per kind
///   ([`rate`](Self::rate), [`rate_each`](Self::rate_each)): each request
///   not scripted meets a fault of kind K with probability rate(K) (the
///   rates add up to at most 1), drawn from the seed, so a run repeats.
///
/// No `aws-smithy-*` type is named: [`table`](Self::table) gives a table
/// through a faulty client, [`client`](Self::client) a client for an
/// endpoint, [`configure`](Self::configure) sets it on any SDK
/// configuration builder.
///
/// # Example
///
/// ```ignore
/// use stamp::testing::{Fault, Faults, On};
///
/// let faults = Faults::new();
/// let table = faults.table(&table);          // the same table, through faults
/// faults.next(
///     On::operation("PutItem").table(table.name()),
///     Fault::throttled("TableWriteKeyRangeThroughputExceeded"),
/// );
/// faults.next(On::transaction(), Fault::TimeoutAfterApplied);
/// ```
#[derive(Debug, Clone)]
pub struct Faults {
    plan: Arc<Mutex<Plan>>,
}

#[derive(Debug)]
struct Plan {
    scripted: VecDeque<(On, Fault)>,
    rates: BTreeMap<FaultKind, f64>,
    random: fastrand::Rng,
    counts: FaultCounts,
    /// The invocation ids of the requests with an attempt applied whose
    /// answer was lost.
    lost_answers: HashSet<String>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults::new()
    }
}

impl Faults {
    /// No fault until one is scripted ([`next`](Self::next)); random draws
    /// from seed 0.
    pub fn new() -> Faults {
        Faults::seeded(0)
    }

    /// Random faults drawn from `seed`, at the rates set next (none yet).
    pub fn seeded(seed: u64) -> Faults {
        Faults {
            plan: Arc::new(Mutex::new(Plan {
                scripted: VecDeque::new(),
                rates: BTreeMap::new(),
                random: fastrand::Rng::with_seed(seed),
                counts: FaultCounts::default(),
                lost_answers: HashSet::new(),
            })),
        }
    }

    /// Faults of `kind` in `rate` of the requests not scripted (0 to 1,
    /// clamped).
    pub fn rate(self, kind: FaultKind, rate: f64) -> Faults {
        self.lock().rates.insert(kind, rate.clamp(0.0, 1.0));
        self
    }

    /// Faults in `rate` of the requests (0 to 1), of each of the
    /// [`FaultKind::HONEST`] kinds equally often.
    pub fn rate_each(self, rate: f64) -> Faults {
        let share = rate.clamp(0.0, 1.0) / FaultKind::HONEST.len() as f64;
        FaultKind::HONEST
            .into_iter()
            .fold(self, |faults, kind| faults.rate(kind, share))
    }

    /// The next request that matches `on` meets `fault` (once). Scripted
    /// faults come before random ones, in the order queued.
    pub fn next(&self, on: On, fault: Fault) -> &Faults {
        self.lock().scripted.push_back((on, fault));
        self
    }

    /// The scripted faults not yet used.
    pub fn pending(&self) -> usize {
        self.lock().scripted.len()
    }

    /// What went through the client so far.
    pub fn counts(&self) -> FaultCounts {
        self.lock().counts.clone()
    }

    /// `builder` with this client as its HTTP client: any SDK
    /// configuration (a local server's, [`crate::local::config`], or one
    /// loaded for AWS).
    pub fn configure(
        &self,
        builder: aws_sdk_dynamodb::config::Builder,
    ) -> aws_sdk_dynamodb::config::Builder {
        builder.http_client(connector::FaultyHttpClient::new(self.clone()))
    }

    /// A client for the local server at `endpoint`
    /// ([`crate::local::config`], the SDK's standard retries) through this.
    pub fn client(&self, endpoint: &str) -> aws_sdk_dynamodb::Client {
        aws_sdk_dynamodb::Client::from_conf(self.configure(crate::local::config(endpoint)).build())
    }

    /// `table` (its name and options) through a client with `table`'s
    /// client configuration (endpoint, region, retries) and this as its
    /// HTTP client.
    pub fn table(&self, table: &Table) -> Table {
        let builder = table.client().config().to_builder();
        let client = aws_sdk_dynamodb::Client::from_conf(self.configure(builder).build());
        table.clone().with_client(client)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Plan> {
        self.plan
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The fault of `request`, if any, counted; `invocation` is the SDK's
    /// id of the request, the same across its attempts.
    fn draw(&self, request: &wire::Request, invocation: Option<&str>) -> Option<Fault> {
        let mut plan = self.lock();
        plan.counts.requests += 1;
        *plan
            .counts
            .by_operation
            .entry(request.operation.clone())
            .or_default() += 1;
        if let Some(invocation) = invocation
            && plan.lost_answers.contains(invocation)
        {
            *plan
                .counts
                .resent_after_applied
                .entry(request.operation.clone())
                .or_default() += 1;
        }
        let scripted = plan
            .scripted
            .iter()
            .position(|(on, fault)| on.matches(request, fault));
        let fault = match scripted {
            Some(position) => plan.scripted.remove(position).map(|(_, fault)| fault),
            None => plan.random_fault(request),
        }?;
        *plan.counts.by_kind.entry(fault.kind()).or_default() += 1;
        if fault.applied()
            && !matches!(fault, Fault::Slow(_) | Fault::Unprocessed(_))
            && let Some(invocation) = invocation
        {
            plan.lost_answers.insert(invocation.to_owned());
        }
        Some(fault)
    }
}

impl Plan {
    fn random_fault(&mut self, request: &wire::Request) -> Option<Fault> {
        if self.rates.is_empty() {
            return None;
        }
        let draw = self.random.f64();
        let mut sum = 0.0;
        let mut chosen = None;
        for (kind, rate) in &self.rates {
            sum += rate;
            if draw < sum {
                chosen = Some(*kind);
                break;
            }
        }
        let access = if request.reads() { "Read" } else { "Write" };
        Some(match chosen? {
            FaultKind::Throttled => Fault::Throttled {
                reason: format!("Table{access}KeyRangeThroughputExceeded"),
                exception: ThrottlingException::Throttling,
            },
            FaultKind::ThroughputExceeded => Fault::Throttled {
                reason: format!("Table{access}ProvisionedThroughputExceeded"),
                exception: ThrottlingException::ProvisionedThroughputExceeded,
            },
            FaultKind::ServerErrorNotSent => Fault::ServerErrorNotSent,
            FaultKind::ServerErrorAfterApplied => Fault::ServerErrorAfterApplied,
            FaultKind::BadGatewayAfterApplied => Fault::BadGatewayAfterApplied,
            FaultKind::CutShortAfterApplied => Fault::CutShortAfterApplied,
            FaultKind::ResetNotSent => Fault::ResetNotSent,
            FaultKind::ResetAfterApplied => Fault::ResetAfterApplied,
            FaultKind::TimeoutAfterApplied => Fault::TimeoutAfterApplied,
            FaultKind::Slow => Fault::Slow(Duration::from_millis(self.random.u64(1..=20))),
            FaultKind::ThrottledAfterApplied => Fault::ThrottledAfterApplied,
            // Needs keys: scripted only.
            FaultKind::Unprocessed => return None,
        })
    }
}
