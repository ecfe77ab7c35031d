//! The faulty HTTP client: the SDK's own HTTPS client, wrapped.

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

use super::wire::{self, JSON};
use super::{Fault, Faults};

/// The HTTP client of a [`Faults`]: the SDK's default HTTPS client (hyper,
/// rustls with aws-lc), with the faults in front of it.
#[derive(Debug, Clone)]
pub(super) struct FaultyHttpClient {
    inner: SharedHttpClient,
    faults: Faults,
}

impl FaultyHttpClient {
    pub(super) fn new(faults: Faults) -> Self {
        let inner = aws_smithy_http_client::Builder::new()
            .tls_provider(tls::Provider::Rustls(CryptoMode::AwsLc))
            .build_https();
        FaultyHttpClient { inner, faults }
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
            faults: self.faults.clone(),
        })
    }
}

#[derive(Debug)]
struct FaultyConnector {
    inner: SharedHttpConnector,
    faults: Faults,
}

/// An answer of `status` with `content_type`, and a request id as
/// DynamoDB's answers have.
fn answer(status: u16, content_type: &str, body: impl Into<SdkBody>) -> HttpResponse {
    let mut response = HttpResponse::new(
        StatusCode::try_from(status).expect("a valid status"),
        body.into(),
    );
    response
        .headers_mut()
        .insert("content-type", content_type.to_owned());
    response.headers_mut().insert(
        "x-amzn-requestid",
        uuid::Uuid::new_v4().simple().to_string().to_uppercase(),
    );
    response
}

fn lost(what: &str) -> ConnectorError {
    ConnectorError::io(format!("stamp::testing::Faults: {what}").into())
}

/// The whole body of `response`, and its status.
async fn read_answer(response: HttpResponse) -> Result<(u16, bytes::Bytes), ConnectorError> {
    let status = response.status().as_u16();
    let body = ByteStream::new(response.into_body())
        .collect()
        .await
        .map_err(|error| lost(&format!("reading the answer: {error}")))?
        .into_bytes();
    Ok((status, body))
}

impl HttpConnector for FaultyConnector {
    fn call(&self, mut request: HttpRequest) -> HttpConnectorFuture {
        let read = wire::Request::read(
            request.headers().get("x-amz-target"),
            request.body().bytes(),
        );
        let invocation = request.headers().get("amz-sdk-invocation-id");
        let fault = self.faults.draw(&read, invocation);
        let inner = self.inner.clone();
        HttpConnectorFuture::new(async move {
            let Some(fault) = fault else {
                return inner.call(request).await;
            };
            match fault {
                Fault::Throttled { reason, exception } => Ok(answer(
                    400,
                    JSON,
                    wire::throttled(exception, &reason, &read.resource()),
                )),
                Fault::ServerErrorNotSent => Ok(answer(500, JSON, wire::internal_server_error())),
                Fault::ResetNotSent => Err(lost("connection reset before sending")),
                Fault::Slow(delay) => {
                    tokio::time::sleep(delay).await;
                    inner.call(request).await
                }
                Fault::Unprocessed(keys) => {
                    let Some(body) = &read.body else {
                        return inner.call(request).await;
                    };
                    let split = wire::split_batch(&read.operation, body, &keys);
                    let answered = match split.send {
                        Some(send) => {
                            let bytes = send.to_string();
                            request
                                .headers_mut()
                                .insert("content-length", bytes.len().to_string());
                            *request.body_mut() = SdkBody::from(bytes);
                            let (status, body) = read_answer(inner.call(request).await?).await?;
                            if !(200..300).contains(&status) {
                                return Ok(answer(status, JSON, body));
                            }
                            serde_json::from_slice(&body).ok()
                        }
                        None => None,
                    };
                    let body = wire::with_unprocessed(&read.operation, answered, split.unprocessed);
                    Ok(answer(200, JSON, body.to_string()))
                }
                applied => {
                    // The server answers in full first: it has applied the request.
                    let (status, body) = read_answer(inner.call(request).await?).await?;
                    match applied {
                        Fault::ServerErrorAfterApplied => {
                            Ok(answer(500, JSON, wire::internal_server_error()))
                        }
                        Fault::ThrottledAfterApplied => Ok(answer(
                            400,
                            JSON,
                            wire::throttled(
                                super::ThrottlingException::Throttling,
                                "TableWriteKeyRangeThroughputExceeded",
                                &read.resource(),
                            ),
                        )),
                        Fault::BadGatewayAfterApplied => {
                            Ok(answer(502, "text/html", wire::BAD_GATEWAY))
                        }
                        Fault::CutShortAfterApplied => {
                            Ok(answer(status, JSON, body.slice(..body.len() / 2)))
                        }
                        Fault::ResetAfterApplied => Err(lost("connection reset by peer")),
                        Fault::TimeoutAfterApplied => Err(ConnectorError::timeout(
                            "stamp::testing::Faults: the answer did not arrive in time".into(),
                        )),
                        _ => unreachable!("the faults before sending are handled above"),
                    }
                }
            }
        })
    }
}
