//! Keys: encodings, templates, key builders and parsers, limits.

mod builders;
mod encodings;
mod escaping;
mod format;
mod limits;
mod named_keys;
mod ranges;
