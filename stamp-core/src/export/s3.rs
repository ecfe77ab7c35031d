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
use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
use serde::Deserialize;

use super::files::{LineDecoder, ReadError};
use super::{ExportedObject, Progress, Router};
use crate::{Error, ExportObjectReason, ExportReason, JobError};

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
    pub(super) client: Client,
    pub(super) bucket: String,
    /// Without a trailing `/`; empty for the bucket's root.
    pub(super) prefix: String,
    pub(super) part_bytes: u64,
    pub(super) file_bytes: u64,
}

impl Target {
    pub(super) fn new(client: Client, bucket: String, prefix: &str) -> Self {
        Target {
            client,
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
                .client
                .list_objects_v2()
                .bucket(&self.bucket)
                .prefix(&prefix)
                .max_keys(1)
                .send()
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
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(&key)
            .body(ByteStream::from(Vec::new()))
            .send()
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
            client: self.client.clone(),
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
    client: Client,
    bucket: String,
    part_bytes: usize,
    entity: Option<&'static str>,
    open: Option<Multipart>,
    /// The objects completed, in order.
    pub(super) done: Vec<ExportedObject>,
}

impl Uploads {
    /// Sends `pieces`, in order.
    pub(super) async fn send(&mut self, pieces: Vec<Piece>) -> Result<(), Error> {
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
                        self.client
                            .put_object()
                            .bucket(&self.bucket)
                            .key(&key)
                            .body(ByteStream::from(bytes))
                            .send()
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
                .client
                .create_multipart_upload()
                .bucket(&self.bucket)
                .key(key)
                .send()
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
            .client
            .upload_part()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(&open.upload_id)
            .part_number(number)
            .body(ByteStream::from(bytes))
            .send()
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
        self.client
            .complete_multipart_upload()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(&open.upload_id)
            .multipart_upload(
                CompletedMultipartUpload::builder()
                    .set_parts(Some(open.parts))
                    .build(),
            )
            .send()
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
                .client
                .abort_multipart_upload()
                .bucket(&self.bucket)
                .key(&open.key)
                .upload_id(&open.upload_id)
                .send()
                .await;
        }
    }
}

/// The fields of `manifest-summary.json` the export reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    manifest_files_s3_key: String,
    #[serde(default)]
    output_format: Option<String>,
    #[serde(default)]
    export_type: Option<String>,
}

/// One line of `manifest-files.json`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ManifestLine {
    data_file_s3_key: String,
    item_count: u64,
}

/// One data file of an S3 export, as its manifest lists it.
pub(super) struct DataFile {
    pub(super) key: String,
    pub(super) items: u64,
}

/// The data files of the S3 export whose `manifest-summary.json` is at
/// `export` (or that is the folder holding it), read from its manifests.
pub(super) async fn data_files(
    client: &Client,
    bucket: &str,
    export: &str,
) -> Result<Vec<DataFile>, Error> {
    let summary_key = if export.ends_with(".json") {
        export.to_owned()
    } else {
        format!("{}/manifest-summary.json", export.trim_end_matches('/'))
    };
    let not_manifest = |key: &str, line: Option<u64>, error: serde_json::Error| {
        object_error(
            bucket,
            key,
            ExportObjectReason::NotManifest {
                line,
                detail: error.to_string(),
            },
        )
    };
    let summary: Summary =
        serde_json::from_slice(&whole_object(client, bucket, &summary_key).await?)
            .map_err(|error| not_manifest(&summary_key, None, error))?;
    let output_format = summary
        .output_format
        .unwrap_or_else(|| "DYNAMODB_JSON".to_owned());
    let export_type = summary
        .export_type
        .unwrap_or_else(|| "FULL_EXPORT".to_owned());
    if output_format != "DYNAMODB_JSON" || export_type != "FULL_EXPORT" {
        return Err(object_error(
            bucket,
            &summary_key,
            ExportObjectReason::Unsupported {
                output_format,
                export_type,
            },
        ));
    }
    let files_key = summary.manifest_files_s3_key;
    let listing = whole_object(client, bucket, &files_key).await?;
    let mut files = Vec::new();
    for (number, line) in listing.split(|&byte| byte == b'\n').enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        let line: ManifestLine = serde_json::from_slice(line)
            .map_err(|error| not_manifest(&files_key, Some(number as u64 + 1), error))?;
        files.push(DataFile {
            key: line.data_file_s3_key,
            items: line.item_count,
        });
    }
    Ok(files)
}

/// The body of a (small) object, whole: a manifest.
async fn whole_object(client: &Client, bucket: &str, key: &str) -> Result<Vec<u8>, Error> {
    let object = get(client, bucket, key).await?;
    let body = object.body.collect().await.map_err(|error| {
        object_error(
            bucket,
            key,
            ExportObjectReason::Read {
                detail: DisplayErrorContext(&error).to_string(),
            },
        )
    })?;
    Ok(body.to_vec())
}

async fn get(
    client: &Client,
    bucket: &str,
    key: &str,
) -> Result<aws_sdk_s3::operation::get_object::GetObjectOutput, Error> {
    client
        .get_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .map_err(|error| {
            if error
                .as_service_error()
                .is_some_and(|error| error.is_no_such_key())
            {
                object_error(bucket, key, ExportObjectReason::Missing)
            } else {
                request_error(bucket, key, "GetObject", error)
            }
        })
}

/// Reads the data file `file` of an S3 export into `router`, its body
/// decoded as it arrives, in pages of `page` items, and sends what the
/// pages wrote after each chunk of the body.
pub(super) async fn read_data_file(
    client: &Client,
    bucket: &str,
    file: &DataFile,
    page: usize,
    router: &mut Router,
    progress: &mut Option<Progress>,
) -> Result<(), Error> {
    let key = file.key.as_str();
    let failed = |error: ReadError| match error {
        ReadError::Io(error) => object_error(
            bucket,
            key,
            ExportObjectReason::Read {
                detail: error.to_string(),
            },
        ),
        ReadError::Line { number, detail } => object_error(
            bucket,
            key,
            ExportObjectReason::NotDynamoDbJson {
                line: number,
                detail,
            },
        ),
        ReadError::Page(error) => error,
    };
    let mut body = get(client, bucket, key).await?.body;
    let mut decoder = LineDecoder::new(key.ends_with(".gz"), page);
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|error| {
            object_error(
                bucket,
                key,
                ExportObjectReason::Read {
                    detail: DisplayErrorContext(&error).to_string(),
                },
            )
        })?;
        decoder
            .feed(&chunk, &mut |items| router.page(items, progress))
            .map_err(failed)?;
        router.send().await?;
    }
    let found = decoder
        .finish(&mut |items| router.page(items, progress))
        .map_err(failed)?;
    router.send().await?;
    if found != file.items {
        return Err(object_error(
            bucket,
            key,
            ExportObjectReason::ItemCount {
                expected: file.items,
                found,
            },
        ));
    }
    Ok(())
}

fn object_error(bucket: &str, key: &str, reason: ExportObjectReason) -> Error {
    Error::Job(JobError::ExportObject {
        bucket: bucket.to_owned(),
        key: key.to_owned(),
        reason,
    })
}

/// A failed S3 request, with the service's code and message when it
/// answered.
fn request_error<E, R>(
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
