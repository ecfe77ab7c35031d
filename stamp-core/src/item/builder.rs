//! [`ItemBuilder`]: the item `Entity::encode_item_at` fills, sized and
//! checked attribute by attribute as it goes in, so a put does not walk
//! the item a second time to check it ([`check_item`]).

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Error;
use crate::item::check::{check_index_key_value, check_item, check_item_size, checked_size};
use crate::model::entity::{AttributeMap, EntitySchema};

/// An item being encoded (`Entity::encode_item_at`, which the derive
/// generates), with what [`check_item`] would find counted as each
/// attribute goes in: the item's size in bytes
/// ([`item_size`](crate::item_size)) and whether every attribute so far is
/// one `check_item` accepts unchanged (a valid value, not an empty set, a
/// non-empty key string, a valid multi-attribute key value).
///
/// [`checked`](Self::checked) then returns the item and its size without a
/// second walk; an item that is not clean goes through [`check_item`],
/// which names its problem (or leaves out its empty sets). So the rules are
/// `check_item`'s, in `item::check`, and nothing else decides them: in a
/// debug build, `checked` runs `check_item` on a copy of every clean item
/// and asserts the same answer.
///
/// Not a public API: the derive's generated code and the write paths use it.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct ItemBuilder {
    item: AttributeMap,
    /// The size of the attributes in `item`, while `clean`.
    size: usize,
    /// Whether every attribute so far is one `check_item` accepts
    /// unchanged, and the whole item was built through these methods, with
    /// counting asked for. Once false, nothing more is counted.
    clean: bool,
}

impl ItemBuilder {
    /// An empty item with room for `attributes` attributes, counted when
    /// `counting` (an item to check), not otherwise (for `to_item`, which
    /// checks nothing and so skips the counting's calls).
    #[inline]
    pub fn with_capacity(attributes: usize, counting: bool) -> Self {
        ItemBuilder {
            item: AttributeMap::with_capacity(attributes),
            size: 0,
            clean: counting,
        }
    }

    /// An item built elsewhere (a whole-struct serde encoding): not
    /// counted, so [`checked`](Self::checked) runs [`check_item`] on it.
    pub fn unchecked(item: AttributeMap) -> Self {
        ItemBuilder {
            item,
            size: 0,
            clean: false,
        }
    }

    /// Stores `value` as attribute `name` (replacing the one there).
    #[inline(always)]
    pub fn insert(&mut self, name: &str, value: AttributeValue) {
        if self.clean {
            self.count(name, &value);
        }
        self.store(name, value);
    }

    /// Stores a counted value, taking the one it replaces out of the count.
    #[inline(always)]
    fn store(&mut self, name: &str, value: AttributeValue) {
        if let Some(old) = self.item.insert(name.to_owned(), value) {
            self.uncount(name, old);
        }
    }

    /// Stores `value` as attribute `name`, counted with `size` (the
    /// field type's `AttributeCodec::checked_size`, called only while
    /// counting).
    #[inline(always)]
    pub fn insert_sized(
        &mut self,
        name: &str,
        value: AttributeValue,
        size: impl Fn(&AttributeValue) -> Option<usize>,
    ) {
        if self.clean {
            self.count_with(name, &value, &size);
        }
        self.store(name, value);
    }

    /// Counts a value with its own size function: out of the line of
    /// `to_item`, which counts nothing (inlined there, counting made it
    /// 8% slower by instructions, and each name's copy was no longer
    /// inlined).
    #[cold]
    #[inline(never)]
    fn count_with(
        &mut self,
        name: &str,
        value: &AttributeValue,
        size: &dyn Fn(&AttributeValue) -> Option<usize>,
    ) {
        self.add(name.len(), size(value));
    }

    /// Adds an attribute's size, `name_length` bytes of name and `size`
    /// of value (`None`: not clean).
    #[inline]
    fn add(&mut self, name_length: usize, size: Option<usize>) {
        match size {
            Some(size) => self.size += name_length + size,
            None => self.clean = false,
        }
    }

    /// Stores a key attribute (of the table, a GSI, an LSI or a vector
    /// index) as a String; `check_item` refuses an empty one.
    #[inline]
    pub fn insert_key_string(&mut self, name: &str, value: String) {
        if self.clean {
            self.add(name.len(), (!value.is_empty()).then_some(value.len()));
        }
        self.store(name, AttributeValue::S(value));
    }

    /// Stores the value of attribute `attribute`, a key attribute of a
    /// multi-attribute index of `schema`, checked as `check_item` checks
    /// it ([`check_index_key_value`], with the type the schema gives it).
    pub fn insert_index_key_value(
        &mut self,
        schema: &EntitySchema,
        attribute: &'static str,
        value: AttributeValue,
    ) {
        if self.clean {
            self.clean = schema.index_key_field(attribute).is_some_and(|(field, _)| {
                check_index_key_value(schema, attribute, field.attribute_type, &value).is_ok()
            });
        }
        self.insert(attribute, value);
    }

    /// Leaves attribute `name` out.
    #[inline]
    pub fn remove(&mut self, name: &str) {
        if let Some(old) = self.item.remove(name) {
            self.uncount(name, old);
        }
    }

    /// The item so far.
    #[inline]
    pub fn item(&self) -> &AttributeMap {
        &self.item
    }

    /// The item so far, to change as a whole-struct encoding does; no
    /// longer counted.
    pub fn unchecked_mut(&mut self) -> &mut AttributeMap {
        self.clean = false;
        &mut self.item
    }

    /// The item, as `to_item` returns it (nothing checked, empty sets kept).
    #[inline]
    pub fn into_item(self) -> AttributeMap {
        self.item
    }

    /// The item and its size in bytes, checked as [`check_item`] checks it
    /// for the entity `schema` describes: a clean item by its counted size
    /// and the 400 KB limit alone, any other through `check_item`.
    ///
    /// # Errors
    ///
    /// The errors of [`check_item`].
    pub fn checked(self, schema: &EntitySchema) -> Result<(AttributeMap, usize), Error> {
        let mut item = self.item;
        if !self.clean {
            let size = check_item(schema, &mut item)?;
            return Ok((item, size));
        }
        #[cfg(debug_assertions)]
        {
            let mut copy = item.clone();
            let answer = check_item(schema, &mut copy).map_err(|error| error.to_string());
            let counted = check_item_size(schema, &item, self.size)
                .map(|()| self.size)
                .map_err(|error| error.to_string());
            assert_eq!(
                counted, answer,
                "ItemBuilder and check_item disagree on {item:?}"
            );
            assert_eq!(copy, item, "check_item changed a clean item");
        }
        check_item_size(schema, &item, self.size)?;
        Ok((item, self.size))
    }

    /// Counts a value of any other insert (serde's encodings, stamps, a
    /// TTL), out of the line of `to_item` as [`count_with`](Self::count_with).
    #[cold]
    #[inline(never)]
    fn count(&mut self, name: &str, value: &AttributeValue) {
        self.add(name.len(), checked_size(value));
    }

    /// Takes a replaced or removed value out of the count (while clean,
    /// every value in the item was counted).
    #[cold]
    #[inline(never)]
    fn uncount(&mut self, name: &str, old: AttributeValue) {
        if !self.clean {
            return;
        }
        if let Some(size) = checked_size(&old) {
            self.size -= name.len() + size;
        }
    }
}
