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
    pub async fn run(self, table: &Table) -> Result<ExportOutcome, Error> {
        let segments = self.segments;
        self.run_scan(table, (0..segments).collect(), segments)
            .await
    }

    /// Runs one unit of the export on `table` (an export to a directory):
    /// segment `segment.index` of `segment.of` of the parallel scan, and no
    /// other, into the unit's own folder `<directory>/<segment.name()>/`
    /// (`segment-03-of-16/`), which holds what [`run`](Self::run) writes
    /// into a directory (`<Type>.<extension>`, `_unknown.ndjson`,
    /// [`MANIFEST`], [`SUCCESS_MARKER`]) for that segment's items. A runner
    /// outside Stamp (a Step Functions distributed map, an indexed
    /// Kubernetes Job, the reference CLI's `export --segment i --of N`)
    /// spreads the units over workers and machines, then runs
    /// [`check_segments`](Self::check_segments) once, which marks the whole
    /// export complete.
    ///
    /// A unit is idempotent on its own: it first deletes
    /// `<directory>/_SUCCESS` (the job is not complete while a unit runs),
    /// then replaces its folder's earlier output as a run into a used
    /// directory does (files written as `.partial` and renamed once
    /// complete, the folder's `_SUCCESS` deleted first and written last).
    /// So running a unit twice, or again from its start on another machine
    /// after a kill, leaves each item of its segment exactly once in its
    /// folder, and a unit killed midway leaves no `_SUCCESS` in its folder.
    /// The folders must be on storage every worker sees (a shared file
    /// system), or gathered before the check. [`segments`](Self::segments)
    /// and [`concurrency`](Self::concurrency) are not used: the unit names
    /// its count, and reads its one segment page after page.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run); [`Refusal`](crate::Refusal::InvalidQuery)
    /// with [`QueryReason::ScanSegment`](crate::QueryReason::ScanSegment)
    /// for a segment DynamoDB does not have, and (feature `s3`)
    /// [`ExportReason::SegmentsToS3`](crate::ExportReason::SegmentsToS3)
    /// for an export to S3, before any request.
    pub async fn run_segment(
        mut self,
        table: &Table,
        segment: ScanSegment,
    ) -> Result<ExportOutcome, Error> {
        segment.check()?;
        self.segments = segment.of;
        self.concurrency = 1;
        self.check()?;
        let directory = self.unit_directory()?.to_path_buf();
        std::fs::create_dir_all(&directory).map_err(|error| file_error(&directory, &error))?;
        remove_if_there(&directory.join(SUCCESS_MARKER))?;
        self.output = Output::Directory(directory.join(segment.name()));
        self.run_scan(table, vec![segment.index], segment.of).await
    }

    /// The final step of an export run in units of `of` segments
    /// ([`run_segment`](Self::run_segment)): checks that the folder of
    /// every unit holds its `_SUCCESS`, and that no folder of another
    /// segment count is there (a reader would read its files with the
    /// job's, each item twice), then writes `<directory>/_SUCCESS`
    /// ([`SUCCESS_MARKER`]): the export is complete. Sends no request;
    /// reads no entity file.
    ///
    /// A reader of the job's output reads every
    /// `<directory>/segment-*/<Type>.<extension>` once `_SUCCESS` is there.
    ///
    /// # Errors
    ///
    /// [`JobError::ExportIncomplete`] naming the units not done and the
    /// stray folders (nothing is written); [`JobError::InvalidExport`] for
    /// a count of 0 or above [`MAX_SEGMENTS`] and (feature `s3`) for an
    /// export to S3; [`JobError::ExportFile`] when the directory cannot be
    /// read or the marker written.
    pub fn check_segments(&self, of: u32) -> Result<ExportCheck, Error> {
        let invalid =
            |reason: crate::error::ExportReason| Error::Job(JobError::InvalidExport { reason });
        if of == 0 || of > MAX_SEGMENTS {
            return Err(invalid(crate::error::ExportReason::Segments {
                segments: of,
                limit: MAX_SEGMENTS,
            }));
        }
        let directory = self.unit_directory()?;
        let units: Vec<PathBuf> = ScanSegment::all(of)
            .map(|segment| directory.join(segment.name()))
            .collect();
        let missing: Vec<ScanSegment> = ScanSegment::all(of)
            .zip(&units)
            .filter(|(_, folder)| !folder.join(SUCCESS_MARKER).is_file())
            .map(|(segment, _)| segment)
            .collect();
        let mut stray = Vec::new();
        match std::fs::read_dir(directory) {
            Ok(entries) => {
                for entry in entries {
                    let entry = entry.map_err(|error| file_error(directory, &error))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if ScanSegment::from_name(&name).is_some_and(|unit| unit.of != of) {
                        stray.push(name);
                    }
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(file_error(directory, &error)),
        }
        stray.sort();
        if !missing.is_empty() || !stray.is_empty() {
            return Err(Error::Job(JobError::ExportIncomplete {
                location: directory.display().to_string(),
                missing,
                stray,
            }));
        }
        let marker = directory.join(SUCCESS_MARKER);
        std::fs::write(&marker, b"").map_err(|error| file_error(&marker, &error))?;
        Ok(ExportCheck { units, marker })
    }

    /// The directory of an export run in units, or the typed refusal of an
    /// export to S3.
    fn unit_directory(&self) -> Result<&Path, Error> {
        match &self.output {
            Output::Directory(directory) => Ok(directory),
            #[cfg(feature = "s3")]
            Output::S3(_) => Err(Error::Job(JobError::InvalidExport {
                reason: crate::error::ExportReason::SegmentsToS3,
            })),
        }
    }

    /// Scans `segments` of `of` into the output.
    async fn run_scan(
        mut self,
        table: &Table,
        segments: Vec<u32>,
        of: u32,
    ) -> Result<ExportOutcome, Error> {
        let type_attribute = self.check()?;
        self.output.prepare(&self.file_names()).await?;
        let mut router = Router::new(&self, type_attribute)?;
        let read = async {
            let mut pages = scan(table, segments, of, self.concurrency);
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
