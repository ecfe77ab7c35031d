//! The data files of DynamoDB's `ExportTableToPointInTime` in the
//! `DYNAMODB_JSON` format, as a source of items instead of a scan: one
//! `{"Item": {"PK": {"S": "…"}, …}}` object per line, each file gzipped
//! (`*.json.gz`, as the export writes them under
//! `AWSDynamoDB/<export id>/data/`) or not.
//!
//! [`LineDecoder`] is the one decoder of those lines, for a local file and
//! (feature `s3`) an S3 object alike: it is fed the file's bytes in chunks
//! of any size, as they are read, and keeps only the incomplete last line
//! (and, gzipped, what one chunk inflates to), never the whole file.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::file_error;
use crate::error::Error;
use crate::error::JobError;
use crate::model::entity::AttributeMap;

/// How many bytes of a local file are read at once.
const READ_CHUNK_BYTES: usize = 64 * 1024;

/// One line of a `DYNAMODB_JSON` data file.
#[derive(Deserialize)]
struct Line {
    #[serde(rename = "Item")]
    item: serde_dynamo::Item,
}

/// Why a data file cannot be read to its end.
pub(super) enum ReadError {
    /// Its bytes cannot be read or inflated.
    Io(io::Error),
    /// A line is not a `DYNAMODB_JSON` item.
    Line {
        /// From 1, counting blank lines.
        number: u64,
        /// The JSON decoder's message.
        detail: String,
    },
    /// The page callback failed (writing the entity files).
    Page(Error),
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> Self {
        ReadError::Io(error)
    }
}

/// The lines of one data file, decoded into items as its bytes arrive, in
/// pages of at most `page` items.
pub(super) struct LineDecoder {
    /// Inflates into its `Vec` when the file is gzipped (several members
    /// are one stream, as `MultiGzDecoder` reads them).
    gunzip: Option<flate2::write::MultiGzDecoder<Vec<u8>>>,
    /// The bytes not yet split into lines, when the file is not gzipped.
    plain: Vec<u8>,
    state: Lines,
}

/// Where the decoder is in the file.
struct Lines {
    /// Lines seen so far, blank ones included.
    number: u64,
    page: usize,
    items: Vec<AttributeMap>,
    /// Items decoded so far.
    decoded: u64,
}

impl LineDecoder {
    /// A decoder of a gzipped file (`*.gz`) or of a plain one.
    pub(super) fn new(gzipped: bool, page: usize) -> Self {
        LineDecoder {
            gunzip: gzipped.then(|| flate2::write::MultiGzDecoder::new(Vec::new())),
            plain: Vec::new(),
            state: Lines {
                number: 0,
                page,
                items: Vec::with_capacity(page),
                decoded: 0,
            },
        }
    }

    /// Feeds the next `bytes` of the file; `each` gets every full page.
    pub(super) fn feed(
        &mut self,
        bytes: &[u8],
        each: &mut impl FnMut(Vec<AttributeMap>) -> Result<(), Error>,
    ) -> Result<(), ReadError> {
        let buffer = match &mut self.gunzip {
            Some(gunzip) => {
                gunzip.write_all(bytes)?;
                gunzip.flush()?;
                gunzip.get_mut()
            }
            None => {
                self.plain.extend_from_slice(bytes);
                &mut self.plain
            }
        };
        self.state.split(buffer, false, each)
    }

    /// Ends the file: decodes its last line and gives the last page to
    /// `each`; the number of items decoded.
    pub(super) fn finish(
        mut self,
        each: &mut impl FnMut(Vec<AttributeMap>) -> Result<(), Error>,
    ) -> Result<u64, ReadError> {
        let buffer = match &mut self.gunzip {
            Some(gunzip) => {
                gunzip.try_finish()?;
                gunzip.get_mut()
            }
            None => &mut self.plain,
        };
        self.state.split(buffer, true, each)?;
        if !self.state.items.is_empty() {
            each(std::mem::take(&mut self.state.items)).map_err(ReadError::Page)?;
        }
        Ok(self.state.decoded)
    }
}

impl Lines {
    /// Decodes every complete line of `buffer` (all of it at the `end`) and
    /// removes them from it.
    fn split(
        &mut self,
        buffer: &mut Vec<u8>,
        end: bool,
        each: &mut impl FnMut(Vec<AttributeMap>) -> Result<(), Error>,
    ) -> Result<(), ReadError> {
        let complete = match buffer.iter().rposition(|&byte| byte == b'\n') {
            Some(last) => last + 1,
            None if end => buffer.len(),
            None => return Ok(()),
        };
        let mut lines = buffer[..complete].split(|&byte| byte == b'\n');
        if buffer[..complete].ends_with(b"\n") {
            // The empty piece after the last newline is not a line.
            lines.next_back();
        }
        for line in lines {
            self.number += 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.trim_ascii().is_empty() {
                continue;
            }
            let parsed: Line = serde_json::from_slice(line).map_err(|error| ReadError::Line {
                number: self.number,
                detail: error.to_string(),
            })?;
            self.items.push(AttributeMap::from(parsed.item));
            self.decoded += 1;
            if self.items.len() == self.page {
                let page = std::mem::replace(&mut self.items, Vec::with_capacity(self.page));
                each(page).map_err(ReadError::Page)?;
            }
        }
        buffer.drain(..complete);
        Ok(())
    }
}

/// Every file is there and readable, before anything is written.
pub(super) fn check(paths: &[PathBuf]) -> Result<(), Error> {
    for path in paths {
        File::open(path).map_err(|error| file_error(path, &error))?;
    }
    Ok(())
}

/// One local data file being read, a chunk at a time, so that an export
/// to S3 can send what each chunk wrote before reading the next.
pub(super) struct LocalFile {
    path: PathBuf,
    file: File,
    /// `None` once the file is read to its end.
    decoder: Option<LineDecoder>,
    chunk: Vec<u8>,
}

impl LocalFile {
    /// Opens the file at `path`; its items come in pages of `page`.
    pub(super) fn open(path: &Path, page: usize) -> Result<Self, Error> {
        let file = File::open(path).map_err(|error| file_error(path, &error))?;
        let gzipped = path.extension().is_some_and(|extension| extension == "gz");
        Ok(LocalFile {
            path: path.to_path_buf(),
            file,
            decoder: Some(LineDecoder::new(gzipped, page)),
            chunk: vec![0; READ_CHUNK_BYTES],
        })
    }

    /// Reads and decodes the next chunk; `each` gets every full page (and
    /// the last one at the end). `false` once the file is read to its end.
    pub(super) fn step(
        &mut self,
        each: &mut impl FnMut(Vec<AttributeMap>) -> Result<(), Error>,
    ) -> Result<bool, Error> {
        let Some(decoder) = self.decoder.as_mut() else {
            return Ok(false);
        };
        let read = loop {
            match self.file.read(&mut self.chunk) {
                Ok(read) => break read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(file_error(&self.path, &error)),
            }
        };
        if read > 0 {
            decoder
                .feed(&self.chunk[..read], each)
                .map_err(|error| self.failed(error))?;
            return Ok(true);
        }
        let decoder = self.decoder.take().expect("checked above");
        decoder.finish(each).map_err(|error| self.failed(error))?;
        Ok(false)
    }

    fn failed(&self, error: ReadError) -> Error {
        match error {
            ReadError::Io(error) => file_error(&self.path, &error),
            ReadError::Line { number, detail } => Error::Job(JobError::ExportFile {
                path: self.path.clone(),
                detail: format!(
                    "line {number} is not a DYNAMODB_JSON item (`{{\"Item\": {{…}}}}`): {detail}"
                ),
            }),
            ReadError::Page(error) => error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n\n{\"Item\":{\"PK\":{\"S\":\"b\"}}}\r\n{\"Item\":{\"PK\":{\"S\":\"c\"}}}";

    /// The keys decoded from `bytes` fed in chunks of `chunk` bytes.
    fn decoded(bytes: &[u8], gzipped: bool, chunk: usize) -> Vec<Vec<String>> {
        let mut pages = Vec::new();
        let mut each = |page: Vec<AttributeMap>| {
            pages.push(
                page.iter()
                    .map(|item| item["PK"].as_s().unwrap().clone())
                    .collect(),
            );
            Ok(())
        };
        let mut decoder = LineDecoder::new(gzipped, 2);
        for piece in bytes.chunks(chunk) {
            assert!(decoder.feed(piece, &mut each).is_ok());
        }
        assert_eq!(decoder.finish(&mut each).ok(), Some(3));
        pages
    }

    #[test]
    fn lines_split_across_chunks_of_any_size_decode_alike() {
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(LINES.as_bytes()).unwrap();
        let gzipped = gzip.finish().unwrap();
        for chunk in [1, 2, 7, 1000] {
            assert_eq!(
                decoded(LINES.as_bytes(), false, chunk),
                [vec!["a", "b"], vec!["c"]]
            );
            assert_eq!(decoded(&gzipped, true, chunk), [vec!["a", "b"], vec!["c"]]);
        }
    }

    #[test]
    fn a_bad_line_is_named_by_its_number_blank_lines_counted() {
        let mut decoder = LineDecoder::new(false, 10);
        let error = decoder
            .feed(b"{\"Item\":{}}\n\n{\"PK\":1}\n", &mut |_| Ok(()))
            .err();
        assert!(matches!(error, Some(ReadError::Line { number: 3, .. })));
    }
}
