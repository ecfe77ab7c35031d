//! The answer of a search: [`SearchResults`], each result a [`Similar`].

/// One result of a similarity search: the item and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Similar<T> {
    /// The item (an entity, or a projection of one).
    pub item: T,
    /// DynamoDB's `Score`: for `COSINE`, `1 - cos` (0 to 2); for
    /// `EUCLIDEAN`, the distance; for `DOT_PRODUCT`, the dot product
    /// (higher is closer).
    pub score: f64,
}

/// The answer of a similarity search: at most `TopK` results, most similar
/// first (ascending scores, descending for `DOT_PRODUCT`), as DynamoDB
/// returned them.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults<T> {
    /// The results, most similar first.
    pub results: Vec<Similar<T>>,
    /// The `VectorSearchRequestBytes` DynamoDB reported (the search's cost
    /// in Vector Search bytes), when it reported any.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html>.
    pub search_request_bytes: Option<f64>,
    /// Results of another entity type that the index returned and the
    /// search left out (an index whose vector attribute two entities
    /// share); 0 for an index only one entity writes.
    pub other_entities: usize,
    /// Results whose TTL (`#[stamp(ttl)]`) had passed at the table's clock
    /// ([`Table::now`](crate::Table::now)), which the search left out: DynamoDB returned them
    /// among its `TopK` (and charged them), so `results` holds fewer. 0
    /// with [`include_expired`](super::SimilaritySearch::include_expired).
    pub expired: usize,
}
