//! [`Cursor`]: a URL-safe position in a query, signed but not encrypted.

// Ordered maps: a cursor's text is the same for the same position.
use std::collections::BTreeMap;
use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::Mac;

use crate::error::Error;
use crate::error::{CursorReason, Refusal};
use crate::model::entity::AttributeMap;
use crate::request::cursor_key::CursorKey;

/// Where the next page of a query starts: text to hand to a client (in a
/// URL: it is URL-safe base64 without padding) and take back with
/// [`Query::after`](crate::Query::after)`(&Cursor::from_text(text))`.
///
/// # What a client can read in it
///
/// A cursor is encoded, not encrypted: its payload is the base64 of a small
/// JSON object, which anyone holding the cursor can decode. It holds a
/// 64-bit fingerprint of the query (below) and the key of the item the
/// next page starts after (the last item returned, or, when the request
/// budget ran out, DynamoDB's `LastEvaluatedKey`): that item's table key
/// attributes, such as `PK = "CUST#c-1"` and
/// `SK = "ORDER#2026-06-01T10:00:00.000000000Z#…"`, with its index key
/// attributes on an index, and one such position per shard on a sharded
/// GSI. So a client learns the key values of the last item it was shown;
/// keep out of key templates what a client must not see, or encrypt the
/// cursor text yourself. Signing (below) stops a client from changing a
/// cursor, not from reading it.
///
/// # The query a cursor belongs to
///
/// The fingerprint covers the table name, the index (the table, GSI N or
/// LSI N), the key condition with its values (the partition key, and the
/// sort-key condition such as `sort_key_between(…)`) and the order
/// (`newest_first`). A cursor given to a query that differs in any of them
/// is [`Refusal::CursorMismatch`] before anything is sent. Everything else
/// may change from one page to the next: [`limit`](crate::Query::limit),
/// [`max_items`](crate::Query::max_items) (a client may ask for pages of
/// another size), `max_requests`, the filter, the projection and
/// `consistent_read`.
///
/// A cursor comes back from an untrusted client, so before anything is
/// sent its key is checked against the query: at most
/// [`MAX_CURSOR_LEN`](crate::MAX_CURSOR_LEN) bytes, exactly the expected
/// key attributes, the query's partition, and a sort key inside the query's
/// condition; [`Refusal::InvalidCursor`] otherwise.
///
/// # Signed cursors
///
/// On a table with a signing key
/// ([`Table::with_cursor_key`](crate::Table::with_cursor_key)) the text is
/// `<payload>.<signature>`: the payload as above, and the HMAC-SHA256
/// (RFC 2104) of the payload's text under that key, both URL-safe base64
/// without padding. Such a table checks the signature first, in constant
/// time, and refuses an unsigned cursor, a changed one and one signed with
/// another key with [`Refusal::InvalidCursor`], before anything else is read
/// from it and before anything is sent. Without a key a cursor is the
/// payload alone; a table without a key ignores a signature, so that
/// turning signing off does not break live cursors (the checks of the
/// payload still apply).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor(String);

/// A 64-bit FNV-1a hash of the parts of a query a cursor depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint(u64);

impl Fingerprint {
    pub(crate) fn of(parts: &[&str]) -> Self {
        Fingerprint(crate::key::shard::fnv1a_64(parts))
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Content {
    /// The query fingerprint, in hex.
    q: String,
    /// The key attributes, all strings (empty for a sharded query).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    k: BTreeMap<String, String>,
    /// A sharded query's position in each shard, by shard number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    s: Option<Vec<ShardPosition>>,
    /// The number key attributes (a multi-attribute index), as their text.
    /// Left out when empty, so the cursors of other queries are unchanged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    n: BTreeMap<String, String>,
    /// The binary key attributes (a multi-attribute index), URL-safe base64.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    b: BTreeMap<String, String>,
}

/// One shard's position in a cursor's text.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum ShardPosition {
    Start,
    After(BTreeMap<String, String>),
    Done,
}

/// Where one shard of a sharded query goes on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ShardStart {
    /// At the start of the query's range: nothing read yet.
    Start,
    /// After this key (the last item read, or `LastEvaluatedKey`).
    After(AttributeMap),
    /// Every item read.
    Done,
}

/// The attributes of a key as strings, as a cursor holds them.
fn strings(key: &AttributeMap) -> Result<BTreeMap<String, String>, Error> {
    key.iter()
        .map(|(name, value)| match value {
            AttributeValue::S(text) => Ok((name.clone(), text.clone())),
            other => Err(Error::Refused(Refusal::InvalidCursor {
                reason: crate::error::CursorReason::NotString {
                    attribute: name.to_string(),
                    value: Box::new(other.clone()),
                },
            })),
        })
        .collect()
}

fn attributes(key: BTreeMap<String, String>) -> AttributeMap {
    key.into_iter()
        .map(|(name, text)| (name, AttributeValue::S(text)))
        .collect()
}

impl Cursor {
    /// The cursor of `key` for the query of `fingerprint`, signed with
    /// `signing` when there is one.
    pub(crate) fn encode(
        fingerprint: &Fingerprint,
        signing: Option<&CursorKey>,
        key: &AttributeMap,
    ) -> Result<Self, Error> {
        let (mut k, mut n, mut b) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
        for (name, value) in key {
            match value {
                AttributeValue::S(text) => k.insert(name.clone(), text.clone()),
                AttributeValue::N(text) => n.insert(name.clone(), text.clone()),
                AttributeValue::B(bytes) => {
                    b.insert(name.clone(), URL_SAFE_NO_PAD.encode(bytes.as_ref()))
                }
                other => {
                    return Err(Error::Refused(Refusal::InvalidCursor {
                        reason: crate::error::CursorReason::NotKeyType {
                            attribute: name.to_string(),
                            value: Box::new(other.clone()),
                        },
                    }));
                }
            };
        }
        let content = Content {
            q: format!("{:016x}", fingerprint.0),
            k,
            s: None,
            n,
            b,
        };
        Ok(Self::seal(&content, signing))
    }

    /// The cursor of a sharded query: a position per shard.
    pub(crate) fn encode_shards(
        fingerprint: &Fingerprint,
        signing: Option<&CursorKey>,
        positions: &[ShardStart],
    ) -> Result<Self, Error> {
        let positions = positions
            .iter()
            .map(|position| {
                Ok(match position {
                    ShardStart::Start => ShardPosition::Start,
                    ShardStart::After(key) => ShardPosition::After(strings(key)?),
                    ShardStart::Done => ShardPosition::Done,
                })
            })
            .collect::<Result<_, Error>>()?;
        let content = Content {
            q: format!("{:016x}", fingerprint.0),
            k: BTreeMap::new(),
            s: Some(positions),
            n: BTreeMap::new(),
            b: BTreeMap::new(),
        };
        Ok(Self::seal(&content, signing))
    }

    fn seal(content: &Content, signing: Option<&CursorKey>) -> Self {
        let json = serde_json::to_vec(content).expect("a map of strings serializes");
        let payload = URL_SAFE_NO_PAD.encode(json);
        Cursor(match signing {
            Some(signing) => {
                let tag = signing.mac(&payload).finalize().into_bytes();
                format!("{payload}.{}", URL_SAFE_NO_PAD.encode(tag))
            }
            None => payload,
        })
    }

    /// The key of this cursor, after checking its length, its signature
    /// (when `signing` is given) and that it comes from the query of
    /// `fingerprint`. The key itself is checked by the query.
    pub(crate) fn decode(
        &self,
        fingerprint: &Fingerprint,
        signing: Option<&CursorKey>,
    ) -> Result<AttributeMap, Error> {
        let content = self.open(fingerprint, signing, crate::ops::query::MAX_CURSOR_LEN)?;
        if content.s.is_some() {
            return Err(Error::Refused(Refusal::InvalidCursor {
                reason: crate::error::CursorReason::Sharded,
            }));
        }
        let invalid = |reason: CursorReason| Error::Refused(Refusal::InvalidCursor { reason });
        let mut key = attributes(content.k);
        for (name, text) in content.n {
            if key.insert(name.clone(), AttributeValue::N(text)).is_some() {
                return Err(invalid(CursorReason::AttributeTwice {
                    attribute: name.clone(),
                }));
            }
        }
        for (name, text) in content.b {
            let bytes = URL_SAFE_NO_PAD.decode(&text).map_err(|error| {
                invalid(CursorReason::AttributeNotBase64 {
                    attribute: name.clone(),
                    detail: error.to_string(),
                })
            })?;
            let value = AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(bytes));
            if key.insert(name.clone(), value).is_some() {
                return Err(invalid(CursorReason::AttributeTwice {
                    attribute: name.clone(),
                }));
            }
        }
        Ok(key)
    }

    /// The positions of a sharded query's cursor, one per shard of
    /// `shards`, after the checks of [`decode`](Self::decode). Each key
    /// is checked by the query.
    pub(crate) fn decode_shards(
        &self,
        fingerprint: &Fingerprint,
        signing: Option<&CursorKey>,
        shards: u16,
    ) -> Result<Vec<ShardStart>, Error> {
        let invalid = |reason: CursorReason| Error::Refused(Refusal::InvalidCursor { reason });
        let limit = crate::ops::query::MAX_CURSOR_LEN * usize::from(shards);
        let content = self.open(fingerprint, signing, limit)?;
        let plain = content.k.is_empty() && content.n.is_empty() && content.b.is_empty();
        let Some(positions) = content.s.filter(|_| plain) else {
            return Err(invalid(CursorReason::NotSharded));
        };
        if positions.len() != usize::from(shards) {
            return Err(invalid(CursorReason::ShardCount {
                positions: positions.len(),
                shards,
            }));
        }
        Ok(positions
            .into_iter()
            .map(|position| match position {
                ShardPosition::Start => ShardStart::Start,
                ShardPosition::After(key) => ShardStart::After(attributes(key)),
                ShardPosition::Done => ShardStart::Done,
            })
            .collect())
    }

    /// The content, after checking the length (at most `limit` bytes), the
    /// signature and the fingerprint.
    fn open(
        &self,
        fingerprint: &Fingerprint,
        signing: Option<&CursorKey>,
        limit: usize,
    ) -> Result<Content, Error> {
        let invalid = |reason: CursorReason| Error::Refused(Refusal::InvalidCursor { reason });
        if self.0.len() > limit {
            return Err(invalid(CursorReason::TooLong {
                length: self.0.len(),
                limit,
            }));
        }
        let (payload, signature) = match self.0.split_once('.') {
            Some((payload, signature)) => (payload, Some(signature)),
            None => (self.0.as_str(), None),
        };
        if let Some(signing) = signing {
            let signature = signature.ok_or_else(|| invalid(CursorReason::Unsigned))?;
            let tag = URL_SAFE_NO_PAD.decode(signature).map_err(|error| {
                invalid(CursorReason::SignatureNotBase64 {
                    detail: error.to_string(),
                })
            })?;
            if !signing.accepts(payload, &tag) {
                return Err(invalid(CursorReason::SignatureMismatch));
            }
        }
        let json = URL_SAFE_NO_PAD.decode(payload).map_err(|error| {
            invalid(CursorReason::NotBase64 {
                detail: error.to_string(),
            })
        })?;
        let content: Content = serde_json::from_slice(&json).map_err(|error| {
            invalid(CursorReason::NotStampCursor {
                detail: error.to_string(),
            })
        })?;
        if content.q != format!("{:016x}", fingerprint.0) {
            return Err(Error::Refused(Refusal::CursorMismatch));
        }
        Ok(content)
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
