//! Signed cursors (issue 12, point 13): a table with a cursor key signs the
//! cursors of its queries (HMAC-SHA256) and refuses, before sending, a
//! cursor that is unsigned, changed, or signed with another key.

use crate::common;
use stamp::error::{CursorReason, Refusal};

use futures::TryStreamExt;
use serde::{Deserialize, Serialize};
use stamp::{Cursor, Error, Item, Table, TableDefinition};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "USER#<user_id>"]
#[sk = "NOTE#<n>"]
struct Note {
    user_id: String,
    n: u32,
}

const KEY: &[u8] = b"a secret of thirty-two bytes....";

/// A keyed table (on a counting client) holding notes 0 to 4 of `u-1`.
async fn notes(test: &str) -> (Table, common::RequestCounter) {
    let (table, counter) =
        common::fresh_counted_table(test, &TableDefinition::new().entity::<Note>()).await;
    for n in 0..5 {
        table
            .put(&Note {
                user_id: "u-1".into(),
                n,
            })
            .await
            .unwrap();
    }
    counter.reset();
    (table.with_cursor_key(KEY), counter)
}

fn numbers(notes: &[Note]) -> Vec<u32> {
    notes.iter().map(|note| note.n).collect()
}

/// The first page (limit 2) of `table`, and its cursor.
async fn first_cursor(table: &Table) -> Cursor {
    let page = Note::query("u-1").limit(2).send(table).await.unwrap();
    assert_eq!(numbers(&page.items), [0, 1]);
    page.cursor.expect("more pages")
}

/// Asserts that `cursor` is refused with `InvalidCursor` by `send`, `stream`
/// and `count` on `table`, and that nothing was sent; returns the reason.
async fn refused(table: &Table, counter: &common::RequestCounter, cursor: &Cursor) -> CursorReason {
    counter.reset();
    let query = || Note::query("u-1").limit(2).after(cursor);
    let sent = query().send(table).await.unwrap_err();
    let streamed = query()
        .stream(table)
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    let counted = query().count(table).await.unwrap_err();
    assert!(
        counter.operations().is_empty(),
        "{:?}",
        counter.operations()
    );
    let reason = match sent {
        Error::Refused(Refusal::InvalidCursor { reason }) => reason,
        other => panic!("{cursor}: expected InvalidCursor, got {other:?}"),
    };
    for other in [streamed, counted] {
        assert!(
            matches!(&other, Error::Refused(Refusal::InvalidCursor { reason: r }) if *r == reason),
            "{other:?}"
        );
    }
    reason
}

#[tokio::test]
async fn a_signed_cursor_round_trips_across_pages() {
    let (table, counter) = notes("cursor-signed-pages").await;
    let mut cursor = None;
    let mut seen = Vec::new();
    loop {
        let mut query = Note::query("u-1").limit(2);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        seen.extend(numbers(&page.items));
        match page.cursor {
            Some(next) => {
                let (payload, signature) = next.as_str().split_once('.').expect("signed");
                assert!(!payload.is_empty());
                // 32 bytes of HMAC-SHA256 in unpadded base64.
                assert_eq!(signature.len(), 43, "{next}");
                // A client sends the text back.
                cursor = Some(Cursor::from_text(next.to_string()));
            }
            None => break,
        }
    }
    assert_eq!(seen, [0, 1, 2, 3, 4]);
    assert_eq!(counter.count("Query"), 3);

    // `stream` and `count` take a signed cursor too, and `max_items` signs
    // the cursor it builds from the last item returned.
    let cursor = first_cursor(&table).await;
    let rest: Vec<Note> = Note::query("u-1")
        .after(&cursor)
        .stream(&table)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(numbers(&rest), [2, 3, 4]);
    assert_eq!(
        Note::query("u-1")
            .after(&cursor)
            .count(&table)
            .await
            .unwrap(),
        3
    );
    let capped = Note::query("u-1").max_items(1).send(&table).await.unwrap();
    let capped_cursor = capped.cursor.unwrap();
    assert!(capped_cursor.as_str().contains('.'));
    let next = Note::query("u-1")
        .max_items(1)
        .after(&capped_cursor)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(numbers(&next.items), [1]);
}

#[tokio::test]
async fn a_cursor_with_one_byte_changed_is_refused_before_sending() {
    let (table, counter) = notes("cursor-one-byte").await;
    let cursor = first_cursor(&table).await;
    let text = cursor.as_str();
    let dot = text.find('.').unwrap();
    for position in 0..text.len() {
        let mut bytes = text.as_bytes().to_vec();
        bytes[position] = match bytes[position] {
            b'A' => b'B',
            b'.' => b'-',
            _ => b'A',
        };
        let changed = Cursor::from_text(String::from_utf8(bytes).unwrap());
        let reason = refused(&table, &counter, &changed).await;
        if position < dot {
            assert_eq!(reason, CursorReason::SignatureMismatch, "byte {position}");
            assert_eq!(
                reason.to_string(),
                "the signature does not match: the cursor was changed or signed with another key",
                "byte {position}"
            );
        }
    }
    // A truncated signature, and one with a byte too many.
    let truncated = Cursor::from_text(&text[..text.len() - 1]);
    assert!(matches!(
        refused(&table, &counter, &truncated).await,
        CursorReason::SignatureMismatch | CursorReason::SignatureNotBase64 { .. }
    ));
    let longer = Cursor::from_text(format!("{text}A"));
    assert!(matches!(
        refused(&table, &counter, &longer).await,
        CursorReason::SignatureMismatch | CursorReason::SignatureNotBase64 { .. }
    ));
}

#[tokio::test]
async fn a_cursor_signed_with_another_key_is_refused_before_sending() {
    let (table, counter) = notes("cursor-other-key").await;
    let other = table.clone().with_cursor_key(b"another secret".to_vec());
    let cursor = first_cursor(&other).await;
    assert_eq!(
        refused(&table, &counter, &cursor).await,
        CursorReason::SignatureMismatch
    );
}

/// A key is rotated without breaking the cursors in flight: the table signs
/// with the new key and still accepts the old one's cursors, which go on
/// where they stopped; a table that dropped the old key refuses them.
#[tokio::test]
async fn a_rotated_key_keeps_accepting_the_cursors_of_the_previous_key() {
    let (old, counter) = notes("cursor-rotation").await;
    let in_flight = first_cursor(&old).await;
    let rotated = old
        .clone()
        .with_cursor_key(b"the next secret, thirty-two byte".to_vec())
        .with_previous_cursor_keys([KEY]);
    let page = Note::query("u-1")
        .limit(2)
        .after(&in_flight)
        .send(&rotated)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [2, 3]);
    // New cursors are signed with the new key only.
    let next = page.cursor.expect("a last page");
    assert_eq!(
        refused(&old, &counter, &next).await,
        CursorReason::SignatureMismatch
    );
    let last = Note::query("u-1")
        .limit(2)
        .after(&next)
        .send(&rotated)
        .await
        .unwrap();
    assert_eq!(numbers(&last.items), [4]);
    // Once the old key is dropped, its cursors are refused.
    let dropped = old
        .clone()
        .with_cursor_key(b"the next secret, thirty-two byte".to_vec());
    assert_eq!(
        refused(&dropped, &counter, &in_flight).await,
        CursorReason::SignatureMismatch
    );
}

#[tokio::test]
async fn an_unsigned_cursor_is_refused_by_a_keyed_table_before_sending() {
    let (keyed, counter) = notes("cursor-unsigned").await;
    let unkeyed = Table::new(keyed.client().clone(), keyed.name());
    let unsigned = first_cursor(&unkeyed).await;
    assert!(!unsigned.as_str().contains('.'), "{unsigned}");
    assert_eq!(
        refused(&keyed, &counter, &unsigned).await,
        CursorReason::Unsigned
    );
    // A signed cursor with its signature cut off is unsigned too.
    let signed = first_cursor(&keyed).await;
    let payload = signed.as_str().split_once('.').unwrap().0;
    assert_eq!(
        refused(&keyed, &counter, &Cursor::from_text(payload)).await,
        CursorReason::Unsigned
    );
    // An empty signature does not match.
    assert_eq!(
        refused(&keyed, &counter, &Cursor::from_text(format!("{payload}."))).await,
        CursorReason::SignatureMismatch
    );
}

#[tokio::test]
async fn a_table_without_a_key_keeps_unsigned_cursors() {
    let (keyed, _counter) = notes("cursor-unkeyed").await;
    let unkeyed = Table::new(keyed.client().clone(), keyed.name());
    let unsigned = first_cursor(&unkeyed).await;
    let page = Note::query("u-1")
        .after(&unsigned)
        .send(&unkeyed)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [2, 3, 4]);
    // It ignores a signature, so that turning signing off keeps live
    // cursors; the payload is still checked.
    let signed = first_cursor(&keyed).await;
    let page = Note::query("u-1")
        .after(&signed)
        .send(&unkeyed)
        .await
        .unwrap();
    assert_eq!(numbers(&page.items), [2, 3, 4]);
    let error = Note::query("u-2")
        .after(&signed)
        .send(&unkeyed)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused(Refusal::InvalidCursor { .. }) | Error::Refused(Refusal::CursorMismatch)
        ),
        "{error:?}"
    );
}

#[test]
fn a_keyed_table_does_not_show_its_key() {
    let client = common::client();
    let table = Table::new(client, "t").with_cursor_key(KEY);
    let debug = format!("{table:?}");
    assert!(
        debug.ends_with(r#"name: "t", cursor_key: Some(CursorKey(<redacted>)) }"#),
        "{debug}"
    );
    // Neither the bytes nor the text of the key.
    assert!(!debug.contains(&format!("{:?}", &KEY[..4])));
    assert!(!debug.contains("thirty-two"));
}

#[test]
#[should_panic(expected = "a cursor key must not be empty")]
fn an_empty_cursor_key_is_refused() {
    let _ = Table::new(common::client(), "t").with_cursor_key(Vec::new());
}
