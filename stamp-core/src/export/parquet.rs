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

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_schema::{DataType, Field, FieldRef, Schema};
use parquet::arrow::ArrowWriter;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_arrow::schema::{SchemaLike, TracingOptions};

use super::{Sink, file_error};
use crate::JobError;
use crate::{AttributeMap, Entity, Error};

/// Rows buffered before they are written as one record batch.
pub const ROWS_PER_BATCH: usize = 8_192;

struct ParquetSink<E> {
    path: PathBuf,
    /// Until the writer exists.
    file: Option<File>,
    writer: Option<(Vec<FieldRef>, ArrowWriter<File>)>,
    rows: Vec<E>,
    items: u64,
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

/// The Parquet file of entity `E`.
pub(super) fn entity_sink<E>(path: &Path) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + DeserializeOwned + Send + 'static,
{
    let file = File::create(path).map_err(|error| file_error(path, &error))?;
    let mut sink = ParquetSink::<E> {
        path: path.to_path_buf(),
        file: Some(file),
        writer: None,
        rows: Vec::with_capacity(ROWS_PER_BATCH),
        items: 0,
    };
    if let Ok(fields) = Vec::<FieldRef>::from_type::<E>(options()) {
        sink.open(fields)?;
    }
    Ok(Box::new(sink))
}

impl<E: Entity + Serialize + Send> ParquetSink<E> {
    fn open(&mut self, fields: Vec<FieldRef>) -> Result<(), Error> {
        let file = self.file.take().expect("opened once");
        let schema = Arc::new(Schema::new(fields.clone()));
        let writer = ArrowWriter::try_new(file, schema, None)
            .map_err(|error| file_error(&self.path, &error))?;
        self.writer = Some((fields, writer));
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Error> {
        if self.rows.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            let fields = Vec::<FieldRef>::from_samples(&self.rows, options()).map_err(|error| {
                Error::Job(JobError::ExportFile {
                    path: self.path.clone(),
                    detail: format!("the entity's fields have no Arrow columns: {error}"),
                })
            })?;
            self.open(fields)?;
        }
        let (fields, writer) = self.writer.as_mut().expect("opened above");
        let batch = serde_arrow::to_record_batch(fields, &self.rows)
            .map_err(|error| file_error(&self.path, &error))?;
        writer
            .write(&batch)
            .map_err(|error| file_error(&self.path, &error))?;
        self.rows.clear();
        Ok(())
    }
}

impl<E: Entity + Serialize + Send> Sink for ParquetSink<E> {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error> {
        self.rows.push(E::from_item(item)?);
        self.items += 1;
        if self.rows.len() >= ROWS_PER_BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<u64, Error> {
        self.flush()?;
        if self.writer.is_none() {
            // No row to trace the columns from: the fields, as strings.
            let fields = E::SCHEMA
                .field_attributes
                .iter()
                .map(|field| Arc::new(Field::new(field.attribute, DataType::Utf8, true)))
                .collect();
            self.open(fields)?;
        }
        let (_, writer) = self.writer.take().expect("opened above");
        writer
            .close()
            .map_err(|error| file_error(&self.path, &error))?;
        Ok(self.items)
    }
}
