//! Faults injected in the HTTP client of the soak's workers: a wrapper of
//! the SDK's own HTTPS client ([`FaultyHttpClient`]) that, for a seeded
//! random share of the requests, answers instead of the server (the
//! request is not sent: throttling, a server error, a reset connection) or
//! sends the request, lets the server apply it, and then loses its answer
//! (a server error, a proxy's HTML 502, a body cut short, a reset
//! connection, a read timeout), or only delays it.
//!
//! DynamoDB's documentation says which of these may have been applied
//! ("Error handling with DynamoDB", Developer Guide): throttling
//! (`ThrottlingException`, `ProvisionedThroughputExceededException`) was
//! not; a 5xx, a timeout or a lost connection may have been. The soak then
//! checks that Stamp reports each the same way.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::byte_stream::ByteStream;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One kind of fault, as [`FaultyHttpClient`] injects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// `ThrottlingException` with `throttlingReasons` (a hot key range),
    /// HTTP 400; the request is not sent.
    Throttled,
    /// `ProvisionedThroughputExceededException` with `ThrottlingReasons`,
    /// HTTP 400; the request is not sent.
    ThroughputExceeded,
    /// DynamoDB's `InternalServerError`, HTTP 500, without sending.
    ServerErrorNotSent,
    /// The server applied the request; its answer is replaced by DynamoDB's
    /// `InternalServerError`, HTTP 500.
    ServerErrorAfterApplied,
    /// The server applied the request; a proxy answers HTML with HTTP 502
    /// and no DynamoDB error code.
    BadGatewayAfterApplied,
    /// The server applied the request; its HTTP 200 body is cut in half.
    CutShortAfterApplied,
    /// The connection is reset before the request is sent.
    ResetNotSent,
    /// The server applied the request; the connection is reset before the
    /// answer arrives.
    ResetAfterApplied,
    /// The server applied the request; reading the answer times out.
    TimeoutAfterApplied,
    /// The answer arrives, 1 to 20 ms late.
    Slow,
}

impl Fault {
    /// Every kind, in the order of the report.
    pub const ALL: [Fault; 10] = [
        Fault::Throttled,
        Fault::ThroughputExceeded,
        Fault::ServerErrorNotSent,
        Fault::ServerErrorAfterApplied,
        Fault::BadGatewayAfterApplied,
        Fault::CutShortAfterApplied,
        Fault::ResetNotSent,
        Fault::ResetAfterApplied,
        Fault::TimeoutAfterApplied,
        Fault::Slow,
    ];

    /// Whether the server received and applied the request.
    pub fn applied(self) -> bool {
        !matches!(
            self,
            Fault::Throttled
                | Fault::ThroughputExceeded
                | Fault::ServerErrorNotSent
                | Fault::ResetNotSent
        )
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Throttled => "throttled (ThrottlingException, not sent)",
            Fault::ThroughputExceeded => "throttled (ProvisionedThroughputExceeded, not sent)",
            Fault::ServerErrorNotSent => "HTTP 500, not sent",
            Fault::ServerErrorAfterApplied => "HTTP 500 after it was applied",
            Fault::BadGatewayAfterApplied => "proxy's HTML 502 after it was applied",
            Fault::CutShortAfterApplied => "HTTP 200 cut short after it was applied",
            Fault::ResetNotSent => "connection reset, not sent",
            Fault::ResetAfterApplied => "connection reset after it was applied",
            Fault::TimeoutAfterApplied => "read timeout after it was applied",
            Fault::Slow => "slow answer (1-20 ms)",
        })
    }
}

const THROTTLED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Throughput exceeds the current throughput limit for your key range","throttlingReasons":[{"reason":"TableWriteKeyRangeThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/soak"}]}"#;
const THROUGHPUT_EXCEEDED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded","ThrottlingReasons":[{"reason":"TableWriteProvisionedThroughputExceeded","resource":"arn:aws:dynamodb:us-east-1:123456789012:table/soak"}]}"#;
const INTERNAL_SERVER_ERROR: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}"#;
const BAD_GATEWAY: &str = "<html><body><h1>502 Bad Gateway</h1></body></html>";

/// The faults injected so far, by kind, and the requests seen.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FaultCounts {
    /// Requests that went through the client, faulted or not.
    pub requests: u64,
    /// Faults injected, by kind.
    pub by_kind: BTreeMap<Fault, u64>,
    /// Attempts the SDK sent again after an attempt of the same request
    /// (its `amz-sdk-invocation-id`) was applied and its answer lost, by
    /// DynamoDB operation (`PutItem`, `UpdateItem`, …): the conditional
    /// writes that may then meet their own earlier write.
    pub resent_after_applied: BTreeMap<String, u64>,
}

impl FaultCounts {
    /// Faults injected in all.
    pub fn total(&self) -> u64 {
        self.by_kind.values().sum()
    }
}

#[derive(Debug)]
struct Plan {
    rate: f64,
    dishonest: bool,
    random: ChaCha8Rng,
    counts: FaultCounts,
    /// The invocation ids of the requests with an attempt applied whose
    /// answer was lost.
    lost_answers: HashSet<String>,
}

/// An HTTP client that injects faults into a seeded random share of the
/// requests (`rate`, 0 to 1), and otherwise sends them with the SDK's own
/// HTTPS client (hyper and rustls, as `default-https-client`).
#[derive(Debug, Clone)]
pub struct FaultyHttpClient {
    inner: SharedHttpClient,
    plan: Arc<Mutex<Plan>>,
}

impl FaultyHttpClient {
    /// Faults in `rate` of the requests (0 injects none), drawn from `seed`.
    /// `dishonest`: a server error after the write was applied is answered
    /// as throttling instead (a lie DynamoDB never tells; for testing the
    /// soak's own checks).
    pub fn new(seed: u64, rate: f64, dishonest: bool) -> Self {
        let inner = aws_smithy_http_client::Builder::new()
            .tls_provider(tls::Provider::Rustls(CryptoMode::AwsLc))
            .build_https();
        FaultyHttpClient {
            inner,
            plan: Arc::new(Mutex::new(Plan {
                rate,
                dishonest,
                random: ChaCha8Rng::seed_from_u64(seed),
                counts: FaultCounts::default(),
                lost_answers: HashSet::new(),
            })),
        }
    }

    /// The faults injected so far.
    pub fn counts(&self) -> FaultCounts {
        self.plan.lock().unwrap().counts.clone()
    }

    /// The client, for `aws_sdk_dynamodb::config::Builder::http_client`.
    pub fn shared(&self) -> SharedHttpClient {
        SharedHttpClient::new(self.clone())
    }

    /// The fault of the next request, with its delay and whether the
    /// client lies; `request` is counted as sent again when an earlier
    /// attempt of it was applied and its answer lost.
    fn draw(&self, request: &HttpRequest) -> (Option<Fault>, u64, bool) {
        let invocation = request
            .headers()
            .get("amz-sdk-invocation-id")
            .map(str::to_owned);
        let mut plan = self.plan.lock().unwrap();
        plan.counts.requests += 1;
        if let Some(invocation) = &invocation
            && plan.lost_answers.contains(invocation)
        {
            let target = request.headers().get("x-amz-target").unwrap_or("unknown");
            let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
            *plan
                .counts
                .resent_after_applied
                .entry(operation)
                .or_default() += 1;
        }
        let (rate, dishonest) = (plan.rate, plan.dishonest);
        if !plan.random.random_bool(rate) {
            return (None, 0, dishonest);
        }
        let fault = Fault::ALL[plan.random.random_range(0..Fault::ALL.len())];
        let delay = plan.random.random_range(1..=20);
        *plan.counts.by_kind.entry(fault).or_default() += 1;
        if fault.applied()
            && fault != Fault::Slow
            && let Some(invocation) = invocation
        {
            plan.lost_answers.insert(invocation);
        }
        (Some(fault), delay, dishonest)
    }
}

impl HttpClient for FaultyHttpClient {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(FaultyConnector {
            inner: self.inner.http_connector(settings, components),
            client: self.clone(),
        })
    }
}

#[derive(Debug)]
struct FaultyConnector {
    inner: SharedHttpConnector,
    client: FaultyHttpClient,
}

fn answer(status: u16, content_type: &str, body: impl Into<SdkBody>) -> HttpResponse {
    let mut response = HttpResponse::new(
        StatusCode::try_from(status).expect("a valid status"),
        body.into(),
    );
    response
        .headers_mut()
        .insert("content-type", content_type.to_owned());
    response
}

const JSON: &str = "application/x-amz-json-1.0";

impl HttpConnector for FaultyConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let (fault, delay, dishonest) = self.client.draw(&request);
        let inner = self.inner.clone();
        HttpConnectorFuture::new(async move {
            let Some(fault) = fault else {
                return inner.call(request).await;
            };
            let lost = |what: &str| ConnectorError::io(format!("soak: {what}").into());
            match fault {
                Fault::Throttled => Ok(answer(400, JSON, THROTTLED)),
                Fault::ThroughputExceeded => Ok(answer(400, JSON, THROUGHPUT_EXCEEDED)),
                Fault::ServerErrorNotSent => Ok(answer(500, JSON, INTERNAL_SERVER_ERROR)),
                Fault::ResetNotSent => Err(lost("connection reset before sending")),
                Fault::Slow => {
                    tokio::time::sleep(Duration::from_millis(delay)).await;
                    inner.call(request).await
                }
                applied => {
                    // The server answers in full first: it has applied the request.
                    let response = inner.call(request).await?;
                    let status = response.status().as_u16();
                    let body = ByteStream::new(response.into_body())
                        .collect()
                        .await
                        .map_err(|error| lost(&format!("reading the answer: {error}")))?
                        .into_bytes();
                    match applied {
                        Fault::ServerErrorAfterApplied if dishonest => {
                            Ok(answer(400, JSON, THROTTLED))
                        }
                        Fault::ServerErrorAfterApplied => {
                            Ok(answer(500, JSON, INTERNAL_SERVER_ERROR))
                        }
                        Fault::BadGatewayAfterApplied => Ok(answer(502, "text/html", BAD_GATEWAY)),
                        Fault::CutShortAfterApplied => {
                            let half = body.slice(..body.len() / 2);
                            Ok(answer(status, JSON, half))
                        }
                        Fault::ResetAfterApplied => Err(lost("connection reset by peer")),
                        Fault::TimeoutAfterApplied => Err(ConnectorError::timeout(
                            "soak: the answer did not arrive in time".into(),
                        )),
                        _ => unreachable!("the faults before sending are handled above"),
                    }
                }
            }
        })
    }
}
