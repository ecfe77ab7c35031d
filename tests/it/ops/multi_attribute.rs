//! Multi-attribute GSI keys, `#[gsiN(pk(a, b), sk(c, d))]` (issue 15): the
//! key attributes are the fields, stored under their serde names with their
//! native types, and queries give every partition attribute with `=`, a
//! leading run of sort attributes with `=` and at most one range on the
//! next. Expected values come from DynamoDB's documentation: Numbers sort
//! numerically, Strings by their UTF-8 bytes, an item lacking a key
//! attribute is not in the index, and the key schema repeats `HASH` then
//! `RANGE` once per attribute, each with an `AttributeDefinition`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>).

use crate::common;
use stamp::error::{DefinitionError, KeyError, Refusal};

use aws_sdk_dynamodb::types::{AttributeValue, KeyType, ScalarAttributeType};
use serde::{Deserialize, Serialize};
use stamp::{
    Cursor, Entity, Error, Item, Table, TableDefinition,
    schema::{IndexKind, KeyAttributeType},
};

/// A match of a tournament, found by tenant and region, in round order,
/// then bracket and sequence. A match without a bracket is not scheduled:
/// it is left out of the index.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "MATCH#<match_id>"]
#[sk = "MATCH"]
#[gsi3(pk(tenant_id, region), sk(round, bracket, seq))]
struct Match {
    match_id: String,
    tenant_id: String,
    region: u32,
    round: i32,
    bracket: Option<String>,
    seq: i64,
}

/// Another entity in the same index, with the region under serde's name.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PLAYOFF#<id>"]
#[sk = "PLAYOFF"]
#[gsi3(pk(tenant_id, zone), sk(round, bracket, seq))]
struct Playoff {
    id: String,
    tenant_id: String,
    #[serde(rename = "region")]
    zone: u32,
    round: i32,
    bracket: Option<String>,
    seq: i64,
    title: String,
}

/// A partition key alone, and a renamed index.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SCORE#<id>"]
#[sk = "SCORE"]
#[gsi4(pk(player), index_name = "ByPlayer")]
struct Score {
    id: String,
    player: uuid::Uuid,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Match>().entity::<Playoff>()
}

fn a_match(id: &str, round: i32, bracket: Option<&str>, seq: i64) -> Match {
    Match {
        match_id: id.to_owned(),
        tenant_id: "t-1".to_owned(),
        region: 7,
        round,
        bracket: bracket.map(str::to_owned),
        seq,
    }
}

fn ids(matches: &[Match]) -> Vec<&str> {
    matches.iter().map(|m| m.match_id.as_str()).collect()
}

async fn put_all(table: &Table, matches: &[Match]) {
    for m in matches {
        table.put(m).await.unwrap();
    }
}

#[test]
fn the_schema_names_each_key_field_with_its_type() {
    let index = Match::SCHEMA.gsi(3).unwrap();
    assert_eq!(index.name, "GSI3");
    let fields: Vec<(&str, KeyAttributeType, bool)> = index
        .key_fields()
        .map(|field| (field.attribute, field.attribute_type, field.optional))
        .collect();
    assert_eq!(
        fields,
        [
            ("tenant_id", KeyAttributeType::S, false),
            ("region", KeyAttributeType::N, false),
            ("round", KeyAttributeType::N, false),
            ("bracket", KeyAttributeType::S, true),
            ("seq", KeyAttributeType::N, false),
        ]
    );
    // Sparse: a key field is an `Option`.
    assert!(index.key_fields().any(|field| field.optional));
    // Its only index, a multi-attribute one (no template GSI).
    assert_eq!(Match::SCHEMA.indexes, [*index]);
    assert!(index.is_multi_attribute());
    let (renamed, _) = Playoff::SCHEMA.gsi(3).unwrap().attributes().unwrap();
    assert_eq!(renamed[1].field, "zone");
    assert_eq!(renamed[1].attribute, "region");
    assert_eq!(Score::SCHEMA.gsi(4).unwrap().name, "ByPlayer");
}

#[test]
fn to_item_stores_the_key_fields_natively_and_no_index_attributes() {
    let item = a_match("m-1", -2, Some("W"), 3).to_item().unwrap();
    assert_eq!(item["tenant_id"], AttributeValue::S("t-1".into()));
    assert_eq!(item["region"], AttributeValue::N("7".into()));
    assert_eq!(item["round"], AttributeValue::N("-2".into()));
    assert_eq!(item["bracket"], AttributeValue::S("W".into()));
    assert_eq!(item["seq"], AttributeValue::N("3".into()));
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "PK",
            "SK",
            "Type",
            "bracket",
            "match_id",
            "region",
            "round",
            "seq",
            "tenant_id"
        ]
    );
    let unscheduled = a_match("m-2", 1, None, 0).to_item().unwrap();
    assert!(!unscheduled.contains_key("bracket"));
}

#[test]
fn create_table_repeats_hash_then_range_with_typed_definitions() {
    let input = definition().request("tournament").unwrap();
    let definitions: Vec<(&str, &ScalarAttributeType)> = input
        .attribute_definitions()
        .iter()
        .map(|definition| (definition.attribute_name(), definition.attribute_type()))
        .collect();
    assert_eq!(
        definitions,
        [
            ("PK", &ScalarAttributeType::S),
            ("SK", &ScalarAttributeType::S),
            ("tenant_id", &ScalarAttributeType::S),
            ("region", &ScalarAttributeType::N),
            ("round", &ScalarAttributeType::N),
            ("bracket", &ScalarAttributeType::S),
            ("seq", &ScalarAttributeType::N),
        ]
    );
    let indexes = input.global_secondary_indexes();
    assert_eq!(indexes.len(), 1);
    assert_eq!(indexes[0].index_name(), "GSI3");
    let schema: Vec<(&str, &KeyType)> = indexes[0]
        .key_schema()
        .iter()
        .map(|element| (element.attribute_name(), element.key_type()))
        .collect();
    assert_eq!(
        schema,
        [
            ("tenant_id", &KeyType::Hash),
            ("region", &KeyType::Hash),
            ("round", &KeyType::Range),
            ("bracket", &KeyType::Range),
            ("seq", &KeyType::Range),
        ]
    );
}

#[test]
fn cloudformation_has_the_same_key_schema_and_types() {
    let json: serde_json::Value =
        serde_json::from_str(&definition().cloudformation().unwrap().to_json()).unwrap();
    let properties = &json["Resources"]["Table"]["Properties"];
    assert_eq!(
        properties["AttributeDefinitions"],
        serde_json::json!([
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "tenant_id", "AttributeType": "S"},
            {"AttributeName": "region", "AttributeType": "N"},
            {"AttributeName": "round", "AttributeType": "N"},
            {"AttributeName": "bracket", "AttributeType": "S"},
            {"AttributeName": "seq", "AttributeType": "N"},
        ])
    );
    assert_eq!(
        properties["GlobalSecondaryIndexes"][0]["KeySchema"],
        serde_json::json!([
            {"AttributeName": "tenant_id", "KeyType": "HASH"},
            {"AttributeName": "region", "KeyType": "HASH"},
            {"AttributeName": "round", "KeyType": "RANGE"},
            {"AttributeName": "bracket", "KeyType": "RANGE"},
            {"AttributeName": "seq", "KeyType": "RANGE"},
        ])
    );
}

#[test]
fn the_key_condition_names_each_attribute_with_native_values() {
    let input = Match::query_gsi3("t-1", &7)
        .sort_between((&2,), "A", "M")
        .request("tournament")
        .unwrap();
    assert_eq!(input.index_name(), Some("GSI3"));
    assert_eq!(
        input.key_condition_expression(),
        Some("#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 BETWEEN :v3 AND :v4")
    );
    let names = input.expression_attribute_names().unwrap();
    assert_eq!(
        [&names["#n0"], &names["#n1"], &names["#n2"], &names["#n3"]],
        ["tenant_id", "region", "round", "bracket"]
    );
    let values = input.expression_attribute_values().unwrap();
    assert_eq!(values[":v0"], AttributeValue::S("t-1".into()));
    assert_eq!(values[":v1"], AttributeValue::N("7".into()));
    assert_eq!(values[":v2"], AttributeValue::N("2".into()));
    assert_eq!(values[":v3"], AttributeValue::S("A".into()));
    assert_eq!(values[":v4"], AttributeValue::S("M".into()));
    // A range on the first sort attribute, and an equality on three.
    let input = Match::query_gsi3("t-1", &7)
        .sort_gt((), &-1)
        .request("tournament")
        .unwrap();
    assert_eq!(
        input.key_condition_expression(),
        Some("#n0 = :v0 AND #n1 = :v1 AND #n2 > :v2")
    );
    let input = Match::query_gsi3("t-1", &7)
        .sort_eq((&1, "W", &4))
        .request("tournament")
        .unwrap();
    assert_eq!(
        input.key_condition_expression(),
        Some("#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 = :v3 AND #n4 = :v4")
    );
}

#[test]
fn refusals_before_sending() {
    let error = Match::query_gsi3("t-1", &7)
        .sort_between((), &5, &2)
        .request("tournament")
        .unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::InvalidSortKeyRange { lower, upper }) if lower == "5" && upper == "2"),
        "{error:?}"
    );
    let error = Match::query_gsi3("", &7).request("tournament").unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::InvalidKeyAttribute {
                attribute: "tenant_id",
                ..
            })
        ),
        "{error:?}"
    );
    let error = Match::query_gsi3("t-1", &7)
        .consistent_read()
        .request("tournament")
        .unwrap_err();
    assert!(matches!(
        error,
        Error::Refused(Refusal::ConsistentReadOnIndex { index: "GSI3" })
    ));
    let mut empty = a_match("m-1", 1, Some("W"), 1);
    empty.tenant_id.clear();
    let mut item = empty.to_item().unwrap();
    let error = stamp::item::check_item(Match::SCHEMA, &mut item).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::InvalidKeyAttribute {
                attribute: "tenant_id",
                ..
            })
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn numbers_sort_numerically_and_an_item_without_a_key_field_is_left_out() {
    let table = common::fresh_table("multi-order", &definition()).await;
    put_all(
        &table,
        &[
            a_match("m10", 10, Some("W"), 1),
            a_match("m2", 2, Some("W"), 1),
            a_match("m-5", -5, Some("W"), 1),
            a_match("m0", 0, Some("W"), 1),
            a_match("unscheduled", 1, None, 1),
            Match {
                region: 8,
                ..a_match("elsewhere", 1, Some("W"), 1)
            },
        ],
    )
    .await;
    let page = Match::query_gsi3("t-1", &7).send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["m-5", "m0", "m2", "m10"]);
    let page = Match::query_gsi3("t-1", &7)
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(&page.items), ["m10", "m2", "m0", "m-5"]);
    let page = Match::query_gsi3("t-1", &8).send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["elsewhere"]);
}

#[tokio::test]
async fn equality_on_a_leading_run_and_one_range_on_the_next() {
    let table = common::fresh_table("multi-range", &definition()).await;
    put_all(
        &table,
        &[
            a_match("r1-L-1", 1, Some("Losers"), 1),
            a_match("r1-W-1", 1, Some("Winners"), 1),
            a_match("r1-W-2", 1, Some("Winners"), 2),
            a_match("r1-W-10", 1, Some("Winners"), 10),
            a_match("r2-W-1", 2, Some("Winners"), 1),
            a_match("r3-L-1", 3, Some("Losers"), 1),
        ],
    )
    .await;
    let query = || Match::query_gsi3("t-1", &7);
    let run = |page: stamp::Page<Match>| {
        page.items
            .into_iter()
            .map(|m| m.match_id)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        run(query().sort_eq((&1,)).send(&table).await.unwrap()),
        ["r1-L-1", "r1-W-1", "r1-W-2", "r1-W-10"]
    );
    assert_eq!(
        run(query().sort_eq((&1, "Winners")).send(&table).await.unwrap()),
        ["r1-W-1", "r1-W-2", "r1-W-10"]
    );
    assert_eq!(
        run(query()
            .sort_between((&1, "Winners"), &2, &10)
            .send(&table)
            .await
            .unwrap()),
        ["r1-W-2", "r1-W-10"]
    );
    assert_eq!(
        run(query()
            .sort_gt((&1, "Winners"), &1)
            .send(&table)
            .await
            .unwrap()),
        ["r1-W-2", "r1-W-10"]
    );
    assert_eq!(
        run(query()
            .sort_lt((&1,), "Winners")
            .send(&table)
            .await
            .unwrap()),
        ["r1-L-1"]
    );
    assert_eq!(
        run(query()
            .sort_begins_with((&1,), "Win")
            .send(&table)
            .await
            .unwrap()),
        ["r1-W-1", "r1-W-2", "r1-W-10"]
    );
    assert_eq!(
        run(query().sort_ge((), &2).send(&table).await.unwrap()),
        ["r2-W-1", "r3-L-1"]
    );
    assert_eq!(
        run(query()
            .sort_le((), &1)
            .newest_first()
            .send(&table)
            .await
            .unwrap()),
        ["r1-W-10", "r1-W-2", "r1-W-1", "r1-L-1"]
    );
    assert_eq!(
        run(query()
            .sort_eq((&1, "Winners", &10))
            .send(&table)
            .await
            .unwrap()),
        ["r1-W-10"]
    );
}

#[tokio::test]
async fn a_cursor_carries_number_attributes_across_pages() {
    let table = common::fresh_table("multi-pages", &definition()).await;
    let matches: Vec<Match> = (-3..7)
        .map(|round| a_match(&format!("m{round}"), round, Some("W"), 1))
        .collect();
    put_all(&table, &matches).await;
    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    let mut pages = 0;
    loop {
        let mut query = Match::query_gsi3("t-1", &7).sort_ge((), &-2).limit(3);
        if let Some(cursor) = &cursor {
            query = query.after(cursor);
        }
        let page = query.send(&table).await.unwrap();
        pages += 1;
        seen.extend(page.items.into_iter().map(|m| m.round));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, (-2..7).collect::<Vec<_>>());
    assert!(pages >= 3, "{pages} pages");
}

#[tokio::test]
async fn a_forged_cursor_is_refused_before_sending() {
    let (client, counter) = common::counting_client();
    let table = Table::new(
        client,
        format!("stamp-multi-forged-{}", uuid::Uuid::new_v4().simple()),
    );
    table.create_table(&definition()).await.unwrap();
    put_all(
        &table,
        &(0..4)
            .map(|round| a_match(&format!("m{round}"), round, Some("W"), 1))
            .collect::<Vec<_>>(),
    )
    .await;
    let page = Match::query_gsi3("t-1", &7)
        .sort_ge((), &1)
        .limit(1)
        .send(&table)
        .await
        .unwrap();
    let cursor = page.cursor.unwrap();
    // The same cursor resumes the query it came from.
    let next = Match::query_gsi3("t-1", &7)
        .sort_ge((), &1)
        .limit(1)
        .after(&cursor)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(next.items[0].round, 2);
    // A cursor whose round is outside the condition, rewritten by a client.
    let mut content: serde_json::Value =
        serde_json::from_slice(&base64_decode(cursor.as_str())).unwrap();
    assert_eq!(content["n"]["round"], "1");
    assert_eq!(content["n"]["region"], "7");
    assert_eq!(content["k"]["tenant_id"], "t-1");
    content["n"]["round"] = "0".into();
    let forged = Cursor::from_text(base64_encode(&serde_json::to_vec(&content).unwrap()));
    counter.reset();
    let error = Match::query_gsi3("t-1", &7)
        .sort_ge((), &1)
        .after(&forged)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::InvalidCursor { .. })),
        "{error:?}"
    );
    // A number that is not one, and a Number given as a String.
    content["n"]["round"] = "1e3".into();
    let forged = Cursor::from_text(base64_encode(&serde_json::to_vec(&content).unwrap()));
    let error = Match::query_gsi3("t-1", &7)
        .sort_ge((), &1)
        .after(&forged)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::InvalidCursor { .. })),
        "{error:?}"
    );
    content["n"].as_object_mut().unwrap().remove("round");
    content["k"]["round"] = "1".into();
    let forged = Cursor::from_text(base64_encode(&serde_json::to_vec(&content).unwrap()));
    let error = Match::query_gsi3("t-1", &7)
        .sort_ge((), &1)
        .after(&forged)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::InvalidCursor { .. })),
        "{error:?}"
    );
    assert_eq!(counter.count("Query"), 0);
}

#[tokio::test]
async fn an_update_moves_the_item_within_the_index_and_none_takes_it_out() {
    let table = common::fresh_table("multi-update", &definition()).await;
    put_all(
        &table,
        &[a_match("a", 1, Some("W"), 1), a_match("b", 2, Some("W"), 1)],
    )
    .await;
    Match::update("a")
        .set(Match::ROUND, &3)
        .send(&table)
        .await
        .unwrap();
    let page = Match::query_gsi3("t-1", &7).send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["b", "a"]);
    assert_eq!(page.items[1].round, 3);
    Match::update("b")
        .remove(Match::BRACKET)
        .send(&table)
        .await
        .unwrap();
    let page = Match::query_gsi3("t-1", &7).send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["a"]);
    Match::update("b")
        .set(Match::BRACKET, &"L".to_owned())
        .set(Match::REGION, &9)
        .send(&table)
        .await
        .unwrap();
    let page = Match::query_gsi3("t-1", &9).send(&table).await.unwrap();
    assert_eq!(ids(&page.items), ["b"]);
    // An empty string is no key value: refused before sending.
    let error = Match::update("b")
        .set(Match::BRACKET, &String::new())
        .request("tournament")
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::InvalidKeyAttribute {
                attribute: "bracket",
                ..
            })
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn two_entities_share_an_index_and_each_query_keeps_its_own() {
    let table = common::fresh_table("multi-shared", &definition()).await;
    put_all(&table, &[a_match("m", 1, Some("W"), 1)]).await;
    table
        .put(&Playoff {
            id: "p".to_owned(),
            tenant_id: "t-1".to_owned(),
            zone: 7,
            round: 1,
            bracket: Some("W".to_owned()),
            seq: 2,
            title: "final".to_owned(),
        })
        .await
        .unwrap();
    let matches = Match::query_gsi3("t-1", &7).send(&table).await.unwrap();
    assert_eq!(ids(&matches.items), ["m"]);
    let playoffs = Playoff::query_gsi3("t-1", &7).send(&table).await.unwrap();
    assert_eq!(playoffs.items.len(), 1);
    assert_eq!(playoffs.items[0].title, "final");
    assert_eq!(Match::query_gsi3("t-1", &7).count(&table).await.unwrap(), 1);
}

#[tokio::test]
async fn verify_finds_no_difference_on_a_table_it_created() {
    let definition = definition().entity::<Score>();
    let table = common::fresh_table("multi-verify", &definition).await;
    let differences = table.verify(&definition).await.unwrap();
    assert!(differences.is_empty(), "{differences:?}");
    let player = uuid::Uuid::new_v4();
    table
        .put(&Score {
            id: "s".to_owned(),
            player,
        })
        .await
        .unwrap();
    let page = Score::query_gsi4(&player).send(&table).await.unwrap();
    assert_eq!(page.items.len(), 1);
    // The same table, checked against a definition without the index's
    // numbers: the types differ.
    let other = TableDefinition::new().entity::<Strings>();
    let differences = table.verify(&other).await.unwrap();
    assert!(
        differences.iter().any(|difference| matches!(
            difference,
            stamp::schema::SchemaDifference::AttributeType { attribute, .. } if attribute == "region"
        )),
        "{differences:?}"
    );
}

/// `region` as a String in GSI3: another type for the same attribute.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "STR#<id>"]
#[sk = "STR"]
#[gsi3(pk(tenant_id, region), sk(round, bracket, seq))]
struct Strings {
    id: String,
    tenant_id: String,
    region: String,
    round: i32,
    bracket: String,
    seq: i64,
}

/// `region` as a String in another index.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "REG#<id>"]
#[sk = "REG"]
#[gsi5(pk(region))]
struct Region {
    id: String,
    region: String,
}

/// A template index named like the multi-attribute one.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TPL#<id>"]
#[sk = "TPL"]
#[gsi3 = "TENANT#<tenant_id>"]
struct Template {
    id: String,
    tenant_id: String,
}

/// Fewer sort attributes in the same index.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHORT#<id>"]
#[sk = "SHORT"]
#[gsi3(pk(tenant_id, region), sk(round))]
struct Short {
    id: String,
    tenant_id: String,
    region: u32,
    round: i32,
}

#[test]
fn entities_that_disagree_on_a_multi_attribute_index_are_refused() {
    let error = definition().entity::<Strings>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingKeyAttributeTypes {
                attribute: "region",
                first_type: "N",
                second_type: "S",
                ..
            })
        ),
        "{error:?}"
    );
    let error = definition().entity::<Region>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingKeyAttributeTypes {
                attribute: "region",
                first_index: "GSI3",
                second_index: "GSI5",
                ..
            })
        ),
        "{error:?}"
    );
    let error = definition().entity::<Template>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingKeyAttributes {
                second_entity: "Template",
                ..
            })
        ),
        "{error:?}"
    );
    let error = TableDefinition::new()
        .entity::<Template>()
        .entity::<Match>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingKeyAttributes {
                first_name: "GSI3PK",
                second_name: "tenant_id",
                ..
            })
        ),
        "{error:?}"
    );
    let error = definition().entity::<Short>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingKeyAttributes {
                first_name: "bracket",
                second_name: "(none)",
                ..
            })
        ),
        "{error:?}"
    );
}

/// URL-safe base64 without padding, the cursor's encoding (as in
/// `reads.rs`, so the tests need no base64 crate).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_decode(text: &str) -> Vec<u8> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.bytes() {
        let value = ALPHABET.iter().position(|&c| c == byte).unwrap() as u32;
        bits = (bits << 6) | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut buffer = [0u8; 3];
        buffer[..chunk.len()].copy_from_slice(chunk);
        let n = (u32::from(buffer[0]) << 16) | (u32::from(buffer[1]) << 8) | u32::from(buffer[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

#[test]
fn the_catalogue_lists_the_typed_attributes_and_the_query_shapes() {
    let catalogue = definition().entity::<Score>().catalogue().unwrap();
    assert!(
        catalogue.contains(
            "| `GSI3` | `tenant_id` (S), `region` (N) | `round` (N), `bracket` (S), `seq` (N) | ALL |"
        ),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("| `ByPlayer` | `player` (S) | — | ALL |"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains(
            "| `Match::query_gsi3(tenant_id, region)` | `Match` | Query | `GSI3` (sparse: only items with `bracket`) | `tenant_id` (S), `region` (N)<br>`round` (N), `bracket` (S), `seq` (N) | — | `=` on a leading run of `round`, `bracket`, `seq`; one range (`<`, `<=`, `>`, `>=`, between, begins_with) on the attribute after it | `tenant_id = <tenant_id>`<br>`region = <region>` |"
        ),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("| `Playoff::query_gsi3(tenant_id, zone)` |"),
        "{catalogue}"
    );
    // The diagram: the index with its attributes, an edge per entity with
    // its fields, and the query.
    assert!(
        catalogue
            .contains("  index_GSI3[(\"GSI3<br>(tenant_id, region) / (round, bracket, seq)\")]"),
        "{catalogue}"
    );
    assert!(
        catalogue.contains(
            "  entity_Playoff -->|\"pk(tenant_id, zone) sk(round, bracket, seq)\"| index_GSI3"
        ),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("[\"Match::query_gsi3(tenant_id, region)\"]"),
        "{catalogue}"
    );
    let recorded = definition()
        .example(&a_match("m-1", 2, Some("W"), 1))
        .unwrap()
        .catalogue()
        .unwrap();
    assert!(
        recorded.contains("| `tenant_id = t-1`<br>`region = 7` |"),
        "{recorded}"
    );
}

/// cfn-lint on a template with multi-attribute indexes (named so that the
/// venv pass of `cargo xtask test`, `--ignored schema_cfn_lint`, runs it).
#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_a_multi_attribute_template() {
    let cfn_lint = std::env::var_os("STAMP_CFN_LINT")
        .expect("STAMP_CFN_LINT is not set: run this test with `cargo xtask test`");
    let template = definition().entity::<Score>().cloudformation().unwrap();
    for (extension, text) in [("yaml", template.to_yaml()), ("json", template.to_json())] {
        let path = std::env::temp_dir().join(format!(
            "stamp-cfn-multi-{}.{extension}",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::write(&path, text).unwrap();
        let output = std::process::Command::new(&cfn_lint)
            .arg("--")
            .arg(&path)
            .output()
            .expect("run cfn-lint");
        assert!(
            output.status.success(),
            "cfn-lint found problems:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn capacity_and_planning_count_the_index_by_its_attribute_tuple() {
    use stamp::capacity::{Access, Load, Workload};
    let scheduled = definition()
        .example(&a_match("m-1", 2, Some("W"), 1))
        .unwrap();
    let capacity = scheduled.capacity().unwrap();
    let cost = capacity.iter().find(|cost| cost.entity == "Match").unwrap();
    // A 1 KB item: one write unit on the table and one on the index.
    assert_eq!(cost.put.table, 1.0);
    assert_eq!(cost.put.indexes, [("GSI3", 1.0)]);
    assert_eq!(cost.index_query_pages.len(), 1);
    let workload = Workload::new()
        .load(Load::of::<Match>(Access::Put, 100.0))
        .load(Load::of::<Match>(Access::QueryPage(3), 10.0))
        .spread("(tenant_id, region)", 4.0);
    let plan = scheduled.plan(&workload).unwrap();
    let index = plan.iter().find(|load| load.index == "GSI3").unwrap();
    assert_eq!(index.template, "(tenant_id, region)");
    assert_eq!(index.values, 4.0);
    assert_eq!(index.write_units, 25.0);
    assert!(index.read_units > 0.0);
    // Without a bracket the item is not in the index: no index write.
    let unscheduled = definition().example(&a_match("m-1", 2, None, 1)).unwrap();
    let capacity = unscheduled.capacity().unwrap();
    assert!(capacity[0].put.indexes.is_empty());
}

/// One field in two indexes, a partition key of two Strings (a named
/// input struct), and an `Option` in the partition key (sparse).
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SEAT#<id>"]
#[sk = "SEAT"]
#[gsi6(pk(venue, section), sk(row))]
#[gsi7(pk(holder), sk(row))]
struct Seat {
    id: String,
    venue: String,
    section: String,
    row: u16,
    holder: Option<String>,
}

#[tokio::test]
async fn a_field_in_two_indexes_and_a_partition_key_of_two_strings() {
    let definition = TableDefinition::new().entity::<Seat>();
    let input = definition.request("seats").unwrap();
    let row_definitions = input
        .attribute_definitions()
        .iter()
        .filter(|definition| definition.attribute_name() == "row")
        .count();
    assert_eq!(row_definitions, 1);
    let table = common::fresh_table("multi-seats", &definition).await;
    for (id, row, holder) in [
        ("s1", 12, Some("ann")),
        ("s2", 3, None),
        ("s3", 7, Some("ann")),
    ] {
        table
            .put(&Seat {
                id: id.to_owned(),
                venue: "arena".to_owned(),
                section: "B".to_owned(),
                row,
                holder: holder.map(str::to_owned),
            })
            .await
            .unwrap();
    }
    let page = Seat::query_gsi6(SeatGsi6Partition {
        venue: "arena",
        section: "B",
    })
    .sort_lt((), &10)
    .send(&table)
    .await
    .unwrap();
    let rows: Vec<u16> = page.items.iter().map(|seat| seat.row).collect();
    assert_eq!(rows, [3, 7]);
    let page = Seat::query_gsi7("ann")
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    let rows: Vec<u16> = page.items.iter().map(|seat| seat.row).collect();
    assert_eq!(rows, [12, 7]);
    assert_eq!(
        Seat::SCHEMA.call_arguments("query_gsi6", "venue, section"),
        "SeatGsi6Partition { venue, section }"
    );
}

/// Declared best first; serde stores the names, so the index sorts them
/// by name: `BRONZE` < `GOLD` < `SILVER`.
#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Tier {
    Gold,
    Silver,
    Bronze,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
#[gsi8(pk(venue), sk(tier, day))]
struct Ticket {
    id: String,
    venue: String,
    tier: Tier,
    day: chrono::NaiveDate,
}

#[tokio::test]
async fn unit_enums_sort_by_name_and_dates_by_day() {
    assert_eq!(
        Ticket::SCHEMA.gsi(8).unwrap().attributes().unwrap().1[1].attribute_type,
        KeyAttributeType::S
    );
    let definition = TableDefinition::new().entity::<Ticket>();
    let table = common::fresh_table("multi-tickets", &definition).await;
    let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    for (id, tier, d) in [
        ("g", Tier::Gold, 1),
        ("s", Tier::Silver, 1),
        ("b2", Tier::Bronze, 20),
        ("b1", Tier::Bronze, 3),
    ] {
        table
            .put(&Ticket {
                id: id.to_owned(),
                venue: "arena".to_owned(),
                tier,
                day: day(d),
            })
            .await
            .unwrap();
    }
    let ids = |page: stamp::Page<Ticket>| page.items.into_iter().map(|t| t.id).collect::<Vec<_>>();
    let page = Ticket::query_gsi8("arena").send(&table).await.unwrap();
    assert_eq!(ids(page), ["b1", "b2", "g", "s"]);
    let page = Ticket::query_gsi8("arena")
        .sort_between((&Tier::Bronze,), &day(2), &day(10))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(page), ["b1"]);
}

#[tokio::test]
async fn verify_reports_a_multi_attribute_key_schema_that_differs() {
    // The live GSI3 has one sort-key attribute; the definition has three.
    let live = TableDefinition::new().entity::<Short>();
    let table = common::fresh_table("multi-drift", &live).await;
    let differences = table.verify(&definition()).await.unwrap();
    assert!(
        differences.contains(&stamp::schema::SchemaDifference::MultiAttributeKeySchema {
            index: "GSI3".to_owned(),
            expected: [
                "HASH tenant_id",
                "HASH region",
                "RANGE round",
                "RANGE bracket",
                "RANGE seq"
            ]
            .map(str::to_owned)
            .to_vec(),
            found: ["HASH tenant_id", "HASH region", "RANGE round"]
                .map(str::to_owned)
                .to_vec(),
        }),
        "{differences:?}"
    );
    let text = differences
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("index `GSI3` has key schema (HASH tenant_id, HASH region, RANGE round), expected (HASH tenant_id, HASH region, RANGE round, RANGE bracket, RANGE seq)"),
        "{text}"
    );
}

/// serde's names are the attribute names.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
#[pk = "BOOK#<book_id>"]
#[sk = "BOOK"]
#[gsi9(pk(shelf_code), sk(page_count))]
struct Book {
    book_id: String,
    shelf_code: String,
    page_count: u32,
}

#[test]
fn key_attributes_take_serdes_names() {
    let (partition_key, sort_key) = Book::SCHEMA.gsi(9).unwrap().attributes().unwrap();
    assert_eq!(partition_key[0].attribute, "shelfCode");
    assert_eq!(sort_key[0].attribute, "pageCount");
    let input = TableDefinition::new()
        .entity::<Book>()
        .request("books")
        .unwrap();
    let schema: Vec<&str> = input.global_secondary_indexes()[0]
        .key_schema()
        .iter()
        .map(|element| element.attribute_name())
        .collect();
    assert_eq!(schema, ["shelfCode", "pageCount"]);
    let query = Book::query_gsi9("A-1")
        .sort_ge((), &100)
        .request("books")
        .unwrap();
    let names = query.expression_attribute_names().unwrap();
    assert_eq!(names["#n0"], "shelfCode");
    assert_eq!(names["#n1"], "pageCount");
}

/// A local index beside a multi-attribute one.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "LEAGUE#<league>"]
#[sk = "TEAM#<team>"]
#[lsi1(sk = "POINTS#<points>")]
#[gsi3(pk(league, division), sk(points))]
struct Team {
    league: String,
    team: String,
    division: u8,
    points: u32,
}

#[tokio::test]
async fn a_local_index_and_a_multi_attribute_index_in_one_table() {
    let definition = TableDefinition::new().entity::<Team>();
    let input = definition.request("league").unwrap();
    let definitions: Vec<(&str, &ScalarAttributeType)> = input
        .attribute_definitions()
        .iter()
        .map(|definition| (definition.attribute_name(), definition.attribute_type()))
        .collect();
    assert_eq!(
        definitions,
        [
            ("PK", &ScalarAttributeType::S),
            ("SK", &ScalarAttributeType::S),
            ("league", &ScalarAttributeType::S),
            ("division", &ScalarAttributeType::N),
            ("points", &ScalarAttributeType::N),
            ("LSI1SK", &ScalarAttributeType::S),
        ]
    );
    let table = common::fresh_table("multi-lsi", &definition).await;
    for (team, division, points) in [("a", 1, 30), ("b", 1, 4), ("c", 2, 10)] {
        table
            .put(&Team {
                league: "north".to_owned(),
                team: team.to_owned(),
                division,
                points,
            })
            .await
            .unwrap();
    }
    let page = Team::query_gsi3("north", &1).send(&table).await.unwrap();
    let points: Vec<u32> = page.items.iter().map(|team| team.points).collect();
    assert_eq!(points, [4, 30]);
    assert!(table.verify(&definition).await.unwrap().is_empty());
}

/// Issue 24, point 1: one list of indexes on the entity schema, of every
/// kind, and one list on the table definition, each telling its kind; the
/// LSI's partition key is the table's.
#[test]
fn every_index_kind_is_in_the_one_list_of_indexes() {
    let kinds: Vec<(&str, u8, IndexKind, bool)> = Team::SCHEMA
        .indexes
        .iter()
        .map(|index| {
            (
                index.name,
                index.number,
                index.kind,
                index.is_multi_attribute(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("GSI3", 3, IndexKind::Global { shards: None }, true),
            ("LSI1", 1, IndexKind::Local, false),
        ]
    );
    assert_eq!(Team::SCHEMA.gsi(3).unwrap().name, "GSI3");
    assert_eq!(Team::SCHEMA.lsi(1).unwrap().name, "LSI1");
    assert!(Team::SCHEMA.gsi(1).is_none() && Team::SCHEMA.lsi(3).is_none());
    let lsi = Team::SCHEMA.lsi(1).unwrap();
    assert_eq!(
        lsi.key_schema(),
        [("PK", true), ("LSI1SK", false)],
        "an LSI's partition key is the table's"
    );
    // It writes only its sort key; the multi-attribute index writes none.
    let written: Vec<&str> = Team::SCHEMA.index_key_attributes().collect();
    assert_eq!(written, ["LSI1SK"]);
    let table: Vec<(&str, bool, &str, Option<&str>)> = TableDefinition::new()
        .entity::<Team>()
        .indexes()
        .unwrap()
        .iter()
        .map(|index| {
            (
                index.name,
                index.is_local(),
                index.partition_key,
                index.sort_key,
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            ("GSI3", false, "league", Some("points")),
            ("LSI1", true, "PK", Some("LSI1SK")),
        ]
    );
}

/// Issue 22, point 5: a field of another entity stored under a
/// multi-attribute key attribute with another type. DynamoDB refuses every
/// write of an item whose index key attribute has another type than the
/// index's ("Type mismatch for Index Key",
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Writes>),
/// so the definition is refused, naming both entities, the attribute and
/// both types. Of the same type, it is fine (the item is in the index, and
/// queries filter by type).
#[test]
fn another_entitys_field_of_another_type_under_a_key_attribute_is_refused() {
    /// `round` is a Number in GSI3 (`Match`); here it is a String.
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "NOTE#<id>"]
    #[sk = "NOTE"]
    struct Note {
        id: String,
        round: String,
    }
    let error = definition().entity::<Note>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Note",
                field: "round",
                field_type: "S",
                index_entity: "Match",
                index: "GSI3",
                attribute: "round",
                key_type: "N",
                ..
            })
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "`Note` stores field `round` as `round` (S), which is a key or search attribute of index `GSI3` \
         written by `Match` (N): DynamoDB would put its items in that index under a key Stamp \
         does not build, or refuse every write of one whose value has another type (\"Type \
         mismatch for Index Key\"); rename the field (`#[serde(rename = \"…\")]`) or the index \
         attribute"
    );

    /// Under serde's name, as a bool: refused too.
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "FLAG#<id>"]
    #[sk = "FLAG"]
    struct Flag {
        id: String,
        #[serde(rename = "tenant_id")]
        tenant: bool,
    }
    let error = definition().entity::<Flag>().check().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Flag",
                field: "tenant",
                field_type: "BOOL",
                attribute: "tenant_id",
                key_type: "S",
                ..
            })
        ),
        "{error:?}"
    );

    /// The same types as the index's: accepted.
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "TALLY#<id>"]
    #[sk = "TALLY"]
    struct Tally {
        id: String,
        tenant_id: String,
        round: i64,
        bracket: Option<String>,
    }
    definition().entity::<Tally>().check().unwrap();
}

/// The sibling of point 5 for template GSIs, as for LSI sort keys: a field
/// stored under a template GSI's key attribute puts its items in that
/// index under a key the template does not build.
#[test]
fn a_field_under_a_template_gsi_key_attribute_is_refused() {
    // Its own order entity: a template GSI1 whose sort key attribute the note's field takes.
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "ORDER#<id>"]
    #[sk = "ORDER"]
    #[gsi1(pk = "STATUS#<status>", sk = "<id>")]
    struct Order {
        id: String,
        status: String,
    }
    #[derive(Item, Serialize, Deserialize)]
    #[pk = "NOTE#<id>"]
    #[sk = "NOTE"]
    struct Note {
        id: String,
        #[serde(rename = "GSI1SK")]
        text: String,
    }
    let error = TableDefinition::new()
        .entity::<Order>()
        .entity::<Note>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::IndexAttributeCollision {
                field_entity: "Note",
                field: "text",
                index_entity: "Order",
                index: "GSI1",
                attribute: "GSI1SK",
                key_type: "S, built from a template",
                ..
            })
        ),
        "{error:?}"
    );
}

/// Issue 22, point 6: a task tracker's due time and day as multi-attribute
/// sort-key attributes, with no second `due_ms` field to keep in sync.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TASK#<id>"]
#[sk = "TASK"]
#[gsi6(pk(tenant_id), sk(due))]
#[gsi7(pk(project), sk(day, changed))]
struct Task {
    id: String,
    tenant_id: String,
    due: chrono::DateTime<chrono::Utc>,
    project: String,
    day: chrono::NaiveDate,
    #[stamp(updated_at)]
    changed: chrono::DateTime<chrono::Utc>,
}

fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
    text.parse().unwrap()
}

fn a_task(id: &str, due: &str) -> Task {
    Task {
        id: id.to_owned(),
        tenant_id: "t-1".to_owned(),
        due: at(due),
        project: "p".to_owned(),
        day: chrono::NaiveDate::from_ymd_opt(2026, 3, 1).unwrap(),
        changed: at("2026-01-01T00:00:00Z"),
    }
}

/// The stored form is the `KeyPart` encoding, RFC 3339 with nine
/// fractional digits always (fixed width, so the bytes sort as the times),
/// where serde's form has as many as the value needs (`…:00.5Z`, which
/// sorts before `…:00Z`). It is RFC 3339, so the item reads back as it was.
#[test]
fn a_time_key_attribute_is_stored_fixed_width_and_reads_back() {
    assert_eq!(
        Task::SCHEMA.gsi(6).unwrap().attributes().unwrap().1[0].attribute_type,
        KeyAttributeType::S
    );
    let task = a_task("a", "2026-03-01T09:00:00.5Z");
    let item = task.to_item().unwrap();
    assert_eq!(
        item["due"],
        AttributeValue::S("2026-03-01T09:00:00.500000000Z".into())
    );
    assert_eq!(item["day"], AttributeValue::S("2026-03-01".into()));
    assert_eq!(
        item["changed"],
        AttributeValue::S("2026-01-01T00:00:00.000000000Z".into())
    );
    assert_eq!(Task::from_item(item).unwrap(), task);
    // A date outside the years a fixed-width key holds is refused, not
    // stored in a form that sorts wrong (`+10000-01-01` before `9999-…`).
    let far = Task {
        day: chrono::NaiveDate::from_ymd_opt(10000, 1, 1).unwrap(),
        ..task
    };
    let error = far.to_item().unwrap_err();
    assert!(
        matches!(error, Error::Refused(Refusal::Serialize { .. })),
        "{error:?}"
    );
}

/// The order of times in the index is the order of the instants: `>` a
/// whole second takes the half second after it, and the items come back
/// in time order (with serde's form, `…:00.5Z` would sort before `…:00Z`
/// and be missed).
#[tokio::test]
async fn a_time_range_on_a_multi_attribute_key_follows_time_order() {
    let definition = TableDefinition::new().entity::<Task>();
    let table = common::fresh_table("multi-times", &definition).await;
    for (id, due) in [
        ("late", "2026-03-01T09:00:01Z"),
        ("half", "2026-03-01T09:00:00.5Z"),
        ("whole", "2026-03-01T09:00:00Z"),
        ("early", "2026-03-01T08:59:59.999Z"),
    ] {
        table.put(&a_task(id, due)).await.unwrap();
    }
    let ids = |page: stamp::Page<Task>| page.items.into_iter().map(|t| t.id).collect::<Vec<_>>();
    let page = Task::query_gsi6("t-1").send(&table).await.unwrap();
    assert_eq!(ids(page), ["early", "whole", "half", "late"]);
    let page = Task::query_gsi6("t-1")
        .sort_gt((), &at("2026-03-01T09:00:00Z"))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(page), ["half", "late"]);
    let page = Task::query_gsi6("t-1")
        .sort_between(
            (),
            &at("2026-03-01T09:00:00Z"),
            &at("2026-03-01T09:00:00.5Z"),
        )
        .newest_first()
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(page), ["half", "whole"]);
    let page = Task::query_gsi6("t-1")
        .sort_eq((&at("2026-03-01T09:00:00.5Z"),))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(page), ["half"]);
    // An update that moves the time rebuilds the attribute in its key form.
    Task::update("early")
        .set(Task::DUE, &at("2026-03-01T09:00:00.75Z"))
        .send(&table)
        .await
        .unwrap();
    let page = Task::query_gsi6("t-1")
        .sort_gt((), &at("2026-03-01T09:00:00.5Z"))
        .send(&table)
        .await
        .unwrap();
    assert_eq!(ids(page), ["early", "late"]);
    let stored = common::client()
        .get_item()
        .table_name(table.name())
        .key("PK", AttributeValue::S("TASK#early".into()))
        .key("SK", AttributeValue::S("TASK".into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        stored["due"],
        AttributeValue::S("2026-03-01T09:00:00.750000000Z".into())
    );
    // The `updated_at` stamp of the update is in the key form too (nine
    // digits, 30 characters).
    let AttributeValue::S(changed) = &stored["changed"] else {
        panic!("{stored:?}")
    };
    assert_eq!(changed.len(), 30, "{changed}");
    assert!(changed.ends_with('Z') && changed.as_bytes()[19] == b'.');
}

/// DynamoDB's key attribute limits apply to each attribute of a
/// multi-attribute key: 2048 bytes for a partition key value, 1024 for a
/// sort key value ("Partition key value length", "Sort key value length",
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html>).
///
/// A fresh table for a test of those limits, with its request counter at
/// zero.
async fn table_for_long_keys(test: &str) -> (Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table(test, &definition()).await;
    counter.reset();
    (table, counter)
}

/// A refusal of a key value sent nothing.
fn assert_nothing_sent(counter: &common::RequestCounter) {
    assert!(
        counter.operations().is_empty(),
        "{:?}",
        counter.operations()
    );
}

#[tokio::test]
async fn a_put_with_a_multi_attribute_key_value_over_the_key_limit_is_refused_before_sending() {
    let (table, counter) = table_for_long_keys("multi-long-put").await;
    let long_tenant = Match {
        tenant_id: "t".repeat(2049),
        ..a_match("a", 1, Some("W"), 1)
    };
    let error = table.put(&long_tenant).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::KeyAttributeTooLong {
                entity: "Match",
                attribute: "tenant_id",
                length: 2049,
                limit: 2048,
            })
        ),
        "{error:?}"
    );
    let long_bracket = a_match("a", 1, Some(&"b".repeat(1025)), 1);
    let error = table.put(&long_bracket).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::KeyAttributeTooLong {
                entity: "Match",
                attribute: "bracket",
                length: 1025,
                limit: 1024,
            })
        ),
        "{error:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn an_update_setting_a_multi_attribute_key_value_over_the_key_limit_is_refused_before_sending()
 {
    let (table, counter) = table_for_long_keys("multi-long-update").await;
    let error = Match::update("a")
        .set(Match::BRACKET, &"b".repeat(1025))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::KeyAttributeTooLong {
                attribute: "bracket",
                length: 1025,
                limit: 1024,
                ..
            })
        ),
        "{error:?}"
    );
    let error = Match::update("a")
        .set(Match::TENANT_ID, &"t".repeat(2049))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::KeyAttributeTooLong {
                attribute: "tenant_id",
                length: 2049,
                limit: 2048,
                ..
            })
        ),
        "{error:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_query_of_a_multi_attribute_key_value_over_the_key_limit_is_refused_before_sending() {
    let (table, counter) = table_for_long_keys("multi-long-query").await;
    let error = Match::query_gsi3(&"t".repeat(2049), &7)
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::KeyAttributeTooLong {
                attribute: "tenant_id",
                length: 2049,
                limit: 2048,
                ..
            })
        ),
        "{error:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn multi_attribute_key_values_at_the_key_limits_are_stored_and_found() {
    let (table, _counter) = table_for_long_keys("multi-long-at-limits").await;
    // At the limits, the values are key values.
    let at_limits = Match {
        tenant_id: "t".repeat(2048),
        ..a_match("a", 1, Some(&"b".repeat(1024)), 1)
    };
    table.put(&at_limits).await.unwrap();
    let page = Match::query_gsi3(&"t".repeat(2048), &7)
        .send(&table)
        .await
        .unwrap();
    assert_eq!(page.items, [at_limits]);
}
