//! Why a transaction was cancelled: [`CancellationReason`] per action, with
//! DynamoDB's [`CancellationCode`], in
//! [`Error::TransactionCanceled`](super::Error::TransactionCanceled).

use std::fmt;

use super::ItemKey;
use crate::model::entity::AttributeMap;

/// The reason code DynamoDB gives for one action of a cancelled
/// transaction.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html#API_TransactWriteItems_Errors>.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CancellationCode {
    /// `None`: this action did not cause the cancellation.
    None,
    /// `ConditionalCheckFailed`: the action's condition was not met.
    ConditionalCheckFailed,
    /// `ItemCollectionSizeLimitExceeded`: an item collection of a table
    /// with an LSI would exceed 10 GB.
    ItemCollectionSizeLimitExceeded,
    /// `TransactionConflict`: another transaction or request was acting on
    /// the item.
    TransactionConflict,
    /// `ProvisionedThroughputExceeded`: not enough provisioned capacity.
    ProvisionedThroughputExceeded,
    /// `ThrottlingError`: throttled, on-demand table or control plane.
    ThrottlingError,
    /// `ValidationError`: the action is not valid, such as an update of a
    /// key attribute.
    ValidationError,
    /// A code this version does not know, as DynamoDB wrote it.
    Other(String),
}

impl CancellationCode {
    /// The code as DynamoDB spells it, such as `ConditionalCheckFailed`.
    pub fn as_str(&self) -> &str {
        match self {
            CancellationCode::None => "None",
            CancellationCode::ConditionalCheckFailed => "ConditionalCheckFailed",
            CancellationCode::ItemCollectionSizeLimitExceeded => "ItemCollectionSizeLimitExceeded",
            CancellationCode::TransactionConflict => "TransactionConflict",
            CancellationCode::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            CancellationCode::ThrottlingError => "ThrottlingError",
            CancellationCode::ValidationError => "ValidationError",
            CancellationCode::Other(code) => code,
        }
    }

    pub(crate) fn parse(code: Option<&str>) -> Self {
        match code.unwrap_or("None") {
            "None" => CancellationCode::None,
            "ConditionalCheckFailed" => CancellationCode::ConditionalCheckFailed,
            "ItemCollectionSizeLimitExceeded" => CancellationCode::ItemCollectionSizeLimitExceeded,
            "TransactionConflict" => CancellationCode::TransactionConflict,
            "ProvisionedThroughputExceeded" => CancellationCode::ProvisionedThroughputExceeded,
            "ThrottlingError" => CancellationCode::ThrottlingError,
            "ValidationError" => CancellationCode::ValidationError,
            other => CancellationCode::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for CancellationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why one action of a cancelled transaction failed (or `None` when it did
/// not), in [`Error::TransactionCanceled`](super::Error::TransactionCanceled).
#[derive(Debug, Clone, PartialEq)]
pub struct CancellationReason {
    /// The action's position in the transaction, from 0.
    pub index: usize,
    /// The entity type name of the action.
    pub entity: &'static str,
    /// The primary key of the item the action names; its `Display` is
    /// `PK=…, SK=…`.
    pub key: ItemKey,
    /// DynamoDB's reason code.
    pub code: CancellationCode,
    /// DynamoDB's message, when it gives one.
    pub message: Option<String>,
    /// The item as stored when this action's condition failed (every
    /// conditional action of a [`TransactWrite`](crate::TransactWrite) asks
    /// `ReturnValuesOnConditionCheckFailure = ALL_OLD`); `None` when the
    /// action did not fail its condition or no item was stored. Decode it
    /// with [`stored`](Self::stored).
    pub old_item: Option<AttributeMap>,
}
