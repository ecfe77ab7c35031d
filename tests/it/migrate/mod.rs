//! Key migrations.

mod migration;
