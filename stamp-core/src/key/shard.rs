//! Write sharding: the shard of an item in a sharded GSI, a stable function
//! of its primary key.

/// The FNV-1a 64-bit hash of `parts`, each followed by the byte `0xFF`
/// (which no UTF-8 text contains, so the parts cannot run into each other).
/// See <http://www.isthe.com/chongo/tech/comp/fnv/> for the algorithm.
pub(crate) fn fnv1a_64(parts: &[&str]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET_BASIS;
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    hash
}

/// The shard, from `0` to `shards - 1`, of the item whose primary key is
/// `partition_key` and `sort_key` (the stored `PK` and `SK` values), in a
/// GSI sharded over `shards` partition-key values
/// (`#[gsi1(pk = "STATUS#<status>#<shard>", …, shards = 8)]`).
///
/// **A storage format**: the shard is written into the item's index key,
/// so this function never changes. It is the 64-bit FNV-1a hash of the
/// UTF-8 bytes of `partition_key`, the byte `0xFF`, the bytes of `sort_key`
/// and `0xFF` again, mapped onto the shards by its high bits
/// (`hash × shards / 2⁶⁴`, which uses the bits that FNV-1a mixes best):
///
/// ```
/// assert_eq!(stamp_core::shard_of("CUST#c-1", "ORDER#2026-06-01T00:00:00.000000000Z#1", 8), 1);
/// ```
///
/// Since the shard follows from the primary key alone, a write that does
/// not change the primary key leaves the item in its shard, and an update
/// that changes an index field rewrites the index key in place. Spread:
/// over many keys the shards receive equal shares (a test of the
/// repository,
/// [`tests/it/ops/sharding.rs`](https://github.com/stamp-rs/stamp/blob/main/tests/it/ops/sharding.rs),
/// writes 2,000 items under one status and finds every shard within ±25 %
/// of its share).
///
/// `shards` must be at least 1 (the derive allows 2 to
/// [`MAX_SHARDS`]); 0 and 1 give shard 0.
pub fn shard_of(partition_key: &str, sort_key: &str, shards: u16) -> u16 {
    let hash = fnv1a_64(&[partition_key, sort_key]);
    ((u128::from(hash) * u128::from(shards)) >> 64) as u16
}

/// The largest shard count of a sharded GSI: each page of a query on it
/// sends one `Query` per shard, and its cursor holds a position per shard.
pub const MAX_SHARDS: u16 = 32;
