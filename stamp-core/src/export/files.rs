//! The data files of DynamoDB's `ExportTableToPointInTime` in the
//! `DYNAMODB_JSON` format, as a source of items instead of a scan: one
//! `{"Item": {"PK": {"S": "…"}, …}}` object per line, each file gzipped
//! (`*.json.gz`, as the export writes them under
//! `AWSDynamoDB/<export id>/data/`) or not.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::file_error;
use crate::JobError;
use crate::{AttributeMap, Error};

/// One line of a `DYNAMODB_JSON` data file.
#[derive(Deserialize)]
struct Line {
    #[serde(rename = "Item")]
    item: serde_dynamo::Item,
}

/// Every file is there and readable, before anything is written.
pub(super) fn check(paths: &[PathBuf]) -> Result<(), Error> {
    for path in paths {
        File::open(path).map_err(|error| file_error(path, &error))?;
    }
    Ok(())
}

/// The items of one data file, in their order, in pages of at most
/// `page` items; `each` gets every page.
pub(super) fn read(
    path: &Path,
    page: usize,
    mut each: impl FnMut(Vec<AttributeMap>) -> Result<(), Error>,
) -> Result<(), Error> {
    let file = File::open(path).map_err(|error| file_error(path, &error))?;
    let gzipped = path.extension().is_some_and(|extension| extension == "gz");
    let reader: Box<dyn Read> = if gzipped {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut items = Vec::with_capacity(page);
    for (number, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|error| file_error(path, &error))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line = serde_json::from_str(&line).map_err(|error| {
            Error::Job(JobError::ExportFile {
                path: path.to_path_buf(),
                detail: format!(
                    "line {} is not a DYNAMODB_JSON item (`{{\"Item\": {{…}}}}`): {error}",
                    number + 1
                ),
            })
        })?;
        items.push(AttributeMap::from(parsed.item));
        if items.len() == page {
            each(std::mem::replace(&mut items, Vec::with_capacity(page)))?;
        }
    }
    if !items.is_empty() {
        each(items)?;
    }
    Ok(())
}
