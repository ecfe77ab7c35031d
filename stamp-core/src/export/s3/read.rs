//! Reading the export `ExportTableToPointInTime` wrote to S3 in the
//! `DYNAMODB_JSON` format: its manifests, then each gzipped data file
//! streamed as it arrives (see the module above).

use aws_sdk_s3::error::DisplayErrorContext;
use serde::Deserialize;

use super::super::files::{LineDecoder, ReadError};
use super::super::{Progress, Router};
use super::{object_error, request_error};
use crate::error::{Error, ExportObjectReason};
use crate::request::dispatch::s3::S3;

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
pub(in crate::export) struct DataFile {
    pub(in crate::export) key: String,
    pub(in crate::export) items: u64,
}

/// The data files of the S3 export whose `manifest-summary.json` is at
/// `export` (or that is the folder holding it), read from its manifests.
pub(in crate::export) async fn data_files(
    s3: &S3,
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
    let summary: Summary = serde_json::from_slice(&whole_object(s3, bucket, &summary_key).await?)
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
    let listing = whole_object(s3, bucket, &files_key).await?;
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
async fn whole_object(s3: &S3, bucket: &str, key: &str) -> Result<Vec<u8>, Error> {
    let object = get(s3, bucket, key).await?;
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
    s3: &S3,
    bucket: &str,
    key: &str,
) -> Result<aws_sdk_s3::operation::get_object::GetObjectOutput, Error> {
    s3.get_object(bucket, key).await.map_err(|error| {
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
pub(in crate::export) async fn read_data_file(
    s3: &S3,
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
    let mut body = get(s3, bucket, key).await?.body;
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
        router.upload().await?;
    }
    let found = decoder
        .finish(&mut |items| router.page(items, progress))
        .map_err(failed)?;
    router.upload().await?;
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
