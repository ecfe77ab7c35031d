//! [`IndexProjection`]: which attributes an index copies from the table,
//! read by the definition (`CreateTable`, CloudFormation, drift) and by the
//! queries that check what an index holds.

use std::fmt;

use aws_sdk_dynamodb::types::{Projection, ProjectionType};

/// Which attributes a GSI or LSI copies from the table: DynamoDB's `Projection`.
/// The index keys and the table keys are always projected.
///
/// Typed queries decode whole items, so they need `All` (the default); on a
/// `KeysOnly` or `Include` index, read the attributes it holds or get the
/// items from the table.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum IndexProjection {
    /// Every attribute, `ALL` (the default).
    #[default]
    All,
    /// Only the index and table keys, `KEYS_ONLY`.
    KeysOnly,
    /// The keys and these non-key attributes, `INCLUDE`.
    Include(Vec<String>),
}

impl IndexProjection {
    /// DynamoDB's name of the projection type: `ALL`, `KEYS_ONLY` or
    /// `INCLUDE`.
    pub fn projection_type(&self) -> ProjectionType {
        match self {
            IndexProjection::All => ProjectionType::All,
            IndexProjection::KeysOnly => ProjectionType::KeysOnly,
            IndexProjection::Include(_) => ProjectionType::Include,
        }
    }

    /// The non-key attributes of an `INCLUDE` projection; empty otherwise.
    pub fn non_key_attributes(&self) -> &[String] {
        match self {
            IndexProjection::Include(attributes) => attributes,
            _ => &[],
        }
    }

    /// DynamoDB's name of the projection type, as a string.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            IndexProjection::All => "ALL",
            IndexProjection::KeysOnly => "KEYS_ONLY",
            IndexProjection::Include(_) => "INCLUDE",
        }
    }

    pub(crate) fn to_sdk(&self) -> Projection {
        let attributes = self.non_key_attributes();
        Projection::builder()
            .projection_type(self.projection_type())
            .set_non_key_attributes((!attributes.is_empty()).then(|| attributes.to_vec()))
            .build()
    }
}

/// `ALL`, `KEYS_ONLY`, or `INCLUDE (a, b)`.
impl fmt::Display for IndexProjection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexProjection::Include(attributes) => {
                write!(f, "INCLUDE ({})", attributes.join(", "))
            }
            other => f.write_str(other.type_name()),
        }
    }
}
