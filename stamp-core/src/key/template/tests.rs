use super::{KeyBuilder, KeyTemplate, Segment, any_derive_escaped, needs_escaping, unescape};

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
    // The derive's set: everything up to `%`.
    let all = KeyTemplate::ESCAPED;
    assert_eq!(all.len(), 38);
    assert!(all.chars().all(|c| c <= '%'));
    assert!(needs_escaping("a b", all));
    assert!(needs_escaping("a\u{0}", all));
    assert!(needs_escaping("$", all));
    assert!(!needs_escaping("a&b-Z:é", all));
}

#[test]
fn the_word_scan_finds_what_the_byte_scan_finds() {
    let naive = |value: &str| value.bytes().any(|byte| byte <= b'%');
    // Every byte value at every position of words and their tails,
    // among characters just above the set and non-ASCII ones.
    for length in 0..=20 {
        for position in 0..length {
            for c in ('\u{0}'..='\u{7f}').chain(['é', '😀', '\u{80}', '\u{ff}']) {
                let mut text: Vec<char> = std::iter::repeat_n('&', length).collect();
                text[position] = c;
                let text: String = text.into_iter().collect();
                assert_eq!(any_derive_escaped(&text), naive(&text), "{text:?}");
                let text = format!("é{text}\u{ff}");
                assert_eq!(any_derive_escaped(&text), naive(&text), "{text:?}");
            }
        }
    }
    assert!(!any_derive_escaped(""));
    assert!(!any_derive_escaped("&&&&&&&&&&&&&&&&"));
    assert!(any_derive_escaped("&&&&&&&&%"));
    // Borrows: a 0x00 below bytes that are not escaped.
    assert!(any_derive_escaped(
        "\u{0}\u{26}\u{26}\u{26}\u{26}\u{26}\u{26}\u{26}"
    ));
    assert!(!any_derive_escaped(
        "\u{26}\u{a6}\u{26}\u{26}\u{26}\u{26}\u{26}"
    ));
}

/// A template escaping only `%` and `-`, by hand (the derive never does).
static DASHES: KeyTemplate = KeyTemplate {
    source: "D#<day>",
    segments: &[Segment::Literal("D#"), Segment::Field("day")],
    escaped: "%-",
};

#[test]
fn a_type_that_never_needs_escaping_is_still_escaped_by_another_set() {
    let day = chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
    let mut builder = KeyBuilder::new("Day", &DASHES, 16);
    builder.literal("D#");
    builder.field("day", &day).unwrap();
    assert_eq!(builder.finish(), "D#2026%2D06%2D01");

    static DERIVED: KeyTemplate = KeyTemplate {
        escaped: KeyTemplate::ESCAPED,
        ..DASHES
    };
    let mut builder = KeyBuilder::new("Day", &DERIVED, 16);
    builder.literal("D#");
    builder.field("day", &day).unwrap();
    builder.literal("#");
    builder.str_field("name", "a b#").unwrap();
    assert_eq!(builder.finish(), "D#2026-06-01#a%20b%23");
}

#[test]
fn only_the_canonical_escape_unescapes() {
    let all = KeyTemplate::ESCAPED;
    assert_eq!(unescape("a%20b%23", all).as_deref(), Some("a b#"));
    assert_eq!(unescape("%41", all), None);
    assert_eq!(unescape("a b", all), None);
    assert_eq!(unescape("%2a", all), None);
    assert_eq!(unescape("%2", all), None);
    assert_eq!(unescape("%C3%A9", all), None);
    assert_eq!(unescape("é", all).as_deref(), Some("é"));
    assert_eq!(unescape("%C2%A7", "%§").as_deref(), Some("§"));
}
