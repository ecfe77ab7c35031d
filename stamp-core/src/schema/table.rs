//! [`Table`]'s methods that apply a [`TableDefinition`] to a live table:
//! knowing it ([`Table::with_definition`]), creating and deleting the table,
//! and comparing it with the definition ([`Table::verify`]). The request
//! layer holds the table; what it knows of a definition is read here.

use std::time::Duration;

use super::verify;
use super::{SchemaDifference, TableDefinition};
use crate::error::Error;
use crate::request::executor::Call;
use crate::request::table::Table;
use crate::request::table::known::Known;
use crate::schema::TableIndex;

/// How long [`Table::create_table`] waits for the new table to become
/// `ACTIVE`.
const TABLE_ACTIVE_TIMEOUT: Duration = Duration::from_secs(120);

/// What a table knows of `definition`: each index's projection, and whether
/// it has an LSI.
fn known(definition: &TableDefinition) -> Result<Known, Error> {
    definition.check()?;
    let indexes = definition.indexes()?;
    let has_local_index = indexes.iter().any(TableIndex::is_local);
    Ok(Known::new(
        indexes
            .into_iter()
            .map(|index| (index.name, index.projection))
            .collect(),
        has_local_index,
    ))
}

impl Table {
    /// This table, knowing `definition` (the definition it was created
    /// from): a query of a GSI (of any kind: template, sharded or
    /// multi-attribute) that `definition` projects as `KEYS_ONLY` or
    /// `INCLUDE` is then refused with [`Refusal::AttributesNotProjected`](crate::Refusal::AttributesNotProjected),
    /// before sending, when it needs an attribute the index does not hold
    /// (the entity's fields it decodes, its type attribute, the attributes
    /// its filter names). A table that [`create_table`](Self::create_table)
    /// made (and its clones) knows the definition it was made from without
    /// this. Without either, such a query is sent, and fails to decode or
    /// finds nothing (every entity query filters on the type attribute,
    /// which such an index may not hold): give a table made elsewhere
    /// (CloudFormation, another process) its definition.
    ///
    /// LSIs need no check, with or without the definition: every query of
    /// an LSI (entity, collection or projection) sends
    /// `Select = ALL_ATTRIBUTES`, so DynamoDB fetches from the
    /// table each item's attributes that the LSI does not project, at the
    /// cost of reads from the table beside the index's own ("Provisioned
    /// throughput considerations for Local Secondary Indexes"; no fetch
    /// when the LSI projects `ALL`).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections>
    /// and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html#DDB-Query-request-Select>.
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::check`].
    pub fn with_definition(self, definition: &TableDefinition) -> Result<Self, Error> {
        Ok(self.knowing(known(definition)?))
    }

    /// Creates this table from `definition` and waits, up to two minutes,
    /// until it is `ACTIVE`; from then on this table and its clones know
    /// `definition`, as with [`with_definition`](Self::with_definition)
    /// (unless they were given one already); then, when an entity has a `#[stamp(ttl)]`
    /// field, turns on TTL on it with `UpdateTimeToLive`. Point-in-time
    /// recovery is left as DynamoDB creates it (off); it is part of
    /// `TableDefinition::cloudformation` (feature `schema-tooling`).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::request`], found before
    /// sending; [`Error::DynamoDb`] for what the service returns, such as
    /// `ResourceInUseException` when the table exists; [`Error::TableNotActive`]
    /// when it does not become `ACTIVE` in time.
    pub async fn create_table(&self, definition: &TableDefinition) -> Result<(), Error> {
        let input = definition.request(self.name())?;
        let known = known(definition)?;
        self.execute_mapped(input, Call::of("")).await?;
        // The table now knows what it was made from (unless it was told
        // already): its queries are checked against its index projections.
        self.remember(known);
        crate::request::dispatch::wait_until_active(self, TABLE_ACTIVE_TIMEOUT)
            .await
            .map_err(|detail| Error::TableNotActive {
                table: self.name().to_owned(),
                detail,
            })?;
        verify::after_create(self, definition).await?;
        Ok(())
    }

    /// Deletes this table and every item in it.
    ///
    /// # Errors
    ///
    /// [`Error::DynamoDb`] for what the service returns, such as
    /// `ResourceNotFoundException` when there is no such table.
    pub async fn delete_table(&self) -> Result<(), Error> {
        let input = aws_sdk_dynamodb::operation::delete_table::DeleteTableInput::builder()
            .table_name(self.name())
            .build()
            .expect("DeleteTableInput has no required fields");
        self.execute_mapped(input, Call::of("")).await?;
        Ok(())
    }

    /// Compares this live table with `definition` and returns every
    /// difference, in this order: the table's key schema, key attribute
    /// types, billing mode and capacity, then each GSI of the definition
    /// (missing, key schema, projection, capacity), the GSIs the
    /// definition does not have (by name), then each LSI (missing, key
    /// schema, projection) and the LSIs the definition does not have, TTL,
    /// and the stream (on or off,
    /// and its view type). An empty list means the
    /// table matches. Point-in-time recovery is not compared (DynamoDB Local
    /// does not support it).
    ///
    /// Sends `DescribeTable` and `DescribeTimeToLive`, each in a
    /// `stamp.request` span.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html>
    /// and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTimeToLive.html>.
    ///
    /// # Errors
    ///
    /// The errors of [`TableDefinition::check`], found before sending, and
    /// [`Error::DynamoDb`] for what the service returns, such as
    /// `ResourceNotFoundException` when there is no such table.
    pub async fn verify(
        &self,
        definition: &TableDefinition,
    ) -> Result<Vec<SchemaDifference>, Error> {
        verify::verify(self, definition).await
    }
}
