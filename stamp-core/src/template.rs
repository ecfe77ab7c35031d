//! Key templates: the static description the derive emits for every
//! `#[pk]`, `#[sk]` and `#[gsiN]` template, and the two runtime operations on
//! it, building a key and splitting a key back into its field segments.
//!
//! Nothing here parses a template string: the derive has already turned
//! `ORDER#<created_at>#<order_id>` into [`Segment`]s and chosen the escaped
//! characters.

use std::borrow::Cow;

use crate::{Error, KeyPart};

/// One piece of a key template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Literal text, such as `ORDER#` or `#`.
    Literal(&'static str),
    /// A field placeholder such as `<created_at>`, by the field's name as
    /// written in the struct (without `r#`).
    Field(&'static str),
}

/// The static description of one key template, emitted by `#[derive(Item)]`.
///
/// # Escaping
///
/// A field value may contain the template's delimiters. Before it goes into
/// the key, every character of [`escaped`](Self::escaped) in the encoded value
/// is replaced by `%` and two uppercase hex digits per UTF-8 byte (`#` becomes
/// `%23`, `%` becomes `%25`). `escaped` always holds `%` and, for every
/// literal between two placeholders, its first non-alphanumeric character (or
/// its first character if it has none). So an escaped value never contains a
/// delimiter, and a key splits back at the first occurrence of each
/// delimiter: two different field tuples never give the same key. Values
/// without those characters, which is nearly all of them, are written as they
/// are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyTemplate {
    /// The template as written in the attribute, such as
    /// `ORDER#<created_at>#<order_id>`.
    pub source: &'static str,
    /// The template's literal and field segments, in order.
    pub segments: &'static [Segment],
    /// The characters escaped in field values (see above).
    pub escaped: &'static str,
}

impl KeyTemplate {
    /// The names of the fields in the template, in order.
    pub fn fields(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.segments.iter().filter_map(|segment| match segment {
            Segment::Field(name) => Some(*name),
            Segment::Literal(_) => None,
        })
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
    /// [`Error::KeyMismatch`] when `key` does not have the template's literal
    /// segments, or a segment is not validly escaped.
    pub fn split<'k>(
        &self,
        entity: &'static str,
        key: &'k str,
    ) -> Result<Vec<Cow<'k, str>>, Error> {
        let mismatch = |reason: String| Error::KeyMismatch {
            entity,
            template: self.source,
            key: key.to_owned(),
            reason,
        };
        let mut values = Vec::new();
        let mut rest = key;
        for (position, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Literal(text) => {
                    rest = rest.strip_prefix(text).ok_or_else(|| {
                        mismatch(format!(
                            "expected `{text}` at byte {}",
                            key.len() - rest.len()
                        ))
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
                                mismatch(format!("expected the key to end with `{text}`"))
                            })?,
                        Some(Segment::Literal(text)) => rest.find(text).ok_or_else(|| {
                            mismatch(format!("expected `{text}` after field `{name}`"))
                        })?,
                        Some(Segment::Field(_)) => {
                            unreachable!("the derive refuses adjacent placeholders")
                        }
                    };
                    let (value, tail) = rest.split_at(end);
                    if value.is_empty() {
                        return Err(mismatch(format!("field `{name}` is empty")));
                    }
                    values.push(unescape(value).ok_or_else(|| {
                        mismatch(format!("field `{name}` is not validly escaped"))
                    })?);
                    rest = tail;
                }
            }
        }
        if rest.is_empty() {
            Ok(values)
        } else {
            Err(mismatch(format!("unexpected `{rest}` after the template")))
        }
    }
}

/// Builds one key attribute value from a [`KeyTemplate`], segment by segment.
///
/// Generated key builders call it with the template's literals and fields in
/// order; it allocates once, with the capacity given.
#[derive(Debug)]
pub struct KeyBuilder {
    key: String,
    entity: &'static str,
    template: &'static KeyTemplate,
}

impl KeyBuilder {
    /// Starts a key for `entity` from `template`, reserving `capacity` bytes.
    pub fn new(entity: &'static str, template: &'static KeyTemplate, capacity: usize) -> Self {
        KeyBuilder {
            key: String::with_capacity(capacity),
            entity,
            template,
        }
    }

    /// Appends literal text.
    pub fn literal(&mut self, text: &str) {
        self.key.push_str(text);
    }

    /// Appends the field `field`, encoded by its [`KeyPart`] and escaped.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyKeyValue`] when the encoding is empty;
    /// [`Error::KeyEncode`] when the value has no encoding.
    pub fn field<T: KeyPart>(&mut self, field: &'static str, value: &T) -> Result<(), Error> {
        let start = self.key.len();
        value
            .encode_key(&mut self.key)
            .map_err(|source| Error::KeyEncode {
                entity: self.entity,
                field,
                source,
            })?;
        self.finish_field(field, start)
    }

    /// Appends a string field, as [`field`](Self::field) does for `String`.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyKeyValue`] when `value` is empty.
    pub fn str_field(&mut self, field: &'static str, value: &str) -> Result<(), Error> {
        let start = self.key.len();
        self.key.push_str(value);
        self.finish_field(field, start)
    }

    fn finish_field(&mut self, field: &'static str, start: usize) -> Result<(), Error> {
        if self.key.len() == start {
            return Err(Error::EmptyKeyValue {
                entity: self.entity,
                field,
            });
        }
        let escaped = self.template.escaped;
        if needs_escaping(&self.key[start..], escaped) {
            let raw = self.key.split_off(start);
            for c in raw.chars() {
                if escaped.contains(c) {
                    let mut bytes = [0; 4];
                    for byte in c.encode_utf8(&mut bytes).bytes() {
                        self.key.push('%');
                        self.key.push(
                            char::from_digit(u32::from(byte >> 4), 16)
                                .unwrap()
                                .to_ascii_uppercase(),
                        );
                        self.key.push(
                            char::from_digit(u32::from(byte & 0xF), 16)
                                .unwrap()
                                .to_ascii_uppercase(),
                        );
                    }
                } else {
                    self.key.push(c);
                }
            }
        }
        Ok(())
    }

    /// The finished key.
    pub fn finish(self) -> String {
        self.key
    }
}

/// Whether `value` holds a character of `escaped`. The escaped set is
/// nearly always `%` and one or two ASCII delimiters such as `#`; then the
/// bytes are compared with them in a loop without early exit, which the
/// compiler vectorizes, and no byte of a multi-byte character can match.
/// (`str::contains` with a closure per character was most of the cost of
/// building a key; see BENCHMARKS.md.)
fn needs_escaping(value: &str, escaped: &str) -> bool {
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

/// Reverses the escaping of [`KeyBuilder`]; `None` for a `%` not followed by
/// two hex digits or escapes that are not UTF-8.
fn unescape(value: &str) -> Option<Cow<'_, str>> {
    if !value.contains('%') {
        return Some(Cow::Borrowed(value));
    }
    let mut bytes = Vec::with_capacity(value.len());
    let mut input = value.bytes();
    while let Some(byte) = input.next() {
        if byte == b'%' {
            let high = char::from(input.next()?).to_digit(16)?;
            let low = char::from(input.next()?).to_digit(16)?;
            bytes.push((high * 16 + low) as u8);
        } else {
            bytes.push(byte);
        }
    }
    String::from_utf8(bytes).ok().map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::needs_escaping;

    #[test]
    fn needs_escaping_finds_the_escaped_characters() {
        assert!(!needs_escaping("2026-06-01", "%#"));
        assert!(needs_escaping("a#b", "%#"));
        assert!(needs_escaping("100%", "%#"));
        assert!(needs_escaping("50%", "%"));
        assert!(!needs_escaping("a#b", "%"));
        assert!(needs_escaping("a:b", "%#:"));
        assert!(!needs_escaping("a-b", "%#:"));
        assert!(needs_escaping("a-b", "%#:-"));
        // Bytes of multi-byte characters are never ASCII delimiters.
        assert!(!needs_escaping("café😀", "%#"));
        // A set with a non-ASCII character is checked character by character.
        assert!(needs_escaping("a§b", "%§"));
        assert!(!needs_escaping("a#b", "%§"));
    }
}
