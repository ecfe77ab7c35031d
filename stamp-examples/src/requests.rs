//! Counting the requests a client sends, with an SDK interceptor, so the
//! demo can show that each access pattern is one request per page.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;

/// Counts HTTP requests (every attempt) sent by the clients it is added to.
#[derive(Debug, Clone, Default)]
pub struct RequestCounter {
    sent: Arc<AtomicUsize>,
}

impl RequestCounter {
    /// Requests sent so far.
    pub fn count(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }
}

impl Intercept for RequestCounter {
    fn name(&self) -> &'static str {
        "RequestCounter"
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.sent.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}
