//! Keys: how one field becomes one key segment ([`part`]: [`KeyPart`] and the
//! encodings, a storage format), and how a template's segments become a key
//! value and back ([`template`]: [`KeyTemplate`], [`KeyBuilder`],
//! [`KeyTemplate::split`]).
//!
//! [`KeyPart`]: crate::KeyPart
//! [`KeyTemplate`]: crate::KeyTemplate
//! [`KeyBuilder`]: crate::KeyBuilder
//! [`KeyTemplate::split`]: crate::KeyTemplate::split

pub(crate) mod fill;
pub(crate) mod part;
pub(crate) mod shard;
pub(crate) mod template;
