//! [`SimilaritySearch::request`] (the `SearchVectorsInput`, everything
//! checked before sending) and [`SimilaritySearch::send`] (the answer decoded).

use super::*;
use crate::expression::check_expression_length;

impl<E: Entity, I: QueryIndex, T: SearchDecode<E>> SimilaritySearch<E, I, T> {
    /// The `SearchVectorsInput` of the search on table `table_name`: what
    /// [`send`](Self::send) sends.
    ///
    /// # Errors
    ///
    /// [`Refusal::Vector`](crate::Refusal::Vector) with [`VectorError::WrongDimensions`],
    /// [`VectorError::NotFinite`] or [`VectorError::ZeroVectorUnderCosine`]
    /// for the query vector,
    /// [`VectorError::TopKOutOfRange`], [`VectorError::PartitionValue`],
    /// [`VectorError::NotAFilter`], [`VectorError::RangeOnPartition`],
    /// [`VectorError::UnsupportedCondition`] for a condition built by hand
    /// (the generated filters cannot make one),
    /// [`VectorError::NotProjected`] when the index does not copy what `T`
    /// decodes;
    /// [`Refusal::InvalidExpressionValue`](crate::Refusal::InvalidExpressionValue)
    /// and [`Refusal::ExpressionTooLong`](crate::Refusal::ExpressionTooLong)
    /// from the condition.
    pub fn request(&self, table_name: &str) -> Result<SearchVectorsInput, Error> {
        let index = self.index;
        let entity = E::SCHEMA.type_name;
        self.spec
            .check_vector(entity, index.name, &self.vector)
            .map_err(VectorError::into_error)?;
        if !(1..=MAX_TOP_K).contains(&self.top_k) {
            return Err(VectorError::into_error(VectorError::TopKOutOfRange {
                top_k: self.top_k,
                limit: MAX_TOP_K,
            }));
        }
        let partition = self.partition.clone()?;
        let mut placeholders = Placeholders::default();
        let mut terms = Vec::new();
        match (index.search_partition(), &partition) {
            (Some((attribute, _)), Some(value)) => {
                let name = placeholders.name(attribute);
                let value = placeholders.add_value(value.clone());
                terms.push(format!("{name} = {value}"));
            }
            (None, None) => {}
            (expected, _) => {
                return Err(VectorError::into_error(VectorError::PartitionValue {
                    index: index.name,
                    expected: expected.is_some(),
                }));
            }
        }
        if let Some(filter) = &self.filter {
            check_condition(index, self.spec, filter).map_err(VectorError::into_error)?;
            // The terms of a conjunction join the partition's `=` with bare
            // `AND`s (`AND` is associative, and `NOT` binds tighter:
            // ministack refuses any parenthesis); a disjunction keeps its
            // precedence in parentheses when it is joined to another term.
            let conjuncts = filter.render_conjuncts(&mut placeholders)?;
            let alone = terms.is_empty() && conjuncts.len() == 1;
            for (text, disjunction) in conjuncts {
                terms.push(if disjunction && !alone {
                    format!("({text})")
                } else {
                    text
                });
            }
        }
        let condition = match terms.len() {
            0 => None,
            1 => terms.pop(),
            _ => Some(terms.join(" AND ")),
        };
        let attributes = self.attributes_read()?;
        let projection = attributes.as_ref().map(|attributes| {
            attributes
                .iter()
                .map(|attribute| placeholders.name(attribute))
                .collect::<Vec<_>>()
                .join(", ")
        });
        if let Some(condition) = &condition {
            check_expression_length("search condition", condition)?;
        }
        Ok(SearchVectorsInput::builder()
            .table_name(table_name)
            .index_name(index.name)
            .set_search_vector(Some(
                self.vector
                    .iter()
                    .map(|element| AttributeValue::N(element.to_string()))
                    .collect(),
            ))
            .top_k(self.top_k as i32)
            .set_search_condition_expression(condition)
            .set_projection_expression(projection)
            .set_expression_attribute_names(placeholders.names())
            .set_expression_attribute_values(placeholders.values())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .build()
            .expect("SearchVectorsInput has no required fields"))
    }

    /// The attributes the search asks for, checked against what the index
    /// projects: `T`'s (every field, the vector too, for the entity; every
    /// member's for a collection), with the type attribute (each result is
    /// scoped to `E`, or decoded into its member, by it). Always
    /// named in a `ProjectionExpression`: without one a search may leave the
    /// vector attribute out (dynoxide does), and the entity could not be
    /// decoded.
    fn attributes_read(&self) -> Result<Option<Vec<&'static str>>, Error> {
        let schema = E::SCHEMA;
        let index = self.index;
        let spec = self.spec;
        let wanted: Vec<&'static str> = match T::attributes() {
            Some(attributes) => {
                let mut wanted = attributes.into_owned();
                if !wanted.contains(&schema.type_attribute) {
                    wanted.push(schema.type_attribute);
                }
                // The TTL, which tells the expired results apart.
                if !self.include_expired {
                    for attribute in
                        crate::ops::expiry::ttl_attributes(T::expiring().iter().copied())
                    {
                        if !wanted.contains(&attribute) {
                            wanted.push(attribute);
                        }
                    }
                }
                wanted
            }
            None => {
                let mut wanted = schema.fields.to_vec();
                wanted.push(schema.type_attribute);
                wanted
            }
        };
        let projected = |attribute: &str| match spec.projection {
            VectorProjection::All => true,
            VectorProjection::KeysOnly | VectorProjection::Include(_) => {
                attribute == schema.partition_key.name
                    || attribute == schema.sort_key.name
                    || index
                        .search_partition()
                        .is_some_and(|(partition, _)| partition == attribute)
                    || spec.filter(attribute).is_some()
                    || matches!(spec.projection, VectorProjection::Include(included) if included.contains(&attribute))
            }
        };
        let missing: Vec<&'static str> = wanted
            .iter()
            .copied()
            .filter(|attribute| !projected(attribute))
            .collect();
        if !missing.is_empty() {
            return Err(VectorError::into_error(VectorError::NotProjected {
                index: index.name,
                entity: schema.type_name,
                missing,
            }));
        }
        Ok(Some(wanted))
    }

    /// Sends the search through `table` (one `SearchVectors` request) and
    /// decodes its results, most similar first, leaving out those whose
    /// TTL has passed at [`Table::now`] (unless
    /// [`include_expired`](Self::include_expired)).
    ///
    /// # Errors
    ///
    /// The errors of [`request`](Self::request) (nothing is sent then);
    /// the decoding's errors; [`Error::DynamoDb`] for what the service
    /// returns.
    pub async fn send(self, table: &Table) -> Result<SearchResults<T::Output>, Error> {
        let input = self.request(table.name())?;
        let schema = E::SCHEMA;
        let output = table
            .execute_mapped(input, Call::of(schema.type_name).index(self.index.name))
            .await?;
        let search_request_bytes = output
            .consumed_capacity
            .as_ref()
            .and_then(|capacity| capacity.vector_search_request_bytes);
        let mut other_entities = 0;
        let mut expired = 0;
        let now = (!self.include_expired).then(|| table.now().timestamp());
        let mut results = Vec::new();
        for result in output.search_results.unwrap_or_default() {
            let item = result.item.unwrap_or_default();
            if T::SCOPED && !crate::__private::has_type(&item, schema) {
                other_entities += 1;
                continue;
            }
            if let Some(now) = now
                && T::expiring().iter().any(|member| {
                    crate::__private::has_type(&item, member)
                        && crate::ops::expiry::is_expired(&item, member, now)
                })
            {
                expired += 1;
                continue;
            }
            results.push(Similar {
                item: T::decode(item)?,
                score: result.score,
            });
        }
        Ok(SearchResults {
            results,
            search_request_bytes,
            other_entities,
            expired,
        })
    }
}
