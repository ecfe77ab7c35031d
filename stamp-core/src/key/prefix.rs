//! [`SortKeyText`]: the text of a sort key's leading fields, which a
//! query's sort-key conditions start from.

/// The text of a sort-key prefix, from [`SortKeyPrefix`](crate::SortKeyPrefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortKeyText {
    /// The key text: the literal prefix and fields, then the delimiter that
    /// follows the last field given, or the whole key when every field is
    /// given.
    pub text: String,
    /// Whether every field of the template is given, so `text` is a whole
    /// sort key.
    pub complete: bool,
}
