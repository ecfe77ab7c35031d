//! Global tables ([`GlobalTable`]): the Regions a table is replicated to,
//! its multi-Region consistency (eventual, MREC, or strong, MRSC) and, for
//! strong consistency, a witness. Each rule DynamoDB documents for them is
//! checked before anything is sent; the `UpdateTable` requests that add the
//! replicas to a table created in one Region are built from it
//! ([`TableDefinition::replica_requests`]), and the CloudFormation template
//! becomes one `AWS::DynamoDB::GlobalTable`.
//!
//! The rules, from "How DynamoDB global tables work"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html>):
//!
//! - a global table has two or more replicas, one per Region;
//! - an MRSC global table is deployed in exactly three Regions: three
//!   replicas, or two replicas and one witness in a third Region;
//! - MRSC is available in three Region sets (US, EU, AP) and cannot span
//!   two of them;
//! - MRSC does not support Time to Live, local secondary indexes or the
//!   transaction operations;
//! - an MRSC global table is made in one step from an empty table, by
//!   adding two replicas, or one replica and a witness; no replica can be
//!   added to it later.
//!
//! Embedded servers (DynamoDB Local, dynoxide, ministack) do not replicate
//! across Regions: the requests are built and tested as built, and only
//! DynamoDB runs them.

use std::num::NonZeroU64;

use aws_sdk_dynamodb::operation::update_table::UpdateTableInput;
use aws_sdk_dynamodb::types::{
    CreateGlobalTableWitnessGroupMemberAction, CreateReplicationGroupMemberAction,
    GlobalTableWitnessGroupUpdate, OnDemandThroughputOverride, ReplicationGroupUpdate,
};

use super::{TableClass, TableDefinition, TableEncryption};
use crate::error::GlobalTableError;
use crate::error::{DefinitionError, Error};

/// The Region sets in which DynamoDB offers multi-Region strong
/// consistency; an MRSC global table's Regions (replicas and witness) are
/// all in one of them.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html#V2globaltables_HowItWorks.consistency-modes>
/// and <https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-globaltable-globaltablewitness.html>.
pub const STRONG_CONSISTENCY_REGION_SETS: &[(&str, &[&str])] = &[
    // US East (N. Virginia), US East (Ohio), US West (Oregon).
    ("US", &["us-east-1", "us-east-2", "us-west-2"]),
    // Europe (Ireland), Europe (London), Europe (Paris), Europe (Frankfurt).
    (
        "EU",
        &["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"],
    ),
    // Asia Pacific (Tokyo), Asia Pacific (Seoul), Asia Pacific (Osaka).
    (
        "AP",
        &["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"],
    ),
];

/// The number of Regions an MRSC global table is deployed in: three
/// replicas, or two replicas and a witness.
pub const STRONG_CONSISTENCY_REGIONS: usize = 3;

/// How the replicas of a global table agree.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html#V2globaltables_HowItWorks.consistency-modes>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MultiRegionConsistency {
    /// `EVENTUAL` (MREC, DynamoDB's default): a write is replicated to the
    /// other Regions asynchronously, usually within a second; concurrent
    /// writes of one item in two Regions resolve as "last writer wins".
    #[default]
    Eventual,
    /// `STRONG` (MRSC): a write is replicated synchronously to at least one
    /// other Region before it returns, and a strongly consistent read in any
    /// Region returns the latest version. Exactly three Regions; no TTL, no
    /// LSIs, no transactions.
    Strong,
}

impl MultiRegionConsistency {
    /// DynamoDB's name: `EVENTUAL` or `STRONG`.
    pub fn as_str(&self) -> &'static str {
        match self {
            MultiRegionConsistency::Eventual => "EVENTUAL",
            MultiRegionConsistency::Strong => "STRONG",
        }
    }
}

/// One replica of a global table: its Region and what it sets for itself
/// (the settings DynamoDB lets a replica override; the others, such as
/// the capacity mode, warm throughput and the on-demand maximum write
/// throughput, are the table's in every Region).
///
/// See "Settings synchronization" in
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html>.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replica {
    /// The Region, such as `us-east-1`.
    pub region: String,
    /// This replica's table class; `None` takes the definition's.
    pub table_class: Option<TableClass>,
    /// The customer managed KMS key of this replica (KMS keys are
    /// Regional); `None` takes the key of the definition's
    /// [`TableEncryption::CustomerKey`].
    pub kms_key: Option<String>,
    /// This replica's on-demand maximum read request units per second;
    /// `None` takes the definition's.
    pub max_read_request_units: Option<NonZeroU64>,
}

impl Replica {
    /// A replica in `region`, with the definition's settings.
    pub fn new(region: impl Into<String>) -> Self {
        Replica {
            region: region.into(),
            table_class: None,
            kms_key: None,
            max_read_request_units: None,
        }
    }

    /// Sets this replica's table class.
    pub fn table_class(mut self, class: TableClass) -> Self {
        self.table_class = Some(class);
        self
    }

    /// Sets this replica's customer managed KMS key (ID, ARN or alias in
    /// its Region).
    pub fn kms_key(mut self, key: impl Into<String>) -> Self {
        self.kms_key = Some(key.into());
        self
    }

    /// Sets this replica's on-demand maximum read request units per second.
    pub fn max_read_request_units(mut self, units: NonZeroU64) -> Self {
        self.max_read_request_units = Some(units);
        self
    }
}

impl From<&str> for Replica {
    fn from(region: &str) -> Self {
        Replica::new(region)
    }
}

/// A global table: the Regions the table lives in (one [`Replica`] each,
/// the Region the table is first created in among them), the consistency
/// mode and, for strong consistency, an optional witness Region.
/// Declared with [`TableDefinition::global_table`]; checked by
/// [`TableDefinition::check`] ([`GlobalTableError`]).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GlobalTables.html>.
///
/// # Example
///
/// ```
/// # use stamp_core::{GlobalTable, MultiRegionConsistency};
/// let global = GlobalTable::new(MultiRegionConsistency::Strong)
///     .replica("us-east-1")
///     .replica("us-east-2")
///     .witness("us-west-2");
/// assert_eq!(global.regions(), ["us-east-1", "us-east-2", "us-west-2"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GlobalTable {
    /// The consistency mode.
    pub consistency: MultiRegionConsistency,
    /// The replicas, in the order given.
    pub replicas: Vec<Replica>,
    /// The witness Region (MRSC only).
    pub witness: Option<String>,
}

impl GlobalTable {
    /// A global table of `consistency`, without replicas yet.
    pub fn new(consistency: MultiRegionConsistency) -> Self {
        GlobalTable {
            consistency,
            replicas: Vec::new(),
            witness: None,
        }
    }

    /// Adds a replica: a Region name (`"eu-west-1"`) or a [`Replica`] with
    /// its own settings.
    pub fn replica(mut self, replica: impl Into<Replica>) -> Self {
        self.replicas.push(replica.into());
        self
    }

    /// Sets the witness Region of a strongly consistent global table.
    pub fn witness(mut self, region: impl Into<String>) -> Self {
        self.witness = Some(region.into());
        self
    }

    /// Every Region of the table: the replicas', then the witness's.
    pub fn regions(&self) -> Vec<&str> {
        self.replicas
            .iter()
            .map(|replica| replica.region.as_str())
            .chain(self.witness.as_deref())
            .collect()
    }

    /// The Region set of strong consistency `region` is in.
    fn region_set(region: &str) -> Option<&'static str> {
        STRONG_CONSISTENCY_REGION_SETS
            .iter()
            .find(|(_, regions)| regions.contains(&region))
            .map(|(name, _)| *name)
    }

    /// Checks the Regions and the consistency mode by DynamoDB's rules;
    /// `time_to_live` is the table's TTL attribute, `local_indexes` its
    /// LSIs.
    pub(super) fn check(
        &self,
        time_to_live: Option<&'static str>,
        local_indexes: &[&'static str],
    ) -> Result<(), Error> {
        let refuse = |error: GlobalTableError| Err(DefinitionError::GlobalTable(error).into());
        // "A global table consists of two or more replica tables across
        // different AWS Regions. Each global table can have only one replica
        // per AWS Region." (V2globaltables_HowItWorks.html, Concepts)
        if let Some(region) = self
            .regions()
            .into_iter()
            .find(|region| !valid_region(region))
        {
            return refuse(GlobalTableError::InvalidRegion {
                region: region.to_owned(),
            });
        }
        let regions = self.regions();
        if let Some((_, region)) = regions
            .iter()
            .enumerate()
            .find(|(position, region)| regions[..*position].contains(region))
        {
            return refuse(GlobalTableError::DuplicateRegion {
                region: (*region).to_owned(),
            });
        }
        match self.consistency {
            MultiRegionConsistency::Eventual => {
                // A witness is part of an MRSC global table only
                // (API_UpdateTable.html, GlobalTableWitnessUpdates).
                if let Some(witness) = &self.witness {
                    return refuse(GlobalTableError::WitnessWithoutStrongConsistency {
                        region: witness.clone(),
                    });
                }
                if self.replicas.len() < 2 {
                    return refuse(GlobalTableError::TooFewReplicas {
                        count: self.replicas.len(),
                    });
                }
            }
            MultiRegionConsistency::Strong => {
                // "An MRSC global table must be deployed in exactly three
                // Regions. You can configure an MRSC global table with three
                // replicas, or with two replicas and one witness."
                if regions.len() != STRONG_CONSISTENCY_REGIONS {
                    return refuse(GlobalTableError::StrongConsistencyRegionCount {
                        replicas: self.replicas.len(),
                        witnesses: usize::from(self.witness.is_some()),
                    });
                }
                // "MRSC global tables are available in the following Region
                // sets … MRSC global tables cannot span Region sets."
                let mut set = None;
                for region in &regions {
                    let Some(found) = Self::region_set(region) else {
                        return refuse(GlobalTableError::RegionWithoutStrongConsistency {
                            region: (*region).to_owned(),
                        });
                    };
                    match set {
                        None => set = Some((found, *region)),
                        Some((first, first_region)) if first != found => {
                            return refuse(GlobalTableError::RegionSetsMixed {
                                first: first_region.to_owned(),
                                second: (*region).to_owned(),
                            });
                        }
                        Some(_) => {}
                    }
                }
                // "Time to Live (TTL) is not supported for MRSC global tables."
                if let Some(attribute) = time_to_live {
                    return refuse(GlobalTableError::StrongConsistencyWithTimeToLive { attribute });
                }
                // "Local secondary indexes (LSIs) are not supported for MRSC
                // global tables."
                if let Some(index) = local_indexes.first() {
                    return refuse(GlobalTableError::StrongConsistencyWithLocalIndex { index });
                }
            }
        }
        Ok(())
    }
}

/// Whether `region` looks like an AWS Region name: lowercase letters,
/// digits and `-`, starting with a letter and ending with a digit (such as
/// `us-east-1`, `eu-central-1`).
fn valid_region(region: &str) -> bool {
    region.starts_with(|c: char| c.is_ascii_lowercase())
        && region.ends_with(|c: char| c.is_ascii_digit())
        && region.contains('-')
        && region
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl TableDefinition {
    /// Declares the table a global table (see [`GlobalTable`]): the
    /// CloudFormation template becomes one `AWS::DynamoDB::GlobalTable`,
    /// [`replica_requests`](Self::replica_requests) builds the `UpdateTable`
    /// requests that add the replicas, and [`check`](Self::check) refuses
    /// what DynamoDB does not allow ([`GlobalTableError`]).
    pub fn global_table(mut self, global: GlobalTable) -> Self {
        self.settings.global_table = Some(global);
        self
    }

    /// The `UpdateTable` requests that turn the table `table_name`, created
    /// with [`request`](Self::request) in `home_region` (one of the
    /// replicas), into the declared global table. Send them in order to
    /// `home_region`, each once the table is `ACTIVE` again.
    ///
    /// - Eventual consistency: one request per other replica, each a
    ///   `ReplicaUpdates` `Create` with the replica's Region and overrides
    ///   (`KMSMasterKeyId`, `TableClassOverride`,
    ///   `OnDemandThroughputOverride`): one Region at a time, as DynamoDB's
    ///   tutorials add them, each after the table is `ACTIVE` again.
    /// - Strong consistency: one request with both `Create`s (two other
    ///   replicas, or one replica and the witness in
    ///   `GlobalTableWitnessUpdates`) and `MultiRegionConsistency: STRONG`,
    ///   as DynamoDB makes an MRSC global table in one step from an empty
    ///   table, and adds no replica to it later.
    ///
    /// Embedded servers do not replicate across Regions: these requests
    /// are for DynamoDB.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html>
    /// and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`check`](Self::check);
    /// [`GlobalTableError::NotGlobal`] without [`global_table`](Self::global_table);
    /// [`GlobalTableError::HomeRegionNotReplica`] when `home_region` is
    /// not a replica's.
    pub fn replica_requests(
        &self,
        table_name: &str,
        home_region: &str,
    ) -> Result<Vec<UpdateTableInput>, Error> {
        self.check()?;
        let refuse = |error: GlobalTableError| Err(DefinitionError::GlobalTable(error).into());
        let Some(global) = &self.settings.global_table else {
            return refuse(GlobalTableError::NotGlobal);
        };
        if !global
            .replicas
            .iter()
            .any(|replica| replica.region == home_region)
        {
            return refuse(GlobalTableError::HomeRegionNotReplica {
                region: home_region.to_owned(),
            });
        }
        let creates: Vec<ReplicationGroupUpdate> = global
            .replicas
            .iter()
            .filter(|replica| replica.region != home_region)
            .map(|replica| {
                ReplicationGroupUpdate::builder()
                    .create(self.create_replica(replica))
                    .build()
            })
            .collect();
        let request = || UpdateTableInput::builder().table_name(table_name);
        let build = |builder: aws_sdk_dynamodb::operation::update_table::builders::UpdateTableInputBuilder| {
            builder.build().expect("the table name is set")
        };
        Ok(match global.consistency {
            MultiRegionConsistency::Eventual => creates
                .into_iter()
                .map(|create| build(request().replica_updates(create)))
                .collect(),
            MultiRegionConsistency::Strong => {
                let witness = global.witness.as_ref().map(|region| {
                    GlobalTableWitnessGroupUpdate::builder()
                        .create(
                            CreateGlobalTableWitnessGroupMemberAction::builder()
                                .region_name(region)
                                .build()
                                .expect("the Region is set"),
                        )
                        .build()
                });
                vec![build(
                    request()
                        .set_replica_updates(Some(creates))
                        .set_global_table_witness_updates(witness.map(|witness| vec![witness]))
                        .multi_region_consistency(
                            aws_sdk_dynamodb::types::MultiRegionConsistency::Strong,
                        ),
                )]
            }
        })
    }

    /// The `Create` action of `replica`, with what it overrides.
    fn create_replica(&self, replica: &Replica) -> CreateReplicationGroupMemberAction {
        let kms_key = replica.kms_key.clone().or(match &self.settings.encryption {
            TableEncryption::CustomerKey(key) => Some(key.clone()),
            TableEncryption::AwsOwned | TableEncryption::AwsManaged => None,
        });
        CreateReplicationGroupMemberAction::builder()
            .region_name(&replica.region)
            .set_kms_master_key_id(kms_key)
            .set_table_class_override(replica.table_class.map(TableClass::to_sdk))
            .set_on_demand_throughput_override(replica.max_read_request_units.map(|units| {
                OnDemandThroughputOverride::builder()
                    .max_read_request_units(units.get() as i64)
                    .build()
            }))
            .build()
            .expect("the Region is set")
    }
}
