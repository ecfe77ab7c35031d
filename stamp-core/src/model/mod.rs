//! The data model the derive describes: [`entity`] (the `Entity` trait, the
//! static `EntitySchema`), [`typed_key`] (`PrimaryKey`, `IndexKey`), [`index`] (the one `IndexSchema`
//! of every kind of secondary index), [`collection`] (entities that
//! share a partition), [`projection`] (types that hold some of an entity's
//! attributes), [`ttl`] (time-to-live fields), [`multi_attribute`]
//! (GSIs keyed by the entity's own fields) and [`vector`] (vector indexes).

pub(crate) mod collection;
pub(crate) mod entity;
pub(crate) mod index;
pub(crate) mod index_projection;
pub(crate) mod multi_attribute;
pub(crate) mod projection;
pub(crate) mod statics;
pub(crate) mod ttl;
pub(crate) mod typed_key;
pub(crate) mod vector;
