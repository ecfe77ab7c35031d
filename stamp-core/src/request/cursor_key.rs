//! [`CursorKey`]: the secrets a table signs its cursors with, given to
//! [`Table::with_cursor_key`](crate::Table::with_cursor_key); the cursors
//! themselves are the operations' (`ops/cursor.rs`).

use std::fmt;
use std::sync::Arc;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The secrets a table signs and checks its cursors with (HMAC-SHA256):
/// the current key, which signs, and the previous ones, which are still
/// accepted when a cursor is read, so that a key can be rotated without
/// breaking the cursors in flight. Cheap to clone; its `Debug` output does
/// not show the keys.
#[derive(Clone)]
pub(crate) struct CursorKey {
    current: Arc<[u8]>,
    previous: Arc<[Arc<[u8]>]>,
}

impl CursorKey {
    pub(crate) fn new(key: Vec<u8>) -> Self {
        CursorKey {
            current: Arc::from(key),
            previous: Arc::from(Vec::new()),
        }
    }

    /// This key, which signs, and `previous`, which are accepted as well.
    pub(crate) fn with_previous(self, previous: Vec<Vec<u8>>) -> Self {
        CursorKey {
            previous: previous.into_iter().map(Arc::from).collect(),
            ..self
        }
    }

    /// The MAC of a cursor's payload text under `key`, with a context
    /// string so that the key's MACs for other purposes cannot pass as
    /// cursors.
    fn mac_with(key: &[u8], payload: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(b"stamp cursor v1\0");
        mac.update(payload.as_bytes());
        mac
    }

    /// The MAC of a cursor's payload text under the current key.
    pub(crate) fn mac(&self, payload: &str) -> Hmac<Sha256> {
        Self::mac_with(&self.current, payload)
    }

    /// Whether `tag` is the MAC of `payload` under the current key or one
    /// of the previous ones (each compared in constant time).
    pub(crate) fn accepts(&self, payload: &str, tag: &[u8]) -> bool {
        std::iter::once(&self.current)
            .chain(self.previous.iter())
            .any(|key| Self::mac_with(key, payload).verify_slice(tag).is_ok())
    }
}

impl fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CursorKey(<redacted>)")
    }
}
