//! Whole items through the derive's direct conversion, against serde_dynamo:
//! for arbitrary values of entities mixing direct types, types that go
//! through serde (a nested struct, a unit enum, bytes), and the serde
//! attributes the derive honours (`rename`, `rename_all`, `default`,
//! `skip_serializing_if`, and `with` through serde), `to_item` is `serde_dynamo::to_item`
//! without `NULL`s plus the key and type attributes (times in the
//! fixed-width form that sorts, nine fractional digits), and each reads the
//! other's item back to the same value. An entity with `#[serde(flatten)]`
//! or a container attribute such as `#[serde(default)]` goes through the
//! struct's own serde impls, and gives the same.

use std::collections::{BTreeMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use stamp::AttributeMap;
use stamp::{Entity, serde_dynamo};
use uuid::Uuid;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Address {
    street: String,
    zip: Option<u32>,
}

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Tier {
    Free,
    ProPlus,
}

fn is_zero(value: &u16) -> bool {
    *value == 0
}

fn seven() -> u16 {
    7
}

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ACCOUNT#<id>"]
#[sk = "AT#<created_at>"]
#[gsi1(pk = "TIER#<tier>", sk = "<label>")]
#[serde(rename_all = "camelCase")]
struct Account {
    id: Uuid,
    created_at: DateTime<Utc>,
    label: String,
    tier: Option<Tier>,
    #[serde(rename = "n")]
    visit_count: u64,
    balance: i64,
    ratio: f64,
    active: bool,
    initial: char,
    tags: Vec<String>,
    scores: BTreeMap<String, Vec<i32>>,
    seen: HashSet<Uuid>,
    home: Option<Address>,
    addresses: Vec<Address>,
    avatar: ByteBuf,
    #[serde(skip_serializing_if = "is_zero", default = "seven")]
    level: u16,
    #[serde(default)]
    nickname: Option<String>,
    last_login: Option<DateTime<Utc>>,
}

/// A field with a custom serializer: stored through it, read through the
/// struct's own `Deserialize`.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ROLES#<id>"]
#[sk = "ROLES"]
struct Roles {
    id: String,
    #[serde(with = "serde_dynamo::string_set", default)]
    roles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// The same fields through serde whole: a flattened map of extras.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "FLAT#<id>"]
#[sk = "FLAT"]
struct Flat {
    id: String,
    count: u32,
    #[serde(flatten)]
    extra: BTreeMap<String, String>,
}

/// A container attribute that reshapes decoding: serde whole.
#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[pk = "DEFAULTED#<id>"]
#[sk = "DEFAULTED"]
#[serde(default)]
struct Defaulted {
    id: String,
    count: u32,
    note: Option<String>,
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z#%]{1,8}", any::<String>()]
}

fn nonempty() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9#% ]{1,12}"
}

fn time() -> impl Strategy<Value = DateTime<Utc>> {
    // Whole seconds and milliseconds too, which serde writes with fewer
    // fractional digits.
    let nanos = prop_oneof![
        Just(0u32),
        (0u32..1000).prop_map(|m| m * 1_000_000),
        0u32..1_000_000_000
    ];
    (0i64..8_000_000_000, nanos)
        .prop_filter_map("in range", |(s, n)| DateTime::from_timestamp(s, n))
}

fn address() -> impl Strategy<Value = Address> {
    (text(), any::<Option<u32>>()).prop_map(|(street, zip)| Address { street, zip })
}

prop_compose! {
    fn account()(
        (id, created_at, label, tier) in (any::<u128>(), time(), nonempty(),
            proptest::option::of(prop_oneof![Just(Tier::Free), Just(Tier::ProPlus)])),
        (visit_count, balance, ratio, active, initial) in (any::<u64>(), any::<i64>(),
            -1e300f64..1e300, any::<bool>(), any::<char>()),
        tags in prop::collection::vec(text(), 0..3),
        scores in prop::collection::btree_map(text(), prop::collection::vec(any::<i32>(), 0..3), 0..3),
        seen in prop::collection::hash_set(any::<u128>().prop_map(Uuid::from_u128), 0..3),
        (home, addresses) in (proptest::option::of(address()), prop::collection::vec(address(), 0..2)),
        avatar in prop::collection::vec(any::<u8>(), 0..6),
        (level, nickname, last_login) in (any::<u16>(), proptest::option::of(text()),
            proptest::option::of(time())),
    ) -> Account {
        Account {
            id: Uuid::from_u128(id), created_at, label, tier, visit_count, balance, ratio,
            active, initial, tags, scores, seen, home, addresses,
            avatar: ByteBuf::from(avatar), level, nickname, last_login,
        }
    }
}

/// serde_dynamo's item of `value`, without the `NULL`s Stamp never stores,
/// plus the attributes Stamp adds.
fn reference<T: Serialize>(value: &T, stamp_item: &AttributeMap, added: &[&str]) -> AttributeMap {
    let mut item: AttributeMap = serde_dynamo::to_item(value).unwrap();
    item.retain(|_, value| !matches!(value, AttributeValue::Null(_)));
    for name in added {
        if let Some(value) = stamp_item.get(*name) {
            item.insert((*name).to_owned(), value.clone());
        }
    }
    item
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_item_is_serde_dynamos_and_reads_back_both_ways(account in account()) {
        let ours = account.to_item().unwrap();
        let mut theirs = reference(&account, &ours, &["PK", "SK", "GSI1PK", "GSI1SK", "Type"]);
        // Times in the fixed-width form that sorts, nine fractional digits.
        theirs.insert("createdAt".to_owned(), AttributeValue::S(account.created_at.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)));
        if let Some(login) = account.last_login {
            theirs.insert("lastLogin".to_owned(), AttributeValue::S(login.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)));
        }
        prop_assert_eq!(&ours, &theirs);
        prop_assert_eq!(Account::from_item(theirs).unwrap(), account.clone());
        prop_assert_eq!(serde_dynamo::from_item::<_, Account>(ours).unwrap(), account);
    }

    #[test]
    fn whole_struct_entities_are_serde_dynamos(
        id in nonempty(),
        count in any::<u32>(),
        // Keys that are not field names (`id`, `count`): a flattened key
        // equal to a field's name cannot round-trip through any serde format.
        extra in prop::collection::btree_map("x[a-z]{0,5}", text(), 0..3),
        note in proptest::option::of(text()),
        roles in prop::collection::vec("[a-z]{1,4}", 1..3),
    ) {
        let tagged = Roles { id: id.clone(), roles, note: note.clone() };
        let ours = tagged.to_item().unwrap();
        prop_assert_eq!(&ours, &reference(&tagged, &ours, &["PK", "SK", "Type"]));
        prop_assert_eq!(Roles::from_item(ours).unwrap(), tagged);

        let flat = Flat { id: id.clone(), count, extra };
        let ours = flat.to_item().unwrap();
        prop_assert_eq!(&ours, &reference(&flat, &ours, &["PK", "SK", "Type"]));
        // (A flattened map also takes the key and type attributes: read
        // the fields alone.)
        let fields: AttributeMap = serde_dynamo::to_item(&flat).unwrap();
        prop_assert_eq!(Flat::from_item(fields).unwrap(), flat);

        let defaulted = Defaulted { id, count, note };
        let mut ours = defaulted.to_item().unwrap();
        prop_assert_eq!(&ours, &reference(&defaulted, &ours, &["PK", "SK", "Type"]));
        ours.remove("count");
        prop_assert_eq!(Defaulted::from_item(ours).unwrap(), Defaulted { count: 0, ..defaulted });
    }
}

#[test]
fn absent_attributes_read_as_serde_reads_missing_fields() {
    let item = |pairs: &[(&str, AttributeValue)]| -> AttributeMap {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect()
    };
    let account = Account {
        id: Uuid::nil(),
        created_at: DateTime::from_timestamp(1_780_000_000, 0).unwrap(),
        label: String::new(),
        tier: None,
        visit_count: u64::MAX,
        balance: i64::MIN,
        ratio: 0.1,
        active: false,
        initial: '#',
        tags: vec![],
        scores: BTreeMap::new(),
        seen: HashSet::new(),
        home: None,
        addresses: vec![],
        avatar: ByteBuf::new(),
        level: 0,
        nickname: None,
        last_login: None,
    };
    let mut stored = account.to_item().unwrap();
    // Stored as DynamoDB documents: `0.1`, the extremes, an empty string,
    // a time with its nine fractional digits (the form that sorts; serde's
    // would be `…:40Z`), an empty list; no `tier`, `home`, `nickname` or `lastLogin` (None), no
    // `level` (skipped when 0).
    assert_eq!(stored.get("ratio"), Some(&AttributeValue::N("0.1".into())));
    assert_eq!(
        stored.get("n"),
        Some(&AttributeValue::N("18446744073709551615".into()))
    );
    assert_eq!(
        stored.get("balance"),
        Some(&AttributeValue::N("-9223372036854775808".into()))
    );
    assert_eq!(stored.get("label"), Some(&AttributeValue::S(String::new())));
    assert_eq!(
        stored.get("createdAt"),
        Some(&AttributeValue::S("2026-05-28T20:26:40.000000000Z".into()))
    );
    assert_eq!(stored.get("tags"), Some(&AttributeValue::L(vec![])));
    for absent in ["tier", "home", "nickname", "lastLogin", "level"] {
        assert!(!stored.contains_key(absent), "{absent}");
    }
    // `level` is absent: its default is 7.
    assert_eq!(
        Account::from_item(stored.clone()).unwrap(),
        Account {
            level: 7,
            ..account.clone()
        }
    );
    // A required field absent: serde's message.
    stored.remove("balance");
    let error = Account::from_item(stored).unwrap_err();
    assert!(
        error.to_string().ends_with("missing field `balance`"),
        "{error}"
    );
    // The type attribute of another entity.
    let other = item(&[("Type", AttributeValue::S("Flat".into()))]);
    assert!(matches!(
        Account::from_item(other),
        Err(stamp::Error::Decode(
            stamp::error::DecodeError::EntityTypeMismatch { .. }
        ))
    ));
}
