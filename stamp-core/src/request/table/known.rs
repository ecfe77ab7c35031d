//! What a [`Table`] knows of the definition it was made from (given to
//! `with_definition` or remembered by `create_table`, both in
//! `schema/table.rs`): each index's projection, and whether it has an LSI.

use std::sync::{Arc, OnceLock};

use super::Table;
use crate::model::index_projection::IndexProjection;

/// What a table knows of the definition it was made from.
#[derive(Debug)]
pub(crate) struct Known {
    /// The projection of each index.
    index_projections: Vec<(&'static str, IndexProjection)>,
    /// Whether it has a local secondary index: then every write asks for
    /// `ReturnItemCollectionMetrics = SIZE`.
    has_local_index: bool,
}

impl Known {
    pub(crate) fn new(
        index_projections: Vec<(&'static str, IndexProjection)>,
        has_local_index: bool,
    ) -> Self {
        Known {
            index_projections,
            has_local_index,
        }
    }
}

impl Table {
    /// Whether the table's definition, when known, has a local secondary
    /// index.
    pub(crate) fn has_local_index(&self) -> bool {
        self.known.get().is_some_and(|known| known.has_local_index)
    }

    /// This table, knowing `known` (what
    /// [`with_definition`](Self::with_definition) read of a definition).
    pub(crate) fn knowing(mut self, known: Known) -> Self {
        self.known = Arc::new(OnceLock::from(known));
        self
    }

    /// Remembers `known` for this table and its clones, unless they know a
    /// definition already ([`create_table`](Self::create_table)).
    pub(crate) fn remember(&self, known: Known) {
        let _ = self.known.set(known);
    }

    /// The projection of GSI `index` in the definition given to
    /// [`with_definition`](Self::with_definition), if any.
    pub(crate) fn index_projection(&self, index: &str) -> Option<&IndexProjection> {
        self.known
            .get()?
            .index_projections
            .iter()
            .find(|(name, _)| *name == index)
            .map(|(_, projection)| projection)
    }
}
