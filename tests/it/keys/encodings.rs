//! Issue 22, point 14: the stored forms Stamp chooses where serde_dynamo's
//! default would surprise. Byte strings (`Vec<u8>`, `[u8; N]`,
//! `bytes::Bytes`, and `Option`s of them) are DynamoDB binary (`B`,
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes.Binary>),
//! as `#[serde(with = "serde_bytes")]` stores them, not a list of Numbers;
//! they read back from `B` and from the list that older items hold. A
//! `serde_json::Value` field stores its numbers as `N`.

use crate::common;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use stamp::AttributeMap;
use stamp::{Entity, Item, TableDefinition};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "FILE#<id>"]
#[sk = "FILE"]
struct File {
    id: String,
    data: Vec<u8>,
    digest: [u8; 4],
    thumbnail: Option<Vec<u8>>,
    /// A byte string with its own codec is left to it.
    #[serde(with = "serde_bytes")]
    raw: Vec<u8>,
    meta: serde_json::Value,
}

fn a_file() -> File {
    File {
        id: "f-1".into(),
        data: vec![0, 1, 2, 255],
        digest: [9, 8, 7, 6],
        thumbnail: Some(vec![42]),
        raw: vec![5],
        meta: serde_json::json!({"pages": 12, "ratio": 1.5, "tags": ["a"], "draft": false, "owner": null}),
    }
}

fn blob(bytes: &[u8]) -> AttributeValue {
    AttributeValue::B(Blob::new(bytes.to_vec()))
}

fn numbers(bytes: &[u8]) -> AttributeValue {
    AttributeValue::L(
        bytes
            .iter()
            .map(|byte| AttributeValue::N(byte.to_string()))
            .collect(),
    )
}

#[test]
fn byte_strings_are_binary_and_json_numbers_are_numbers() {
    let item = a_file().to_item().unwrap();
    assert_eq!(item["data"], blob(&[0, 1, 2, 255]));
    assert_eq!(item["digest"], blob(&[9, 8, 7, 6]));
    assert_eq!(item["thumbnail"], blob(&[42]));
    assert_eq!(item["raw"], blob(&[5]));
    let AttributeValue::M(meta) = &item["meta"] else {
        panic!("{:?}", item["meta"])
    };
    assert_eq!(meta["pages"], AttributeValue::N("12".into()));
    assert_eq!(meta["ratio"], AttributeValue::N("1.5".into()));
    assert_eq!(
        meta["tags"],
        AttributeValue::L(vec![AttributeValue::S("a".into())])
    );
    assert_eq!(meta["draft"], AttributeValue::Bool(false));
    assert_eq!(meta["owner"], AttributeValue::Null(true));
    assert_eq!(File::from_item(item).unwrap(), a_file());
    // `None` stores nothing.
    let item = File {
        thumbnail: None,
        ..a_file()
    }
    .to_item()
    .unwrap();
    assert!(!item.contains_key("thumbnail"));
}

/// Items written before, as serde_dynamo stores a `Vec<u8>` (a list of
/// Numbers), read back; a wrong length or a non-byte is refused.
#[test]
fn the_list_form_of_older_items_reads_back() {
    let mut item: AttributeMap = a_file().to_item().unwrap();
    item.insert("data".into(), numbers(&[0, 1, 2, 255]));
    item.insert("digest".into(), numbers(&[9, 8, 7, 6]));
    item.insert("thumbnail".into(), numbers(&[42]));
    assert_eq!(File::from_item(item.clone()).unwrap(), a_file());
    item.insert("digest".into(), numbers(&[9, 8, 7]));
    // (`File` has a `with` field, so serde reads it whole: serde's words.)
    let error = File::from_item(item).unwrap_err();
    assert!(
        matches!(
            error,
            stamp::Error::Decode(stamp::error::DecodeError::Deserialize { entity: "File", .. })
        ),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .ends_with("invalid length 3, expected an array of length 4"),
        "{error}"
    );
}

/// A struct that serde reads whole (here: a flattened field) stores and
/// reads its byte strings the same way.
#[test]
fn a_struct_read_whole_by_serde_stores_binary_too() {
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    struct Audit {
        by: String,
    }
    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "BLOB#<id>"]
    #[sk = "BLOB"]
    struct Stored {
        id: String,
        data: Vec<u8>,
        #[serde(flatten)]
        audit: Audit,
    }
    let stored = Stored {
        id: "b-1".into(),
        data: vec![3, 4],
        audit: Audit { by: "ann".into() },
    };
    let mut item = stored.to_item().unwrap();
    assert_eq!(item["data"], blob(&[3, 4]));
    assert_eq!(item["by"], AttributeValue::S("ann".into()));
    assert_eq!(Stored::from_item(item.clone()).unwrap(), stored);
    item.insert("data".into(), numbers(&[3, 4]));
    assert_eq!(Stored::from_item(item).unwrap(), stored);
}

/// On the server: a put, a get, and an update that sets a byte string,
/// which the update stores as `B` as `to_item` does.
#[tokio::test]
async fn byte_strings_round_trip_through_the_server_and_updates() {
    let table = common::fresh_table("encodings", &TableDefinition::new().entity::<File>()).await;
    table.put(&a_file()).await.unwrap();
    let key = File::key("f-1").unwrap();
    assert_eq!(table.get(&key).await.unwrap(), Some(a_file()));
    File::update("f-1")
        .set(File::DATA, &vec![7, 7])
        .set(File::DIGEST, &[1, 2, 3, 4])
        .send(&table)
        .await
        .unwrap();
    let stored = common::client()
        .get_item()
        .table_name(table.name())
        .key("PK", AttributeValue::S("FILE#f-1".into()))
        .key("SK", AttributeValue::S("FILE".into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(stored["data"], blob(&[7, 7]));
    assert_eq!(stored["digest"], blob(&[1, 2, 3, 4]));
    let read = table.get(&key).await.unwrap().unwrap();
    assert_eq!((read.data, read.digest), (vec![7, 7], [1, 2, 3, 4]));
}

/// The same through the field-by-field decoding (no serde attribute that
/// makes serde read the struct whole): `B` and the list form read back.
#[test]
fn a_plain_struct_reads_binary_and_lists_field_by_field() {
    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "KEY#<id>"]
    #[sk = "KEY"]
    struct Secret {
        id: String,
        secret: [u8; 4],
        salt: Option<bytes_alias::Bytes>,
    }
    /// A type alias: the codec is chosen by type, not by name.
    mod bytes_alias {
        pub type Bytes = Vec<u8>;
    }
    let key = Secret {
        id: "k".into(),
        secret: [1, 2, 3, 4],
        salt: Some(vec![9]),
    };
    let mut item = key.to_item().unwrap();
    assert_eq!(item["secret"], blob(&[1, 2, 3, 4]));
    assert_eq!(item["salt"], blob(&[9]));
    assert_eq!(Secret::from_item(item.clone()).unwrap(), key);
    item.insert("secret".into(), numbers(&[1, 2, 3, 4]));
    item.insert("salt".into(), numbers(&[9]));
    assert_eq!(Secret::from_item(item.clone()).unwrap(), key);
    item.insert("secret".into(), blob(&[1, 2, 3]));
    let error = Secret::from_item(item).unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("3 bytes stored, and the field holds 4"),
        "{error}"
    );
}
