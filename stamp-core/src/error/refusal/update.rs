//! [`UpdateReason`]: why an update is refused.

/// Why an update is invalid, in [`Refusal::InvalidUpdate`](super::Refusal::InvalidUpdate).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UpdateReason {
    /// The update has no action.
    #[error("the update changes nothing")]
    ChangesNothing,
    /// Two actions change one attribute, which DynamoDB refuses.
    #[error("`{attribute}` is changed twice; DynamoDB takes one action per attribute in an update")]
    ChangedTwice {
        /// The attribute.
        attribute: &'static str,
    },
    /// The update sets the `#[stamp(version)]` attribute, which Stamp
    /// increments itself.
    #[error("the version `{attribute}` is counted by Stamp; use `expect_version`")]
    SetsVersion {
        /// The version attribute.
        attribute: &'static str,
    },
    /// A field of an index's key template is added to, appended to or set
    /// if absent, so the update cannot know its value to rebuild the
    /// index's key attributes.
    #[error(
        "`{field}` is in a key template of {index}, so it must be set to a value (not added to, appended to or set if absent), for the index attributes to be rebuilt"
    )]
    KeyFieldNotSet {
        /// The field, as stored.
        field: String,
        /// The index name.
        index: &'static str,
    },
    /// An index key attribute is built from a field that serde does not
    /// store (`#[serde(skip)]`), so an update cannot rebuild it.
    #[error(
        "`{attribute}` is built from `{field}`, which serde does not store, so an update cannot rebuild it"
    )]
    UnstoredKeyField {
        /// The index key attribute.
        attribute: &'static str,
        /// The field it is built from.
        field: &'static str,
    },
    /// A path inside an index attribute (an element of a vector, a
    /// field of a key attribute): the index needs the attribute whole.
    #[error("`{path}` is inside `{attribute}`, which an index reads: set `{attribute}` whole")]
    PathIntoIndexAttribute {
        /// The attribute.
        attribute: &'static str,
        /// The path.
        path: String,
    },
    /// A sharded index's key is rebuilt from the primary key, which the
    /// update was not given.
    #[error(
        "the shard of a sharded index follows from the primary key, which the update was not given"
    )]
    ShardNeedsPrimaryKey,
}
