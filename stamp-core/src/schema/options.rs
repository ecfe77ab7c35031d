//! The options of a table definition: [`TableBilling`] and the limits they are checked against.

use std::num::NonZeroU32;

use aws_sdk_dynamodb::types::{BillingMode, ProvisionedThroughput};

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
