use super::*;

#[test]
fn numbers_compare_numerically_and_strings_by_bytes() {
    let n = |text: &str| AttributeValue::N(text.to_owned());
    let s = |text: &str| AttributeValue::S(text.to_owned());
    assert_eq!(compare(&n("2"), &n("10")), Some(Ordering::Less));
    assert_eq!(compare(&n("-10"), &n("-2")), Some(Ordering::Less));
    assert_eq!(compare(&s("10"), &s("2")), Some(Ordering::Less));
    assert_eq!(compare(&s("a"), &n("1")), None);
    assert_eq!(compare(&n("1.5"), &n("1")), None);
}

#[test]
fn a_cursor_keeps_string_number_and_binary_attributes() {
    use crate::ops::cursor::{Cursor, Fingerprint};
    let fingerprint = Fingerprint::of(&["table", "GSI3"]);
    let key: AttributeMap = [
        ("PK", AttributeValue::S("MATCH#m-1".into())),
        ("tenant_id", AttributeValue::S("t-1".into())),
        ("round", AttributeValue::N("-12".into())),
        (
            "digest",
            AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![0, 255, 7])),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect();
    let cursor = Cursor::encode(&fingerprint, None, &key).unwrap();
    assert_eq!(cursor.decode(&fingerprint, None).unwrap(), key);
    // A key of strings only is written as before: no `n`, no `b`.
    let strings: AttributeMap = [("PK".to_owned(), AttributeValue::S("A".into()))].into();
    let cursor = Cursor::encode(&fingerprint, None, &strings).unwrap();
    use base64::Engine as _;
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.as_str())
        .unwrap();
    assert_eq!(
        String::from_utf8(json).unwrap(),
        format!(
            r#"{{"q":"{}","k":{{"PK":"A"}}}}"#,
            fingerprint_text(&fingerprint)
        )
    );
}

fn fingerprint_text(fingerprint: &crate::ops::cursor::Fingerprint) -> String {
    // The fingerprint's text is private to the cursor; read it back
    // from a cursor without attributes.
    let cursor =
        crate::ops::cursor::Cursor::encode(fingerprint, None, &AttributeMap::new()).unwrap();
    use base64::Engine as _;
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.as_str())
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    value["q"].as_str().unwrap().to_owned()
}
