//! NDJSON files: one JSON object per line, an entity's serde form, or an
//! unknown item's attribute values as plain JSON.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Sink, file_error};
use crate::{Entity, Error, Item};

/// A file of JSON lines.
struct Lines {
    path: PathBuf,
    out: BufWriter<File>,
    items: u64,
}

impl Lines {
    fn create(path: &Path) -> Result<Self, Error> {
        let out = File::create(path)
            .map(BufWriter::new)
            .map_err(|error| file_error(path, &error))?;
        Ok(Lines {
            path: path.to_path_buf(),
            out,
            items: 0,
        })
    }

    fn write(&mut self, value: &impl Serialize) -> Result<(), Error> {
        serde_json::to_writer(&mut self.out, value)
            .map_err(|error| file_error(&self.path, &error))?;
        self.out
            .write_all(b"\n")
            .map_err(|error| file_error(&self.path, &error))?;
        self.items += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<u64, Error> {
        self.out
            .flush()
            .map_err(|error| file_error(&self.path, &error))?;
        Ok(self.items)
    }
}

/// Entity `E`'s items, decoded and written in `E`'s serde form.
struct EntityLines<E> {
    lines: Lines,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity + Serialize + 'static> Sink for EntityLines<E> {
    fn push(&mut self, item: Item) -> Result<(), Error> {
        let value = E::from_item(item)?;
        self.lines.write(&value)
    }

    fn finish(self: Box<Self>) -> Result<u64, Error> {
        self.lines.finish()
    }
}

/// Items of unknown type, as stored: attribute values as plain JSON (`S` a
/// string, `N` a number, sets and lists arrays, maps objects).
struct RawLines(Lines);

impl Sink for RawLines {
    fn push(&mut self, item: Item) -> Result<(), Error> {
        let value: serde_json::Value =
            serde_dynamo::from_item(item).map_err(|error| Error::ExportFile {
                path: self.0.path.clone(),
                reason: format!("an item of unknown type cannot be written as JSON: {error}"),
            })?;
        self.0.write(&value)
    }

    fn finish(self: Box<Self>) -> Result<u64, Error> {
        self.0.finish()
    }
}

/// The NDJSON file of entity `E`.
pub(super) fn entity_sink<E>(path: &Path) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + Send + 'static,
{
    Ok(Box::new(EntityLines::<E> {
        lines: Lines::create(path)?,
        entity: PhantomData,
    }))
}

/// The NDJSON file of the items of unknown type.
pub(super) fn unknown_sink(path: &Path) -> Result<Box<dyn Sink>, Error> {
    Ok(Box::new(RawLines(Lines::create(path)?)))
}
