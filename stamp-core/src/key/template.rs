//! Key templates: the static description the derive emits for every
//! `#[pk]`, `#[sk]` and `#[gsiN]` template, and the two runtime operations on
//! it, building a key and splitting a key back into its field segments.
//!
//! Nothing here parses a template string: the derive has already turned
//! `ORDER#<created_at>#<order_id>` into [`Segment`]s and chosen the escaped
//! characters.

use std::borrow::Cow;

use crate::error::Error;
use crate::error::KeyError;
use crate::key::part::KeyPart;

/// One piece of a key template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Literal text, such as `ORDER#` or `#`.
    Literal(&'static str),
    /// A field placeholder such as `<created_at>`, by the field's name as
    /// written in the struct (without `r#`).
    Field(&'static str),
    /// The shard placeholder `<shard>` that ends the partition-key template
    /// of a sharded GSI (`#[gsi1(pk = "STATUS#<status>#<shard>", …,
    /// shards = 8)]`), with the shard count: the key holds the shard number
    /// in decimal, `0` to `count - 1`, computed by
    /// [`shard_of`](crate::shard_of) from the item's primary key.
    Shard(u16),
}

/// The static description of one key template, emitted by `#[derive(Item)]`.
///
/// # Escaping
///
/// A field value may contain any character. Before it goes into the key,
/// every character of [`escaped`](Self::escaped) in the encoded value is
/// replaced by `%` and two uppercase hex digits per UTF-8 byte (` ` becomes
/// `%20`, `#` becomes `%23`, `%` becomes `%25`). The derive always uses
/// [`KeyTemplate::ESCAPED`]: every character from U+0000 to `%` (U+0025), and
/// it requires every literal that follows a placeholder to begin with a
/// character below `%` (such as `#`). Then:
///
/// - an escaped value never contains the delimiter that ends it, so a key
///   splits back at the first occurrence of each delimiter, and two
///   different field tuples never give the same key;
/// - every character of an escaped value sorts above the delimiter, and the
///   escape keeps the order of characters (`%XX` sorts below every
///   unescaped character, and among escapes by byte), so keys sort in the
///   order of their values even when one value is a prefix of another
///   (`ab` < `ab c` < `abc`, as `ab#` < `ab%20c#` < `abc#`).
///
/// Values without those characters, which is nearly all of them (no
/// built-in encoding but `String`'s has one), are written as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyTemplate {
    /// The template as written in the attribute, such as
    /// `ORDER#<created_at>#<order_id>`.
    pub source: &'static str,
    /// The template's literal and field segments, in order.
    pub segments: &'static [Segment],
    /// The characters escaped in field values (see above); the derive
    /// emits [`KeyTemplate::ESCAPED`].
    pub escaped: &'static str,
}

impl KeyTemplate {
    /// The characters escaped in field values of every template the derive
    /// emits: U+0000 to `%` (U+0025), that is the control characters, space,
    /// `!`, `"`, `#`, `$` and `%`. A storage format.
    pub const ESCAPED: &'static str = "\u{0}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{f}\u{10}\u{11}\u{12}\u{13}\u{14}\u{15}\u{16}\u{17}\u{18}\u{19}\u{1a}\u{1b}\u{1c}\u{1d}\u{1e}\u{1f} !\"#$%";

    /// The names of the fields in the template, in order.
    pub fn fields(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.segments.iter().filter_map(|segment| match segment {
            Segment::Field(name) => Some(*name),
            Segment::Literal(_) | Segment::Shard(_) => None,
        })
    }

    /// The shard count when the template ends in the shard placeholder
    /// `<shard>` (the partition key of a sharded GSI).
    #[inline]
    pub fn shards(&self) -> Option<u16> {
        match self.segments.last() {
            Some(Segment::Shard(count)) => Some(*count),
            _ => None,
        }
    }

    /// The literal text before the first placeholder: `ORDER#` for
    /// `ORDER#<created_at>#<order_id>`, the whole template for a constant
    /// such as `PROFILE`.
    pub fn literal_prefix(&self) -> &'static str {
        match self.segments.first() {
            Some(Segment::Literal(text)) => text,
            _ => "",
        }
    }

    /// The sum of the lengths of the literal segments, in bytes.
    #[inline]
    pub const fn literal_len(&self) -> usize {
        let mut total = 0;
        let mut index = 0;
        while index < self.segments.len() {
            if let Segment::Literal(text) = self.segments[index] {
                total += text.len();
            }
            index += 1;
        }
        total
    }

    /// Splits `key` into its field segments, unescaped, in template order.
    ///
    /// # Errors
    ///
    /// [`KeyError::KeyMismatch`] when `key` does not have the template's literal
    /// segments, or a segment is not escaped exactly as [`KeyBuilder`]
    /// escapes (an escaped character written raw, an escape of a character
    /// that is never escaped such as `%41`, lowercase hex digits).
    pub fn split<'k>(
        &self,
        entity: &'static str,
        key: &'k str,
    ) -> Result<Vec<Cow<'k, str>>, Error> {
        let mismatch = |reason: crate::error::KeyMismatchReason| {
            Error::Key(KeyError::KeyMismatch {
                entity,
                template: self.source,
                key: key.to_owned(),
                reason,
            })
        };
        let mut values = Vec::new();
        let mut rest = key;
        for (position, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Literal(text) => {
                    rest = rest.strip_prefix(text).ok_or_else(|| {
                        mismatch(crate::error::KeyMismatchReason::Literal {
                            literal: text.to_string(),
                            at: key.len() - rest.len(),
                        })
                    })?;
                }
                Segment::Field(name) => {
                    let end = match self.segments.get(position + 1) {
                        None => rest.len(),
                        // The trailing literal is matched at the end; it is not escaped in values.
                        Some(Segment::Literal(text)) if position + 2 == self.segments.len() => rest
                            .len()
                            .checked_sub(text.len())
                            .filter(|&end| rest.is_char_boundary(end) && rest[end..] == **text)
                            .ok_or_else(|| {
                                mismatch(crate::error::KeyMismatchReason::Ending {
                                    literal: text.to_string(),
                                })
                            })?,
                        Some(Segment::Literal(text)) => rest.find(text).ok_or_else(|| {
                            mismatch(crate::error::KeyMismatchReason::AfterField {
                                literal: text.to_string(),
                                field: name.to_string(),
                            })
                        })?,
                        Some(Segment::Field(_) | Segment::Shard(_)) => {
                            unreachable!("the derive refuses adjacent placeholders")
                        }
                    };
                    let (value, tail) = rest.split_at(end);
                    if value.is_empty() {
                        return Err(mismatch(crate::error::KeyMismatchReason::EmptyField {
                            field: name.to_string(),
                        }));
                    }
                    values.push(unescape(value, self.escaped).ok_or_else(|| {
                        mismatch(crate::error::KeyMismatchReason::NotStampEscaped {
                            field: name.to_string(),
                        })
                    })?);
                    rest = tail;
                }
                Segment::Shard(count) => {
                    // The last segment: the whole rest, in canonical decimal.
                    let canonical = rest
                        .parse::<u16>()
                        .ok()
                        .filter(|shard| shard < count && shard.to_string() == rest);
                    if canonical.is_none() {
                        return Err(mismatch(crate::error::KeyMismatchReason::Shard {
                            shard: rest.to_owned(),
                            shards: *count,
                        }));
                    }
                    rest = "";
                }
            }
        }
        if rest.is_empty() {
            Ok(values)
        } else {
            Err(mismatch(crate::error::KeyMismatchReason::Trailing {
                rest: rest.to_owned(),
            }))
        }
    }
}

use crate::key::part::KeyPartError;
/// The partition key limit under the name the error messages compare with.
pub(crate) use crate::limits::MAX_PARTITION_KEY_BYTES as PARTITION_KEY_LIMIT;

/// Builds one key attribute value from a [`KeyTemplate`], segment by segment.
///
/// Generated key builders call it with the template's literals and fields in
/// order; it allocates once, with the capacity given.
#[derive(Debug)]
pub struct KeyBuilder {
    key: String,
    entity: &'static str,
    template: &'static KeyTemplate,
    /// Whether the template escapes [`KeyTemplate::ESCAPED`] (every
    /// template the derive emits), so that a value of a type whose
    /// [`KeyPart::NEEDS_ESCAPING`] is `false` is written without a check.
    derive_set: bool,
}

impl KeyBuilder {
    /// Starts a key for `entity` from `template`, reserving `capacity` bytes.
    #[inline]
    pub fn new(entity: &'static str, template: &'static KeyTemplate, capacity: usize) -> Self {
        KeyBuilder {
            key: String::with_capacity(capacity),
            entity,
            template,
            // The same constant is usually the same address; else compare.
            derive_set: std::ptr::eq(template.escaped, KeyTemplate::ESCAPED)
                || template.escaped == KeyTemplate::ESCAPED,
        }
    }

    /// Appends literal text.
    #[inline]
    pub fn literal(&mut self, text: &str) {
        self.key.push_str(text);
    }

    /// Appends the field `field`, encoded by its [`KeyPart`] and escaped
    /// (unless its type's encodings never need it,
    /// [`KeyPart::NEEDS_ESCAPING`], and the template escapes the derive's
    /// set).
    ///
    /// # Errors
    ///
    /// [`KeyError::EmptyKeyValue`] when the encoding is empty;
    /// [`KeyError::KeyEncode`] when the value has no encoding.
    pub fn field<T: KeyPart>(&mut self, field: &'static str, value: &T) -> Result<(), Error> {
        let start = self.key.len();
        if let Err(source) = value.encode_key(&mut self.key) {
            return Err(self.encode_error(field, source));
        }
        if !T::NEEDS_ESCAPING && self.derive_set {
            debug_assert!(
                !needs_escaping(&self.key[start..], KeyTemplate::ESCAPED),
                "`{}`'s `KeyPart::NEEDS_ESCAPING` is false, but it encoded `{}`, which needs escaping",
                std::any::type_name::<T>(),
                &self.key[start..],
            );
            if self.key.len() == start {
                return Err(self.empty_error(field));
            }
            return Ok(());
        }
        self.finish_field(field, start)
    }

    #[cold]
    #[inline(never)]
    fn encode_error(&self, field: &'static str, source: KeyPartError) -> Error {
        Error::Key(KeyError::KeyEncode {
            entity: self.entity,
            field,
            source,
        })
    }

    #[cold]
    #[inline(never)]
    fn empty_error(&self, field: &'static str) -> Error {
        Error::Key(KeyError::EmptyKeyValue {
            entity: self.entity,
            field,
        })
    }

    /// Appends a string field, as [`field`](Self::field) does for `String`.
    ///
    /// # Errors
    ///
    /// [`KeyError::EmptyKeyValue`] when `value` is empty.
    #[inline]
    pub fn str_field(&mut self, field: &'static str, value: &str) -> Result<(), Error> {
        if value.is_empty() {
            return Err(self.empty_error(field));
        }
        let escaped = self.template.escaped;
        let found = if self.derive_set {
            any_derive_escaped(value)
        } else {
            needs_escaping(value, escaped)
        };
        if found {
            escape_into(&mut self.key, value, escaped);
        } else {
            self.key.push_str(value);
        }
        Ok(())
    }

    fn finish_field(&mut self, field: &'static str, start: usize) -> Result<(), Error> {
        if self.key.len() == start {
            return Err(self.empty_error(field));
        }
        let escaped = self.template.escaped;
        let found = if self.derive_set {
            any_derive_escaped(&self.key[start..])
        } else {
            needs_escaping(&self.key[start..], escaped)
        };
        if found {
            let raw = self.key.split_off(start);
            escape_into(&mut self.key, &raw, escaped);
        }
        Ok(())
    }

    /// Appends the shard number `shard` of a sharded GSI's partition key,
    /// in decimal ([`Segment::Shard`]).
    pub fn shard(&mut self, shard: u16) {
        use std::fmt::Write as _;
        write!(self.key, "{shard}").expect("writing to a String does not fail");
    }

    /// The finished key.
    #[inline]
    pub fn finish(self) -> String {
        self.key
    }

    /// The finished key, checked against DynamoDB's length limit for its
    /// place: [`MAX_PARTITION_KEY_BYTES`](crate::limits::MAX_PARTITION_KEY_BYTES) or [`MAX_SORT_KEY_BYTES`](crate::limits::MAX_SORT_KEY_BYTES) bytes.
    ///
    /// # Errors
    ///
    /// [`KeyError::KeyTooLong`] when the key is longer.
    #[inline]
    pub fn finish_within(self, limit: usize) -> Result<String, Error> {
        if self.key.len() > limit {
            return Err(Error::Key(KeyError::KeyTooLong {
                entity: self.entity,
                template: self.template.source,
                length: self.key.len(),
                limit,
            }));
        }
        Ok(self.key)
    }
}

/// Appends `raw` to `out` escaped as a key value is
/// ([`KeyTemplate::ESCAPED`]): for the keys of unique values' guards.
pub(crate) fn escape_key_value(out: &mut String, raw: &str) {
    escape_into(out, raw, KeyTemplate::ESCAPED);
}

/// Appends `raw` to `out`, each character of `escaped` as `%XX` per UTF-8
/// byte, in uppercase hex.
fn escape_into(out: &mut String, raw: &str, escaped: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for c in raw.chars() {
        if is_escaped(c, escaped) {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                out.push('%');
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 0xF)]));
            }
        } else {
            out.push(c);
        }
    }
}

/// Whether `c` is in `escaped` (a range check for [`KeyTemplate::ESCAPED`]).
fn is_escaped(c: char, escaped: &str) -> bool {
    if escaped == KeyTemplate::ESCAPED {
        c <= '%'
    } else {
        escaped.contains(c)
    }
}

/// Whether `value` holds a character of `escaped`. For the derive's set,
/// [`KeyTemplate::ESCAPED`], it is one comparison per byte (`<= b'%'`; no
/// byte of a multi-byte character is ASCII), in a loop without early exit
/// that the compiler vectorizes. Other sets, from templates written by
/// hand, are nearly always `%` and one or two ASCII delimiters.
/// (`str::contains` with a closure per character was most of the cost of
/// building a key; see BENCHMARKS.md.)
fn needs_escaping(value: &str, escaped: &str) -> bool {
    if escaped == KeyTemplate::ESCAPED {
        return any_derive_escaped(value);
    }
    let bytes = value.bytes();
    match *escaped.as_bytes() {
        [a] if a.is_ascii() => bytes.fold(false, |found, x| found | (x == a)),
        [a, b] if escaped.is_ascii() => bytes.fold(false, |found, x| found | (x == a) | (x == b)),
        [a, b, c] if escaped.is_ascii() => {
            bytes.fold(false, |found, x| found | (x == a) | (x == b) | (x == c))
        }
        _ => value.contains(|c| escaped.contains(c)),
    }
}

/// Whether `value` holds a character of [`KeyTemplate::ESCAPED`], that is a
/// byte up to `%` (no byte of a multi-byte character is ASCII): eight bytes
/// at a time, without early exit. `w - 0x26…26 & !w & 0x80…80` is nonzero
/// exactly when a byte of `w` is below 0x26: such a byte wraps around and
/// has its high bit clear before; a byte from 0x26 up wraps only if a lower
/// byte did, and sets the high bit only when it had it already.
fn any_derive_escaped(value: &str) -> bool {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH_BITS: u64 = ONES * 0x80;
    const BELOW: u64 = ONES * (b'%' as u64 + 1);
    let mut words = value.as_bytes().chunks_exact(8);
    let mut found = false;
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of 8 bytes"));
        found |= word.wrapping_sub(BELOW) & !word & HIGH_BITS != 0;
    }
    words
        .remainder()
        .iter()
        .fold(found, |found, &byte| found | (byte <= b'%'))
}

/// Reverses the escaping of [`KeyBuilder`], accepting only what it writes:
/// `None` for a character of `escaped` written raw, a `%` not followed by
/// two uppercase hex digits, escapes that are not UTF-8, and the escape of a
/// character outside `escaped` (`%41` for `A`).
fn unescape<'v>(value: &'v str, escaped: &str) -> Option<Cow<'v, str>> {
    if !value.contains('%') {
        return (!needs_escaping(value, escaped)).then_some(Cow::Borrowed(value));
    }
    let mut bytes = Vec::with_capacity(value.len());
    let mut input = value.bytes();
    let hex = |byte: Option<u8>| match byte? {
        digit @ b'0'..=b'9' => Some(digit - b'0'),
        digit @ b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    };
    while let Some(byte) = input.next() {
        if byte == b'%' {
            let high = hex(input.next())?;
            let low = hex(input.next())?;
            bytes.push(high * 16 + low);
        } else {
            bytes.push(byte);
        }
    }
    let text = String::from_utf8(bytes).ok()?;
    // Canonical: escaping the text again gives exactly `value`.
    let mut again = String::with_capacity(value.len());
    escape_into(&mut again, &text, escaped);
    (again == value).then_some(Cow::Owned(text))
}

#[cfg(test)]
mod tests;
