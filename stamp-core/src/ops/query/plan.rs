//! A query rendered into its exact `QueryInput`: key condition, scope
//! filter, projection, fingerprint, and the checked cursor it starts from.

use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, Select};

use super::Query;
use super::attributes::{AttributeAccept, key_condition};
use super::range::{SortAccept, sort_key_condition};
use crate::error::Error;
use crate::error::{CursorReason, Refusal};
use crate::expression::{Placeholders, check_expression_length};
use crate::model::entity::{AttributeMap, Entity};
use crate::model::index::IndexSchema;
use crate::model::index::QueryIndex;
use crate::ops::cursor::Fingerprint;
use crate::request::cursor_key::CursorKey;

/// A rendered request and what is needed to read its response.
pub(super) struct Plan {
    pub(super) input: QueryInput,
    pub(super) fingerprint: Fingerprint,
    /// The table's cursor key, which signs the response's cursors.
    pub(super) signing: Option<CursorKey>,
    /// An item with this sort key is not a result (see `sort_key_condition`).
    pub(super) excluded_sort_key: Option<(&'static str, String)>,
    /// The sort keys the key condition admits, which a cursor's must be.
    pub(super) accept: SortAccept,
    /// On a multi-attribute index: the index, and the key attribute values
    /// its key condition admits (`accept` is then `Any`).
    pub(super) multi_attribute: Option<(&'static IndexSchema, AttributeAccept)>,
}

impl Plan {
    pub(super) fn excludes(&self, item: &AttributeMap) -> bool {
        match &self.excluded_sort_key {
            Some((attribute, key)) => {
                matches!(item.get(*attribute), Some(AttributeValue::S(value)) if value == key)
            }
            None => false,
        }
    }
}

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// The key attributes an item of this query carries, which a cursor holds.
    pub(super) fn cursor_attributes() -> Vec<&'static str> {
        let mut names = vec![E::SCHEMA.partition_key.name, E::SCHEMA.sort_key.name];
        for (name, _) in Self::index()
            .map(IndexSchema::key_schema)
            .unwrap_or_default()
        {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// Checks that a cursor's key belongs to this query, as a cursor from an
    /// untrusted client must: exactly the key attributes an item of the
    /// query carries, the query's partition, and a sort key that the key
    /// condition admits. (Its keys need not be the entity's: DynamoDB's
    /// `LastEvaluatedKey` may be an item of another type that the type
    /// scope filtered out.)
    pub(super) fn check_start(
        key: &AttributeMap,
        partition_attribute: &str,
        partition_key: &str,
        sort_attribute: Option<&str>,
        accept: &SortAccept,
    ) -> Result<(), Error> {
        let invalid = |reason: CursorReason| Err(Error::Refused(Refusal::InvalidCursor { reason }));
        let expected = Self::cursor_attributes();
        if let Some(name) = key.keys().find(|name| !expected.contains(&name.as_str())) {
            return invalid(CursorReason::UnexpectedAttribute {
                attribute: name.clone(),
            });
        }
        let text = |name: &str| match key.get(name) {
            Some(AttributeValue::S(text)) => Ok(text.as_str()),
            _ => Err(Error::Refused(Refusal::InvalidCursor {
                reason: CursorReason::MissingAttribute {
                    attribute: name.to_string(),
                },
            })),
        };
        for name in &expected {
            text(name)?;
        }
        if text(partition_attribute)? != partition_key {
            return invalid(CursorReason::OtherPartition {
                attribute: partition_attribute.to_string(),
            });
        }
        if let Some(sort_attribute) = sort_attribute
            && !accept.admits(text(sort_attribute)?)
        {
            return invalid(CursorReason::OutsideSortCondition {
                attribute: sort_attribute.to_string(),
            });
        }
        Ok(())
    }

    /// Checks the options and renders the request, without a network.
    /// `signing` is the table's cursor key: it checks the cursor given to
    /// [`after`](Self::after) and signs the cursors of the response. (A
    /// sharded query plans each shard with [`render`](Self::render).)
    pub(super) fn plan(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        count_only: bool,
        limit: Option<u32>,
    ) -> Result<Plan, Error> {
        let partition_key = self.partition_key.as_ref().map_err(Clone::clone)?;
        let mut plan = self.render(table_name, signing, count_only, limit, partition_key, None)?;
        if let Some(cursor) = &self.start {
            let key = cursor.decode(&plan.fingerprint, signing)?;
            let (partition_attribute, _, sort_attribute) = Self::key_attributes();
            if let Some((index, accept)) = &plan.multi_attribute {
                let table_keys = [E::SCHEMA.partition_key.name, E::SCHEMA.sort_key.name];
                accept.check(index, table_keys, &Self::cursor_attributes(), &key)?;
                plan.input.exclusive_start_key = Some(key);
                return Ok(plan);
            }
            Self::check_start(
                &key,
                partition_attribute,
                partition_key,
                sort_attribute,
                &plan.accept,
            )?;
            plan.input.exclusive_start_key = Some(key);
        }
        Ok(plan)
    }

    /// The request on partition `partition_key`, without a start key: the
    /// checks of the options, the expressions, and the fingerprint (the
    /// `fingerprint` given, the same for every shard of a sharded query, or
    /// the request's own).
    pub(super) fn render(
        &self,
        table_name: &str,
        signing: Option<&CursorKey>,
        count_only: bool,
        limit: Option<u32>,
        partition_key: &str,
        fingerprint: Option<Fingerprint>,
    ) -> Result<Plan, Error> {
        let sort = self.sort.as_ref().map_err(Clone::clone)?;
        // A GSI of any kind (an LSI reads consistently).
        if let (true, Some(index)) = (self.consistent_read, Self::global_index_name()) {
            return Err(Error::Refused(Refusal::ConsistentReadOnIndex { index }));
        }
        if self.limit == Some(0) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::Zero { option: "limit" },
            }));
        }
        if self.max_items == Some(0) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::Zero {
                    option: "max_items",
                },
            }));
        }
        if self.max_requests == Some(0) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::Zero {
                    option: "max_requests",
                },
            }));
        }
        let (partition_attribute, sort_template, sort_attribute) = Self::key_attributes();
        let mut placeholders = Placeholders::default();
        let multi_attribute = Self::multi_attribute_index()
            .map(|index| {
                let (condition, accept) =
                    key_condition(index, &self.partition_values, sort, &mut placeholders)?;
                Ok::<_, Error>((index, condition, accept))
            })
            .transpose()?;
        let mut key_condition = match &multi_attribute {
            Some((_, condition, _)) => condition.clone(),
            None => format!(
                "{} = {}",
                placeholders.name(partition_attribute),
                placeholders.add_value(AttributeValue::S(partition_key.to_owned()))
            ),
        };
        let mut excluded_sort_key = None;
        let mut accept = SortAccept::Any;
        if let (Some(template), Some(sort_attribute), None) =
            (sort_template, sort_attribute, &multi_attribute)
        {
            let scope = if self.scoped { Some(template) } else { None };
            if let Some(text) = sort_key_condition(
                scope,
                template,
                sort,
                sort_attribute,
                &mut placeholders,
                &mut excluded_sort_key,
                &mut accept,
            )? {
                key_condition.push_str(" AND ");
                key_condition.push_str(&text);
            }
        }
        let fingerprint = fingerprint
            .unwrap_or_else(|| self.fingerprint(table_name, &key_condition, &placeholders));
        let filter = self.filter_expression(&mut placeholders, self.hydrates() && !count_only)?;
        let local = Self::reads_local_index();
        // A count of an LSI reads the items, whole, and counts them: the
        // entity's scope filters on its type attribute, which a `KEYS_ONLY`
        // or `INCLUDE` LSI may not hold, and DynamoDB documents the fetch
        // from the table for `ALL_ATTRIBUTES` (and for the attributes a
        // projection names), not for `COUNT`.
        let count_by_items = count_only && local;
        let count_by_projection = count_only && !local && excluded_sort_key.is_some();
        // A hydrated query reads the index entries' keys only; the items
        // come whole from the table (`hydrate.rs`).
        let hydrated = self.hydrates() && !count_only;
        let projection = if hydrated {
            Some(
                Self::cursor_attributes()
                    .into_iter()
                    .map(|name| placeholders.name(name))
                    .collect(),
            )
        } else if count_by_projection {
            Some(vec![
                placeholders.name(sort_attribute.expect("a sort key was excluded")),
            ])
        } else if count_only || local {
            // A projection of an LSI reads whole items too (no
            // `ProjectionExpression`; see below), and decodes its fields
            // from them.
            None
        } else {
            self.projection_names(&mut placeholders)
        };
        check_expression_length("key condition", &key_condition)?;
        if let Some(filter) = &filter {
            check_expression_length("filter", filter)?;
        }
        // What the response holds. Without `Select` or a projection, a
        // query of an index returns `ALL_PROJECTED_ATTRIBUTES`: an LSI
        // that is `KEYS_ONLY` or `INCLUDE` would leave out fields the
        // entity (or a collection's members) decodes. `ALL_ATTRIBUTES`
        // has DynamoDB fetch the whole item from the table for each index
        // entry (no fetch when the LSI projects `ALL`). A typed projection
        // of an LSI sends `ALL_ATTRIBUTES` too, not a
        // `ProjectionExpression` (`SPECIFIC_ATTRIBUTES`, which DynamoDB
        // documents to fetch the attributes it names, but which some
        // servers answer from the index alone): DynamoDB charges the
        // fetch by the whole item either way, so only more bytes come
        // back, and the projection decodes its fields from them. On a GSI,
        // `ALL_ATTRIBUTES` is refused unless it projects `ALL`; what it
        // cannot serve is `Refusal::AttributesNotProjected` (`projected.rs`).
        // See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-Select>.
        let select = if count_only && !count_by_projection && !count_by_items {
            Some(Select::Count)
        } else if projection.is_none() && local {
            Some(Select::AllAttributes)
        } else {
            None
        };
        let projection = projection.map(|names| names.join(", "));
        if let Some(projection) = &projection {
            check_expression_length("projection", projection)?;
        }
        let input = QueryInput::builder()
            .table_name(table_name)
            .set_index_name(Self::index_name().map(str::to_owned))
            .key_condition_expression(key_condition)
            .set_filter_expression(filter)
            .set_projection_expression(projection)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .scan_index_forward(!self.newest_first)
            .set_limit(limit.map(|limit| limit.min(i32::MAX as u32) as i32))
            .set_consistent_read(self.consistent_read.then_some(true))
            .set_select(select)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("QueryInput has no required fields");
        Ok(Plan {
            input,
            fingerprint,
            signing: signing.cloned(),
            excluded_sort_key: excluded_sort_key
                .map(|key| (sort_attribute.expect("a sort key was excluded"), key)),
            accept,
            multi_attribute: multi_attribute.map(|(index, _, accept)| (index, accept)),
        })
    }

    /// The fingerprint of the query a cursor belongs to: the table, the
    /// index, the key condition with its values, and the order.
    pub(super) fn fingerprint(
        &self,
        table_name: &str,
        key_condition: &str,
        placeholders: &Placeholders,
    ) -> Fingerprint {
        // A stable encoding of the key condition's values (strings, and the
        // numbers and binaries of a multi-attribute index), not `Debug`
        // output, so that an SDK upgrade keeps live cursors valid.
        let mut key_values: Vec<String> = placeholders
            .values()
            .unwrap_or_default()
            .into_iter()
            .map(|(placeholder, value)| match value {
                AttributeValue::S(text) => format!("{placeholder}=S:{text}"),
                AttributeValue::N(text) => format!("{placeholder}=N:{text}"),
                AttributeValue::B(bytes) => {
                    use base64::Engine as _;
                    let text = base64::engine::general_purpose::STANDARD.encode(bytes.as_ref());
                    format!("{placeholder}=B:{text}")
                }
                other => unreachable!("key condition values are S, N or B, not {other:?}"),
            })
            .collect();
        key_values.sort();
        Fingerprint::of(&[
            table_name,
            Self::index_name().unwrap_or(""),
            key_condition,
            &key_values.join("\n"),
            if self.newest_first { "desc" } else { "asc" },
        ])
    }

    /// The filter: the entity's scope (its type attribute), and the user's.
    /// Without the scope when `hydrated`: the index may not hold the type
    /// attribute, and the fetched items are checked instead (`hydrate.rs`).
    fn filter_expression(
        &self,
        placeholders: &mut Placeholders,
        hydrated: bool,
    ) -> Result<Option<String>, Error> {
        let user_filter = self
            .filter
            .as_ref()
            .map(|filter| filter.render(placeholders))
            .transpose()?;
        // The entity's scope: other item types can share the partition and
        // the literal prefix (`ORDER#…#ITEM#…` beside `ORDER#…`), so an
        // entity query keeps only items of its type, as a scan does.
        let filter = if self.scoped && !hydrated {
            let scope = format!(
                "{} = {}",
                placeholders.name(E::SCHEMA.type_attribute),
                placeholders.add_value(AttributeValue::S(E::SCHEMA.type_name.to_owned()))
            );
            Some(match user_filter {
                Some(user) => format!("({scope}) AND ({user})"),
                None => scope,
            })
        } else {
            user_filter
        };
        // Expired items left out (`ops/expiry.rs`), at the time a send
        // fixed (or now, for a `request` without a table).
        let live = self.expiry.now().and_then(|now| {
            crate::ops::expiry::live_filter(&self.ttl_attributes(), now, placeholders)
        });
        Ok(crate::ops::expiry::and_live(filter, live))
    }

    /// The projected attributes, with the key attributes a cursor needs.
    fn projection_names(&self, placeholders: &mut Placeholders) -> Option<Vec<String>> {
        self.projection.as_ref().map(|attributes| {
            let mut names: Vec<String> = attributes
                .iter()
                .map(|name| placeholders.name(name))
                .collect();
            for key in Self::cursor_attributes() {
                let key = placeholders.name(key);
                if !names.contains(&key) {
                    names.push(key);
                }
            }
            names
        })
    }

    /// The limit of the next request: `Limit`, capped by the items still
    /// wanted, doubled for each response in a row (`shorts`) that held
    /// fewer items than its limit, as the type scope or a filter drops
    /// them (see [`max_items`](Self::max_items)).
    pub(super) fn request_limit(&self, remaining: Option<usize>, shorts: u32) -> Option<u32> {
        let wanted = remaining.map(|remaining| {
            let grown = remaining.saturating_mul(1usize << shorts.min(20));
            grown.min(i32::MAX as usize) as u32
        });
        match (self.limit, wanted) {
            (Some(limit), Some(wanted)) => Some(limit.min(wanted)),
            (limit, None) => limit,
            (None, Some(wanted)) => Some(wanted),
        }
    }
}
