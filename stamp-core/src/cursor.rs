//! [`Cursor`]: an opaque, URL-safe position in a query or scan.

use std::collections::HashMap;
use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::{Error, Item};

/// Where the next page of a query starts: the `LastEvaluatedKey` (with the
/// table's keys too on a GSI) and a fingerprint of the query it came from.
/// It is URL-safe base64, to hand to a client and take back.
///
/// A cursor only works with the query that produced it;
/// [`Error::CursorMismatch`] otherwise. A cursor comes back from an
/// untrusted client, so before anything is sent its key is checked against
/// the query: at most [`MAX_CURSOR_LEN`](crate::MAX_CURSOR_LEN)
/// bytes, exactly the expected key attributes, the query's partition, a
/// and a sort key inside the query's condition;
/// [`Error::InvalidCursor`] otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor(String);

/// A 64-bit FNV-1a hash of the parts of a query a cursor depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint(u64);

impl Fingerprint {
    pub(crate) fn of(parts: &[&str]) -> Self {
        let mut hash: u64 = 0xcbf29ce484222325;
        for part in parts {
            for byte in part.bytes().chain([0xff]) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x100000001b3);
            }
        }
        Fingerprint(hash)
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Content {
    /// The query fingerprint, in hex.
    q: String,
    /// The key attributes, all strings.
    k: HashMap<String, String>,
}

impl Cursor {
    pub(crate) fn encode(fingerprint: &Fingerprint, key: &Item) -> Result<Self, Error> {
        let k = key
            .iter()
            .map(|(name, value)| match value {
                AttributeValue::S(text) => Ok((name.clone(), text.clone())),
                other => Err(Error::InvalidCursor {
                    reason: format!("key attribute `{name}` is {other:?}, not a string"),
                }),
            })
            .collect::<Result<_, _>>()?;
        let content = Content {
            q: format!("{:016x}", fingerprint.0),
            k,
        };
        let json = serde_json::to_vec(&content).expect("a map of strings serializes");
        Ok(Cursor(URL_SAFE_NO_PAD.encode(json)))
    }

    pub(crate) fn decode(&self, fingerprint: &Fingerprint) -> Result<Item, Error> {
        let invalid = |reason: String| Error::InvalidCursor { reason };
        if self.0.len() > crate::query::MAX_CURSOR_LEN {
            return Err(invalid(format!(
                "{} bytes, more than a cursor can be ({})",
                self.0.len(),
                crate::query::MAX_CURSOR_LEN
            )));
        }
        let json = URL_SAFE_NO_PAD
            .decode(&self.0)
            .map_err(|error| invalid(format!("not URL-safe base64: {error}")))?;
        let content: Content = serde_json::from_slice(&json)
            .map_err(|error| invalid(format!("not a Stamp cursor: {error}")))?;
        if content.q != format!("{:016x}", fingerprint.0) {
            return Err(Error::CursorMismatch);
        }
        Ok(content
            .k
            .into_iter()
            .map(|(name, text)| (name, AttributeValue::S(text)))
            .collect())
    }

    /// The cursor's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A cursor from text a client sent back. Checked when it is used.
    pub fn from_text(text: impl Into<String>) -> Self {
        Cursor(text.into())
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
