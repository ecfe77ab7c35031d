//! Scans of one entity's items, sequential or in parallel segments.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html>.

use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::scan::ScanInput;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use futures::{Stream, StreamExt, TryStreamExt, stream};

use crate::ops::expiry::Expiry;
use crate::request::executor::Call;

use crate::error::Error;
use crate::error::Refusal;
use crate::expression::{Condition, Placeholders};
use crate::model::entity::{AttributeMap, Entity};
use crate::ops::batch::DEFAULT_BATCH_CONCURRENCY;
use crate::request::table::Table;

/// A scan of the table for the items of entity `E`, built by
/// `Scan::<E>::new()` or the generated `E::scan()`. It reads every item
/// of the table (consuming read capacity for all of them) and keeps those
/// whose type attribute names `E`, plus the optional filter.
///
/// Items whose TTL (`#[stamp(ttl)]`) has passed at the table's clock
/// ([`Table::now`]) are left out on the server, by a filter AND-ed with
/// the others, `(attribute_not_exists(#ttl) OR #ttl > :now)`: they are
/// still read and charged. [`include_expired`](Self::include_expired)
/// returns them too.
pub struct Scan<E> {
    filter: Option<Condition<E>>,
    limit: Option<u32>,
    segments: u32,
    consistent_read: bool,
    expiry: Expiry,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity> Default for Scan<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Entity> Scan<E> {
    /// A sequential scan of all items of `E`.
    pub fn new() -> Self {
        Scan {
            filter: None,
            limit: None,
            segments: 1,
            consistent_read: false,
            expiry: Expiry::Live,
            entity: PhantomData,
        }
    }

    /// Keeps only items matching `filter` as well (AND).
    pub fn filter(mut self, filter: Condition<E>) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(previous) => previous.and(filter),
            None => filter,
        });
        self
    }

    /// DynamoDB's `Limit`: items evaluated per request, before the filter.
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// A parallel scan in `segments` segments (1 to 1,000,000), read
    /// concurrently; items then come in no particular order.
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = segments;
        self
    }

    /// Strongly consistent reads.
    pub fn consistent_read(mut self) -> Self {
        self.consistent_read = true;
        self
    }

    /// Returns items whose TTL (`#[stamp(ttl)]`) has passed and that
    /// DynamoDB has not deleted yet: no expiry filter is sent.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html>.
    pub fn include_expired(mut self) -> Self {
        self.expiry = Expiry::Include;
        self
    }

    /// The exact first `Scan` request of each segment (one for a
    /// sequential scan) that [`stream`](Self::stream) and
    /// [`count`](Self::count) send to the table named `table_name`, without
    /// a network (`count` sends them with `Select = COUNT`). Later pages
    /// repeat a segment's request with `ExclusiveStartKey`. The expiry
    /// filter's `:now` is the system clock's here, the table's
    /// ([`Table::now`]) when sent.
    ///
    /// # Errors
    ///
    /// [`Refusal::InvalidQuery`] for a limit of 0 or a segment count outside 1
    /// to 1,000,000; [`Refusal::InvalidExpressionValue`] for a filter value.
    pub fn requests(&self, table_name: &str) -> Result<Vec<ScanInput>, Error> {
        (0..self.segments.max(1))
            .map(|segment| self.segment_request(table_name, segment))
            .collect()
    }

    pub(crate) fn segment_request(
        &self,
        table_name: &str,
        segment: u32,
    ) -> Result<ScanInput, Error> {
        if self.limit == Some(0) {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::Zero { option: "limit" },
            }));
        }
        if !(1..=1_000_000).contains(&self.segments) || segment >= self.segments {
            return Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::ScanSegment {
                    segment,
                    segments: self.segments,
                },
            }));
        }
        let mut placeholders = Placeholders::default();
        let schema = E::SCHEMA;
        let mut filter = format!(
            "{} = {}",
            placeholders.name(schema.type_attribute),
            placeholders.add_value(AttributeValue::S(schema.type_name.to_owned()))
        );
        if let Some(condition) = &self.filter {
            filter = format!("({filter}) AND ({})", condition.render(&mut placeholders)?);
        }
        let live = self.expiry.now().and_then(|now| {
            crate::ops::expiry::live_filter(
                &crate::ops::expiry::ttl_attributes([schema]),
                now,
                &mut placeholders,
            )
        });
        let filter = crate::ops::expiry::and_live(Some(filter), live).expect("the scope is set");
        crate::expression::check_expression_length("filter", &filter)?;
        Ok(segment_input(
            table_name,
            (segment, self.segments),
            self.limit,
            self.consistent_read,
            Some((filter, placeholders)),
        ))
    }

    /// Every item of `E`, across pages and segments, one request per page.
    ///
    /// # Errors
    ///
    /// The errors of [`requests`](Self::requests) before sending, then
    /// [`Error::DynamoDb`] and decoding errors, as stream items.
    pub fn stream<'t>(self, table: &'t Table) -> impl Stream<Item = Result<E, Error>> + Send + 't
    where
        E: Send + 't,
    {
        let scan = Scan {
            expiry: self.expiry.at(table),
            ..self
        };
        let inputs: Vec<Result<ScanInput, Error>> = (0..scan.segments.max(1))
            .map(|segment| scan.segment_request(table.name(), segment))
            .collect();
        let segments = inputs
            .into_iter()
            .map(move |input| segment_stream::<E>(table, input).boxed());
        stream::select_all(segments).boxed()
    }
}

impl<E: Entity> Scan<E> {
    /// The number of live items of `E` (that match the filter), counted by
    /// DynamoDB with `Select = COUNT` over every page of every segment:
    /// no item is sent back, but the read capacity is that of reading every
    /// item of the table.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.Count>.
    ///
    /// # Errors
    ///
    /// The errors of [`requests`](Self::requests) before sending, then
    /// [`Error::DynamoDb`].
    pub async fn count(self, table: &Table) -> Result<u64, Error> {
        let scan = Scan {
            expiry: self.expiry.at(table),
            ..self
        };
        let inputs = scan.requests(table.name())?;
        let counts = stream::iter(inputs.into_iter().map(|mut input| async move {
            input.select = Some(aws_sdk_dynamodb::types::Select::Count);
            let mut count = 0_u64;
            let mut start = None;
            loop {
                let mut page = input.clone();
                page.exclusive_start_key = start;
                let output = table
                    .execute_mapped(page, Call::of(E::SCHEMA.type_name))
                    .await?;
                count += u64::try_from(output.count).unwrap_or_default();
                start = output.last_evaluated_key;
                if start.is_none() {
                    return Ok::<u64, Error>(count);
                }
            }
        }))
        .buffer_unordered(DEFAULT_BATCH_CONCURRENCY)
        .try_collect::<Vec<u64>>()
        .await?;
        Ok(counts.into_iter().sum())
    }
}

/// The first `Scan` request of segment `segment.0` of `segment.1` (no
/// `Segment`/`TotalSegments` for a sequential scan of one): the one place a
/// `ScanInput` is built, for [`Scan`], the key migration and the export.
/// `filter` is the filter expression with its placeholders.
pub(crate) fn segment_input(
    table_name: &str,
    (segment, segments): (u32, u32),
    limit: Option<u32>,
    consistent_read: bool,
    filter: Option<(String, Placeholders)>,
) -> ScanInput {
    let parallel = segments > 1;
    let (expression, placeholders) = match filter {
        Some((expression, placeholders)) => (Some(expression), placeholders),
        None => (None, Placeholders::default()),
    };
    ScanInput::builder()
        .table_name(table_name)
        .set_filter_expression(expression)
        .set_expression_attribute_names(placeholders.names())
        .set_expression_attribute_values(placeholders.values())
        .set_limit(limit.map(|limit| limit.min(i32::MAX as u32) as i32))
        .set_segment(parallel.then_some(segment as i32))
        .set_total_segments(parallel.then_some(segments as i32))
        .set_consistent_read(consistent_read.then_some(true))
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .build()
        .expect("ScanInput has no required fields")
}

/// The pages of one segment from its first request `input`, each the items
/// of one `Scan` request (`entity` names the requests' span), until
/// DynamoDB returns no `LastEvaluatedKey`.
pub(crate) fn pages<'t>(
    table: &'t Table,
    input: Result<ScanInput, Error>,
    entity: &'static str,
) -> impl Stream<Item = Result<Vec<AttributeMap>, Error>> + Send + 't {
    stream::try_unfold(
        Some((input, None::<AttributeMap>)),
        move |state| async move {
            let Some((input, start)) = state else {
                return Ok::<_, Error>(None);
            };
            let input = input?;
            let mut page = input.clone();
            page.exclusive_start_key = start;
            let output = table.execute_mapped(page, Call::of(entity)).await?;
            let next = output.last_evaluated_key.filter(|key| !key.is_empty());
            let state = next.map(|key| (Ok(input), Some(key)));
            Ok(Some((output.items.unwrap_or_default(), state)))
        },
    )
}

/// The entities of one segment.
fn segment_stream<'t, E: Entity + 't>(
    table: &'t Table,
    input: Result<ScanInput, Error>,
) -> impl Stream<Item = Result<E, Error>> + 't {
    pages(table, input, E::SCHEMA.type_name)
        .map_ok(|items| stream::iter(items.into_iter().map(E::from_item)))
        .try_flatten()
}
