//! Typed condition expressions: the filter of a query or scan and the
//! condition of a put, update, delete or transaction check.
//!
//! Every attribute name becomes a `#n…` placeholder and every value a `:v…`
//! placeholder: no user text is ever spliced into the expression, so a value
//! such as `) OR attribute_exists(PK) OR (` is just a value. See
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html>.
//!
//! [`attribute`] holds the typed attributes and their comparisons
//! ([`path`]: their document paths, `address.city`, `tags[2]`)
//! ([`order`]: the types that offer order comparisons),
//! [`condition`] the condition tree and its rendering, [`placeholders`] the
//! names and values of one request.

mod attribute;
mod condition;
mod order;
mod path;
mod placeholders;

pub use attribute::{
    Attribute, AttributeType, Encoder, Optional, PrimaryKeyField, Required, Settable, Size,
};
pub use condition::Condition;
pub(crate) use condition::LeafKind;
pub use order::Ordered;
pub use path::{MAX_PATH_STEPS, Path};
pub use placeholders::Placeholders;

use crate::error::Error;
use crate::error::Refusal;

use crate::limits::MAX_EXPRESSION_BYTES;

/// Fails with [`Refusal::ExpressionTooLong`] when `text`, the `kind`
/// expression of a request, is longer than DynamoDB's 4 KB.
pub fn check_expression_length(kind: &'static str, text: &str) -> Result<(), Error> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(Error::Refused(Refusal::ExpressionTooLong {
            kind,
            length: text.len(),
            limit: MAX_EXPRESSION_BYTES,
        }));
    }
    Ok(())
}
