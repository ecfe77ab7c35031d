//! Exports from and to S3 (feature `s3`).
//!
//! **From:** the layout `ExportTableToPointInTime` writes to S3 in the
//! `DYNAMODB_JSON` format: `<prefix>/AWSDynamoDB/<export id>/` holds
//! `manifest-summary.json` (one JSON object: `outputFormat`, `exportType`,
//! `itemCount`, `manifestFilesS3Key`, …), `manifest-files.json` (one JSON
//! object a line: `dataFileS3Key`, `itemCount`, …) and the gzipped data
//! files `data/<id>.json.gz`. Each data file is read with `GetObject` and
//! its body decoded chunk by chunk as it arrives (the line decoder of
//! `files.rs`), so memory holds one chunk and one page, never a file.
//!
//! **To:** one Hive-style folder per entity,
//! `<prefix>/entity=<Type>/part-00000.<ext>`, the next part started once an
//! object reaches [`DEFAULT_FILE_BYTES`] (or `file_bytes`) at a line or row
//! group boundary. The bytes of an object are staged in memory
//! ([`Staging`]) and sent between pages ([`Uploads`]): a multipart upload
//! of parts of [`DEFAULT_PART_BYTES`] (or `part_bytes`) once an object
//! outgrows one part, else one `PutObject`; so an entity holds at most
//! about one part plus one row group in memory. The empty
//! `<prefix>/_SUCCESS` is put once every object is complete.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>
//! and <https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html>.

use std::collections::VecDeque;

use aws_sdk_s3::Client;
use aws_sdk_s3::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};
use aws_sdk_s3::types::CompletedPart;

use super::ExportedObject;
use crate::error::{Error, ExportObjectReason, ExportReason, JobError};
use crate::request::dispatch::s3::S3;

mod read;

pub(super) use read::{data_files, read_data_file};

/// S3's smallest part of a multipart upload (but the last): 5 MiB.
pub const MIN_PART_BYTES: u64 = 5 * 1024 * 1024;
/// S3's largest part: 5 GiB.
pub const MAX_PART_BYTES: u64 = 5 * 1024 * 1024 * 1024;
/// S3's most parts in one multipart upload: 10,000.
pub const MAX_PARTS: u64 = 10_000;
/// The part size of an export to S3 unless `part_bytes` says otherwise:
/// 8 MiB (the AWS CLI's multipart chunk size).
pub const DEFAULT_PART_BYTES: u64 = 8 * 1024 * 1024;
/// The size at which an export to S3 starts an entity's next object unless
/// `file_bytes` says otherwise: 128 MiB, at a line or row group boundary.
pub const DEFAULT_FILE_BYTES: u64 = 128 * 1024 * 1024;

/// The file name (without extension) of each object of an export to S3:
/// `part-00000`, `part-00001`, ….
fn part_name(index: u32, extension: &str) -> String {
    format!("part-{index:05}.{extension}")
}

/// Where an export to S3 writes, and how.
#[derive(Debug, Clone)]
pub(super) struct Target {
    /// The S3 client, and the count of requests sent.
    pub(super) s3: S3,
    pub(super) bucket: String,
    /// Without a trailing `/`; empty for the bucket's root.
    pub(super) prefix: String,
    pub(super) part_bytes: u64,
    pub(super) file_bytes: u64,
}

impl Target {
    pub(super) fn new(client: Client, bucket: String, prefix: &str) -> Self {
        Target {
            s3: S3::new(client),
            bucket,
            prefix: prefix.trim_end_matches('/').to_owned(),
            part_bytes: DEFAULT_PART_BYTES,
            file_bytes: DEFAULT_FILE_BYTES,
        }
    }

    /// The checks made before any request.
    pub(super) fn check(&self) -> Result<(), ExportReason> {
        if self.bucket.is_empty() {
            return Err(ExportReason::EmptyBucket);
        }
        if !(MIN_PART_BYTES..=MAX_PART_BYTES).contains(&self.part_bytes) {
            return Err(ExportReason::PartSize {
                bytes: self.part_bytes,
                min: MIN_PART_BYTES,
                max: MAX_PART_BYTES,
            });
        }
        if self.file_bytes == 0 {
            return Err(ExportReason::ZeroFileBytes);
        }
        // An object ends at the first boundary past `file_bytes`, a row
        // group (8 MiB) or a line at most later: keep one part of room.
        if self.file_bytes / self.part_bytes + 2 > MAX_PARTS {
            return Err(ExportReason::PartsPerObject {
                file_bytes: self.file_bytes,
                part_bytes: self.part_bytes,
                limit: MAX_PARTS,
            });
        }
        Ok(())
    }

    /// `<prefix>/entity=`, what every key of the export starts with.
    fn hive_root(&self) -> String {
        if self.prefix.is_empty() {
            "entity=".to_owned()
        } else {
            format!("{}/entity=", self.prefix)
        }
    }

    /// `<prefix>/_SUCCESS`, the key of the marker of a complete export.
    fn marker_key(&self) -> String {
        if self.prefix.is_empty() {
            super::SUCCESS_MARKER.to_owned()
        } else {
            format!("{}/{}", self.prefix, super::SUCCESS_MARKER)
        }
    }

    /// Nothing is under the export's `<prefix>/entity=` yet, so no object of
    /// an earlier export would be read with the new ones, and there is no
    /// `<prefix>/_SUCCESS`, which would mark this run's objects complete
    /// while it writes them.
    pub(super) async fn check_empty(&self) -> Result<(), Error> {
        for prefix in [self.hive_root(), self.marker_key()] {
            let listed = self
                .s3
                .list_objects(&self.bucket, &prefix, 1)
                .await
                .map_err(|error| request_error(&self.bucket, &prefix, "ListObjectsV2", error))?;
            if let Some(key) = listed.contents().first().and_then(|object| object.key()) {
                return Err(object_error(
                    &self.bucket,
                    key,
                    ExportObjectReason::AlreadyExists,
                ));
            }
        }
        Ok(())
    }

    /// Puts the empty `<prefix>/_SUCCESS`, once every object is complete.
    pub(super) async fn mark_complete(&self) -> Result<(), Error> {
        let key = self.marker_key();
        self.s3
            .put_object(&self.bucket, &key, Vec::new())
            .await
            .map_err(|error| request_error(&self.bucket, &key, "PutObject", error))?;
        Ok(())
    }

    /// The staging buffer of the objects of `entity` (a type name or
    /// `_unknown`), files of `extension`.
    pub(super) fn staging(&self, entity: &str, extension: &'static str) -> Staging {
        Staging {
            bucket: self.bucket.clone(),
            folder: format!("{}{entity}", self.hive_root()),
            extension,
            file_bytes: self.file_bytes,
            index: 0,
            buffer: Vec::new(),
            written: 0,
            ended: VecDeque::new(),
        }
    }

    /// The uploads of the objects of `entity` (`None`: the unknown types).
    pub(super) fn uploads(&self, entity: Option<&'static str>) -> Uploads {
        Uploads {
            s3: self.s3.clone(),
            bucket: self.bucket.clone(),
            part_bytes: self.part_bytes as usize,
            entity,
            open: None,
            done: Vec::new(),
        }
    }
}

/// The bytes of an entity's objects not yet sent, and where one object ends
/// and the next begins. No network: [`Uploads`] sends what
/// [`take`](Self::take) gives.
pub(super) struct Staging {
    bucket: String,
    /// `<prefix>/entity=<Type>`.
    folder: String,
    extension: &'static str,
    file_bytes: u64,
    /// The number of the object being written.
    index: u32,
    /// Its bytes not yet taken.
    buffer: Vec<u8>,
    /// Its bytes so far, taken or not.
    written: u64,
    /// Objects ended whose last bytes are not yet taken.
    ended: VecDeque<Piece>,
}

/// Bytes to send, in order.
pub(super) enum Piece {
    /// A full part (exactly the part size) of the object `key`.
    Part {
        /// The object.
        key: String,
        /// Its next part.
        bytes: Vec<u8>,
    },
    /// The rest of the object `key`, which ends here.
    Last {
        /// The object.
        key: String,
        /// Its last bytes (any size, perhaps none).
        bytes: Vec<u8>,
        /// The items it holds.
        items: u64,
        /// Its size.
        size: u64,
    },
}

impl Staging {
    pub(super) fn bucket(&self) -> &str {
        &self.bucket
    }

    /// The key of the object being written.
    pub(super) fn key(&self) -> String {
        self.key_of(self.index)
    }

    fn key_of(&self, index: u32) -> String {
        format!("{}/{}", self.folder, part_name(index, self.extension))
    }

    pub(super) fn append(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
        self.written += bytes.len() as u64;
    }

    /// The size at which an object ends (`file_bytes`).
    pub(super) fn file_bytes(&self) -> u64 {
        self.file_bytes
    }

    pub(super) fn full(&self) -> bool {
        self.written >= self.file_bytes
    }

    pub(super) fn end_object(&mut self, items: u64) {
        self.ended.push_back(Piece::Last {
            key: self.key(),
            bytes: std::mem::take(&mut self.buffer),
            items,
            size: self.written,
        });
        self.index += 1;
        self.written = 0;
    }

    /// What is ready to send: the objects ended, then the full parts of the
    /// one being written.
    pub(super) fn take(&mut self, part_bytes: usize) -> Vec<Piece> {
        let mut pieces: Vec<Piece> = self.ended.drain(..).collect();
        while self.buffer.len() >= part_bytes {
            let rest = self.buffer.split_off(part_bytes);
            pieces.push(Piece::Part {
                key: self.key(),
                bytes: std::mem::replace(&mut self.buffer, rest),
            });
        }
        pieces
    }
}

/// The multipart upload under way.
struct Multipart {
    key: String,
    upload_id: String,
    parts: Vec<CompletedPart>,
}

/// Sends an entity's pieces: `PutObject` for an object of at most one part,
/// else a multipart upload.
pub(super) struct Uploads {
    s3: S3,
    bucket: String,
    part_bytes: usize,
    entity: Option<&'static str>,
    open: Option<Multipart>,
    /// The objects completed, in order.
    pub(super) done: Vec<ExportedObject>,
}

impl Uploads {
    /// Sends `pieces`, in order.
    pub(super) async fn upload(&mut self, pieces: Vec<Piece>) -> Result<(), Error> {
        for piece in pieces {
            match piece {
                Piece::Part { key, bytes } => self.part(&key, bytes).await?,
                Piece::Last {
                    key,
                    bytes,
                    items,
                    size,
                } => {
                    if self.open.is_none() && bytes.len() <= self.part_bytes {
                        self.s3
                            .put_object(&self.bucket, &key, bytes)
                            .await
                            .map_err(|error| {
                                request_error(&self.bucket, &key, "PutObject", error)
                            })?;
                    } else {
                        let mut bytes = bytes;
                        while !bytes.is_empty() {
                            let rest = bytes.split_off(bytes.len().min(self.part_bytes));
                            self.part(&key, std::mem::replace(&mut bytes, rest)).await?;
                        }
                        self.complete(&key).await?;
                    }
                    self.done.push(ExportedObject {
                        entity: self.entity,
                        bucket: self.bucket.clone(),
                        key,
                        items,
                        bytes: size,
                    });
                }
            }
        }
        Ok(())
    }

    /// Uploads the next part of `key`, starting its multipart upload first.
    async fn part(&mut self, key: &str, bytes: Vec<u8>) -> Result<(), Error> {
        if self.open.is_none() {
            let created = self
                .s3
                .create_multipart_upload(&self.bucket, key)
                .await
                .map_err(|error| {
                    request_error(&self.bucket, key, "CreateMultipartUpload", error)
                })?;
            let upload_id = created.upload_id().unwrap_or_default().to_owned();
            self.open = Some(Multipart {
                key: key.to_owned(),
                upload_id,
                parts: Vec::new(),
            });
        }
        let open = self.open.as_mut().expect("started above");
        let number = i32::try_from(open.parts.len() + 1).expect("at most 10,000 parts");
        let uploaded = self
            .s3
            .upload_part(&self.bucket, key, &open.upload_id, number, bytes)
            .await
            .map_err(|error| request_error(&self.bucket, key, "UploadPart", error))?;
        open.parts.push(
            CompletedPart::builder()
                .part_number(number)
                .set_e_tag(uploaded.e_tag().map(str::to_owned))
                .build(),
        );
        Ok(())
    }

    async fn complete(&mut self, key: &str) -> Result<(), Error> {
        let open = self.open.take().expect("a multipart upload is open");
        self.s3
            .complete_multipart_upload(&self.bucket, key, &open.upload_id, open.parts)
            .await
            .map_err(|error| request_error(&self.bucket, key, "CompleteMultipartUpload", error))?;
        Ok(())
    }

    /// Aborts the multipart upload under way, if any, so that S3 keeps no
    /// part of it (best effort: the export's error is what the caller
    /// gets).
    pub(super) async fn abort(&mut self) {
        if let Some(open) = self.open.take() {
            let _ = self
                .s3
                .abort_multipart_upload(&self.bucket, &open.key, &open.upload_id)
                .await;
        }
    }
}

pub(super) fn object_error(bucket: &str, key: &str, reason: ExportObjectReason) -> Error {
    Error::Job(JobError::ExportObject {
        bucket: bucket.to_owned(),
        key: key.to_owned(),
        reason,
    })
}

/// A failed S3 request, with the service's code and message when it
/// answered.
pub(super) fn request_error<E, R>(
    bucket: &str,
    key: &str,
    operation: &'static str,
    error: SdkError<E, R>,
) -> Error
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    let code = error.code().map(str::to_owned);
    let message = match error.message() {
        Some(message) => message.to_owned(),
        None => DisplayErrorContext(&error).to_string(),
    };
    object_error(
        bucket,
        key,
        ExportObjectReason::Request {
            operation,
            code,
            message,
        },
    )
}
