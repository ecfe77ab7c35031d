//! Faults on demand: [`Faults`], an HTTP client of the SDK whose requests
//! fail as DynamoDB's fail, scripted or at random.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::model::entity::AttributeMap;
use crate::request::table::Table;

mod connector;
mod counts;
mod fault;
mod on;
mod wire;

pub use counts::FaultCounts;
pub use fault::{Fault, FaultKind, ThrottlingException};
pub use on::On;

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
