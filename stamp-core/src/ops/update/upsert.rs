//! Upserts: an [`Update`] without the existence condition, which creates
//! the item when it is absent. What it adds to an update's actions so that
//! the item it may create is the item a put of the same values stores.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};

use super::Update;
use super::values::Action;
use crate::error::{Error, Refusal};
use crate::expression::Path;
use crate::model::entity::Entity;

impl<E: Entity> Update<E> {
    /// Makes this update an upsert: one `UpdateItem` without the
    /// `attribute_exists` condition, which creates the item when it is
    /// absent and updates it otherwise. The generated `E::upsert(…)` is
    /// `E::update(…).into_upsert()`.
    ///
    /// What it adds to the update, so that an item it creates is the item a
    /// put of the resulting struct stores, and an item it updates is the
    /// item the update stores:
    ///
    /// - the type attribute and the primary-key fields given to
    ///   `E::upsert(…)` are `SET` (to the values the key already holds);
    /// - [`add`](Self::add) (`ADD`) and [`subtract`](Self::subtract)
    ///   (`SET n = if_not_exists(n, :zero) - :v`) start from 0 on an
    ///   absent attribute, so a counter needs no create first;
    /// - `#[stamp(created_at)]` is set to the time of the write with
    ///   `if_not_exists`, and so is every [`set`](Self::set) of a
    ///   `#[stamp(write_once)]` field (or of `created_at`): the value of the
    ///   write that created the item stays;
    /// - `#[stamp(version)]`: [`expect_version`](Self::expect_version) is
    ///   required, and the condition is `attribute_not_exists(PK) OR
    ///   version = :expected`, with `ADD version :1`: an absent item is
    ///   created at version 1, a present one must be at the expected
    ///   version (else [`Error::VersionConflict`]) and goes to the next.
    ///   `expect_version(0)` expects the item absent (no stored item has
    ///   version 0);
    /// - a [`condition`](Self::condition) that an absent item fails (one
    ///   on an attribute's value, `given(…)`) gives [`Error::ConditionFailed`]
    ///   with an empty `item`, nothing written.
    ///
    /// Refused before sending, nothing sent:
    /// [`Refusal::IncompleteUpsert`] when a field that is not an `Option`
    /// is neither in the key nor written by the upsert (the item it could
    /// create would not decode); an index is written whole or not at all
    /// under the rules of an update (see [`Update`]), with the key fields
    /// counted as written: [`Refusal::IncompleteIndexUpdate`] when a value
    /// an index needs is unknown, such as an `Option` field of a sparse
    /// index whose other field the upsert changes (state it with
    /// [`given_none`](Self::given_none), which an absent item meets).
    ///
    /// An upsert goes in a transaction as an update does:
    /// [`TransactWrite::update`](crate::TransactWrite::update).
    /// [`send_returning_old`](Self::send_returning_old) of an upsert that
    /// created the item has no old item to decode: use
    /// [`send`](Self::send) or [`send_returning_new`](Self::send_returning_new).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html>
    /// ("Edits an existing item's attributes, or adds a new item to the
    /// table if it does not already exist").
    pub fn into_upsert(mut self) -> Self {
        self.upsert = true;
        self
    }

    /// Whether this update is an upsert ([`into_upsert`](Self::into_upsert)).
    pub fn is_upsert(&self) -> bool {
        self.upsert
    }

    /// The actions an upsert adds or changes (see
    /// [`into_upsert`](Self::into_upsert)), then the check that the item it
    /// may create decodes.
    pub(super) fn upsert_actions(
        &self,
        actions: &mut Vec<Action>,
        now: DateTime<Utc>,
    ) -> Result<(), Error> {
        let schema = E::SCHEMA;
        let write_once = |attribute: &str| {
            schema.created_at_attribute == Some(attribute)
                || schema.write_once_attributes.contains(&attribute)
        };
        for action in actions.iter_mut() {
            if let Action::Set(path, value) = action
                && write_once(path.top_name())
            {
                let (path, value) = (*path, value.clone());
                *action = Action::SetIfNotExists(path, value);
            }
        }
        if let Some(created_at) = schema.created_at_attribute
            && !actions
                .iter()
                .any(|action| action.attribute() == created_at)
            && let Some(value) = E::time_stamp_value(created_at, now)?
        {
            actions.push(Action::SetIfNotExists(Path::top(created_at), Ok(value)));
        }
        // The key fields, in the order of the schema's fields, so the
        // request is the same at every call.
        for field in schema.field_attributes {
            if let Some(value) = self.key_values.get(field.attribute)
                && !actions
                    .iter()
                    .any(|action| action.attribute() == field.attribute)
            {
                actions.push(Action::Set(Path::top(field.attribute), Ok(value.clone())));
            }
        }
        actions.push(Action::Set(
            Path::top(schema.type_attribute),
            Ok(AttributeValue::S(schema.type_name.to_owned())),
        ));
        let missing: Vec<String> = schema
            .field_attributes
            .iter()
            .filter(|field| !field.optional)
            .map(|field| field.attribute)
            .filter(|attribute| {
                Some(*attribute) != schema.version_attribute
                    && !actions.iter().any(|action| {
                        action.attribute() == *attribute && action.creates_attribute()
                    })
            })
            .map(str::to_owned)
            .collect();
        if !missing.is_empty() {
            return Err(Error::Refused(Refusal::IncompleteUpsert {
                entity: schema.type_name,
                missing,
            }));
        }
        Ok(())
    }
}
