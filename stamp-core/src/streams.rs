//! DynamoDB Streams records, as a Lambda function receives them or as
//! [`Table::changes`](crate::Table::changes) reads them live ([`ChangeFeed`]),
//! decoded into typed changes of a [`Collection`] (feature `streams`).
//!
//! A record says what happened to one item (`INSERT`, `MODIFY` or
//! `REMOVE`), gives its `Keys`, and, depending on the stream's view type,
//! the item before (`OldImage`) and after (`NewImage`) the change. Images
//! arrive as raw attribute maps; [`Change::from_record`] turns them into the
//! collection's variants by the type attribute, exactly as a query page is
//! decoded ([`Collection::from_item`]), so an item of a type outside the
//! collection becomes its `Unknown(AttributeMap)` variant and is never a panic.
//!
//! | view type | `INSERT` | `MODIFY` | `REMOVE` |
//! |---|---|---|---|
//! | `KEYS_ONLY` | keys | keys | keys |
//! | `NEW_IMAGE` | keys, new | keys, new | keys |
//! | `OLD_IMAGE` | keys | keys, old | keys, old |
//! | `NEW_AND_OLD_IMAGES` | keys, new | keys, old, new | keys, old |
//!
//! With `KEYS_ONLY` the record does not hold the type attribute, so the
//! entity is not known from it: [`Change::keys`] is the raw key map,
//! [`Change::key_entity`] the one member of the collection whose key
//! templates (current or previous format) the keys fit, and
//! [`Change::primary_key`] the typed key of an entity you name.
//!
//! # The Lambda types
//!
//! [`Event`], [`EventRecord`] and [`StreamRecord`] are the types of the
//! crate `aws_lambda_events` 1.x (module `event::dynamodb`, its feature
//! `dynamodb`), re-exported. A function that reports partial batch
//! failures answers `aws_lambda_events::streams::DynamoDbEventResponse`
//! (its feature `streams`) of the same major version, 1, which Stamp does
//! not re-export: depend on `aws_lambda_events = { version = "1",
//! default-features = false, features = ["dynamodb", "streams"] }` for it.
//! The
//! [README](https://github.com/stamp-rs/stamp#a-web-api-and-a-lambda-consumer)
//! has the partial batch failure loop.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Record.html>,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html>
//! and <https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html>.
//!
//! # Example
//!
//! ```ignore
//! use stamp::streams::{Change, ChangeKind, Event};
//!
//! async fn handler(event: Event) -> Result<(), stamp::Error> {
//!     for change in stamp::streams::changes::<CustomerWithOrders>(event) {
//!         let change = change?;
//!         match (change.kind, &change.new) {
//!             (ChangeKind::Insert, Some(CustomerWithOrders::Order(order))) => record_sale(order),
//!             (_, Some(CustomerWithOrders::Unknown(item))) => log_unknown(item),
//!             _ => {}
//!         }
//!     }
//!     Ok(())
//! }
//! ```

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

/// The DynamoDB Streams event a Lambda function receives
/// (`{"Records": [...]}`): `aws_lambda_events::event::dynamodb::Event` of
/// aws_lambda_events 1.x (its feature `dynamodb`), re-exported. A function
/// that reports partial batch failures answers
/// `aws_lambda_events::streams::DynamoDbEventResponse` (feature `streams`
/// of aws_lambda_events) of the same major version, 1: depend on
/// `aws_lambda_events = { version = "1", default-features = false, features
/// = ["dynamodb", "streams"] }` for it, and `lambda_runtime` 1 to run the
/// function. The
/// [README](https://github.com/stamp-rs/stamp#a-web-api-and-a-lambda-consumer)
/// has the partial batch failure loop.
pub use aws_lambda_events::event::dynamodb::Event;
/// One record of an [`Event`], which [`Change::from_record`] decodes:
/// `aws_lambda_events::event::dynamodb::EventRecord` of aws_lambda_events
/// 1.x, re-exported. Its `change.sequence_number` is the `itemIdentifier` of
/// a partial batch failure.
pub use aws_lambda_events::event::dynamodb::EventRecord;
/// The `dynamodb` part of an [`EventRecord`] (keys, images, sequence
/// number, view type): `aws_lambda_events::event::dynamodb::StreamRecord`
/// of aws_lambda_events 1.x, re-exported.
pub use aws_lambda_events::event::dynamodb::StreamRecord;

use crate::error::Error;
use crate::error::JobError;
use crate::model::collection::Collection;
use crate::model::entity::{AttributeMap, Entity, EntitySchema};
use crate::model::typed_key::PrimaryKey;

mod checkpoint;
pub(crate) mod feed;
mod records;
mod shards;

pub use checkpoint::{Checkpoint, ShardCheckpoint};
pub use feed::{
    ChangeFeed, DEFAULT_MAX_BACKOFF, DEFAULT_MAX_ERROR_BACKOFF, DEFAULT_MIN_BACKOFF,
    DEFAULT_MIN_ERROR_BACKOFF, DEFAULT_PAGES_PER_SHARD,
};

use crate::error::ItemKey;
/// The DynamoDB Streams client that [`Table::changes`](crate::Table::changes)
/// reads through (`aws_sdk_dynamodbstreams::Client`), re-exported so that a
/// feed needs no dependency of its own:
/// `stamp::streams::StreamsClient::new(&sdk_config)`, with the `SdkConfig`
/// the DynamoDB client was made from.
pub use aws_sdk_dynamodbstreams::Client as StreamsClient;
/// The configuration of a [`StreamsClient`]
/// (`aws_sdk_dynamodbstreams::Config`), for
/// `StreamsClient::from_conf(StreamsConfig::builder()…build())`.
pub use aws_sdk_dynamodbstreams::Config as StreamsConfig;

/// What happened to the item: the record's `eventName`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// `INSERT`: a new item was added.
    Insert,
    /// `MODIFY`: one or more attributes of an existing item changed.
    Modify,
    /// `REMOVE`: the item was deleted (by a request, or by TTL, see
    /// [`Change::removed_by_ttl`]).
    Remove,
}

impl ChangeKind {
    /// The event name as DynamoDB writes it: `INSERT`, `MODIFY` or `REMOVE`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Insert => "INSERT",
            ChangeKind::Modify => "MODIFY",
            ChangeKind::Remove => "REMOVE",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        match name {
            "INSERT" => Some(ChangeKind::Insert),
            "MODIFY" => Some(ChangeKind::Modify),
            "REMOVE" => Some(ChangeKind::Remove),
            _ => None,
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a stream writes of each changed item: the record's
/// `StreamViewType`.
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_StreamSpecification.html>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewType {
    /// `KEYS_ONLY`: only the key attributes.
    KeysOnly,
    /// `NEW_IMAGE`: the item as it is after the change.
    NewImage,
    /// `OLD_IMAGE`: the item as it was before the change.
    OldImage,
    /// `NEW_AND_OLD_IMAGES`: both.
    NewAndOldImages,
}

impl ViewType {
    /// The view type as DynamoDB writes it, such as `NEW_AND_OLD_IMAGES`.
    pub fn as_str(self) -> &'static str {
        match self {
            ViewType::KeysOnly => "KEYS_ONLY",
            ViewType::NewImage => "NEW_IMAGE",
            ViewType::OldImage => "OLD_IMAGE",
            ViewType::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        match name {
            "KEYS_ONLY" => Some(ViewType::KeysOnly),
            "NEW_IMAGE" => Some(ViewType::NewImage),
            "OLD_IMAGE" => Some(ViewType::OldImage),
            "NEW_AND_OLD_IMAGES" => Some(ViewType::NewAndOldImages),
            _ => None,
        }
    }
}

impl fmt::Display for ViewType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One stream record, decoded: what happened to which item, with the
/// images the stream's view type carries as variants of collection `C`.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<C> {
    /// Insert, modify or remove.
    pub kind: ChangeKind,
    /// The record's `Keys`: the item's primary key attributes, such as
    /// `{PK: S, SK: S}`, as the SDK represents them. Always present.
    pub keys: AttributeMap,
    /// The one member entity of `C` whose key templates, current or
    /// previous (`#[stamp(previous(…))]`), the keys fit; `None` when no
    /// member's do, or more than one's (their key spaces overlap). The only
    /// hint of the entity in a `KEYS_ONLY` record; with an image, the
    /// image's type attribute decides.
    pub key_entity: Option<&'static str>,
    /// The item before the change (`OldImage`): present for `MODIFY` and
    /// `REMOVE` when the view type has old images.
    pub old: Option<C>,
    /// The item after the change (`NewImage`): present for `INSERT` and
    /// `MODIFY` when the view type has new images.
    pub new: Option<C>,
    /// The type attribute (such as `Type`) of the new image, or else of the
    /// old one, as stored: the entity type, even one outside `C` (whose
    /// image is then `C`'s `Unknown` variant). `None` without images.
    pub entity_type: Option<String>,
    /// The record's `StreamViewType`; `None` when the record leaves it out.
    pub view_type: Option<ViewType>,
    /// The record's `eventID`, unique per record.
    pub event_id: String,
    /// The record's `SequenceNumber`: records of one item are in increasing
    /// order of it (compare as numbers: it is a decimal string of up to 40
    /// digits).
    pub sequence_number: Option<String>,
    /// The record's `ApproximateCreationDateTime`, rounded by DynamoDB to
    /// the second (or the millisecond); `None` when the record leaves it out.
    pub approximate_creation_date_time: Option<DateTime<Utc>>,
    /// The record's `SizeBytes`: the size of the stream record, in bytes.
    pub size_bytes: i64,
    /// Whether DynamoDB's TTL process removed the item (the record's
    /// `userIdentity` is the service principal `dynamodb.amazonaws.com`).
    pub removed_by_ttl: bool,
}

impl<C: Collection> Change<C> {
    /// Decodes one record, as a Lambda function receives it.
    ///
    /// The images are decoded by [`Collection::from_item`]; an image whose
    /// type attribute names no member (or that has none) becomes `C`'s
    /// `Unknown` variant, with the raw item.
    ///
    /// # Errors
    ///
    /// [`JobError::InvalidStreamRecord`] (with the event id, the keys and the
    /// entity type) when the `eventName` is not `INSERT`, `MODIFY` or
    /// `REMOVE`, the `StreamViewType` is unknown, the keys are empty, an
    /// `INSERT` has an old image or a `REMOVE` a new one (DynamoDB writes
    /// neither), or a member entity cannot read its image.
    pub fn from_record(record: EventRecord) -> Result<Self, Error> {
        let stream = record.change;
        let removed_by_ttl = record.user_identity.as_ref().is_some_and(|identity| {
            identity.type_ == "Service" && identity.principal_id == "dynamodb.amazonaws.com"
        });
        Self::from_parts(RecordParts {
            event_name: record.event_name,
            event_id: record.event_id,
            keys: AttributeMap::from(stream.keys),
            old: AttributeMap::from(stream.old_image),
            new: AttributeMap::from(stream.new_image),
            view_type: stream
                .stream_view_type
                .map(|view_type| view_type.to_string()),
            sequence_number: stream.sequence_number,
            approximate_creation_date_time: Some(stream.approximate_creation_date_time)
                .filter(|time| *time != DateTime::<Utc>::UNIX_EPOCH),
            size_bytes: stream.size_bytes,
            removed_by_ttl,
        })
    }

    /// Decodes one record from its fields, whichever API delivered it (a
    /// Lambda event, or `GetRecords` in [`feed`]).
    pub(crate) fn from_parts(record: RecordParts) -> Result<Self, Error> {
        let RecordParts { keys, old, new, .. } = record;
        let type_attribute = C::MEMBERS
            .first()
            .map_or("Type", |schema| schema.type_attribute);
        let entity_type =
            [&new, &old]
                .into_iter()
                .find_map(|image| match image.get(type_attribute) {
                    Some(AttributeValue::S(name)) => Some(name.clone()),
                    _ => None,
                });
        let invalid = |reason: crate::error::StreamRecordReason| {
            Error::Job(JobError::InvalidStreamRecord {
                event_id: record.event_id.clone(),
                entity: entity_type.clone(),
                // The members of one table share its key attributes.
                key: (!keys.is_empty()).then(|| match C::MEMBERS.first() {
                    Some(schema) => ItemKey::of_schema(schema, &keys),
                    None => ItemKey::from_key_map(&keys),
                }),
                reason,
            })
        };
        let kind = ChangeKind::parse(&record.event_name).ok_or_else(|| {
            invalid(crate::error::StreamRecordReason::UnknownEventName {
                event_name: record.event_name.clone(),
            })
        })?;
        let view_type = match record.view_type {
            None => None,
            Some(name) => Some(ViewType::parse(&name).ok_or_else(|| {
                invalid(crate::error::StreamRecordReason::UnknownViewType {
                    view_type: name.to_string(),
                })
            })?),
        };
        if keys.is_empty() {
            return Err(invalid(crate::error::StreamRecordReason::NoKeys));
        }
        if kind == ChangeKind::Insert && !old.is_empty() {
            return Err(invalid(
                crate::error::StreamRecordReason::InsertWithOldImage,
            ));
        }
        if kind == ChangeKind::Remove && !new.is_empty() {
            return Err(invalid(
                crate::error::StreamRecordReason::RemoveWithNewImage,
            ));
        }
        let decode = |image: AttributeMap, which: &'static str| -> Result<Option<C>, Error> {
            if image.is_empty() {
                return Ok(None);
            }
            C::from_item(image).map(Some).map_err(|error| {
                invalid(crate::error::StreamRecordReason::UnreadableImage {
                    image: which,
                    source: Box::new(error),
                })
            })
        };
        let old = decode(old, "OldImage")?;
        let new = decode(new, "NewImage")?;
        Ok(Change {
            kind,
            key_entity: key_entity(C::MEMBERS, &keys),
            keys,
            old,
            new,
            entity_type,
            view_type,
            event_id: record.event_id,
            sequence_number: record.sequence_number,
            approximate_creation_date_time: record.approximate_creation_date_time,
            size_bytes: record.size_bytes,
            removed_by_ttl: record.removed_by_ttl,
        })
    }

    /// The item's primary key as a typed key of entity `E`, from
    /// [`keys`](Self::keys): what a `KEYS_ONLY` record gives. Its fields can
    /// then be read with the generated `E::parse_partition_key` and
    /// `E::parse_sort_key`.
    ///
    /// # Errors
    ///
    /// [`JobError::InvalidStreamRecord`] when a key attribute of `E` is missing
    /// or not a string; [`KeyError::KeyMismatch`](crate::KeyError::KeyMismatch) when a value does not have the
    /// shape of `E`'s current key template (so the item is of another
    /// entity, or still in `E`'s previous format).
    pub fn primary_key<E: Entity>(&self) -> Result<PrimaryKey<E>, Error> {
        let schema = E::SCHEMA;
        let value = |name: &'static str| match self.keys.get(name) {
            Some(AttributeValue::S(value)) => Ok(value.clone()),
            other => Err(Error::Job(JobError::InvalidStreamRecord {
                event_id: self.event_id.clone(),
                entity: Some(schema.type_name.to_owned()),
                key: Some(ItemKey::of_schema(schema, &self.keys)),
                reason: crate::error::StreamRecordReason::KeyNotString {
                    attribute: name,
                    entity: schema.type_name,
                    value: other.cloned().map(Box::new),
                },
            })),
        };
        let partition_key = value(schema.partition_key.name)?;
        let sort_key = value(schema.sort_key.name)?;
        schema
            .partition_key
            .template
            .split(schema.type_name, &partition_key)?;
        schema
            .sort_key
            .template
            .split(schema.type_name, &sort_key)?;
        Ok(PrimaryKey::from_parts(partition_key, sort_key))
    }

    /// The image after the change if there is one, else the one before.
    pub fn image(&self) -> Option<&C> {
        self.new.as_ref().or(self.old.as_ref())
    }
}

/// Decodes every record of a Lambda event, in order, one result per record:
/// a record that cannot be decoded is an `Err` next to the others, so one
/// bad record does not hide the rest.
///
/// # Errors
///
/// Per record, the errors of [`Change::from_record`].
pub fn changes<C: Collection>(event: Event) -> impl Iterator<Item = Result<Change<C>, Error>> {
    event.records.into_iter().map(Change::from_record)
}

/// The fields of one stream record, whichever API delivered it.
pub(crate) struct RecordParts {
    pub(crate) event_name: String,
    pub(crate) event_id: String,
    pub(crate) keys: AttributeMap,
    pub(crate) old: AttributeMap,
    pub(crate) new: AttributeMap,
    /// The `StreamViewType` as written, such as `NEW_AND_OLD_IMAGES`.
    pub(crate) view_type: Option<String>,
    pub(crate) sequence_number: Option<String>,
    pub(crate) approximate_creation_date_time: Option<DateTime<Utc>>,
    pub(crate) size_bytes: i64,
    pub(crate) removed_by_ttl: bool,
}

/// The one member whose key templates (current or previous) fit `keys`.
fn key_entity(members: &[&'static EntitySchema], keys: &AttributeMap) -> Option<&'static str> {
    let mut found = members.iter().filter(|schema| fits(schema, keys));
    match (found.next(), found.next()) {
        (Some(schema), None) => Some(schema.type_name),
        _ => None,
    }
}

fn fits(schema: &EntitySchema, keys: &AttributeMap) -> bool {
    let (Some(AttributeValue::S(partition_key)), Some(AttributeValue::S(sort_key))) = (
        keys.get(schema.partition_key.name),
        keys.get(schema.sort_key.name),
    ) else {
        return false;
    };
    let current = (&schema.partition_key.template, &schema.sort_key.template);
    let previous = schema
        .previous_key
        .as_ref()
        .map(|previous| (&previous.partition_key, &previous.sort_key));
    std::iter::once(current).chain(previous).any(|(pk, sk)| {
        pk.split(schema.type_name, partition_key).is_ok()
            && sk.split(schema.type_name, sort_key).is_ok()
    })
}
