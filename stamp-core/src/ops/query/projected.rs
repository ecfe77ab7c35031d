//! Index projections (issue 15, part 4; issue 22, point 2): a query of a
//! GSI that projects `KEYS_ONLY` or `INCLUDE` (set with
//! [`TableDefinition::index_projection`](crate::TableDefinition::index_projection))
//! cannot decode what the index does not hold. A GSI returns only its
//! projected attributes, so a missing field would fail to decode, or
//! worse, read as `None`; a filter on an attribute it does not hold (the
//! entity's own `Type = :type` scope included) matches nothing. When the
//! table knows its definition ([`Table::with_definition`]), such a query
//! is refused with [`Refusal::AttributesNotProjected`] before any request.
//! Every kind of GSI is checked, through the one test of what a GSI is
//! (`Query::global_index_name`): a template GSI, a sharded one and a
//! multi-attribute one; `send`, `stream` and `count` all call the check.
//!
//! An LSI is not checked: its queries ask DynamoDB for whole items
//! (`Select = ALL_ATTRIBUTES` for entities, collections and projections
//! alike; see `plan.rs`), and DynamoDB
//! fetches from the table what the LSI does not project ("Projected
//! attributes", Local secondary indexes, Amazon DynamoDB Developer Guide),
//! at the cost of a read of each item from the table.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html#LSI.Projections>.

use super::Query;
use crate::error::Error;
use crate::error::Refusal;
use crate::expression::Placeholders;
use crate::model::entity::{Entity, EntitySchema};
use crate::model::index::QueryIndex;
use crate::model::index_projection::IndexProjection;
use crate::request::table::Table;

/// The attributes a query's items must hold to be decoded.
#[derive(Debug, Clone, Copy)]
pub(super) enum Needs {
    /// The whole entity: every stored field.
    Entity,
    /// A projection's attributes ([`Projection::ATTRIBUTES`](crate::Projection::ATTRIBUTES)).
    Attributes(&'static [&'static str]),
    /// A collection: every stored field of every member, and the type
    /// attribute it decodes by.
    Members(&'static [&'static EntitySchema]),
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// Refuses the query when the table's definition gives the GSI it reads
    /// a projection that leaves out an attribute it needs: the attributes
    /// it decodes (when `decoding`; a count decodes nothing), the type
    /// attribute of its scope, the TTL attributes of its expiry filter
    /// (unless it includes expired items), and those its filter names.
    pub(super) fn check_projection(&self, table: &Table, decoding: bool) -> Result<(), Error> {
        let Some(index) = Self::global_index_name() else {
            return Ok(());
        };
        let Some(projection) = table.index_projection(index) else {
            return Ok(());
        };
        let included: &[String] = match projection {
            IndexProjection::All => return Ok(()),
            IndexProjection::KeysOnly => &[],
            IndexProjection::Include(attributes) => attributes,
        };
        let keys = Self::cursor_attributes();
        let mut needed: Vec<String> = Vec::new();
        let mut need = |name: &str| {
            if !needed.iter().any(|known| known == name) {
                needed.push(name.to_owned());
            }
        };
        // A hydrated query reads its items whole from the table, and checks
        // their type there: only its filter runs on the index.
        let hydrated = decoding && self.hydrates();
        if decoding && !hydrated {
            match self.needs {
                Needs::Entity => E::SCHEMA
                    .field_attributes
                    .iter()
                    .for_each(|field| need(field.attribute)),
                Needs::Attributes(attributes) => attributes.iter().for_each(|name| need(name)),
                Needs::Members(members) => {
                    crate::model::collection::member_attributes(E::SCHEMA, members)
                        .into_iter()
                        .for_each(&mut need);
                }
            }
        }
        if self.scoped && !hydrated {
            need(E::SCHEMA.type_attribute);
        }
        // The expiry filter's TTL attributes (none with `include_expired`).
        self.ttl_attributes().into_iter().for_each(&mut need);
        if let Some(filter) = &self.filter {
            let mut placeholders = Placeholders::default();
            filter.render(&mut placeholders)?;
            let mut names: Vec<String> = placeholders
                .names()
                .unwrap_or_default()
                .into_values()
                .collect();
            names.sort();
            names.iter().for_each(|name| need(name));
        }
        let missing: Vec<String> = needed
            .into_iter()
            .filter(|name| {
                !keys.contains(&name.as_str()) && !included.iter().any(|kept| kept == name)
            })
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            let type_attribute = E::SCHEMA.type_attribute;
            Err(Error::Refused(Refusal::AttributesNotProjected {
                entity: E::SCHEMA.type_name,
                type_attribute: missing
                    .iter()
                    .any(|name| name == type_attribute)
                    .then_some(type_attribute),
                index,
                projection: projection.to_string(),
                missing,
            }))
        }
    }
}
