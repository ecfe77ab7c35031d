//! Where an entity's encoded bytes go: a local file, or (feature `s3`) the
//! staging buffer of the S3 objects `entity=<Type>/part-NNNNN.<ext>`, from
//! which the export uploads parts between pages.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::file_error;
use crate::error::Error;

/// A file or an object, for an error found after its writer is gone.
pub(super) enum Location {
    /// A local file.
    File(PathBuf),
    /// An S3 object.
    #[cfg(feature = "s3")]
    Object {
        /// Its bucket.
        bucket: String,
        /// Its key.
        key: String,
    },
}

impl Location {
    /// `error` (an I/O, JSON, Arrow or Parquet error) of this file or object.
    pub(super) fn error(&self, error: &dyn std::error::Error) -> Error {
        match self {
            Location::File(path) => file_error(path, error),
            #[cfg(feature = "s3")]
            Location::Object { bucket, key } => Error::Job(crate::error::JobError::ExportObject {
                bucket: bucket.clone(),
                key: key.clone(),
                reason: crate::error::ExportObjectReason::Encode {
                    detail: error.to_string(),
                },
            }),
        }
    }
}

/// The bytes of one entity's (or the unknown types') output.
pub(super) enum Out {
    /// One local file.
    File {
        /// Where, for errors.
        path: PathBuf,
        /// The open file.
        writer: BufWriter<File>,
    },
    /// Objects in S3, one after the other.
    #[cfg(feature = "s3")]
    Objects(super::s3::Staging),
}

impl Out {
    /// The file at `path`, created (or truncated).
    pub(super) fn create_file(path: &Path) -> Result<Out, Error> {
        let writer = File::create(path)
            .map(BufWriter::new)
            .map_err(|error| file_error(path, &error))?;
        Ok(Out::File {
            path: path.to_path_buf(),
            writer,
        })
    }

    /// An error of the file or object being written.
    pub(super) fn error(&self, error: &dyn std::error::Error) -> Error {
        self.location().error(error)
    }

    /// The file or object being written.
    pub(super) fn location(&self) -> Location {
        match self {
            Out::File { path, .. } => Location::File(path.clone()),
            #[cfg(feature = "s3")]
            Out::Objects(staging) => Location::Object {
                bucket: staging.bucket().to_owned(),
                key: staging.key(),
            },
        }
    }

    /// Whether the object being written has reached its roll size, so the
    /// sink should [`end_object`](Self::end_object) at its next boundary (a
    /// line, a row group). A file never is.
    pub(super) fn full(&self) -> bool {
        match self {
            Out::File { .. } => false,
            #[cfg(feature = "s3")]
            Out::Objects(staging) => staging.full(),
        }
    }

    /// Whether the object being written, holding `bytes` bytes before
    /// compression, has reached its roll size: a compressing sink's
    /// measure, as its compressed bytes reach the output in blocks. A file
    /// never is.
    pub(super) fn full_before_compression(&self, bytes: u64) -> bool {
        match self {
            Out::File { .. } => {
                let _ = bytes;
                false
            }
            #[cfg(feature = "s3")]
            Out::Objects(staging) => bytes >= staging.file_bytes(),
        }
    }

    /// Ends the object being written, which holds `items` items: what is
    /// written next starts the next object. A file has one object: nothing.
    pub(super) fn end_object(&mut self, items: u64) {
        match self {
            Out::File { .. } => {
                let _ = items;
            }
            #[cfg(feature = "s3")]
            Out::Objects(staging) => staging.end_object(items),
        }
    }

    /// Flushes what is written, after the sink's last bytes.
    pub(super) fn close(&mut self) -> Result<(), Error> {
        match self {
            Out::File { path, writer } => writer.flush().map_err(|error| file_error(path, &error)),
            #[cfg(feature = "s3")]
            Out::Objects(_) => Ok(()),
        }
    }
}

impl Write for Out {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Out::File { writer, .. } => writer.write(bytes),
            #[cfg(feature = "s3")]
            Out::Objects(staging) => {
                staging.append(bytes);
                Ok(bytes.len())
            }
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Out::File { writer, .. } => writer.write_all(bytes),
            #[cfg(feature = "s3")]
            Out::Objects(staging) => {
                staging.append(bytes);
                Ok(())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::File { writer, .. } => writer.flush(),
            #[cfg(feature = "s3")]
            Out::Objects(_) => Ok(()),
        }
    }
}
