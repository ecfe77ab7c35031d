//! Which requests a scripted fault applies to: [`On`].

use super::*;

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

    pub(super) fn matches(&self, request: &wire::Request, fault: &Fault) -> bool {
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
