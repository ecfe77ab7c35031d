//! `DYNAMODB_JSON` files, gzipped: the items as stored, one
//! `{"Item": {"PK": {"S": "…"}, …}}` object a line, the format DynamoDB's
//! `ImportTable` reads (`InputFormat` `DYNAMODB_JSON`,
//! `InputCompressionType` `GZIP`) and its `ExportTableToPointInTime`
//! writes, so that the export's own readers ([`Export::run_from_files`](super::Export::run_from_files))
//! read them back.
//!
//! Each line is written by Stamp, not by a map's iteration order: the
//! attributes (and a map's keys) in sorted order, numbers as the decimal
//! text DynamoDB stores (`{"N": "12.50"}`, never a float), binary as
//! base64, so the same items give the same bytes. Each file or S3 object
//! is one whole gzip stream (an object rolled at a line boundary ends its
//! stream and the next starts a new one), as the import reads each object
//! on its own. An object rolls once its lines reach `file_bytes` before
//! compression (the import is billed on the uncompressed size), so an
//! object is smaller than `file_bytes`.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Format.html>.

use std::io::Write;

use aws_sdk_dynamodb::types::AttributeValue;
use flate2::Compression;
use flate2::write::GzEncoder;

use super::Sink;
use super::out::Out;
use crate::error::Error;
use crate::model::entity::AttributeMap;

/// The items as stored, gzipped `DYNAMODB_JSON` lines, into a file or
/// objects rolled at a line boundary.
struct GzipLines {
    out: Out,
    /// The gzip stream of the file or object being written.
    gzip: GzEncoder<Vec<u8>>,
    items: u64,
    /// Items in the object being written.
    in_object: u64,
    /// Its bytes before compression.
    raw_in_object: u64,
    /// The line being built, reused.
    line: String,
}

fn encoder() -> GzEncoder<Vec<u8>> {
    GzEncoder::new(Vec::new(), Compression::default())
}

impl GzipLines {
    /// Moves what the gzip stream has compressed so far to the output.
    fn drain(&mut self) -> Result<(), Error> {
        let compressed = std::mem::take(self.gzip.get_mut());
        if compressed.is_empty() {
            return Ok(());
        }
        self.out
            .write_all(&compressed)
            .map_err(|error| self.out.error(&error))
    }

    /// Ends the gzip stream and moves its last bytes to the output.
    fn end_stream(&mut self) -> Result<(), Error> {
        let gzip = std::mem::replace(&mut self.gzip, encoder());
        let rest = gzip.finish().map_err(|error| self.out.error(&error))?;
        self.out
            .write_all(&rest)
            .map_err(|error| self.out.error(&error))
    }
}

impl Sink for GzipLines {
    fn push(&mut self, item: AttributeMap) -> Result<(), Error> {
        self.line.clear();
        write_line(&mut self.line, &item);
        if let Err(error) = self.gzip.write_all(self.line.as_bytes()) {
            return Err(self.out.error(&error));
        }
        self.drain()?;
        self.items += 1;
        self.in_object += 1;
        self.raw_in_object += self.line.len() as u64;
        if self.out.full_before_compression(self.raw_in_object) {
            self.end_stream()?;
            self.out.end_object(self.in_object);
            self.in_object = 0;
            self.raw_in_object = 0;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<(u64, Out), Error> {
        // The last object, even empty when it is the only one (an entity
        // without items still has its file: an empty gzip stream).
        if self.in_object > 0 || self.items == 0 {
            self.end_stream()?;
            self.out.close()?;
            self.out.end_object(self.in_object);
        } else {
            self.out.close()?;
        }
        Ok((self.items, self.out))
    }

    fn out(&mut self) -> &mut Out {
        &mut self.out
    }
}

/// The gzipped `DYNAMODB_JSON` file (or objects) of an entity's items, or
/// of the items of unknown type, written as stored.
pub(super) fn sink(out: Out) -> Box<dyn Sink> {
    Box::new(GzipLines {
        out,
        gzip: encoder(),
        items: 0,
        in_object: 0,
        raw_in_object: 0,
        line: String::new(),
    })
}

/// Appends `{"Item":{…}}` and a newline.
pub(super) fn write_line(out: &mut String, item: &AttributeMap) {
    out.push_str("{\"Item\":");
    write_map(out, item.iter());
    out.push_str("}\n");
}

/// Appends a JSON object of `entries`, each value typed, keys in sorted
/// order.
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

fn write_strings<T>(out: &mut String, values: &[T], text: impl Fn(&T) -> String) {
    out.push('[');
    for (position, value) in values.iter().enumerate() {
        if position > 0 {
            out.push(',');
        }
        write_string(out, &text(value));
    }
    out.push(']');
}

/// Appends `{"<type>": …}`, DynamoDB's typed JSON of `value`.
fn write_value(out: &mut String, value: &AttributeValue) {
    use base64::Engine as _;
    let base64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    match value {
        AttributeValue::S(text) => {
            out.push_str("{\"S\":");
            write_string(out, text);
        }
        AttributeValue::N(number) => {
            out.push_str("{\"N\":");
            write_string(out, number);
        }
        AttributeValue::B(blob) => {
            out.push_str("{\"B\":");
            write_string(out, &base64(blob.as_ref()));
        }
        AttributeValue::Bool(value) => {
            out.push_str(if *value {
                "{\"BOOL\":true"
            } else {
                "{\"BOOL\":false"
            });
        }
        AttributeValue::Null(_) => out.push_str("{\"NULL\":true"),
        AttributeValue::Ss(values) => {
            out.push_str("{\"SS\":");
            write_strings(out, values, String::clone);
        }
        AttributeValue::Ns(values) => {
            out.push_str("{\"NS\":");
            write_strings(out, values, String::clone);
        }
        AttributeValue::Bs(values) => {
            out.push_str("{\"BS\":");
            write_strings(out, values, |blob| base64(blob.as_ref()));
        }
        AttributeValue::L(values) => {
            out.push_str("{\"L\":[");
            for (position, value) in values.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_value(out, value);
            }
            out.push(']');
        }
        AttributeValue::M(map) => {
            out.push_str("{\"M\":");
            write_map(out, map.iter());
        }
        // A type newer than this SDK: its debug form, as a string, which
        // the import counts as an error of that item.
        other => {
            out.push_str("{\"S\":");
            write_string(out, &format!("{other:?}"));
        }
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::primitives::Blob;
    use proptest::prelude::*;

    use super::*;

    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(rename = "Item")]
        item: serde_dynamo::Item,
    }

    fn number() -> impl Strategy<Value = String> {
        "-?[0-9]{1,20}(\\.[0-9]{1,5})?(E[+-]?[0-9]{1,2})?"
    }

    fn blob() -> impl Strategy<Value = Blob> {
        proptest::collection::vec(any::<u8>(), 0..6).prop_map(Blob::new)
    }

    /// Any attribute value, sets and containers nested 3 deep.
    fn value() -> impl Strategy<Value = AttributeValue> {
        let leaf = prop_oneof![
            any::<String>().prop_map(AttributeValue::S),
            number().prop_map(AttributeValue::N),
            blob().prop_map(AttributeValue::B),
            any::<bool>().prop_map(AttributeValue::Bool),
            Just(AttributeValue::Null(true)),
            proptest::collection::btree_set(any::<String>(), 1..4)
                .prop_map(|set| AttributeValue::Ss(set.into_iter().collect())),
            proptest::collection::btree_set(number(), 1..4)
                .prop_map(|set| AttributeValue::Ns(set.into_iter().collect())),
            proptest::collection::vec(blob(), 1..3).prop_map(AttributeValue::Bs),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
                proptest::collection::hash_map(any::<String>(), inner, 0..4)
                    .prop_map(AttributeValue::M),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

        /// Every item reads back as itself, and the same item built in
        /// another order is the same bytes.
        #[test]
        fn any_item_reads_back_as_itself_in_the_same_bytes(
            entries in proptest::collection::vec((any::<String>(), value()), 0..6)
        ) {
            let item: AttributeMap = entries.iter().cloned().collect();
            let reversed: AttributeMap = entries.iter().rev().cloned().collect();
            // The last value of a repeated name wins in both.
            let reversed: AttributeMap = reversed
                .into_keys()
                .map(|name| {
                    let value = item[&name].clone();
                    (name, value)
                })
                .collect();
            let mut line = String::new();
            write_line(&mut line, &item);
            prop_assert!(line.ends_with('\n'));
            prop_assert_eq!(line.matches('\n').count(), 1, "one line");
            let mut again = String::new();
            write_line(&mut again, &reversed);
            prop_assert_eq!(&line, &again);
            let read: Line = serde_json::from_str(&line).unwrap();
            prop_assert_eq!(AttributeMap::from(read.item), item);
        }
    }

    #[test]
    fn every_type_is_written_typed_with_sorted_keys_and_reads_back() {
        let item = AttributeMap::from([
            ("PK".to_owned(), AttributeValue::S("A#\"1\"".to_owned())),
            (
                "n".to_owned(),
                AttributeValue::N("12345678901234567890.50".to_owned()),
            ),
            ("b".to_owned(), AttributeValue::B(Blob::new(b"hi".to_vec()))),
            ("t".to_owned(), AttributeValue::Bool(true)),
            ("z".to_owned(), AttributeValue::Null(true)),
            (
                "ss".to_owned(),
                AttributeValue::Ss(vec!["x".to_owned(), "y".to_owned()]),
            ),
            ("ns".to_owned(), AttributeValue::Ns(vec!["1".to_owned()])),
            (
                "bs".to_owned(),
                AttributeValue::Bs(vec![Blob::new(b"a".to_vec())]),
            ),
            (
                "l".to_owned(),
                AttributeValue::L(vec![AttributeValue::Bool(false)]),
            ),
            (
                "m".to_owned(),
                AttributeValue::M(AttributeMap::from([
                    ("k2".to_owned(), AttributeValue::S("v".to_owned())),
                    ("k1".to_owned(), AttributeValue::N("-1".to_owned())),
                ])),
            ),
        ]);
        let mut line = String::new();
        write_line(&mut line, &item);
        assert_eq!(
            line,
            "{\"Item\":{\"PK\":{\"S\":\"A#\\\"1\\\"\"},\"b\":{\"B\":\"aGk=\"},\
             \"bs\":{\"BS\":[\"YQ==\"]},\"l\":{\"L\":[{\"BOOL\":false}]},\
             \"m\":{\"M\":{\"k1\":{\"N\":\"-1\"},\"k2\":{\"S\":\"v\"}}},\
             \"n\":{\"N\":\"12345678901234567890.50\"},\"ns\":{\"NS\":[\"1\"]},\
             \"ss\":{\"SS\":[\"x\",\"y\"]},\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true}}}\n"
        );
        let read: Line = serde_json::from_str(&line).unwrap();
        assert_eq!(AttributeMap::from(read.item), item);
    }
}
