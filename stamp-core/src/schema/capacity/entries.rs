//! The index entries an item makes, and how a write changes them: what
//! each index's write units are counted from.

use super::*;

/// A GSI or LSI, as capacity sees it: an LSI is an index whose partition
/// key is the table's.
#[derive(Debug, Clone)]
pub(super) struct PricedIndex {
    pub(super) index: TableIndex,
    pub(super) local: bool,
}

/// The table's GSIs, then its LSIs.
pub(super) fn priced_indexes(resolved: &Resolved) -> Vec<PricedIndex> {
    resolved
        .indexes
        .iter()
        .cloned()
        .map(|index| PricedIndex {
            local: index.is_local(),
            index,
        })
        .collect()
}

/// The key attributes of `index` (a multi-attribute index's every
/// attribute).
pub(super) fn index_key_attributes(index: &TableIndex) -> Vec<&'static str> {
    match index.multi_attribute {
        Some(multi) => multi.key_fields().map(|field| field.attribute).collect(),
        None => std::iter::once(index.partition_key)
            .chain(index.sort_key)
            .collect(),
    }
}

/// One index's entry of an item: its index key values and what it stores.
pub(super) struct Entry {
    pub(super) key: Vec<AttributeValue>,
    pub(super) stored: AttributeMap,
}

impl Entry {
    pub(super) fn bytes(&self) -> usize {
        item_size(&self.stored)
    }
}

/// The entry of `item` in `index`, or `None` when the item is not in it
/// (it lacks an index key attribute).
pub(super) fn index_entry(
    resolved: &Resolved,
    index: &TableIndex,
    item: &AttributeMap,
) -> Option<Entry> {
    let index_keys = index_key_attributes(index);
    let key = index_keys
        .iter()
        .map(|name| item.get(*name).cloned())
        .collect::<Option<Vec<_>>>()?;
    let is_key = |name: &str| {
        name == resolved.partition_key || name == resolved.sort_key || index_keys.contains(&name)
    };
    let stored: AttributeMap = match &index.projection {
        IndexProjection::All => item.clone(),
        IndexProjection::KeysOnly => item
            .iter()
            .filter(|(name, _)| is_key(name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
        IndexProjection::Include(included) => item
            .iter()
            .filter(|(name, _)| is_key(name) || included.iter().any(|kept| kept == *name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect(),
    };
    Some(Entry { key, stored })
}

/// How one write changes one index's entry of an item, with the entry
/// sizes in bytes: the one place of DynamoDB's index write rules.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum EntryChange {
    /// In the index neither before nor after, or in it as it was.
    Unchanged,
    /// Enters the index: one write of the new entry.
    Added(usize),
    /// Leaves the index: one write of the old entry.
    Removed(usize),
    /// Its index key changes: a delete of the old entry and a put of the
    /// new one, each rounded up on its own.
    Moved(usize, usize),
    /// Same key, other projected values: one write of the larger entry.
    Rewritten(usize, usize),
}

impl EntryChange {
    /// What `old` becoming `new` is.
    pub(super) fn between(old: Option<&Entry>, new: Option<&Entry>) -> Self {
        match (old, new) {
            (None, None) => EntryChange::Unchanged,
            (None, Some(new)) => EntryChange::Added(new.bytes()),
            (Some(old), None) => EntryChange::Removed(old.bytes()),
            (Some(old), Some(new)) if !same_values(&old.key, &new.key) => {
                EntryChange::Moved(old.bytes(), new.bytes())
            }
            (Some(old), Some(new)) if same_item(&old.stored, &new.stored) => EntryChange::Unchanged,
            (Some(old), Some(new)) => EntryChange::Rewritten(old.bytes(), new.bytes()),
        }
    }

    /// The write units of the change, `None` when the index is not written.
    pub(super) fn units(self) -> Option<f64> {
        match self {
            EntryChange::Unchanged => None,
            EntryChange::Added(bytes) | EntryChange::Removed(bytes) => Some(write_units(bytes)),
            EntryChange::Moved(old, new) => Some(write_units(old) + write_units(new)),
            EntryChange::Rewritten(old, new) => Some(write_units(old).max(write_units(new))),
        }
    }
}

/// Whether two items hold the same values (sets compare as sets).
pub(super) fn same_item(a: &AttributeMap, b: &AttributeMap) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(name, value)| b.get(name).is_some_and(|other| same_value(value, other)))
}

pub(super) fn same_values(a: &[AttributeValue], b: &[AttributeValue]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
}

pub(super) fn same_value(a: &AttributeValue, b: &AttributeValue) -> bool {
    pub(super) fn same_set<T: Ord>(a: &[T], b: &[T]) -> bool {
        let mut a: Vec<&T> = a.iter().collect();
        let mut b: Vec<&T> = b.iter().collect();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }
    match (a, b) {
        (AttributeValue::Ss(a), AttributeValue::Ss(b))
        | (AttributeValue::Ns(a), AttributeValue::Ns(b)) => same_set(a, b),
        (AttributeValue::Bs(a), AttributeValue::Bs(b)) => {
            let a: Vec<&[u8]> = a.iter().map(|blob| blob.as_ref()).collect();
            let b: Vec<&[u8]> = b.iter().map(|blob| blob.as_ref()).collect();
            same_set(&a, &b)
        }
        (AttributeValue::L(a), AttributeValue::L(b)) => same_values(a, b),
        (AttributeValue::M(a), AttributeValue::M(b)) => same_item(a, b),
        _ => a == b,
    }
}
