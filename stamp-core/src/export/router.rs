//! The router of an export: each item to its entity's sink, unknown types to their own file.

use super::*;

/// How many lines of an export file make a page.
pub(super) const EXPORT_FILE_PAGE: usize = 1_000;

/// One entity's (or the unknown types') output.
pub(super) struct Entry {
    entity: Option<&'static str>,
    /// The file, for an export to a directory: its final name, and the
    /// `.partial` one it is written under until complete.
    path: Option<(PathBuf, PathBuf)>,
    sink: Box<dyn Sink>,
    /// The uploads, for an export to S3.
    #[cfg(feature = "s3")]
    uploads: Option<s3::Uploads>,
}

impl Entry {
    /// The output of `stem` (a type name, or the unknown types'), a file or
    /// objects, with its sink.
    pub(super) fn open(
        output: &Output,
        entity: Option<&'static str>,
        extension: &'static str,
        make: impl FnOnce(Out) -> Result<Box<dyn Sink>, Error>,
    ) -> Result<Entry, Error> {
        let stem = entity.unwrap_or(UNKNOWN_FILE_STEM);
        match output {
            Output::Directory(directory) => {
                let path = directory.join(format!("{stem}.{extension}"));
                let partial = directory.join(format!("{stem}.{extension}{PARTIAL_SUFFIX}"));
                Ok(Entry {
                    entity,
                    sink: make(Out::create_file(&partial)?)?,
                    path: Some((path, partial)),
                    #[cfg(feature = "s3")]
                    uploads: None,
                })
            }
            #[cfg(feature = "s3")]
            Output::S3(target) => Ok(Entry {
                entity,
                path: None,
                sink: make(Out::Objects(target.staging(stem, extension)))?,
                uploads: Some(target.uploads(entity)),
            }),
        }
    }

    /// Sends the bytes that are ready (an export to S3).
    pub(super) async fn upload(&mut self, part_bytes: usize) -> Result<(), Error> {
        #[cfg(feature = "s3")]
        if let (Some(uploads), Out::Objects(staging)) = (&mut self.uploads, self.sink.out()) {
            uploads.upload(staging.take(part_bytes)).await?;
        }
        let _ = part_bytes;
        Ok(())
    }
}

/// The files being written, and where each item goes.
pub(super) struct Router {
    type_attribute: &'static str,
    output: Output,
    format: ExportFormat,
    entries: Vec<Entry>,
    by_type: HashMap<&'static str, usize>,
    unknown: Option<Entry>,
    progress: ExportProgress,
    /// The outcome so far.
    pub(super) done: ExportOutcome,
}

impl Router {
    pub(super) fn new(export: &Export, type_attribute: &'static str) -> Result<Self, Error> {
        let mut entries = Vec::new();
        for (schema, make) in &export.entities {
            let format = export.format;
            entries.push(Entry::open(
                &export.output,
                Some(schema.type_name),
                format.extension(),
                |out| make(out, format),
            )?);
        }
        let by_type = entries
            .iter()
            .enumerate()
            .map(|(position, entry)| (entry.entity.expect("an entity"), position))
            .collect();
        Ok(Router {
            type_attribute,
            output: export.output.clone(),
            format: export.format,
            entries,
            by_type,
            unknown: None,
            progress: ExportProgress::default(),
            done: ExportOutcome {
                files: Vec::new(),
                objects: Vec::new(),
                scanned: 0,
                s3_requests: 0,
            },
        })
    }

    /// Writes one page of items, then reports progress.
    pub(super) fn page(
        &mut self,
        items: Vec<AttributeMap>,
        report: &mut Option<Progress>,
    ) -> Result<(), Error> {
        for item in items {
            self.progress.scanned += 1;
            let position = match item.get(self.type_attribute) {
                Some(AttributeValue::S(name)) => self.by_type.get(name.as_str()).copied(),
                _ => None,
            };
            match position {
                Some(position) => self.entries[position].sink.push(item)?,
                None => {
                    if self.unknown.is_none() {
                        let format = self.format;
                        self.unknown = Some(Entry::open(
                            &self.output,
                            None,
                            format.unknown_extension(),
                            |out| {
                                Ok(match format {
                                    ExportFormat::DynamoDbJson => dynamodb_json::sink(out),
                                    _ => ndjson::unknown_sink(out),
                                })
                            },
                        )?);
                    }
                    self.unknown.as_mut().expect("just made").sink.push(item)?;
                }
            }
        }
        self.progress.pages += 1;
        if let Some(report) = report.as_mut() {
            report(&self.progress);
        }
        Ok(())
    }

    /// The part size of an export to S3.
    pub(super) fn part_bytes(&self) -> usize {
        match &self.output {
            Output::Directory(_) => usize::MAX,
            #[cfg(feature = "s3")]
            Output::S3(target) => target.part_bytes as usize,
        }
    }

    /// Sends what the pages so far made ready (an export to S3; a
    /// directory's files are written as the items are).
    pub(super) async fn upload(&mut self) -> Result<(), Error> {
        let part_bytes = self.part_bytes();
        for entry in self.entries.iter_mut().chain(self.unknown.as_mut()) {
            entry.upload(part_bytes).await?;
        }
        Ok(())
    }

    /// Closes every file (sends every object's last bytes), or, after an
    /// error, aborts the uploads under way.
    pub(super) async fn end(mut self, read: Result<(), Error>) -> Result<ExportOutcome, Error> {
        let result = match read {
            Ok(()) => self.finish().await,
            Err(error) => Err(error),
        };
        if result.is_err() {
            #[cfg(feature = "s3")]
            for entry in self.entries.iter_mut().chain(self.unknown.as_mut()) {
                if let Some(uploads) = &mut entry.uploads {
                    uploads.abort().await;
                }
            }
        }
        #[cfg(feature = "s3")]
        if let Output::S3(target) = &self.output {
            self.done.s3_requests += target.s3.requests();
        }
        result.map(|()| self.done)
    }

    /// Finishes the entries in order; those not finished stay in
    /// `entries`, so that [`end`](Self::end) aborts their uploads.
    pub(super) async fn finish(&mut self) -> Result<(), Error> {
        let part_bytes = self.part_bytes();
        self.entries.extend(self.unknown.take());
        while !self.entries.is_empty() {
            let Entry {
                entity,
                path,
                sink,
                #[cfg(feature = "s3")]
                mut uploads,
            } = self.entries.remove(0);
            let finished = match sink.finish() {
                #[cfg(feature = "s3")]
                Ok((items, Out::Objects(mut staging))) => {
                    let uploads = uploads.as_mut().expect("an export to S3 has uploads");
                    let sent = uploads.upload(staging.take(part_bytes)).await;
                    self.done.objects.append(&mut uploads.done);
                    sent.map(|()| items)
                }
                Ok((items, _)) => Ok(items),
                Err(error) => Err(error),
            };
            let finished = match (finished, &path) {
                (Ok(items), Some((path, partial))) => std::fs::rename(partial, path)
                    .map(|()| items)
                    .map_err(|error| file_error(path, &error)),
                (finished, _) => finished,
            };
            match finished {
                Ok(items) => {
                    if let Some((path, _)) = path {
                        self.done.files.push(ExportedFile {
                            entity,
                            path,
                            items,
                        });
                    }
                }
                Err(error) => {
                    #[cfg(feature = "s3")]
                    if let Some(uploads) = uploads.as_mut() {
                        uploads.abort().await;
                    }
                    return Err(error);
                }
            }
        }
        #[cfg(not(feature = "s3"))]
        let _ = part_bytes;
        self.done.scanned = self.progress.scanned;
        self.output
            .mark_complete(self.done.unknown(), self.format)
            .await
    }
}

pub(super) fn make_sink<E>(out: Out, format: ExportFormat) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + DeserializeOwned + Send + 'static,
{
    match format {
        ExportFormat::Ndjson => ndjson::entity_sink::<E>(out),
        #[cfg(feature = "parquet")]
        ExportFormat::Parquet => parquet::entity_sink::<E>(out),
        ExportFormat::DynamoDbJson => Ok(dynamodb_json::sink(out)),
    }
}

/// The pages of `segments` of a parallel scan of `of` segments,
/// `concurrency` of them read at once.
pub(super) fn scan(
    table: &Table,
    segments: Vec<u32>,
    of: u32,
    concurrency: u32,
) -> impl Stream<Item = Result<Vec<AttributeMap>, Error>> + '_ {
    futures::stream::iter(segments.into_iter().map(move |segment| {
        let input = crate::ops::scan::segment_input(table.name(), (segment, of), None, false, None);
        crate::ops::scan::pages(table, Ok(input), "(mixed)").boxed()
    }))
    .flatten_unordered(concurrency as usize)
}
