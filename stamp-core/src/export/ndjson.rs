//! NDJSON files: one JSON object per line, an entity's serde form, or an
//! unknown item's attribute values as plain JSON, numbers exactly as stored.

use std::io::Write;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use super::Sink;
use super::out::Out;
use crate::error::Error;
use crate::model::entity::{AttributeMap, Entity};

/// JSON lines, into a file or objects rolled at a line boundary.
struct Lines {
    out: Out,
    items: u64,
    /// Items in the object being written.
    in_object: u64,
}

impl Lines {
    fn new(out: Out) -> Self {
        Lines {
            out,
            items: 0,
            in_object: 0,
        }
    }

    fn write(&mut self, value: &impl Serialize) -> Result<(), Error> {
        if let Err(error) = serde_json::to_writer(&mut self.out, value) {
            return Err(self.out.error(&error));
        }
        self.end_line()
    }

    /// Writes `line`, a JSON text, and ends the line.
    fn write_raw(&mut self, line: &str) -> Result<(), Error> {
        if let Err(error) = self.out.write_all(line.as_bytes()) {
            return Err(self.out.error(&error));
        }
        self.end_line()
    }

    fn end_line(&mut self) -> Result<(), Error> {
        if let Err(error) = self.out.write_all(b"\n") {
            return Err(self.out.error(&error));
        }
        self.items += 1;
        self.in_object += 1;
        if self.out.full() {
            self.out.end_object(self.in_object);
            self.in_object = 0;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(u64, Out), Error> {
        self.out.close()?;
        // The last object, even empty when it is the only one (an entity
        // without items still has its file).
        if self.in_object > 0 || self.items == 0 {
            self.out.end_object(self.in_object);
        }
        Ok((self.items, self.out))
    }
}

/// Entity `E`'s items, decoded and written in `E`'s serde form.
struct EntityLines<E> {
    lines: Lines,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity + Serialize + 'static> Sink for EntityLines<E> {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error> {
        let value = E::from_item(item)?;
        self.lines.write(&value)
    }

    fn finish(self: Box<Self>) -> Result<(u64, Out), Error> {
        self.lines.finish()
    }

    fn out(&mut self) -> &mut Out {
        &mut self.lines.out
    }
}

/// Items of unknown type, as stored: attribute values as plain JSON (`S` a
/// string, `N` a number written from its decimal text exactly, so
/// `12345678901234567890123` stays that and does not become a float, `B` a
/// base64 string, `BOOL` a boolean, `NULL` null, sets and lists arrays,
/// maps objects with their keys in sorted order).
struct RawLines(Lines);

impl Sink for RawLines {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error> {
        let mut line = String::new();
        write_map(&mut line, item.iter());
        self.0.write_raw(&line)
    }

    fn finish(self: Box<Self>) -> Result<(u64, Out), Error> {
        self.0.finish()
    }

    fn out(&mut self) -> &mut Out {
        &mut self.0.out
    }
}

/// Appends a JSON object of `entries`, keys in sorted order.
fn write_map<'a>(
    out: &mut String,
    entries: impl Iterator<Item = (&'a String, &'a AttributeValue)>,
) {
    let mut entries: Vec<(&String, &AttributeValue)> = entries.collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (position, (name, value)) in entries.into_iter().enumerate() {
        if position > 0 {
            out.push(',');
        }
        write_string(out, name);
        out.push(':');
        write_value(out, value);
    }
    out.push('}');
}

fn write_string(out: &mut String, text: &str) {
    out.push_str(&serde_json::to_string(text).expect("a string is JSON"));
}

fn write_array<T>(out: &mut String, values: &[T], mut write: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (position, value) in values.iter().enumerate() {
        if position > 0 {
            out.push(',');
        }
        write(out, value);
    }
    out.push(']');
}

fn write_value(out: &mut String, value: &AttributeValue) {
    use base64::Engine as _;
    let base64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    match value {
        AttributeValue::S(text) => write_string(out, text),
        AttributeValue::N(number) => write_number(out, number),
        AttributeValue::B(blob) => write_string(out, &base64(blob.as_ref())),
        AttributeValue::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
        AttributeValue::Null(_) => out.push_str("null"),
        AttributeValue::Ss(values) => write_array(out, values, |out, text| write_string(out, text)),
        AttributeValue::Ns(values) => {
            write_array(out, values, |out, number| write_number(out, number))
        }
        AttributeValue::Bs(values) => write_array(out, values, |out, blob| {
            write_string(out, &base64(blob.as_ref()))
        }),
        AttributeValue::L(values) => write_array(out, values, write_value),
        AttributeValue::M(map) => write_map(out, map.iter()),
        // A type newer than this SDK: its debug form, as a string.
        other => write_string(out, &format!("{other:?}")),
    }
}

/// Appends DynamoDB number `number` as a JSON number with the same digits:
/// as it is when it already has JSON's form (DynamoDB answers numbers such
/// as `-12.5`, `1E+2`), else with what JSON does not allow removed (a
/// leading `+`, leading zeros, a bare `.` at either end); as a string in
/// the rare case that is still not a JSON number.
fn write_number(out: &mut String, number: &str) {
    if is_json_number(number) {
        out.push_str(number);
        return;
    }
    let normal = normalize_number(number);
    if is_json_number(&normal) {
        out.push_str(&normal);
    } else {
        write_string(out, number);
    }
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, JSON's number grammar.
fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    let digits = |at: &mut usize| {
        let start = *at;
        while *at < bytes.len() && bytes[*at].is_ascii_digit() {
            *at += 1;
        }
        *at - start
    };
    if bytes.first() == Some(&b'-') {
        at += 1;
    }
    let start = at;
    let integer = digits(&mut at);
    if integer == 0 || (integer > 1 && bytes[start] == b'0') {
        return false;
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// `number` without a leading `+`, with no leading zeros in its integer
/// part, and with `0` around a bare `.` (`+007.` is `7`, `-.5` is `-0.5`).
fn normalize_number(number: &str) -> String {
    let (sign, rest) = match number.as_bytes().first() {
        Some(b'-') => ("-", &number[1..]),
        Some(b'+') => ("", &number[1..]),
        _ => ("", number),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (integer, fraction) = match mantissa.split_once('.') {
        Some((integer, fraction)) => (integer, fraction),
        None => (mantissa, ""),
    };
    let integer = integer.trim_start_matches('0');
    let integer = if integer.is_empty() { "0" } else { integer };
    let mut normal = format!("{sign}{integer}");
    if !fraction.is_empty() {
        normal.push('.');
        normal.push_str(fraction);
    }
    normal.push_str(exponent);
    normal
}

/// The NDJSON file (or objects) of entity `E`.
pub(super) fn entity_sink<E>(out: Out) -> Result<Box<dyn Sink>, Error>
where
    E: Entity + Serialize + Send + 'static,
{
    Ok(Box::new(EntityLines::<E> {
        lines: Lines::new(out),
        entity: PhantomData,
    }))
}

/// The NDJSON file (or objects) of the items of unknown type.
pub(super) fn unknown_sink(out: Out) -> Box<dyn Sink> {
    Box::new(RawLines(Lines::new(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_digits() {
        let written = |number: &str| {
            let mut out = String::new();
            write_number(&mut out, number);
            out
        };
        for number in [
            "12345678901234567890123",
            "-0.000000000000000000000000000000000000001",
            "9.9999999999999999999999999999999999999E+125",
            "0",
            "-12.5",
            "1E+2",
        ] {
            assert_eq!(written(number), number);
        }
        assert_eq!(written("+007.50"), "7.50");
        assert_eq!(written("-.5"), "-0.5");
        assert_eq!(written("5."), "5");
        assert_eq!(written("not a number"), "\"not a number\"");
    }
}
