//! [`DefinitionError`]: a table definition DynamoDB would refuse, or that
//! would mix up the items of its entities. Found by `TableDefinition::build`
//! (and `Table::with_definition`) before any request is sent.

use crate::error::VectorError;

/// A table definition or schema problem: conflicting key attributes, index
/// and projection rules, colliding key spaces, an invalid table name. Found
/// before any request is sent; fix the entities or the definition.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DefinitionError {
    /// The vector indexes of the definition break a rule of DynamoDB's: a
    /// provisioned table, more than 5, dimensions out of range, one name
    /// declared twice differently ([`VectorError`](crate::VectorError)).
    #[error(transparent)]
    Vector(VectorError),

    /// A table definition has no entity.
    #[error("the table definition has no entity; add one with `TableDefinition::entity::<E>()`")]
    EmptyTableDefinition,

    /// Two entities of one table give one key attribute different names.
    #[error(
        "entities `{first_entity}` and `{second_entity}` disagree on the {role} attribute: `{first_name}` and `{second_name}`; one table has one name for it"
    )]
    ConflictingKeyAttributes {
        /// The entity that named the attribute first.
        first_entity: &'static str,
        /// The entity with the other name.
        second_entity: &'static str,
        /// Which attribute, such as "partition key" or "GSI1 sort key".
        role: String,
        /// The first entity's name for it.
        first_name: &'static str,
        /// The second entity's name for it.
        second_name: &'static str,
    },

    /// One attribute is a key attribute of two types in one table, such as
    /// a field that is a Number in one multi-attribute index and a String
    /// in another index: DynamoDB defines each attribute once
    /// (`AttributeDefinitions`), so `CreateTable` would fail.
    #[error(
        "key attribute `{attribute}` is of type {first_type} in {first_index} and of type {second_type} in {second_index}; a table defines each attribute with one type"
    )]
    ConflictingKeyAttributeTypes {
        /// The attribute name.
        attribute: &'static str,
        /// Where it is first a key attribute: an index name, or "the table".
        first_index: &'static str,
        /// Its type there: `S`, `N` or `B`.
        first_type: &'static str,
        /// Where it is a key attribute of the other type.
        second_index: &'static str,
        /// Its type there.
        second_type: &'static str,
    },

    /// Two different entities of one table have the same type name, so the
    /// type attribute could not tell their items apart.
    #[error(
        "two different entities of the table are named `{type_name}`; rename one with `#[stamp(type_name = \"…\")]`"
    )]
    DuplicateEntityType {
        /// The type name both have.
        type_name: &'static str,
    },

    /// Two entities name different TTL attributes; DynamoDB reads one TTL
    /// attribute per table.
    #[error(
        "entities `{first_entity}` and `{second_entity}` have different TTL attributes, `{first_attribute}` and `{second_attribute}`; a table has one TTL attribute"
    )]
    ConflictingTimeToLive {
        /// The entity that named the TTL attribute first.
        first_entity: &'static str,
        /// Its TTL attribute.
        first_attribute: &'static str,
        /// The entity with the other TTL attribute.
        second_entity: &'static str,
        /// Its TTL attribute.
        second_attribute: &'static str,
    },

    /// The entities of a table write more GSIs than DynamoDB allows in one
    /// table (20, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#gsi-limits>).
    #[error(
        "the table would have {count} global secondary indexes, more than DynamoDB's {limit}: {indexes:?}"
    )]
    TooManyIndexes {
        /// How many distinct index names the entities write.
        count: usize,
        /// The limit, 20.
        limit: usize,
        /// The index names, in order.
        indexes: Vec<&'static str>,
    },

    /// The entities of a table write more local secondary indexes than
    /// DynamoDB allows in one table (5, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>).
    #[error(
        "the table would have {count} local secondary indexes, more than DynamoDB's {limit}: {indexes:?}"
    )]
    TooManyLocalIndexes {
        /// How many distinct LSI names the entities write.
        count: usize,
        /// The limit, 5.
        limit: usize,
        /// The index names, in order.
        indexes: Vec<&'static str>,
    },

    /// A global and a local secondary index of one table have the same
    /// name; DynamoDB needs every index name of a table to be distinct.
    #[error(
        "index name `{index}` is both a global and a local secondary index of the table: rename one with `index_name = \"…\"`"
    )]
    DuplicateIndexName {
        /// The index name.
        index: &'static str,
    },

    /// An entity stores a field under the name of a key attribute of an
    /// index that an entity of the table writes, where DynamoDB would not
    /// take it: under a key built from a template (the sort key of an LSI,
    /// a key of a template GSI), any field, whose items would enter that
    /// index under the field's value; under a multi-attribute key
    /// attribute, a field stored as another type, whose every write
    /// DynamoDB refuses ("Type mismatch for Index Key": an item with an
    /// index key attribute of another type than the index's is refused,
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Writes>).
    /// A field of the same type under a multi-attribute key attribute is
    /// fine: its items are in the index, and queries filter by type. The
    /// same holds for a vector index's search attributes: its vector
    /// attribute (a List of Numbers; a String there makes DynamoDB refuse
    /// the write with "Invalid parameter type",
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html>)
    /// and its inline filters (declared in `AttributeDefinitions`, S, N or B).
    #[error(
        "`{field_entity}` stores field `{field}` as `{attribute}` ({field_type}), which is a key or search attribute of index `{index}` written by `{index_entity}` ({key_type}): DynamoDB would put its items in that index under a key Stamp does not build, or refuse every write of one whose value has another type (\"Type mismatch for Index Key\"); rename the field (`#[serde(rename = \"…\")]`) or the index attribute"
    )]
    IndexAttributeCollision {
        /// The entity whose field has the index attribute's name.
        field_entity: &'static str,
        /// The field, as named in the struct.
        field: &'static str,
        /// The type of the field's stored form (`S`, `N`, `B`, `BOOL`, `L`,
        /// `M`), or `"any type"` when the derive does not know it.
        field_type: &'static str,
        /// The entity that writes the index.
        index_entity: &'static str,
        /// The index name.
        index: &'static str,
        /// The attribute name.
        attribute: &'static str,
        /// The key attribute's type: `S`, `N` or `B`, and whether it is
        /// built from a template; `L, a vector of Numbers` for a vector
        /// index's vector attribute.
        key_type: &'static str,
    },

    /// A projection was set for an index that no entity of the table writes.
    #[error(
        "a projection is set for index `{index}`, which no entity writes; the indexes are {known:?}"
    )]
    UnknownIndex {
        /// The index named in the projection.
        index: String,
        /// The indexes the entities write.
        known: Vec<&'static str>,
    },

    /// An `INCLUDE` projection names no attribute; DynamoDB needs at least
    /// one (use `KEYS_ONLY` for none).
    #[error(
        "the INCLUDE projection of index `{index}` names no attribute; use KEYS_ONLY for keys only"
    )]
    EmptyIncludeProjection {
        /// The index.
        index: String,
    },

    /// The `INCLUDE` projections of a table name more non-key attributes in
    /// total than DynamoDB allows (100, see
    /// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-secondary-indexes>).
    #[error(
        "the INCLUDE projections name {count} attributes in total, more than DynamoDB's {limit}"
    )]
    TooManyProjectedAttributes {
        /// How many attributes the projections name, counted per index.
        count: usize,
        /// The limit, 100.
        limit: usize,
    },

    /// The primary key templates of two entities can produce the same key,
    /// so an item of one could overwrite an item of the other.
    #[error(
        "the keys of entities `{first_entity}` and `{second_entity}` can collide: both can have partition key `{partition_key}` and sort key `{sort_key}`; give one of them a distinct literal prefix"
    )]
    CollidingKeySpaces {
        /// The entity added to the definition first.
        first_entity: &'static str,
        /// The entity added later.
        second_entity: &'static str,
        /// A partition key value both templates can produce.
        partition_key: String,
        /// A sort key value both templates can produce.
        sort_key: String,
    },

    /// The guard items of a unique value (keys `UNIQUE#<type>#…`) can have
    /// the key of an entity's item, so a guard could overwrite the item or
    /// the item the guard.
    #[error(
        "the guard items of the unique value ({}) of entity `{owner}` can collide with the items of entity `{entity}`: both can have partition key `{partition_key}` and sort key `{sort_key}`; give `{entity}` a key that does not begin with `UNIQUE#`",
        .fields.join(", ")
    )]
    GuardKeyCollision {
        /// The entity with the unique value.
        owner: &'static str,
        /// The unique value's fields.
        fields: &'static [&'static str],
        /// The entity whose keys can be a guard's.
        entity: &'static str,
        /// A partition key value both can have.
        partition_key: String,
        /// A sort key value both can have.
        sort_key: String,
    },

    /// An index name (a GSI's, an LSI's or a vector index's, from
    /// `index_name = "…"`) DynamoDB would refuse: index names follow the
    /// rule of table names, 3 to 255 characters of `a-z`, `A-Z`, `0-9`,
    /// `_`, `-` and `.` ("Naming rules", Amazon DynamoDB Developer Guide).
    /// The derive refuses such a literal; this catches a schema built
    /// otherwise. Found by `check`, before any request.
    #[error(
        "the index name `{index}` of entity `{entity}` is not valid (index names follow the rule of table names): {reason}"
    )]
    InvalidIndexName {
        /// The entity that declares the index.
        entity: &'static str,
        /// The name given.
        index: &'static str,
        /// Which rule it breaks.
        reason: TableNameReason,
    },

    /// A table name DynamoDB would refuse: 3 to 255 characters of `a-z`,
    /// `A-Z`, `0-9`, `_`, `-` and `.` ("Naming rules", Amazon DynamoDB
    /// Developer Guide). Found before `CreateTable` is sent.
    #[error("the table name `{name}` is not valid: {reason}")]
    InvalidTableName {
        /// The name given.
        name: String,
        /// Which rule it breaks.
        reason: TableNameReason,
    },

    /// A setting of the table (tags, encryption, maximum throughput,
    /// resource policy, …) that DynamoDB would refuse, found before
    /// anything is sent ([`TableSettingError`]).
    #[error(transparent)]
    TableSetting(TableSettingError),

    /// A [`GlobalTable`](crate::GlobalTable) DynamoDB would refuse (its
    /// Regions, its consistency mode with the table's TTL or LSIs), found
    /// before anything is sent ([`GlobalTableError`]).
    #[error(transparent)]
    GlobalTable(GlobalTableError),
}

/// Which of DynamoDB's rules for global tables a
/// [`GlobalTable`](crate::GlobalTable) breaks, in
/// [`DefinitionError::GlobalTable`]. Each rule is from "How DynamoDB
/// global tables work"
/// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html>)
/// unless another page is named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GlobalTableError {
    /// A Region name that is not one: lowercase letters, digits and `-`,
    /// such as `us-east-1`.
    #[error("`{region}` is not an AWS Region name such as `us-east-1`")]
    InvalidRegion {
        /// The name given.
        region: String,
    },
    /// Two replicas (or a replica and the witness) in one Region: a global
    /// table has one replica per Region, and the witness is in a Region
    /// other than the replicas'.
    #[error(
        "the Region `{region}` is given twice; a global table has one replica (or witness) per Region"
    )]
    DuplicateRegion {
        /// The Region.
        region: String,
    },
    /// Fewer than two replicas: a global table is two or more replicas.
    #[error("the global table has {count} replica(s); a global table has two or more")]
    TooFewReplicas {
        /// The replicas declared.
        count: usize,
    },
    /// A witness on an eventually consistent (MREC) global table: a witness
    /// is part of an MRSC global table only
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html>,
    /// `GlobalTableWitnessUpdates`).
    #[error(
        "the witness `{region}` is for multi-Region strong consistency only; this global table is eventually consistent"
    )]
    WitnessWithoutStrongConsistency {
        /// The witness Region.
        region: String,
    },
    /// A strongly consistent (MRSC) global table not in exactly three
    /// Regions: three replicas, or two replicas and one witness.
    #[error(
        "a strongly consistent global table is in exactly 3 Regions (3 replicas, or 2 replicas and a witness); this one has {replicas} replica(s) and {witnesses} witness(es)"
    )]
    StrongConsistencyRegionCount {
        /// The replicas declared.
        replicas: usize,
        /// The witnesses declared (0 or 1).
        witnesses: usize,
    },
    /// A Region outside the Region sets that offer strong consistency
    /// ([`STRONG_CONSISTENCY_REGION_SETS`](crate::schema::STRONG_CONSISTENCY_REGION_SETS)).
    #[error(
        "multi-Region strong consistency is not available in `{region}`; it is in the US (us-east-1, us-east-2, us-west-2), EU (eu-west-1, eu-west-2, eu-west-3, eu-central-1) and AP (ap-northeast-1, ap-northeast-2, ap-northeast-3) Region sets"
    )]
    RegionWithoutStrongConsistency {
        /// The Region.
        region: String,
    },
    /// Regions of two Region sets in one strongly consistent global table.
    #[error(
        "a strongly consistent global table cannot span Region sets: `{first}` and `{second}` are in different sets"
    )]
    RegionSetsMixed {
        /// The first Region, of one set.
        first: String,
        /// A Region of another set.
        second: String,
    },
    /// Time to Live on a strongly consistent global table: "Time to Live
    /// (TTL) is not supported for MRSC global tables."
    #[error(
        "the table expires items on `{attribute}` (TTL), which a strongly consistent global table does not support"
    )]
    StrongConsistencyWithTimeToLive {
        /// The TTL attribute.
        attribute: &'static str,
    },
    /// A local secondary index on a strongly consistent global table:
    /// "Local secondary indexes (LSIs) are not supported for MRSC global
    /// tables."
    #[error(
        "the table has the local secondary index `{index}`, which a strongly consistent global table does not support"
    )]
    StrongConsistencyWithLocalIndex {
        /// The LSI's name.
        index: &'static str,
    },
    /// A vector index on a global table's CloudFormation template: the
    /// `AWS::DynamoDB::GlobalTable` resource has no `VectorIndexes`
    /// (<https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html>),
    /// so the template could not create it. Returned by
    /// [`TableDefinition::cloudformation`](crate::TableDefinition::cloudformation) only.
    #[error(
        "the vector index `{index}` cannot be declared in an AWS::DynamoDB::GlobalTable resource, which has no VectorIndexes"
    )]
    VectorIndexInCloudFormation {
        /// The vector index's name.
        index: &'static str,
    },
    /// [`TableDefinition::replica_requests`](crate::TableDefinition::replica_requests)
    /// on a definition without a global table.
    #[error("the definition declares no global table")]
    NotGlobal,
    /// The Region the table is created in is not one of its replicas'.
    #[error(
        "the table is created in `{region}`, which is not one of the global table's replica Regions"
    )]
    HomeRegionNotReplica {
        /// The Region given.
        region: String,
    },
}

/// Which of DynamoDB's rules a table setting of a
/// [`TableDefinition`](crate::TableDefinition) breaks, in
/// [`DefinitionError::TableSetting`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableSettingError {
    /// A maximum throughput on a provisioned table: `OnDemandThroughput`
    /// applies to on-demand tables and their GSIs only
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html>).
    #[error("a maximum throughput is for on-demand tables only; this table is provisioned")]
    MaxThroughputNotOnDemand,
    /// More tags than a table can have
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TaggingRestrictions.html>).
    #[error("the table has {count} tags; DynamoDB allows at most {limit}")]
    TooManyTags {
        /// The tags declared.
        count: usize,
        /// [`MAX_TAGS`](crate::schema::MAX_TAGS).
        limit: usize,
    },
    /// A tag key DynamoDB refuses.
    #[error("the tag key `{key}` is not valid: {reason}")]
    InvalidTagKey {
        /// The key.
        key: String,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// A tag value DynamoDB refuses: over 256 characters, or a character
    /// other than letters, white space, numbers and `+ - = . _ : /`.
    #[error(
        "the value of tag `{key}` is not valid: at most 256 characters of letters, white space, numbers and `+ - = . _ : /`, found `{value}`"
    )]
    InvalidTagValue {
        /// The tag's key.
        key: String,
        /// The value.
        value: String,
    },
    /// A tag key declared twice (DynamoDB keeps one value per key).
    #[error("the tag key `{key}` is declared twice; a table has one value per tag key")]
    DuplicateTagKey {
        /// The key.
        key: String,
    },
    /// [`TableEncryption::CustomerKey`](crate::schema::TableEncryption::CustomerKey)
    /// with an empty key ID.
    #[error("the customer managed KMS key of the table's encryption is empty")]
    EmptyKmsKey,
    /// A resource-based policy over 20 KB
    /// (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/rbac-considerations.html>).
    #[error("the resource policy has {bytes} bytes; DynamoDB allows at most {limit}")]
    ResourcePolicyTooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// [`MAX_RESOURCE_POLICY_BYTES`](crate::schema::MAX_RESOURCE_POLICY_BYTES).
        limit: usize,
    },
    /// A resource-based policy that is not a JSON object.
    #[error("the resource policy is not a JSON policy document: {detail}")]
    InvalidResourcePolicy {
        /// What the JSON parser said.
        detail: String,
    },
}

/// Which of DynamoDB's naming rules a table name breaks, in
/// [`DefinitionError::InvalidTableName`] (and an index name, which follows
/// the same rules, in [`DefinitionError::InvalidIndexName`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableNameReason {
    /// It is not 3 to 255 characters long.
    #[error("it has {length} characters, and a table name has 3 to 255")]
    Length {
        /// Its length in characters.
        length: usize,
    },
    /// It has a character other than `a-z`, `A-Z`, `0-9`, `_`, `-`, `.`.
    #[error("`{character}` is not allowed; a table name has only a-z, A-Z, 0-9, `_`, `-` and `.`")]
    Character {
        /// The first such character.
        character: char,
    },
}
