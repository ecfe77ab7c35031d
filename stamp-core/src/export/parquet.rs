//! Parquet files (feature `parquet`): one column per field of the entity,
//! typed from the entity's serde form (`serde_arrow`), written in record
//! batches of [`ROWS_PER_BATCH`] rows through the `parquet` crate's arrow
//! writer, uncompressed.
//!
//! The columns are traced from the type (`from_type`) when its
//! `Deserialize` describes itself; types such as `chrono::DateTime` do not,
//! and then the columns are traced from the first batch of rows
//! (`from_samples`). In that case a field that is `None` in every row of the
//! first batch has no type yet (Arrow `Null`), and a later value in it fails
//! the export with [`JobError::ExportFile`]; and an entity with no items (no
//! rows to trace) gets one nullable `Utf8` column per field, named as serde
//! names it (the entity's `field_attributes`), so the file still has the
//! entity's columns and any Parquet reader (DuckDB) reads its zero rows.

use std::sync::Arc;

use arrow_schema::{DataType, Field, FieldRef, Schema};
use parquet::arrow::ArrowWriter;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_arrow::schema::{SchemaLike, TracingOptions};

use super::Sink;
use super::out::Out;
use crate::error::Error;
use crate::model::entity::{AttributeMap, Entity};

/// Rows buffered before they are written as one record batch.
pub const ROWS_PER_BATCH: usize = 8_192;

/// The encoded size at which the row group being built is written out
/// (Parquet's writer keeps a row group in memory until then): bounds the
/// memory of a large entity, and is the boundary at which an export to S3
/// rolls to its next object.
pub const ROW_GROUP_BYTES: usize = 8 * 1024 * 1024;

struct ParquetSink<E> {
    /// Until the writer exists, and between two objects.
    out: Option<Out>,
    writer: Option<ArrowWriter<Out>>,
    fields: Option<Vec<FieldRef>>,
    rows: Vec<E>,
    items: u64,
    /// Items in the object being written.
    in_object: u64,
}

/// Strings as `Utf8`, unit enums as dictionary-encoded strings, missing
/// values as nulls.
fn options() -> TracingOptions {
    TracingOptions::default()
        .enums_without_data_as_strings(true)
        .strings_as_large_utf8(false)
        .allow_null_fields(true)
        .guess_dates(false)
}

/// The Parquet file (or objects) of entity `E`.
pub(super) fn entity_sink<E>(out: Out) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + DeserializeOwned + Send + 'static,
{
    let mut sink = ParquetSink::<E> {
        out: Some(out),
        writer: None,
        fields: None,
        rows: Vec::with_capacity(ROWS_PER_BATCH),
        items: 0,
        in_object: 0,
    };
    if let Ok(fields) = Vec::<FieldRef>::from_type::<E>(options()) {
        sink.fields = Some(fields);
        sink.open()?;
    }
    Ok(Box::new(sink))
}

impl<E: Entity + Serialize + Send> ParquetSink<E> {
    /// Starts a Parquet file with the sink's columns on its output.
    fn open(&mut self) -> Result<(), Error> {
        let out = self.out.take().expect("between two files");
        let location = out.location();
        let fields = self.fields.clone().expect("columns known");
        if let Some(field) = fields.iter().find(|field| has_union(field.data_type())) {
            // Parquet has no union type (its writer would panic): an enum
            // with data has no column.
            return Err(location.error(&NoColumns(format!(
                "field `{}` is an enum with data, which Parquet cannot store",
                field.name()
            ))));
        }
        let schema = Arc::new(Schema::new(fields));
        let writer =
            ArrowWriter::try_new(out, schema, None).map_err(|error| location.error(&error))?;
        self.writer = Some(writer);
        Ok(())
    }

    /// Ends the Parquet file (its footer) and returns its output.
    fn close(&mut self) -> Result<&mut Out, Error> {
        let writer = self.writer.take().expect("opened");
        let location = writer.inner().location();
        let out = writer
            .into_inner()
            .map_err(|error| location.error(&error))?;
        Ok(self.out.insert(out))
    }

    fn flush(&mut self) -> Result<(), Error> {
        if self.rows.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            if self.fields.is_none() {
                let fields =
                    Vec::<FieldRef>::from_samples(&self.rows, options()).map_err(|error| {
                        let out = self.out.as_ref().expect("not opened");
                        out.error(&NoColumns(error.to_string()))
                    })?;
                self.fields = Some(fields.into_iter().map(unit_enum_as_string).collect());
            }
            self.open()?;
        }
        let fields = self.fields.as_ref().expect("columns known");
        let writer = self.writer.as_mut().expect("opened above");
        let batch = serde_arrow::to_record_batch(fields, &self.rows)
            .map_err(|error| writer.inner().error(&error))?;
        writer
            .write(&batch)
            .map_err(|error| writer.inner().error(&error))?;
        self.rows.clear();
        if writer.in_progress_size() >= ROW_GROUP_BYTES {
            writer
                .flush()
                .map_err(|error| writer.inner().error(&error))?;
            if writer.inner().full() {
                let in_object = std::mem::take(&mut self.in_object);
                self.close()?.end_object(in_object);
                self.open()?;
            }
        }
        Ok(())
    }
}

/// serde_arrow found no Arrow columns for the entity's fields.
/// `field` with a unit-only enum as a dictionary-encoded string column.
/// Traced from samples, an enum of which some variants were never seen is
/// a union (serde_arrow cannot tell that an unseen variant has no data):
/// a union whose every variant is `Null` is a unit-only enum, stored as
/// [`options`] stores one traced from its type.
fn unit_enum_as_string(field: FieldRef) -> FieldRef {
    match field.data_type() {
        DataType::Union(variants, _)
            if variants
                .iter()
                .all(|(_, variant)| variant.data_type() == &DataType::Null) =>
        {
            Arc::new(Field::new(
                field.name(),
                DataType::Dictionary(Box::new(DataType::UInt32), Box::new(DataType::Utf8)),
                true,
            ))
        }
        DataType::Struct(children) => Arc::new(field.as_ref().clone().with_data_type(
            DataType::Struct(children.iter().cloned().map(unit_enum_as_string).collect()),
        )),
        _ => field,
    }
}

/// Whether `data_type` is or holds a union, which Parquet cannot store.
fn has_union(data_type: &DataType) -> bool {
    match data_type {
        DataType::Union(..) => true,
        DataType::Struct(children) => children.iter().any(|child| has_union(child.data_type())),
        DataType::List(child) | DataType::LargeList(child) | DataType::FixedSizeList(child, _) => {
            has_union(child.data_type())
        }
        DataType::Map(child, _) => has_union(child.data_type()),
        _ => false,
    }
}

#[derive(Debug)]
struct NoColumns(String);

impl std::fmt::Display for NoColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the entity's fields have no Arrow columns: {}", self.0)
    }
}

impl std::error::Error for NoColumns {}

impl<E: Entity + Serialize + Send> Sink for ParquetSink<E> {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error> {
        self.rows.push(E::from_item(item)?);
        self.items += 1;
        self.in_object += 1;
        if self.rows.len() >= ROWS_PER_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<(u64, Out), Error> {
        self.flush()?;
        if self.writer.is_none() {
            if self.fields.is_none() {
                // No row to trace the columns from: the fields, as strings.
                self.fields = Some(
                    E::SCHEMA
                        .field_attributes
                        .iter()
                        .map(|field| Arc::new(Field::new(field.attribute, DataType::Utf8, true)))
                        .collect(),
                );
            }
            self.open()?;
        }
        let in_object = self.in_object;
        let out = self.close()?;
        out.close()?;
        out.end_object(in_object);
        let out = self.out.take().expect("closed above");
        Ok((self.items, out))
    }

    fn out(&mut self) -> &mut Out {
        match &mut self.writer {
            Some(writer) => writer.inner_mut(),
            None => self.out.as_mut().expect("not opened"),
        }
    }
}
