//! The per-entity export: from a scan or export files, and from and to S3.

mod files;
mod import;
mod kill_resume;
mod memory;
mod rerun;
mod s3;
mod units;
