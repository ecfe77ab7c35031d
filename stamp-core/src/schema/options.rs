//! The options of a table definition: [`TableBilling`], [`IndexProjection`]
//! and the limits they are checked against.

use std::fmt;
use std::num::NonZeroU32;

use aws_sdk_dynamodb::types::{BillingMode, Projection, ProjectionType, ProvisionedThroughput};

use super::Throughput;

/// How the table is billed: DynamoDB's `BillingMode` with, for provisioned
/// capacity, the read and write capacity units of the table, which every
/// GSI gets as well.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/capacity-mode.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableBilling {
    /// On-demand capacity, `PAY_PER_REQUEST` (the default).
    #[default]
    PayPerRequest,
    /// Provisioned capacity, `PROVISIONED`.
    Provisioned {
        /// Read capacity units (strongly consistent 4 KB reads per second).
        read_capacity_units: NonZeroU32,
        /// Write capacity units (1 KB writes per second).
        write_capacity_units: NonZeroU32,
    },
}

impl TableBilling {
    /// The SDK's billing mode.
    pub fn billing_mode(&self) -> BillingMode {
        match self {
            TableBilling::PayPerRequest => BillingMode::PayPerRequest,
            TableBilling::Provisioned { .. } => BillingMode::Provisioned,
        }
    }

    /// The provisioned capacity, `None` on demand.
    pub fn throughput(&self) -> Option<Throughput> {
        match *self {
            TableBilling::PayPerRequest => None,
            TableBilling::Provisioned {
                read_capacity_units,
                write_capacity_units,
            } => Some(Throughput {
                read_capacity_units: i64::from(read_capacity_units.get()),
                write_capacity_units: i64::from(write_capacity_units.get()),
            }),
        }
    }

    pub(super) fn provisioned_throughput(&self) -> Option<ProvisionedThroughput> {
        self.throughput().map(|throughput| {
            ProvisionedThroughput::builder()
                .read_capacity_units(throughput.read_capacity_units)
                .write_capacity_units(throughput.write_capacity_units)
                .build()
                .expect("both capacities are set")
        })
    }
}

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

    pub(super) fn to_sdk(&self) -> Projection {
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
