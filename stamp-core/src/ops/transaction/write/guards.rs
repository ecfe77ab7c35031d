//! The guard actions of unique values in a [`TransactWrite`]: which a
//! write brings (from the item it reads, or, for a create, from the item
//! alone), the condition that the values read are still stored, and the
//! send that reads again when they changed in between (see the design
//! notes' "Unique values" and `ops/unique.rs`).

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use super::super::{Kind, Rendered, failed_check};
use super::TransactWrite;
use crate::error::{Error, Refusal};
use crate::item::size::{MAX_TRANSACTION_ACTIONS, item_size};
use crate::model::entity::AttributeMap;
use crate::model::entity::EntitySchema;
use crate::ops::unique::{
    Guard, MAX_UNIQUE_ATTEMPTS, UniqueWrite, guard_item, guard_key_map, guards, owner_condition,
    owner_of, unchanged_values, values_changed,
};
use crate::ops::write::Placed;
use crate::request::executor::{Call, Failure};
use crate::request::span::common_entity;
use crate::request::table::Table;

/// A transaction with its guard actions: the transaction, the reads of
/// its writes (action position, schema, item read) and, per guard action
/// after the caller's, the guard a put claims (`None` for a delete).
type Expanded = (TransactWrite, Vec<Read>, Vec<Claim>);

/// Per guard action after the caller's: the guard a put claims, with its
/// entity's schema (`None` for a delete).
type Claim = Option<(&'static EntitySchema, Guard)>;

/// The read of a write that is not a create: its action's position, its
/// entity's schema and the item as stored (`None`: no item).
type Read = (usize, &'static EntitySchema, Option<AttributeMap>);

/// Adds `condition` (expression, names, values) to the action's own with
/// `AND`.
fn and_condition(
    kind: &mut Kind,
    (expression, names, values): (
        String,
        std::collections::HashMap<String, String>,
        std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>,
    ),
) {
    match kind {
        Kind::Put { condition, .. } | Kind::Delete { condition } => {
            *condition = Some(match condition.take() {
                Some(mut rendered) => {
                    rendered.expression = format!("({}) AND {expression}", rendered.expression);
                    rendered.names.get_or_insert_default().extend(names);
                    if !values.is_empty() {
                        rendered.values.get_or_insert_default().extend(values);
                    }
                    rendered
                }
                None => Rendered {
                    expression,
                    names: Some(names),
                    values: (!values.is_empty()).then_some(values),
                },
            });
        }
        Kind::Update(update) => {
            update.condition_expression = Some(match update.condition_expression.take() {
                Some(earlier) => format!("({earlier}) AND {expression}"),
                None => expression,
            });
            update.names.extend(names);
            update.values.extend(values);
        }
        Kind::Check { .. } => {}
    }
}

/// What a put of `item` does to the unique values of the entity of
/// `schema`: it creates them when it requires no item at its key.
pub(super) fn put_unique(
    schema: &EntitySchema,
    item: &AttributeMap,
    creates: bool,
) -> Option<UniqueWrite> {
    if schema.unique_values.is_empty() {
        return None;
    }
    Some(if creates {
        UniqueWrite::Create(item.clone())
    } else {
        UniqueWrite::Replace(item.clone())
    })
}

impl TransactWrite {
    /// Sends the transaction through the executor and hands back its
    /// failure as it is, with the attempts: for re-keying and key
    /// migrations, which read the cancellation reasons by position. The
    /// outer error is what [`request`](Self::request) refuses before
    /// sending, and [`Error::UniqueValueTaken`].
    ///
    /// With actions on entities with unique values, the guard actions are
    /// added after the caller's (see [`send`](Self::send)), each write
    /// that is not a create reads its item first, and the whole is sent
    /// again (read again) when an item changed between its read and the
    /// write, up to [`MAX_UNIQUE_ATTEMPTS`] times.
    pub(crate) async fn execute(
        &self,
        table: &Table,
    ) -> Result<Result<(), Failure<TransactWriteItemsError>>, Error> {
        if self.actions.iter().all(|action| action.unique.is_none()) {
            let input = self.render(table.name())?;
            let entity = common_entity(self.actions.iter().map(|action| action.entity));
            let call = Call::of(entity).items(self.actions.len());
            return Ok(table.execute(input, call).await.map(|_| ()));
        }
        self.validate()?;
        self.check_guard_count()?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (expanded, reads, guards) = self.with_guards(table).await?;
            let input = expanded.render(table.name())?;
            let entity = common_entity(expanded.actions.iter().map(|action| action.entity));
            let call = Call::of(entity).items(expanded.actions.len());
            let failure = match table.execute(input, call).await {
                Ok(_) => return Ok(Ok(())),
                Err(failure) => failure,
            };
            let Some(service) = failure.service_error() else {
                return Ok(Err(failure));
            };
            // An item changed between its read and the write: read again.
            let changed = reads.iter().any(|(position, schema, read)| {
                failed_check(service, *position)
                    .is_some_and(|now| values_changed(schema, read.as_ref(), now.as_ref()))
            });
            if changed && attempt < MAX_UNIQUE_ATTEMPTS {
                continue;
            }
            let item_failed =
                (0..self.actions.len()).any(|position| failed_check(service, position).is_some());
            if !item_failed {
                for (offset, guard) in guards.iter().enumerate() {
                    if let Some((schema, guard)) = guard
                        && let Some(stored) = failed_check(service, self.actions.len() + offset)
                    {
                        return Err(Error::UniqueValueTaken {
                            entity: schema.type_name,
                            fields: guard.unique.fields,
                            values: guard.values.clone(),
                            owner: stored.and_then(|stored| owner_of(schema, &stored)),
                        });
                    }
                }
            }
            return Ok(Err(failure));
        }
    }

    /// Refuses, before any read, a transaction whose actions and the guards
    /// its creates put are more than DynamoDB's 100 (the guards of other
    /// writes are known after their reads, and counted then).
    fn check_guard_count(&self) -> Result<(), Error> {
        let mut count = self.actions.len();
        for (schema, write) in self
            .actions
            .iter()
            .filter_map(|action| action.unique.as_ref())
        {
            if let UniqueWrite::Create(item) = write {
                count += guards(schema, item)?.len();
            }
        }
        if count > MAX_TRANSACTION_ACTIONS {
            return Err(Error::Refused(Refusal::TooManyTransactionActions {
                count,
                limit: MAX_TRANSACTION_ACTIONS,
            }));
        }
        Ok(())
    }

    /// This transaction with the guard actions of its unique values
    /// appended, each write that is not a create conditioned on the unique
    /// attributes it read; with the reads (action position, schema, item
    /// read) and, per guard action, the guard a put claims (`None` for a
    /// delete). Each write that is not a create reads its item first.
    async fn with_guards(&self, table: &Table) -> Result<Expanded, Error> {
        let mut reads = Vec::new();
        for (position, action) in self.actions.iter().enumerate() {
            if let Some((schema, write)) = &action.unique
                && write.reads()
            {
                let stored = table
                    .stored_item(schema.type_name, action.key.clone(), true)
                    .await?;
                reads.push((position, *schema, stored));
            }
        }
        let (expanded, claims) = self.expand(Some(&reads))?;
        Ok((expanded, reads, claims))
    }

    /// This transaction with the guard actions known without reading any
    /// item: those of its creates (what [`request`](Self::request) shows).
    pub(super) fn with_known_guards(&self) -> Result<TransactWrite, Error> {
        Ok(self.expand(None)?.0)
    }

    /// This transaction with the guard actions of its unique values
    /// appended and, per guard action, the guard a put claims (`None` for
    /// a delete). `reads` holds the item read for each write that is not a
    /// create (action position, schema, item), each such write then
    /// conditioned on the unique attributes read; without reads (`None`),
    /// those writes bring no guard action and no condition, and only the
    /// creates' guards are added.
    fn expand(&self, reads: Option<&[Read]>) -> Result<(TransactWrite, Vec<Claim>), Error> {
        struct GuardOp {
            schema: &'static EntitySchema,
            guard: Guard,
            put_for: Option<AttributeMap>,
            delete_for: Option<AttributeMap>,
        }
        let mut expanded = self.clone();
        let mut ops: Vec<GuardOp> = Vec::new();
        let mut op = |schema, guard: &Guard, owner: &AttributeMap, put: bool| {
            let index = match ops.iter().position(|op| op.guard.key == guard.key) {
                Some(index) => index,
                None => {
                    ops.push(GuardOp {
                        schema,
                        guard: guard.clone(),
                        put_for: None,
                        delete_for: None,
                    });
                    ops.len() - 1
                }
            };
            let slot = if put {
                &mut ops[index].put_for
            } else {
                &mut ops[index].delete_for
            };
            *slot = Some(owner.clone());
        };
        for (position, action) in self.actions.iter().enumerate() {
            let Some((schema, write)) = &action.unique else {
                continue;
            };
            let stored = if write.reads() {
                let Some(reads) = reads else {
                    continue;
                };
                let stored = reads
                    .iter()
                    .find(|(read, _, _)| *read == position)
                    .and_then(|(_, _, stored)| stored.clone());
                and_condition(
                    &mut expanded.actions[position].kind,
                    unchanged_values(schema, stored.as_ref()),
                );
                stored
            } else {
                None
            };
            let before = match &stored {
                Some(item) => guards(schema, item)?,
                None => Vec::new(),
            };
            let after = match write.after(stored.as_ref()) {
                Some(item) => guards(schema, &item)?,
                None => Vec::new(),
            };
            for guard in before.iter().filter(|guard| !after.contains(guard)) {
                op(*schema, guard, &action.key, false);
            }
            for guard in after.iter().filter(|guard| !before.contains(guard)) {
                op(*schema, guard, &action.key, true);
            }
        }
        let mut claims = Vec::with_capacity(ops.len());
        for op in ops {
            let key = guard_key_map(op.schema, &op.guard.key);
            let item_key = crate::item::check::key_of(op.schema, &key);
            match (op.put_for, op.delete_for) {
                (Some(owner), previous) => {
                    // A guard moved from one item to another (a re-key, a
                    // key migration) is put in place of the old owner's.
                    let condition = owner_condition(op.schema, previous.as_ref().unwrap_or(&owner));
                    let item = guard_item(op.schema, &op.guard.key, &owner);
                    let size = item_size(&item);
                    let kind = Kind::Put {
                        item,
                        condition: Some(Rendered::placed(condition)),
                    };
                    expanded.push(op.schema, item_key, size, kind, None);
                    claims.push(Some((op.schema, op.guard)));
                }
                (None, Some(owner)) => {
                    let condition = owner_condition(op.schema, &owner);
                    let size = item_size(&key);
                    let kind = Kind::Delete {
                        condition: Some(Rendered::placed(condition)),
                    };
                    expanded.push(op.schema, item_key, size, kind, None);
                    claims.push(None);
                }
                (None, None) => {}
            }
        }
        Ok((expanded, claims))
    }

    /// Adds a put of `item`, already rendered, of the entity of `schema`,
    /// with its own `condition` (which requires no item at the key when
    /// `creates`): for re-keying and key migrations, whose guards are not
    /// an entity's conditions.
    pub(crate) fn put_item(
        mut self,
        schema: &'static EntitySchema,
        item: AttributeMap,
        condition: Option<Placed>,
        creates: bool,
    ) -> Self {
        let key = crate::item::check::key_of(schema, &item);
        let size = item_size(&item);
        let unique = put_unique(schema, &item, creates);
        let kind = Kind::Put {
            item,
            condition: condition.map(Rendered::placed),
        };
        self.push(schema, key, size, kind, unique);
        self
    }

    /// Adds a put of the guard with key `key` for the item `item` (key
    /// attributes `owner`), on condition that there is none or the item
    /// holds it, and a check that the item still holds the unique values
    /// of `item`: for [`UniqueBackfill`](crate::migrate::UniqueBackfill).
    pub(crate) fn claim_guard(
        mut self,
        schema: &'static EntitySchema,
        key: &str,
        owner: &AttributeMap,
        item: &AttributeMap,
    ) -> Self {
        let guard = guard_item(schema, key, owner);
        let guard_key = crate::item::check::key_of(schema, &guard);
        let size = item_size(&guard);
        let kind = Kind::Put {
            item: guard,
            condition: Some(Rendered::placed(owner_condition(schema, owner))),
        };
        self.push(schema, guard_key, size, kind, None);
        let (expression, names, values) = unchanged_values(schema, Some(item));
        let kind = Kind::Check {
            condition: Rendered {
                expression,
                names: Some(names),
                values: (!values.is_empty()).then_some(values),
            },
        };
        self.push(schema, owner.clone(), item_size(owner), kind, None);
        self
    }

    /// Adds a delete of the item with key attributes `key` of the entity of
    /// `schema`, guarded by `condition`: as [`put_item`](Self::put_item).
    pub(crate) fn delete_key(
        mut self,
        schema: &'static EntitySchema,
        key: AttributeMap,
        condition: Option<Placed>,
    ) -> Self {
        let size = item_size(&key);
        let kind = Kind::Delete {
            condition: condition.map(Rendered::placed),
        };
        self.push(schema, key, size, kind, Some(UniqueWrite::Delete));
        self
    }
}
