//! The per-entity export.

mod files;
