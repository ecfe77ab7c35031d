//! What [`Table::verify`](crate::Table::verify) reports: each
//! [`SchemaDifference`] between a live table and its definition, and the
//! [`KeyNames`] and [`Throughput`] it compares.

use std::fmt;

use aws_sdk_dynamodb::types::{
    BillingMode, KeySchemaElement, KeyType, ProvisionedThroughputDescription, ScalarAttributeType,
};

mod message;

use super::IndexProjection;

/// The key attribute names of a table or index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyNames {
    /// The partition (`HASH`) key attribute.
    pub partition_key: String,
    /// The sort (`RANGE`) key attribute, when there is one.
    pub sort_key: Option<String>,
}

impl KeyNames {
    pub(super) fn new(partition_key: &str, sort_key: Option<&str>) -> Self {
        KeyNames {
            partition_key: partition_key.to_owned(),
            sort_key: sort_key.map(str::to_owned),
        }
    }

    /// From DynamoDB's key schema; an absent `HASH` element is the empty
    /// string.
    pub(super) fn from_sdk(elements: &[KeySchemaElement]) -> Self {
        let find = |key_type: KeyType| {
            elements
                .iter()
                .find(|element| *element.key_type() == key_type)
                .map(|element| element.attribute_name().to_owned())
        };
        KeyNames {
            partition_key: find(KeyType::Hash).unwrap_or_default(),
            sort_key: find(KeyType::Range),
        }
    }
}

impl fmt::Display for KeyNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.sort_key {
            Some(sort_key) => write!(f, "({}, {sort_key})", self.partition_key),
            None => write!(f, "({})", self.partition_key),
        }
    }
}

/// Provisioned capacity units of a table or GSI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throughput {
    /// Read capacity units.
    pub read_capacity_units: i64,
    /// Write capacity units.
    pub write_capacity_units: i64,
}

impl Throughput {
    pub(super) fn from_sdk(description: Option<&ProvisionedThroughputDescription>) -> Self {
        Throughput {
            read_capacity_units: description
                .and_then(|throughput| throughput.read_capacity_units())
                .unwrap_or(0),
            write_capacity_units: description
                .and_then(|throughput| throughput.write_capacity_units())
                .unwrap_or(0),
        }
    }
}

/// One way a live table differs from its [`TableDefinition`](crate::TableDefinition), found by
/// [`Table::verify`](crate::Table::verify). "Expected" is the definition's, "found" the live
/// table's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaDifference {
    /// The key attributes of the table (`index: None`) or of a GSI differ.
    KeySchema {
        /// The GSI, or `None` for the table.
        index: Option<String>,
        /// The definition's key attributes.
        expected: KeyNames,
        /// The live key attributes.
        found: KeyNames,
    },
    /// A key attribute is defined with another type than the definition's:
    /// `S`, the type of every key template Stamp writes, or the field's own
    /// type for an attribute of a multi-attribute index.
    AttributeType {
        /// The attribute.
        attribute: String,
        /// `S`, or the multi-attribute key field's type.
        expected: ScalarAttributeType,
        /// The live type.
        found: ScalarAttributeType,
    },
    /// The key schema of a multi-attribute GSI differs: its `HASH` and
    /// `RANGE` attributes, in order, as `HASH tenant_id`, `RANGE round`.
    MultiAttributeKeySchema {
        /// The index name.
        index: String,
        /// The definition's key schema.
        expected: Vec<String>,
        /// The live key schema.
        found: Vec<String>,
    },
    /// The billing mode differs. A table without a billing mode summary
    /// (DynamoDB Local never returns one) counts as on demand when its
    /// provisioned capacity is zero, and as provisioned otherwise.
    BillingMode {
        /// The definition's mode.
        expected: BillingMode,
        /// The live mode.
        found: BillingMode,
    },
    /// Both are provisioned, with different capacity on the table
    /// (`index: None`) or a GSI.
    ProvisionedThroughput {
        /// The GSI, or `None` for the table.
        index: Option<String>,
        /// The definition's capacity.
        expected: Throughput,
        /// The live capacity.
        found: Throughput,
    },
    /// A GSI or LSI of the definition is not on the table (an LSI can only
    /// be added by creating the table again).
    MissingIndex {
        /// The index name.
        index: String,
    },
    /// The table has a GSI or LSI the definition does not have.
    ExtraIndex {
        /// The index name.
        index: String,
    },
    /// A GSI or LSI projects other attributes than the definition says
    /// (`INCLUDE` attribute lists are compared sorted).
    Projection {
        /// The index name.
        index: String,
        /// The definition's projection.
        expected: IndexProjection,
        /// The live projection.
        found: IndexProjection,
    },
    /// A vector index is defined otherwise than the definition says: its
    /// vector attribute, dimensions, distance function, search schema or
    /// projection, each written as text
    /// (`embedding[64] COSINE, HASH VECTOR1PK, INLINE_FILTER price, ALL`).
    VectorIndex {
        /// The index name.
        index: String,
        /// The definition's index.
        expected: String,
        /// The live index.
        found: String,
    },
    /// TTL is on another attribute, or on when it should be off, or off when
    /// it should be on (`ENABLING` counts as on, `DISABLING` as off).
    TimeToLive {
        /// The definition's TTL attribute, if any.
        expected: Option<String>,
        /// The live TTL attribute, if TTL is on.
        found: Option<String>,
    },
    /// The table's DynamoDB Stream is on when it should be off, off when
    /// it should be on ([`TableDefinition::stream`](crate::TableDefinition::stream)), or writes another view
    /// type.
    Stream {
        /// The definition's view type, such as `NEW_AND_OLD_IMAGES`, if any.
        expected: Option<String>,
        /// The live stream's view type, if the stream is on.
        found: Option<String>,
    },
    /// Deletion protection is on when it should be off, or off when it
    /// should be on.
    DeletionProtection {
        /// The definition's setting.
        expected: bool,
        /// The live setting.
        found: bool,
    },
    /// The table class differs (a table that describes none is `STANDARD`).
    TableClass {
        /// The definition's class, such as `STANDARD`.
        expected: String,
        /// The live class.
        found: String,
    },
    /// The table is encrypted with another kind of key, or another customer
    /// managed key (compared by key ID or ARN; a key given as an alias is
    /// compared by kind only, as `DescribeTable` gives the key's ARN).
    Encryption {
        /// The definition's encryption, as text (`AWS owned key`,
        /// `KMS key`, `KMS key <id>`).
        expected: String,
        /// The live encryption, as text (`KMS key <ARN>`).
        found: String,
    },
    /// The table's tags differ (compared as sets; tags with the `aws:`
    /// prefix, which AWS assigns, are left out).
    Tags {
        /// The definition's tags, sorted by key.
        expected: Vec<(String, String)>,
        /// The live tags, sorted by key.
        found: Vec<(String, String)>,
    },
    /// The on-demand maximum throughput of the table (`index: None`) or a
    /// GSI differs (`None`: no maximum).
    MaxThroughput {
        /// The GSI, or `None` for the table.
        index: Option<String>,
        /// The definition's maximum.
        expected: Option<super::MaxThroughput>,
        /// The live maximum.
        found: Option<super::MaxThroughput>,
    },
    /// The warm throughput of the table (`index: None`) or a GSI is below
    /// the definition's (DynamoDB raises warm throughput by itself and
    /// never lowers it, so a higher live value is no difference).
    WarmThroughput {
        /// The GSI, or `None` for the table.
        index: Option<String>,
        /// The definition's warm throughput.
        expected: super::WarmThroughput,
        /// The live read and write units per second.
        found: (i64, i64),
    },
    /// The resource-based policy differs (compared as JSON values), or is
    /// missing. Compared only when the definition declares one.
    ResourcePolicy {
        /// The definition's policy document.
        expected: Option<String>,
        /// The live policy document, if any.
        found: Option<String>,
    },
    /// Contributor Insights is off when the definition turns it on.
    /// Compared only when the definition turns it on.
    ContributorInsights {
        /// The definition's setting.
        expected: bool,
        /// The live setting (`ENABLED` or `ENABLING` is on).
        found: bool,
    },
    /// The Regions of the table's replicas differ from the definition's
    /// [global table](crate::GlobalTable) (`Replicas` of `DescribeTable`,
    /// with the Region the client talks to counted as a replica of a global
    /// table). A single-Region table has none; so has every table on an
    /// embedded server, which does not replicate.
    Replicas {
        /// The declared replica Regions, sorted.
        expected: Vec<String>,
        /// The live replica Regions, sorted.
        found: Vec<String>,
    },
    /// The witness Region of a strongly consistent global table differs
    /// (`GlobalTableWitnesses` of `DescribeTable`).
    Witness {
        /// The declared witness Region.
        expected: Option<String>,
        /// The live witness Region.
        found: Option<String>,
    },
    /// The consistency mode of a live global table differs
    /// (`MultiRegionConsistency` of `DescribeTable`; absent is `EVENTUAL`).
    /// Compared only when the live table has replicas.
    MultiRegionConsistency {
        /// The definition's mode.
        expected: super::MultiRegionConsistency,
        /// The live mode, `EVENTUAL` or `STRONG`.
        found: String,
    },
    /// The endpoint does not describe a setting the definition declares
    /// (it answers `UnknownOperationException`, or describes no warm
    /// throughput), so it could not be compared. DynamoDB describes every
    /// one; some local servers do not.
    NotDescribed {
        /// The setting, such as `resource policy`.
        setting: &'static str,
    },
}
