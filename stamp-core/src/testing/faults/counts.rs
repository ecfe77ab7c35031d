//! What went through a [`Faults`] client: [`FaultCounts`].

use super::*;

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
