//! The data model the derive describes: [`entity`] (the `Entity` trait, the
//! static `EntitySchema`, the typed keys), [`collection`] (entities that
//! share a partition), [`projection`] (types that hold some of an entity's
//! attributes) and [`ttl`] (time-to-live fields).

pub(crate) mod collection;
pub(crate) mod entity;
pub(crate) mod multi_attribute;
pub(crate) mod projection;
pub(crate) mod ttl;
