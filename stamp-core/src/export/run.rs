//! [`Export::run`] and its sources: a parallel scan, point-in-time export files, a DynamoDB export in S3.

use super::*;

impl Export {
    /// Runs the export on `table`: scans every segment, writes the files,
    /// then [`SUCCESS_MARKER`], and returns what it wrote.
    ///
    /// # Errors
    ///
    /// Before any request, [`JobError::InvalidExport`] for no entity, two
    /// entities with different type attributes, an entity whose type name
    /// is not a plain file name or is [`UNKNOWN_FILE_STEM`], a segment
    /// count of 0 or above [`MAX_SEGMENTS`], a concurrency of 0, or (feature
    /// `s3`) an S3 option out of bounds or given to an export to a
    /// directory; [`JobError::ExportFile`] when the directory or a file
    /// cannot be written (`JobError::ExportObject` for an object of an
    /// export to S3, also when one is already under its prefix); then
    /// [`Error::DynamoDb`] for the scan, and the errors of an entity's
    /// `from_item` for an item that names the entity but cannot be read as
    /// it. On an error the files written so far stay, incomplete, under
    /// their `.partial` names, and no `_SUCCESS` is written; an export to
    /// S3 keeps the objects it completed (the parts an entity rolled over),
    /// writes no `_SUCCESS` and aborts its multipart uploads under way (see
    /// [a run that does not finish](crate::export#a-run-that-does-not-finish): it
    /// is run again).
    pub async fn run(mut self, table: &Table) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            let mut pages = scan(table, self.segments, self.concurrency);
            while let Some(page) = pages.next().await {
                router.page(page?, &mut self.progress)?;
                router.upload().await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.end(read).await
    }

    /// Runs the export on the data files of an `ExportTableToPointInTime`
    /// in the `DYNAMODB_JSON` format (gzipped `*.json.gz` as DynamoDB writes
    /// them, or uncompressed), read in the order given, instead of a scan:
    /// no request is sent, and [`segments`](Self::segments) is not used. A
    /// page is 1,000 lines of a file.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run) before any request, and [`JobError::ExportFile`]
    /// when an export file cannot be read (missing: before anything is
    /// written) or a line is not `DYNAMODB_JSON` (with its number).
    pub async fn run_from_files(
        mut self,
        files: impl IntoIterator<Item = impl Into<PathBuf>>,
    ) -> Result<ExportOutcome, Error> {
        let files: Vec<PathBuf> = files.into_iter().map(Into::into).collect();
        let type_attribute = self.check()?;
        files::check(&files)?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            for path in files {
                let mut file = files::LocalFile::open(&path, EXPORT_FILE_PAGE)?;
                while file.step(&mut |items| router.page(items, &mut self.progress))? {
                    router.upload().await?;
                }
                router.upload().await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.end(read).await
    }

    /// Runs the export on a DynamoDB export to S3 (feature `s3`), read
    /// straight from S3 with `client`: `export` is the key of its
    /// `manifest-summary.json` in `bucket`, or the folder that holds it
    /// (`<prefix>/AWSDynamoDB/<export id>`, with or without a trailing
    /// `/`). The export reads the summary and `manifest-files.json`, then
    /// each data file (`dataFileS3Key`, gzipped `DYNAMODB_JSON`) in the
    /// manifest's order, its body decoded line by line as it arrives (no
    /// file is held in memory), in pages of 1,000 lines, and checks each
    /// file's item count against the manifest's `itemCount`. No DynamoDB
    /// request is sent, and [`segments`](Self::segments) is not used. The
    /// output is a directory ([`new`](Self::new)) or S3
    /// ([`to_s3`](Self::to_s3), another client or bucket if need be).
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html>.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # async fn run(s3: aws_sdk_s3::Client) -> Result<(), stamp_core::Error> {
    /// use stamp_core::export::{Export, ExportFormat};
    ///
    /// let outcome = Export::to_s3(s3.clone(), "analytics", "shop/by-entity")
    ///     .format(ExportFormat::Parquet)
    ///     // .entity::<Order>() for each entity of the table
    ///     .run_from_s3_export(&s3, "exports", "shop/AWSDynamoDB/01234567890123-abcdefgh")
    ///     .await?;
    /// println!("{} items read", outcome.scanned);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run) before any request; then
    /// `JobError::ExportObject` with the object's key: the manifest missing
    /// (`ExportObjectReason::Missing`, before anything is written) or not a
    /// manifest (`NotManifest`), an `ION` or incremental export
    /// (`Unsupported`), a data file missing (`Missing`), a line that is not
    /// `DYNAMODB_JSON` (`NotDynamoDbJson`, with its number), a file whose
    /// item count differs from its manifest's (`ItemCount`), a body that
    /// cannot be read or inflated (`Read`), or a request S3 refused
    /// (`Request`). What was written before such an error stays as
    /// [`run`](Self::run) says.
    #[cfg(feature = "s3")]
    pub async fn run_from_s3_export(
        mut self,
        client: &aws_sdk_s3::Client,
        bucket: &str,
        export: &str,
    ) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        let source = crate::request::dispatch::s3::S3::new(client.clone());
        let files = s3::data_files(&source, bucket, export).await?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            for file in &files {
                s3::read_data_file(
                    &source,
                    bucket,
                    file,
                    EXPORT_FILE_PAGE,
                    &mut router,
                    &mut self.progress,
                )
                .await?;
            }
            Ok::<(), Error>(())
        }
        .await;
        router.done.s3_requests = source.requests();
        router.end(read).await
    }

    /// The names of the files a run into a directory may write: each
    /// entity's `<Type>.<extension>`, and `_unknown.ndjson` (or
    /// `_unknown.json.gz`).
    fn file_names(&self) -> std::collections::BTreeSet<String> {
        let extension = self.format.extension();
        self.entities
            .iter()
            .map(|(schema, _)| format!("{}.{extension}", schema.type_name))
            .chain([format!(
                "{UNKNOWN_FILE_STEM}.{}",
                self.format.unknown_extension()
            )])
            .collect()
    }

    /// The checks made before any request; the type attribute.
    fn check(&self) -> Result<&'static str, Error> {
        let invalid =
            |reason: crate::error::ExportReason| Error::Job(JobError::InvalidExport { reason });
        let Some((first, _)) = self.entities.first() else {
            return Err(invalid(crate::error::ExportReason::NoEntity));
        };
        if self.segments == 0 || self.segments > MAX_SEGMENTS {
            return Err(invalid(crate::error::ExportReason::Segments {
                segments: self.segments,
                limit: MAX_SEGMENTS,
            }));
        }
        if self.concurrency == 0 {
            return Err(invalid(crate::error::ExportReason::ZeroConcurrency));
        }
        #[cfg(feature = "s3")]
        if let Some(option) = self.not_s3 {
            return Err(invalid(crate::error::ExportReason::NotS3 { option }));
        }
        #[cfg(feature = "s3")]
        if let Output::S3(target) = &self.output {
            target.check().map_err(invalid)?;
        }
        for (schema, _) in &self.entities {
            if schema.type_attribute != first.type_attribute {
                return Err(invalid(crate::error::ExportReason::TypeAttributes {
                    first_entity: first.type_name,
                    first_attribute: first.type_attribute,
                    second_entity: schema.type_name,
                    second_attribute: schema.type_attribute,
                }));
            }
            let name = schema.type_name;
            let plain = !name.is_empty()
                && name != "."
                && name != ".."
                && !name.contains(['/', '\\', '\0']);
            if !plain || name == UNKNOWN_FILE_STEM {
                return Err(invalid(crate::error::ExportReason::FileName {
                    type_name: name,
                }));
            }
        }
        Ok(first.type_attribute)
    }
}
