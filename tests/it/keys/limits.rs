//! The derive's compile-time limits (stamp-derive/src/limits.rs) are the
//! runtime's (stamp-core/src/limits.rs): the file is included here and
//! every value compared.

#[allow(dead_code)]
#[path = "../../../stamp-derive/src/limits.rs"]
mod derive_limits;

#[test]
fn the_derive_mirrors_the_runtime_limits() {
    assert_eq!(derive_limits::MAX_GSIS, stamp::limits::MAX_GSIS);
    assert_eq!(derive_limits::MAX_LSIS, stamp::limits::MAX_LSIS);
    assert_eq!(
        derive_limits::MAX_INDEX_KEY_ATTRIBUTES,
        stamp::limits::MAX_INDEX_KEY_ATTRIBUTES
    );
    assert_eq!(derive_limits::MAX_SHARDS, stamp::key::MAX_SHARDS);
    assert_eq!(
        derive_limits::MAX_VECTOR_DIMENSIONS,
        stamp::limits::MAX_VECTOR_DIMENSIONS
    );
    assert_eq!(
        derive_limits::MAX_VECTOR_INDEXES,
        stamp::limits::MAX_VECTOR_INDEXES
    );
    assert_eq!(
        derive_limits::MIN_NAME_LENGTH,
        stamp::limits::MIN_NAME_LENGTH
    );
    assert_eq!(
        derive_limits::MAX_NAME_LENGTH,
        stamp::limits::MAX_NAME_LENGTH
    );
}

#[test]
fn the_limits_are_dynamodbs() {
    // DynamoDB's documented values (ServiceQuotas.html, the API reference).
    assert_eq!(stamp::limits::MAX_ITEM_SIZE_BYTES, 409_600);
    assert_eq!(stamp::limits::MAX_PARTITION_KEY_BYTES, 2048);
    assert_eq!(stamp::limits::MAX_SORT_KEY_BYTES, 1024);
    assert_eq!(stamp::limits::MAX_BATCH_WRITE_ITEMS, 25);
    assert_eq!(stamp::limits::MAX_BATCH_WRITE_BYTES, 16_777_216);
    assert_eq!(stamp::limits::MAX_BATCH_GET_KEYS, 100);
    assert_eq!(stamp::limits::MAX_TRANSACTION_ACTIONS, 100);
    assert_eq!(stamp::limits::MAX_TRANSACTION_BYTES, 4_194_304);
    assert_eq!(stamp::limits::MAX_EXPRESSION_BYTES, 4096);
    assert_eq!(stamp::limits::MAX_GSIS, 20);
    assert_eq!(stamp::limits::MAX_LSIS, 5);
    assert_eq!(stamp::limits::MAX_PROJECTED_ATTRIBUTES, 100);
    assert_eq!(stamp::limits::MAX_INDEX_KEY_ATTRIBUTES, 4);
    assert_eq!(stamp::limits::MAX_VECTOR_DIMENSIONS, 4096);
    assert_eq!(stamp::limits::MAX_VECTOR_INDEXES, 5);
    assert_eq!(stamp::limits::MAX_TOP_K, 100);
    assert_eq!(stamp::limits::MAX_SEARCH_RESPONSE_BYTES, 16_777_216);
    assert_eq!(stamp::limits::MAX_NUMBER_DIGITS, 38);
    assert_eq!(stamp::limits::MAX_NESTING_DEPTH, 32);
    assert_eq!(stamp::limits::MIN_NAME_LENGTH, 3);
    assert_eq!(stamp::limits::MAX_NAME_LENGTH, 255);
}
