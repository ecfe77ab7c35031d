//! The check of a search condition against the index's inline filters.

use super::*;

/// Checks a search condition on `index`: every attribute it names is an
/// inline filter element (or the partition element, with `=` only), and
/// it uses comparisons and `BETWEEN` only.
pub(super) fn check_condition<E>(
    index: &'static IndexSchema,
    spec: &'static VectorIndexSchema,
    condition: &Condition<E>,
) -> Result<(), VectorError> {
    let partition = index.search_partition().map(|(attribute, _)| attribute);
    for (attribute, kind) in condition.leaves() {
        if Some(attribute) == partition {
            if kind != LeafKind::Equal {
                return Err(VectorError::RangeOnPartition {
                    index: index.name,
                    attribute,
                });
            }
            continue;
        }
        if spec.filter(attribute).is_none() {
            return Err(VectorError::NotAFilter {
                index: index.name,
                attribute: attribute.to_owned(),
                filters: spec.filters.iter().map(|filter| filter.attribute).collect(),
            });
        }
        if let LeafKind::Function(function) = kind {
            return Err(VectorError::UnsupportedCondition {
                index: index.name,
                function,
            });
        }
    }
    Ok(())
}
