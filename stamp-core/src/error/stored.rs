//! Which condition failed: the item as stored when a write's condition
//! failed, on [`Error`] (a single write) and on [`CancellationReason`] (one
//! action of a cancelled transaction), as DynamoDB returned it and decoded
//! as an entity on request.
//!
//! Every conditional write Stamp sends asks
//! `ReturnValuesOnConditionCheckFailure = ALL_OLD`, so that a failed
//! condition answers with the item it was checked against: a `PutItem`,
//! `UpdateItem` or `DeleteItem` in its `ConditionalCheckFailedException`,
//! each action of a `TransactWriteItems` in its entry of
//! `CancellationReasons`. DynamoDB documents no cost for it: "There is no
//! additional cost associated with requesting a return value aside from the
//! small network and processing overhead of receiving a larger response. No
//! read capacity units are consumed."
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html#DDB-PutItem-request-ReturnValuesOnConditionCheckFailure>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CancellationReason.html>.

use crate::error::{CancellationReason, Error};
use crate::model::entity::{AttributeMap, Entity};

impl Error {
    /// The item as stored when the write's condition failed, as DynamoDB
    /// returned it (`ReturnValuesOnConditionCheckFailure = ALL_OLD`, which
    /// every single write asks): the item of [`Error::AlreadyExists`],
    /// [`Error::VersionConflict`], [`Error::ConditionFailed`] and
    /// [`Error::OutcomeUnknown`].
    ///
    /// `None` when there is no stored item (a version conflict because the
    /// item was deleted), and for every other variant: an
    /// [`Error::ItemNotFound`] has none by definition, and an
    /// [`Error::TransactionCanceled`] has one per action, in its
    /// [`reasons`](CancellationReason::stored_item).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html#DDB-PutItem-request-ReturnValuesOnConditionCheckFailure>.
    pub fn stored_item(&self) -> Option<&AttributeMap> {
        match self {
            Error::AlreadyExists { item, .. }
            | Error::VersionConflict { item, .. }
            | Error::OutcomeUnknown { item, .. } => item.as_deref(),
            Error::ConditionFailed { item, .. } => Some(item),
            _ => None,
        }
    }

    /// The [stored item](Self::stored_item) decoded as entity `E`: `None`
    /// when there is none, `Some(Err(_))` when it does not decode as `E`.
    /// Decoded only when asked, each time it is asked.
    ///
    /// ```ignore
    /// match Account::update("a-1").set(Account::PLAN, &plan).expect_version(3).send(&table).await {
    ///     Err(error @ Error::VersionConflict { .. }) => {
    ///         let stored: Account = error.stored::<Account>().expect("stored")?; // no read needed
    ///         // retry against `stored.version`
    ///     }
    ///     other => other?,
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// Inside the `Some`: the errors of [`Entity::from_item`], such as
    /// [`DecodeError::EntityTypeMismatch`](crate::DecodeError::EntityTypeMismatch)
    /// when the item is of another entity.
    pub fn stored<E: Entity>(&self) -> Option<Result<E, Error>> {
        self.stored_item().cloned().map(E::from_item)
    }
}

impl CancellationReason {
    /// The item as stored when this action's condition failed, as DynamoDB
    /// returned it in the transaction's `CancellationReasons`
    /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`, which every
    /// conditional action of a [`TransactWrite`](crate::TransactWrite)
    /// asks): the same as [`old_item`](Self::old_item).
    ///
    /// `None` for an action that did not fail its condition (its code is
    /// [`CancellationCode::None`](crate::CancellationCode::None), or another
    /// reason than a failed condition), and for one whose condition failed
    /// with no item stored (`attribute_exists(PK)` on an absent item).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CancellationReason.html>.
    pub fn stored_item(&self) -> Option<&AttributeMap> {
        self.old_item.as_ref()
    }

    /// The [stored item](Self::stored_item) decoded as entity `E` (the
    /// entity named by [`entity`](Self::entity)): `None` when there is
    /// none, `Some(Err(_))` when it does not decode as `E`. Decoded only
    /// when asked.
    ///
    /// # Errors
    ///
    /// Inside the `Some`: the errors of [`Entity::from_item`], such as
    /// [`DecodeError::EntityTypeMismatch`](crate::DecodeError::EntityTypeMismatch)
    /// when the item is of another entity.
    pub fn stored<E: Entity>(&self) -> Option<Result<E, Error>> {
        self.stored_item().cloned().map(E::from_item)
    }
}
