//! The sort-key conditions of a [`Query`]: `sort_key_eq`, `sort_key_begins_with`,
//! `sort_key_lt`, …, `sort_key_between`.

use super::*;

impl<E: Entity, I: QueryIndex, O> Query<E, I, O> {
    /// Sort key equal to a whole key, or, given a leading prefix of the
    /// sort-key fields, beginning with it (`begins_with(SK, "ORDER#<created_at>#")`).
    pub fn sort_key_eq(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(if prefix.complete {
                SortCondition::Equals(prefix.text)
            } else {
                SortCondition::BeginsWith(prefix.text)
            })
        })
    }

    /// Sort key beginning with the given leading fields: the same as
    /// [`sort_key_eq`](Self::sort_key_eq) for a prefix, and `begins_with`
    /// on the whole key text when every field is given.
    pub fn sort_key_begins_with(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| Ok(SortCondition::BeginsWith(prefix.sort_key_prefix()?.text)))
    }

    /// Sort-key fields less than the given ones.
    pub fn sort_key_lt(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: None,
                upper: Some(Bound::Excluded(prefix.text)),
            })
        })
    }

    /// Sort-key fields less than or equal to the given ones (a prefix
    /// includes every key that begins with it).
    pub fn sort_key_le(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: None,
                upper: Some(inclusive_upper(prefix)),
            })
        })
    }

    /// Sort-key fields greater than the given ones (a prefix excludes every
    /// key that begins with it).
    pub fn sort_key_gt(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            let lower = if prefix.complete {
                Bound::Excluded(prefix.text)
            } else {
                match prefix_upper_bound(&prefix.text) {
                    Some(bound) => Bound::Included(bound),
                    None => Bound::Excluded(prefix.text),
                }
            };
            Ok(SortCondition::Range {
                lower: Some(lower),
                upper: None,
            })
        })
    }

    /// Sort-key fields greater than or equal to the given ones.
    pub fn sort_key_ge(self, prefix: impl SortKeyPrefix<E, I>) -> Self {
        self.with_sort(|| {
            let prefix = prefix.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: Some(Bound::Included(prefix.text)),
                upper: None,
            })
        })
    }

    /// Sort-key fields between `low` and `high`, both included. With a
    /// prefix as `high`, every key that begins with it is included: given
    /// two times of a `created_at` field, `low` at 00:00 of the first day
    /// and `high` at 23:59:59.999999999 of the last, it selects whole days.
    /// The upper bound is the real upper bound of the prefix (its last
    /// character moved to the next), not a sentinel character.
    pub fn sort_key_between(
        self,
        low: impl SortKeyPrefix<E, I>,
        high: impl SortKeyPrefix<E, I>,
    ) -> Self {
        self.with_sort(|| {
            let low = low.sort_key_prefix()?;
            let high = high.sort_key_prefix()?;
            Ok(SortCondition::Range {
                lower: Some(Bound::Included(low.text)),
                upper: Some(inclusive_upper(high)),
            })
        })
    }
}
