//! [`UniqueBackfill`]: writes the missing guard items of an entity's
//! unique values for the items stored before the values were declared
//! unique, and reports the values two items share instead of choosing.

use futures::TryStreamExt;

use crate::error::{Error, ItemKey};
use crate::model::entity::Entity;
use crate::ops::scan::Scan;
use crate::ops::transaction::TransactWrite;
use crate::ops::transaction::failed_check;
use crate::ops::unique::{guards, owner_of};
use crate::request::table::Table;

/// A backfill of the guard items of entity `E`'s unique values
/// (`#[stamp(unique)]`, `#[stamp(unique(a, b))]`), built by
/// `UniqueBackfill::<E>::new()` and run by [`run`](Self::run): run it once
/// after declaring a value unique on an entity that already has items
/// (writes from then on keep the guards themselves).
///
/// It scans `E`'s items (strongly consistent, expired items included) and,
/// for each value an item holds, sends one `TransactWriteItems`: a put of
/// the guard on condition that there is none or the item holds it already
/// (so a second run writes nothing new), and a condition check that the
/// item still holds the values read (a write in between is reported in
/// [`UniqueBackfillOutcome::changed`], not guessed at). A value another
/// item holds already is a [`UniqueConflict`]: nothing is written for it;
/// decide which item keeps it, change the other, and run again.
///
/// Each guard costs a transactional write (2 write units) and the check a
/// transactional read; the scan reads every item of the table.
///
/// # Example
///
/// ```ignore
/// let outcome = UniqueBackfill::<User>::new().run(&table).await?;
/// for conflict in &outcome.conflicts {
///     eprintln!("{conflict:?}"); // two users with one email
/// }
/// ```
#[must_use = "a UniqueBackfill does nothing until it is run"]
#[derive(Debug, Clone, Copy)]
pub struct UniqueBackfill<E> {
    entity: std::marker::PhantomData<fn() -> E>,
}

impl<E: Entity> Default for UniqueBackfill<E> {
    fn default() -> Self {
        UniqueBackfill::new()
    }
}

/// What a [`UniqueBackfill`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UniqueBackfillOutcome {
    /// The items of the entity read.
    pub items: u64,
    /// The guards in place for the items read: written by this run, or
    /// already held by their item.
    pub guards: u64,
    /// The values held by another item than the one read: nothing was
    /// written for them.
    pub conflicts: Vec<UniqueConflict>,
    /// The items that changed between the scan and their guard's write
    /// (their values are kept by the write that changed them); run again
    /// to be sure of them.
    pub changed: Vec<ItemKey>,
}

/// A unique value two items hold, found by a [`UniqueBackfill`].
#[derive(Debug, Clone, PartialEq)]
pub struct UniqueConflict {
    /// The unique fields, by their names in the struct.
    pub fields: &'static [&'static str],
    /// Their values, as the guard's key holds them.
    pub values: Vec<String>,
    /// The item whose guard could not be written.
    pub item: ItemKey,
    /// The item the guard names, as stored.
    pub holder: Option<ItemKey>,
}

impl<E: Entity> UniqueBackfill<E> {
    /// A backfill of `E`'s guards.
    pub fn new() -> Self {
        UniqueBackfill {
            entity: std::marker::PhantomData,
        }
    }

    /// Runs the backfill on `table`.
    ///
    /// # Errors
    ///
    /// [`Refusal::UniqueValueNotScalar`](crate::Refusal::UniqueValueNotScalar)
    /// and key errors of a value; the errors of the scan and of
    /// `TransactWriteItems` other than a failed condition.
    pub async fn run(self, table: &Table) -> Result<UniqueBackfillOutcome, Error>
    where
        E: Send,
    {
        let schema = E::SCHEMA;
        let mut outcome = UniqueBackfillOutcome::default();
        if schema.unique_values.is_empty() {
            return Ok(outcome);
        }
        let mut items = Scan::<E>::new()
            .consistent_read()
            .include_expired()
            .stream(table);
        while let Some(entity) = items.try_next().await? {
            outcome.items += 1;
            let item = entity.to_item()?;
            let owner = crate::item::check::key_of(schema, &item);
            let owner_key = ItemKey::of_schema(schema, &owner);
            for guard in guards(schema, &item)? {
                let transaction =
                    TransactWrite::new().claim_guard(schema, &guard.key, &owner, &item);
                let failure = match transaction.execute(table).await? {
                    Ok(()) => {
                        outcome.guards += 1;
                        continue;
                    }
                    Err(failure) => failure,
                };
                let service = failure.service_error();
                if let Some(stored) = service.and_then(|service| failed_check(service, 0)) {
                    outcome.conflicts.push(UniqueConflict {
                        fields: guard.unique.fields,
                        values: guard.values,
                        item: owner_key.clone(),
                        holder: stored.and_then(|stored| owner_of(schema, &stored)),
                    });
                } else if service
                    .and_then(|service| failed_check(service, 1))
                    .is_some()
                {
                    if !outcome.changed.contains(&owner_key) {
                        outcome.changed.push(owner_key.clone());
                    }
                } else {
                    return Err(Error::from_failure(table.name(), failure));
                }
            }
        }
        Ok(outcome)
    }
}
