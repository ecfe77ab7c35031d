//! The entity trait that `#[derive(Item)]` implements, and the static schema
//! it describes.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Error;
use crate::error::Refusal;
use crate::item::builder::ItemBuilder;
use crate::key::template::KeyTemplate;
use crate::key::template::Segment;
use crate::model::index::IndexId;
use crate::model::index::IndexSchema;
use crate::model::multi_attribute::IndexKeyField;
use crate::model::typed_key::PrimaryKey;

/// A DynamoDB item as the SDK sends and returns it: attribute names to
/// values (the SDK's `HashMap<String, AttributeValue>`). Named apart from
/// the `Item` derive, which describes an entity.
pub type AttributeMap = HashMap<String, AttributeValue>;

/// One key attribute of a table or index and the template that fills it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyAttribute {
    /// The attribute name, such as `PK` or `GSI1SK`.
    pub name: &'static str,
    /// The template its value is built from.
    pub template: KeyTemplate,
}

/// The static description of an entity: its type name, key templates and
/// indexes. `#[derive(Item)]` emits one per struct as [`Entity::SCHEMA`].
///
/// Two schemas are equal when every field but
/// [`key_fields`](Self::key_fields) is (function pointers do not compare
/// meaningfully, and it follows from the templates' field types).
#[derive(Debug, Clone, Copy)]
pub struct EntitySchema {
    /// The entity type stored in [`type_attribute`](Self::type_attribute):
    /// the struct name unless set with `#[stamp(type_name = "…")]`.
    pub type_name: &'static str,
    /// The attribute that holds the entity type, `Type` by default.
    pub type_attribute: &'static str,
    /// The table's partition key attribute (`PK`) and its template.
    pub partition_key: KeyAttribute,
    /// The table's sort key attribute (`SK`) and its template.
    pub sort_key: KeyAttribute,
    /// Every secondary index the entity writes, of every kind: its
    /// template GSIs by increasing number, then its multi-attribute GSIs by
    /// increasing number, then its LSIs by increasing number (a GSI number
    /// is used once, by either key; an LSI may share a GSI's number).
    pub indexes: &'static [IndexSchema],
    /// The attribute names of the struct's fields, as serde serializes them.
    pub fields: &'static [&'static str],
    /// The attribute of the `#[stamp(ttl)]` field, stored as a Number of
    /// epoch seconds, when the entity has one.
    pub ttl_attribute: Option<&'static str>,
    /// Every serialized field: its name in the struct (as templates name
    /// it), its attribute name, and whether it is an `Option`.
    pub field_attributes: &'static [FieldAttribute],
    /// The `#[stamp(version)]` attribute: an optimistic-locking counter that
    /// every put and update checks and increments.
    pub version_attribute: Option<&'static str>,
    /// The `#[stamp(created_at)]` attribute, stamped by `create`.
    pub created_at_attribute: Option<&'static str>,
    /// The `#[stamp(updated_at)]` attribute, stamped by every write.
    pub updated_at_attribute: Option<&'static str>,
    /// The attributes of the fields marked `#[stamp(write_once)]`: an
    /// upsert ([`Update::into_upsert`](crate::Update::into_upsert)) sets
    /// them with `if_not_exists`, so the value of the write that created
    /// the item stays (as the `created_at` attribute does).
    pub write_once_attributes: &'static [&'static str],
    /// The values no two items of the entity may share: each
    /// `#[stamp(unique)]` field alone, then each `#[stamp(unique(a, b))]`
    /// combination. Every write keeps one guard item per value in the same
    /// transaction ([`UniqueValue`]).
    pub unique_values: &'static [UniqueValue],
    /// The earlier primary key format declared with
    /// `#[stamp(previous(pk = "…", sk = "…"))]`, which
    /// [`Migration`](crate::migrate::Migration) moves items out of; `None`
    /// when the entity declares none.
    pub previous_key: Option<PreviousKeyFormat>,
    /// Every field the current key templates name, once, with the example
    /// key segment of its type and, for a secondary index's field, how an
    /// update reads it back from stored values
    /// ([`key_example`](Self::key_example), `Entity::key_attribute_from_values`).
    #[doc(hidden)]
    pub key_fields: &'static [crate::key::known::KeyField],
    /// The key functions that take their fields as a generated struct of
    /// named fields (two of them have the same type), with the struct's
    /// name: `("key", "MembershipKey")`, `("query_gsi1", "MembershipGsi1Partition")`.
    pub named_inputs: &'static [(&'static str, &'static str)],
}

/// An earlier primary key format of an entity, from
/// `#[stamp(previous(pk = "…", sk = "…"))]`: the templates its items were
/// keyed by before the current `#[pk]` and `#[sk]`. A template left out of
/// `previous(…)` is the current one. The key attribute names do not change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreviousKeyFormat {
    /// The previous partition key template.
    pub partition_key: KeyTemplate,
    /// The previous sort key template.
    pub sort_key: KeyTemplate,
}

/// A value no two items of an entity share: one field
/// (`#[stamp(unique)]`) or a combination (`#[stamp(unique(a, b))]`).
///
/// Each value is held by a guard item, written, moved and deleted in the
/// same `TransactWriteItems` as every write of the entity that sets,
/// changes or removes it. The guard's partition and sort key are both
/// `UNIQUE#<type name>#<attributes joined by +>#<values joined by #>`,
/// each value escaped as key values are (every character up to `%` as
/// `%XX`), and it holds the owning item's primary key. An item whose field
/// (or one of the combination's fields) is absent (`None`) holds no value.
/// Only scalar stored forms are values: a String, a Number (as stored), a
/// Binary (base64) or a Boolean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniqueValue {
    /// The fields, by their names in the struct, in the order written.
    pub fields: &'static [&'static str],
    /// The fields' attribute names, in the same order.
    pub attributes: &'static [&'static str],
}

impl UniqueValue {
    /// The guard items' key as a template, such as
    /// `UNIQUE#User#email#<email>` or `UNIQUE#Member#org+handle#<org>#<handle>`
    /// (for the catalogue and the key-space check).
    pub fn guard_template(&self, type_name: &str) -> String {
        let mut text = format!("UNIQUE#{type_name}#{}", self.attributes.join("+"));
        for field in self.fields {
            text.push_str("#<");
            text.push_str(field);
            text.push('>');
        }
        text
    }

    /// The guard items' key as segments of a template, with the literals
    /// of `type_name`.
    pub(crate) fn guard_segments(&self, type_name: &'static str) -> Vec<Segment> {
        use crate::key::template::Segment::{Field, Literal};
        let mut segments = vec![Literal("UNIQUE#"), Literal(type_name), Literal("#")];
        for (position, attribute) in self.attributes.iter().enumerate() {
            if position > 0 {
                segments.push(Literal("+"));
            }
            segments.push(Literal(attribute));
        }
        for field in self.fields {
            segments.push(Literal("#"));
            segments.push(Field(field));
        }
        segments
    }
}

/// One serialized field of an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldAttribute {
    /// The field name in the struct, without `r#`.
    pub field: &'static str,
    /// The attribute name serde stores it under.
    pub attribute: &'static str,
    /// Whether the field is an `Option`.
    pub optional: bool,
    /// The DynamoDB type its stored form has (`"S"`, `"N"`, `"B"`,
    /// `"BOOL"`, `"L"`, `"M"`), when the derive knows it from the field's
    /// type (`String`, the integers, `Vec<_>`, …); `None` for any other
    /// type (a nested struct, an enum, a field with a serde `with`).
    /// [`TableDefinition::check`](crate::TableDefinition::check) compares
    /// it with the key attributes stored under the same name.
    pub stored_type: Option<&'static str>,
}

/// The time a write stamps into `#[stamp(created_at)]` and
/// `#[stamp(updated_at)]` fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteTime {
    /// The time of the write.
    pub now: chrono::DateTime<chrono::Utc>,
    /// Whether the write creates the item, so `created_at` is stamped too.
    pub creating: bool,
}

impl PartialEq for EntitySchema {
    fn eq(&self, other: &Self) -> bool {
        let EntitySchema {
            type_name,
            type_attribute,
            partition_key,
            sort_key,
            indexes,
            fields,
            ttl_attribute,
            field_attributes,
            version_attribute,
            created_at_attribute,
            updated_at_attribute,
            write_once_attributes,
            unique_values,
            previous_key,
            key_fields: _,
            named_inputs,
        } = self;
        *type_name == other.type_name
            && *type_attribute == other.type_attribute
            && *partition_key == other.partition_key
            && *sort_key == other.sort_key
            && *indexes == other.indexes
            && *fields == other.fields
            && *ttl_attribute == other.ttl_attribute
            && *field_attributes == other.field_attributes
            && *version_attribute == other.version_attribute
            && *created_at_attribute == other.created_at_attribute
            && *updated_at_attribute == other.updated_at_attribute
            && *write_once_attributes == other.write_once_attributes
            && *unique_values == other.unique_values
            && *previous_key == other.previous_key
            && *named_inputs == other.named_inputs
    }
}

impl Eq for EntitySchema {}

impl EntitySchema {
    /// The key encoding (not yet escaped) of an example value of a field
    /// named in the key templates ([`KeyPart::example`](crate::KeyPart::example)),
    /// by field name; `None` for another name or a type without an example.
    /// The catalogue's (`TableDefinition::catalogue`) example keys use
    /// it when no example item is recorded.
    pub fn key_example(&self, field: &str) -> Option<String> {
        let key_field = self
            .key_fields
            .iter()
            .find(|key_field| key_field.field == field)?;
        (key_field.example)(key_field.field)
    }

    /// The arguments of a call of key function `function` over `fields`
    /// (field names, comma-separated), as the user writes it:
    /// `org_id, user_id`, or `MembershipKey { org_id, user_id }` when the
    /// function takes a named struct.
    pub fn call_arguments(&self, function: &str, fields: &str) -> String {
        match self.named_inputs.iter().find(|(name, _)| *name == function) {
            Some((_, input)) => format!("{input} {{ {fields} }}"),
            None => fields.to_owned(),
        }
    }

    /// How many attributes `to_item` adds to the fields: the primary key,
    /// the type, and the key attributes it builds for every index (for the
    /// capacity of the item it fills).
    pub(crate) fn added_attribute_count(&self) -> usize {
        3 + self
            .indexes
            .iter()
            .map(|index| index.written_key_attributes().count())
            .sum::<usize>()
    }

    /// Whether the entity writes an LSI: then DynamoDB limits its item
    /// collections, and writes ask for their metrics.
    pub fn has_local_index(&self) -> bool {
        self.indexes.iter().any(IndexSchema::is_local)
    }

    /// The index `id` names, if the entity writes it; `None` for
    /// [`IndexId::Table`](crate::IndexId::Table).
    pub const fn resolve(&self, id: IndexId) -> Option<&IndexSchema> {
        let mut position = 0;
        while position < self.indexes.len() {
            if id.names(&self.indexes[position]) {
                return Some(&self.indexes[position]);
            }
            position += 1;
        }
        None
    }

    /// The GSI numbered `number` (of any key), if the entity writes it.
    pub fn gsi(&self, number: u8) -> Option<&'static IndexSchema> {
        let indexes: &'static [IndexSchema] = self.indexes;
        indexes
            .iter()
            .find(|index| index.is_global() && index.number == number)
    }

    /// The local secondary index numbered `number`, if the entity writes it.
    pub fn lsi(&self, number: u8) -> Option<&'static IndexSchema> {
        let indexes: &'static [IndexSchema] = self.indexes;
        indexes
            .iter()
            .find(|index| index.is_local() && index.number == number)
    }

    /// The index named `name`, if the entity writes it.
    pub fn index_named(&self, name: &str) -> Option<&'static IndexSchema> {
        let indexes: &'static [IndexSchema] = self.indexes;
        indexes.iter().find(|index| index.name == name)
    }

    /// The names of every secondary-index key attribute the entity builds
    /// from a template and writes ([`IndexSchema::written_keys`]).
    pub fn index_key_attributes(&self) -> impl Iterator<Item = &'static str> + 'static {
        let indexes: &'static [IndexSchema] = self.indexes;
        indexes
            .iter()
            .flat_map(|index| index.written_key_attributes().map(|key| key.name))
    }

    /// The key field of a multi-attribute index stored under `attribute`,
    /// with whether it is in a sort key.
    pub fn index_key_field(&self, attribute: &str) -> Option<(&'static IndexKeyField, bool)> {
        let indexes: &'static [IndexSchema] = self.indexes;
        indexes.iter().find_map(|index| {
            let (partition, sort) = index.attributes()?;
            partition
                .iter()
                .map(|field| (field, false))
                .chain(sort.iter().map(|field| (field, true)))
                .find(|(field, _)| field.attribute == attribute)
        })
    }
}

/// A struct stored as DynamoDB items: implemented by `#[derive(Item)]`.
///
/// The derive also generates, as inherent functions of the struct, a typed
/// key builder per key (`Order::key(…)`, `Order::gsi1_key(…)`) and a parser
/// per key attribute (`Order::parse_sort_key("ORDER#…")`).
///
/// An item written by [`to_item`](Self::to_item) holds every serialized
/// field, the key attributes, the attributes of each index whose fields are
/// all `Some` (a sparse index), and the type attribute. `None` fields are
/// left out, never written as `NULL`.
pub trait Entity: Sized {
    /// The entity's templates and attribute names.
    const SCHEMA: &'static EntitySchema;

    /// The primary key of this value.
    ///
    /// # Errors
    ///
    /// [`KeyError::EmptyKeyValue`](crate::KeyError::EmptyKeyValue) or [`KeyError::KeyEncode`](crate::KeyError::KeyEncode) when a key field has
    /// no valid encoding.
    fn primary_key(&self) -> Result<PrimaryKey<Self>, Error>;

    /// The item to store: fields, key attributes, index attributes and type.
    ///
    /// # Errors
    ///
    /// The errors of [`primary_key`](Self::primary_key), and
    /// [`Refusal::Serialize`] when serde cannot serialize a field.
    fn to_item(&self) -> Result<AttributeMap, Error> {
        self.to_item_at(None)
    }

    /// The item to store, with the `created_at` / `updated_at` fields (and
    /// the index attributes built from them) set to `time` when it is given.
    ///
    /// # Errors
    ///
    /// As [`to_item`](Self::to_item).
    #[inline]
    fn to_item_at(&self, time: Option<WriteTime>) -> Result<AttributeMap, Error> {
        self.encode_item_at(time, false).map(ItemBuilder::into_item)
    }

    /// The item a put of this value sends (without its time stamps and
    /// version, which the put sets), checked as [`check_item`](crate::check_item)
    /// checks it, and its size in bytes as DynamoDB counts it
    /// ([`item_size`](crate::item_size); at most 400 KB). The checks run
    /// while the item is encoded, not in a second walk of it.
    ///
    /// # Errors
    ///
    /// The errors of [`to_item`](Self::to_item) and of [`check_item`](crate::check_item).
    #[inline]
    fn to_checked_item(&self) -> Result<(AttributeMap, usize), Error> {
        self.encode_item_at(None, true)?.checked(Self::SCHEMA)
    }

    /// The item of [`to_item_at`](Self::to_item_at) as it is encoded, with
    /// its size and checks counted when `check` ([`ItemBuilder`]). The
    /// derive generates it; the write paths finish it with their own
    /// attributes (a version) and check it without a second walk.
    ///
    /// # Errors
    ///
    /// As [`to_item`](Self::to_item).
    #[doc(hidden)]
    fn encode_item_at(&self, time: Option<WriteTime>, check: bool) -> Result<ItemBuilder, Error>;

    /// The value of the `#[stamp(version)]` field, if the entity has one.
    fn version(&self) -> Option<u64> {
        None
    }

    /// The largest value the `#[stamp(version)]` field's type holds
    /// (`u64::MAX` or `u32::MAX`): a write at that version has no next
    /// version ([`Refusal::VersionOverflow`]).
    fn max_version() -> u64 {
        u64::MAX
    }

    /// The primary key this value had in the entity's previous key format
    /// (`#[stamp(previous(…))]`); `Ok(None)` when it declares none.
    ///
    /// # Errors
    ///
    /// As [`primary_key`](Self::primary_key).
    fn previous_primary_key(&self) -> Result<Option<PrimaryKey<Self>>, Error> {
        Ok(None)
    }

    /// Builds the GSI or LSI key attribute `attribute` (such as `GSI1PK`
    /// or `LSI1SK`) from
    /// field values given as stored attributes (`values`, by attribute
    /// name): `Ok(None)` when an `Option` field is `None` (`NULL`), so the
    /// index attributes must be removed. Updates use it to rewrite index
    /// attributes.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Deserialize`](crate::DecodeError::Deserialize) when a value does not decode into its field
    /// type; the errors of building a key.
    fn key_attribute_from_values(
        attribute: &str,
        values: &AttributeMap,
    ) -> Result<Option<String>, Error> {
        crate::key::known::key_attribute_from_values(Self::SCHEMA, attribute, values)
    }

    /// The value of the `#[stamp(created_at)]` or `#[stamp(updated_at)]`
    /// attribute `attribute` at time `now`, encoded exactly as
    /// [`to_item`](Self::to_item) stores that field (its serde attributes
    /// included); `Ok(None)` when it stores no attribute. Updates stamp
    /// `updated_at` with it.
    ///
    /// # Errors
    ///
    /// [`Refusal::Serialize`] when the field's serializer fails.
    fn time_stamp_value(
        attribute: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Option<AttributeValue>, Error> {
        let _ = attribute;
        crate::item::value::json::to_attribute_value(&now)
            .map(Some)
            .map_err(|source| {
                Error::Refused(Refusal::Serialize {
                    entity: Self::SCHEMA.type_name,
                    source,
                })
            })
    }

    /// Reads the value back from a stored item. Key, index and type
    /// attributes are ignored by serde.
    ///
    /// # Errors
    ///
    /// [`DecodeError::EntityTypeMismatch`](crate::DecodeError::EntityTypeMismatch) when the item's type attribute names
    /// another entity; [`DecodeError::Deserialize`](crate::DecodeError::Deserialize) when serde cannot read it.
    fn from_item(item: AttributeMap) -> Result<Self, Error>;
}
