//! The pure parts of reading a stream: the order shards are read in,
//! sequence-number comparison, and the Streams API's attribute values
//! turned into the DynamoDB API's.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodbstreams::types::AttributeValue as StreamAttributeValue;

use crate::model::entity::AttributeMap;

/// One shard as `DescribeStream` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShardInfo {
    pub(crate) id: String,
    pub(crate) parent: Option<String>,
    /// `StartingSequenceNumber`.
    pub(crate) start: Option<String>,
    /// `EndingSequenceNumber`: set once the shard is closed (DynamoDB), or
    /// the last record so far (dynoxide).
    pub(crate) end: Option<String>,
}

/// Compares two sequence numbers as the decimal numbers they are (up to 40
/// digits, more than `u128` holds): by length without leading zeros, then
/// by text.
pub(crate) fn compare_sequence_numbers(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Whether `value` has the form of a sequence number: 21 to 40 decimal
/// digits (the `SequenceNumber` constraint of `GetShardIterator`).
pub(crate) fn is_sequence_number(value: &str) -> bool {
    (21..=40).contains(&value.len()) && value.bytes().all(|byte| byte.is_ascii_digit())
}

/// The shards in the order they are read: every shard after its parent
/// (when the parent is in the list), and otherwise by starting sequence
/// number, then id. A parent missing from the list (trimmed) does not hold
/// its children back. A cycle, which DynamoDB never describes, is broken
/// by that same order rather than looping.
pub(crate) fn read_order(shards: &[ShardInfo]) -> Vec<ShardInfo> {
    let mut sorted: Vec<&ShardInfo> = shards.iter().collect();
    sorted.sort_by(|a, b| {
        let start = match (&a.start, &b.start) {
            (Some(a), Some(b)) => compare_sequence_numbers(a, b),
            (a, b) => a.is_none().cmp(&b.is_none()),
        };
        start.then_with(|| a.id.cmp(&b.id))
    });
    let present: HashSet<&str> = sorted.iter().map(|shard| shard.id.as_str()).collect();
    let mut placed: HashSet<&str> = HashSet::new();
    let mut order = Vec::with_capacity(sorted.len());
    while order.len() < sorted.len() {
        // The first shard, in sorted order, whose parent is placed; a
        // cycle (which DynamoDB never describes) gives way to the first left.
        let ready = |shard: &&&ShardInfo| {
            !placed.contains(shard.id.as_str())
                && shard.parent.as_deref().is_none_or(|parent| {
                    !present.contains(parent) || placed.contains(parent) || parent == shard.id
                })
        };
        let next = sorted
            .iter()
            .find(ready)
            .or_else(|| {
                sorted
                    .iter()
                    .find(|shard| !placed.contains(shard.id.as_str()))
            })
            .expect("a shard is left");
        placed.insert(next.id.as_str());
        order.push((*next).clone());
    }
    order
}

/// The positions of the shards that may be read now, of `shards` (each
/// with whether it was read to its end) in read order: not finished, and
/// with no parent, or a parent read to its end, or a parent no longer
/// listed (trimmed). So after a split the children wait for the parent.
pub(crate) fn readable(shards: &[(&ShardInfo, bool)]) -> Vec<usize> {
    let finished = |id: &str| {
        shards
            .iter()
            .find(|(shard, _)| shard.id == id)
            .map(|(_, done)| *done)
    };
    shards
        .iter()
        .enumerate()
        .filter(|(_, (shard, done))| {
            !done
                && shard
                    .parent
                    .as_deref()
                    .is_none_or(|parent| finished(parent).is_none_or(|done| done))
        })
        .map(|(position, _)| position)
        .collect()
}

/// The position of every shard in `order`, for looking parents up.
#[cfg(test)]
fn positions(order: &[ShardInfo]) -> HashMap<&str, usize> {
    order
        .iter()
        .enumerate()
        .map(|(index, shard)| (shard.id.as_str(), index))
        .collect()
}

/// A Streams API attribute value as the DynamoDB API's (the same shapes,
/// two SDK crates), or `None` for a type this SDK does not know.
pub(crate) fn attribute_value(value: StreamAttributeValue) -> Option<AttributeValue> {
    Some(match value {
        StreamAttributeValue::S(text) => AttributeValue::S(text),
        StreamAttributeValue::N(number) => AttributeValue::N(number),
        StreamAttributeValue::B(blob) => AttributeValue::B(blob),
        StreamAttributeValue::Bool(value) => AttributeValue::Bool(value),
        StreamAttributeValue::Null(value) => AttributeValue::Null(value),
        StreamAttributeValue::Ss(values) => AttributeValue::Ss(values),
        StreamAttributeValue::Ns(values) => AttributeValue::Ns(values),
        StreamAttributeValue::Bs(values) => AttributeValue::Bs(values),
        StreamAttributeValue::L(values) => AttributeValue::L(
            values
                .into_iter()
                .map(attribute_value)
                .collect::<Option<_>>()?,
        ),
        StreamAttributeValue::M(map) => AttributeValue::M(item(map)?),
        _ => return None,
    })
}

/// A Streams API image or key map as an [`AttributeMap`](crate::AttributeMap).
pub(crate) fn item(map: HashMap<String, StreamAttributeValue>) -> Option<AttributeMap> {
    map.into_iter()
        .map(|(name, value)| Some((name, attribute_value(value)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shard(id: &str, parent: Option<&str>, start: &str) -> ShardInfo {
        ShardInfo {
            id: id.to_owned(),
            parent: parent.map(str::to_owned),
            start: Some(start.to_owned()),
            end: None,
        }
    }

    #[test]
    fn sequence_numbers_compare_as_numbers() {
        assert_eq!(compare_sequence_numbers("9", "10"), Ordering::Less);
        assert_eq!(compare_sequence_numbers("010", "10"), Ordering::Equal);
        let long = "1".repeat(40);
        assert_eq!(
            compare_sequence_numbers(&long, "999999999999999999999"),
            Ordering::Greater
        );
    }

    #[test]
    fn a_sequence_number_has_21_to_40_digits() {
        assert!(is_sequence_number(&"1".repeat(21)));
        assert!(is_sequence_number(&"1".repeat(40)));
        assert!(!is_sequence_number(&"1".repeat(20)));
        assert!(!is_sequence_number(&"1".repeat(41)));
        assert!(!is_sequence_number("10000000000000000000a"));
        assert!(!is_sequence_number(""));
    }

    #[test]
    fn a_split_reads_the_parent_first_even_when_children_start_lower() {
        // The children's ids sort before the parent's and one child's
        // starting number is below the parent's: the parent still comes first.
        let shards = [
            shard("a-child-1", Some("z-parent"), "100000000000000000005"),
            shard("a-child-2", Some("z-parent"), "100000000000000000001"),
            shard("z-parent", None, "100000000000000000003"),
            shard("orphan", Some("trimmed"), "100000000000000000002"),
        ];
        let order: Vec<String> = read_order(&shards).into_iter().map(|s| s.id).collect();
        assert_eq!(order, ["orphan", "z-parent", "a-child-2", "a-child-1"]);
    }

    #[test]
    fn children_wait_for_a_listed_parent_to_finish() {
        let parent = shard("p", None, "100000000000000000001");
        let child = shard("c", Some("p"), "100000000000000000009");
        let orphan = shard("o", Some("trimmed"), "100000000000000000005");
        assert_eq!(
            readable(&[(&parent, false), (&child, false), (&orphan, false)]),
            [0, 2]
        );
        assert_eq!(
            readable(&[(&parent, true), (&child, false), (&orphan, true)]),
            [1]
        );
    }

    proptest! {
        /// A plain model of the feed's rounds over a random forest of
        /// closed shards with records: each round reads every readable
        /// shard to its end. Every record comes once, and every record of
        /// a parent before any record of its children.
        #[test]
        fn rounds_read_every_parent_before_its_children(
            parents in proptest::collection::vec((any::<bool>(), any::<prop::sample::Index>(), 0u32..4), 1..25),
        ) {
            let shards: Vec<ShardInfo> = parents
                .iter()
                .enumerate()
                .map(|(index, (has_parent, parent, _))| ShardInfo {
                    id: format!("s{index}"),
                    parent: (*has_parent && index > 0).then(|| format!("s{}", parent.index(index))),
                    start: Some(format!("{:021}", index)),
                    end: None,
                })
                .collect();
            let records: Vec<u32> = parents.iter().map(|(_, _, count)| *count).collect();
            let order = read_order(&shards);
            let mut finished = vec![false; order.len()];
            let mut emitted: Vec<(String, u32)> = Vec::new();
            while finished.iter().any(|done| !done) {
                let view: Vec<(&ShardInfo, bool)> = order.iter().zip(finished.iter().copied()).collect();
                let ready = readable(&view);
                prop_assert!(!ready.is_empty(), "stuck: {finished:?}");
                for position in ready {
                    let index: usize = order[position].id[1..].parse().unwrap();
                    emitted.extend((0..records[index]).map(|n| (order[position].id.clone(), n)));
                    finished[position] = true;
                }
            }
            let total: u32 = records.iter().sum();
            prop_assert_eq!(emitted.len(), total as usize);
            let at = |id: &str| emitted.iter().position(|(shard, _)| shard == id);
            let last = |id: &str| emitted.iter().rposition(|(shard, _)| shard == id);
            for shard in &shards {
                if let (Some(parent), Some(first_child)) = (shard.parent.as_deref(), at(&shard.id))
                    && let Some(last_parent) = last(parent)
                {
                    prop_assert!(last_parent < first_child, "{} before its parent {}", shard.id, parent);
                }
            }
        }

        /// For any forest of shards (each parent an earlier shard or a
        /// trimmed one), every shard comes once, and after its parent.
        #[test]
        fn every_shard_comes_once_after_its_parent(
            parents in proptest::collection::vec((any::<bool>(), any::<prop::sample::Index>(), 0u32..1000), 1..30),
        ) {
            let shards: Vec<ShardInfo> = parents
                .iter()
                .enumerate()
                .map(|(index, (has_parent, parent, start))| {
                    let parent = (*has_parent && index > 0)
                        .then(|| format!("s{}", parent.index(index)))
                        .or_else(|| has_parent.then(|| "trimmed".to_owned()));
                    ShardInfo {
                        id: format!("s{index}"),
                        parent,
                        start: Some(format!("{:021}", 100_000 + start)),
                        end: None,
                    }
                })
                .collect();
            let order = read_order(&shards);
            prop_assert_eq!(order.len(), shards.len());
            let at = positions(&order);
            prop_assert_eq!(at.len(), shards.len());
            for shard in &shards {
                if let Some(parent) = shard.parent.as_deref().and_then(|p| at.get(p)) {
                    prop_assert!(*parent < at[shard.id.as_str()], "{} before its parent", shard.id);
                }
            }
        }

        /// Sequence-number order is the numbers' order, for numbers of
        /// any length.
        #[test]
        fn comparison_is_numeric(a in 0u128..u128::MAX, b in 0u128..u128::MAX, pad in 0usize..3) {
            let a_text = format!("{}{a}", "0".repeat(pad));
            prop_assert_eq!(compare_sequence_numbers(&a_text, &b.to_string()), a.cmp(&b));
        }
    }
}
