//! `KeyPart::NEEDS_ESCAPING`: the types whose encodings never hold an
//! escaped character (U+0000 to `%`) say so, and `#[derive(KeyPart)]` says
//! so exactly for the enums whose variant names have none; a key with such
//! a value is written without the check, and is still the same key.

use serde::{Deserialize, Serialize};
use stamp::{Item, KeyPart};

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Default)]
#[stamp(rename_all = "kebab-case")]
enum Plain {
    #[default]
    EuWest,
    UsEast,
}

/// A variant name with a space and one with a `#`, which the template escapes.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Default)]
enum Spaced {
    #[default]
    #[stamp(rename = "north america")]
    NorthAmerica,
    #[stamp(rename = "eu#1")]
    Europe,
    Asia,
}

#[derive(KeyPart, Debug, Clone, PartialEq, Default)]
struct Code(u32);

#[derive(KeyPart, Debug, Clone, PartialEq, Default)]
struct Name(String);

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "R#<region>#<code>"]
#[sk = "S#<spaced>#<name>"]
struct Located {
    #[serde(skip)]
    region: Plain,
    #[serde(skip)]
    spaced: Spaced,
    #[serde(skip)]
    code: Code,
    #[serde(skip)]
    name: Name,
}

#[test]
fn the_types_whose_encodings_never_need_escaping_say_so() {
    const fn needs<T: KeyPart>() -> bool {
        T::NEEDS_ESCAPING
    }
    assert!(!needs::<u8>() && !needs::<u64>() && !needs::<i32>() && !needs::<i64>());
    assert!(!needs::<usize>() && !needs::<isize>() && !needs::<bool>());
    assert!(!needs::<uuid::Uuid>());
    assert!(!needs::<chrono::NaiveDate>());
    assert!(!needs::<chrono::DateTime<chrono::Utc>>());
    assert!(needs::<String>());
    // The derive: an enum by its names, a newtype by its inner type.
    assert!(!needs::<Plain>());
    assert!(needs::<Spaced>());
    assert!(!needs::<Code>());
    assert!(needs::<Name>());
}

#[test]
fn values_that_need_escaping_are_escaped_and_the_others_written_as_they_are() {
    let key = |spaced, name: &str| {
        let (pk, sk) = Located::key(&Plain::EuWest, &Code(42), &spaced, &Name(name.to_owned()))
            .unwrap()
            .into_parts();
        (pk, sk)
    };
    assert_eq!(
        key(Spaced::Asia, "x"),
        ("R#eu-west#0000000042".to_owned(), "S#Asia#x".to_owned())
    );
    assert_eq!(
        key(Spaced::NorthAmerica, "a b"),
        (
            "R#eu-west#0000000042".to_owned(),
            "S#north%20america#a%20b".to_owned()
        )
    );
    assert_eq!(key(Spaced::Europe, "#").1, "S#eu%231#%23");
    assert_eq!(key(Spaced::Europe, "50%").1, "S#eu%231#50%25");
}
