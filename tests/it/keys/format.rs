//! The key format (issue 12, points 6 and 7): a field's encoding sorts in
//! its values' order whatever follows it, and only the canonical form the
//! builder writes parses back.

use serde::{Deserialize, Serialize};
use stamp::{Item, key::SortKeyPrefix};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "P#<p>"]
#[sk = "V#<a>#<b>"]
struct Pair {
    p: String,
    a: String,
    b: u8,
}

fn key(a: &str, b: u8) -> String {
    SortKeyPrefix::<Pair, stamp::schema::BaseTable>::sort_key_prefix(&(a, &b))
        .unwrap()
        .text
}

fn prefix(a: &str) -> String {
    SortKeyPrefix::<Pair, stamp::schema::BaseTable>::sort_key_prefix(&a)
        .unwrap()
        .text
}

#[test]
fn a_string_field_sorts_in_its_values_order_before_a_delimiter() {
    // "ab" < "ab c" < "ab!" < "ab#" < "ab$" < "ab%" < "abc" as strings.
    let values = [
        "ab", "ab\u{1}", "ab c", "ab!", "ab#", "ab$", "ab%", "abc", "abé",
    ];
    let mut sorted = values;
    sorted.sort();
    assert_eq!(sorted, values);
    let keys: Vec<String> = values.iter().map(|a| key(a, 0)).collect();
    for pair in keys.windows(2) {
        assert!(pair[0] < pair[1], "{:?} sorts after {:?}", pair[0], pair[1]);
    }
    // Every key of a value above `ab` sorts above every key of `ab`.
    assert!(key("ab c", 0) > key("ab", 255));
    assert!(key("ab c", 0) > prefix("ab"));
    assert_eq!(key("ab c", 7), "V#ab%20c#007");
    assert_eq!(key("a#b%", 7), "V#a%23b%25#007");
}

#[test]
fn keys_parse_back_to_the_values_that_built_them() {
    for (a, b) in [("ab c", 1), ("#%$!", 2), ("é 😀", 3), ("%25", 4)] {
        assert_eq!(Pair::parse_sort_key(&key(a, b)).unwrap(), (a.to_owned(), b));
    }
}

#[test]
fn only_the_canonical_form_parses() {
    assert_eq!(
        Pair::parse_sort_key("V#%41#001").unwrap_err().to_string(),
        "key `V#%41#001` does not match the template `V#<a>#<b>` of entity `Pair`: field `a` is not written as Stamp writes it"
    );
    for key in [
        "V#a b#001",  // a space is escaped
        "V#a%2a#001", // `*` is never escaped
        "V#%2#001",
        "V#%c3%a9#001", // `é` is never escaped
        "V#a#1",        // a u8 has three digits
        "V#a#0010",
    ] {
        assert!(Pair::parse_sort_key(key).is_err(), "{key} parsed");
    }
    assert_eq!(
        Pair::parse_sort_key("V#a%20b%23#010").unwrap(),
        ("a b#".to_owned(), 10)
    );
}

#[test]
fn key_size_limits_are_typed_errors() {
    // DynamoDB: a partition key value is at most 2048 bytes, a sort key
    // value at most 1024 (UTF-8 bytes), in the table and in every index.
    let p_max = "p".repeat(2048 - "P#".len());
    let a_max = "a".repeat(1024 - "V##000".len());
    let key = Pair::key(PairKey {
        p: &p_max,
        a: &a_max,
        b: &0,
    })
    .unwrap();
    assert_eq!(key.partition_key().len(), 2048);
    assert_eq!(key.sort_key().len(), 1024);
    let error = Pair::key(PairKey {
        p: &format!("{p_max}p"),
        a: &a_max,
        b: &0,
    })
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "key `P#<p>` of entity `Pair` is 2049 bytes, above DynamoDB's limit of 2048 bytes for a partition key"
    );
    let error = Pair::key(PairKey {
        p: "p",
        a: &format!("{a_max}é"),
        b: &0,
    })
    .unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Key(stamp::error::KeyError::KeyTooLong {
                entity: "Pair",
                template: "V#<a>#<b>",
                length: 1026,
                limit: 1024
            })
        ),
        "{error}"
    );
}

use crate::common;

#[tokio::test]
async fn a_key_above_the_limit_is_refused_before_sending() {
    let definition = stamp::TableDefinition::new().entity::<Pair>();
    let (table, counter) = common::fresh_counted_table("key-size", &definition).await;
    let long = Pair {
        p: "p".repeat(2047),
        a: "a".into(),
        b: 1,
    };
    let error = table.put(&long).await.unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Key(stamp::error::KeyError::KeyTooLong { .. })
        ),
        "{error}"
    );
    let error = Pair::query(&"p".repeat(2047))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Key(stamp::error::KeyError::KeyTooLong { .. })
        ),
        "{error}"
    );
    let error = Pair::query("p")
        .sort_key_ge("a".repeat(1100).as_str())
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Key(stamp::error::KeyError::KeyTooLong { .. })
        ),
        "{error}"
    );
    assert_eq!(counter.operations(), Vec::<String>::new());
    table.delete_table().await.unwrap();
}
