//! `TableDefinition` without a server: every check with its exact error,
//! the options, and what goes into the `CreateTable` input, the
//! CloudFormation template and the catalogue.

use std::num::NonZeroU32;

use aws_sdk_dynamodb::types::{BillingMode, KeyType, ProjectionType, ScalarAttributeType};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use stamp::error::DefinitionError;
use stamp::limits::MAX_GSIS;
use stamp::{
    Error, Item, TableDefinition,
    schema::{IndexProjection, TableBilling},
};

use crate::common;

// --- Entities whose key spaces meet or nearly meet the reference model's. ---

/// Its sort key is a bare field, so `label = "PROFILE"` is a customer's
/// profile key.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "<label>"]
struct Address {
    customer_id: String,
    label: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BASKET#<basket_id>"]
#[sk = "ITEM#<a>"]
struct BasketItem {
    basket_id: String,
    a: String,
}

/// `ITEMS#` differs from `ITEM#` at its fifth character: disjoint.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BASKET#<basket_id>"]
#[sk = "ITEMS#<b>"]
struct BasketItemSet {
    basket_id: String,
    b: String,
}

/// `ITEM<a>`: with `#` escaped in values it never meets `BasketItemSet`.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BASKET#<basket_id>"]
#[sk = "ITEM<a>"]
struct LooseBasketItem {
    basket_id: String,
    a: String,
}

/// Same sort keys as `BasketItem`, but another partition-key prefix.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "WISHLIST#<basket_id>"]
#[sk = "ITEM#<a>"]
struct WishlistItem {
    basket_id: String,
    a: String,
}

// --- Entities for the other checks. ---

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "WIDE#<id>"]
#[sk = "WIDE"]
#[gsi1 = "A1#<id>"]
#[gsi2 = "A2#<id>"]
#[gsi3 = "A3#<id>"]
#[gsi4 = "A4#<id>"]
#[gsi5 = "A5#<id>"]
#[gsi6 = "A6#<id>"]
#[gsi7 = "A7#<id>"]
#[gsi8 = "A8#<id>"]
#[gsi9 = "A9#<id>"]
#[gsi10 = "A10#<id>"]
#[gsi11 = "A11#<id>"]
#[gsi12 = "A12#<id>"]
#[gsi13 = "A13#<id>"]
#[gsi14 = "A14#<id>"]
#[gsi15 = "A15#<id>"]
#[gsi16 = "A16#<id>"]
#[gsi17 = "A17#<id>"]
#[gsi18 = "A18#<id>"]
#[gsi19 = "A19#<id>"]
#[gsi20 = "A20#<id>"]
struct Wide {
    id: String,
}

/// GSI number 1 under another name: a 21st index next to `Wide`'s 20.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "NARROW#<id>"]
#[sk = "NARROW"]
#[gsi1(pk = "B#<id>", index_name = "ByName")]
struct Narrow {
    id: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TOKEN#<token>"]
#[sk = "TOKEN"]
struct Token {
    token: String,
    #[stamp(ttl)]
    expires_at: DateTime<Utc>,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "LOCK#<name>"]
#[sk = "LOCK"]
struct Lock {
    name: String,
    #[stamp(ttl)]
    released_at: DateTime<Utc>,
}

mod first {
    use super::*;

    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "ONE#<id>"]
    #[sk = "ONE"]
    #[stamp(type_name = "Thing")]
    pub struct Thing {
        pub id: String,
    }
}

mod second {
    use super::*;

    #[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[pk = "TWO#<id>"]
    #[sk = "TWO"]
    #[stamp(type_name = "Thing")]
    pub struct Thing {
        pub id: String,
    }
}

/// GSI1 with a sort key whose template starts with a field: no scope.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "EVENT#<stream>"]
#[sk = "AT#<at>#<seq>"]
#[gsi1(pk = "KIND#<kind>", sk = "<at>")]
#[gsi2 = "SEQ|<seq>"]
struct Event {
    stream: String,
    at: DateTime<Utc>,
    seq: u32,
    kind: String,
}

fn reference() -> TableDefinition {
    stamp_examples::table_definition()
}

fn provisioned(read: u32, write: u32) -> TableBilling {
    TableBilling::Provisioned {
        read_capacity_units: NonZeroU32::new(read).unwrap(),
        write_capacity_units: NonZeroU32::new(write).unwrap(),
    }
}

// --- The reference model. ---

#[test]
fn schema_the_reference_model_passes_every_check() {
    reference().check().unwrap();
}

#[test]
fn schema_the_reference_model_request() {
    let input = reference().request("shop").unwrap();
    assert_eq!(input.table_name(), Some("shop"));
    let attributes: Vec<(&str, &ScalarAttributeType)> = input
        .attribute_definitions()
        .iter()
        .map(|attribute| (attribute.attribute_name(), attribute.attribute_type()))
        .collect();
    let s = &ScalarAttributeType::S;
    assert_eq!(
        attributes,
        [
            ("PK", s),
            ("SK", s),
            ("GSI1PK", s),
            ("GSI1SK", s),
            ("GSI2PK", s),
            ("GSI2SK", s),
            ("GSI3PK", s),
            ("GSI3SK", s),
            // VECTOR2's search schema: its partition and inline filter.
            ("VECTOR2PK", s),
            ("created_month", s)
        ]
    );
    let keys: Vec<(&str, &KeyType)> = input
        .key_schema()
        .iter()
        .map(|key| (key.attribute_name(), key.key_type()))
        .collect();
    assert_eq!(keys, [("PK", &KeyType::Hash), ("SK", &KeyType::Range)]);
    // GSI1: orders by status; GSI2: an order with its line items; GSI3:
    // products by category, keys only.
    let indexes = input.global_secondary_indexes();
    assert_eq!(indexes.len(), 3, "{indexes:?}");
    for (index, (name, partition_key, sort_key, projection)) in indexes.iter().zip([
        ("GSI1", "GSI1PK", "GSI1SK", ProjectionType::All),
        ("GSI2", "GSI2PK", "GSI2SK", ProjectionType::All),
        ("GSI3", "GSI3PK", "GSI3SK", ProjectionType::KeysOnly),
    ]) {
        assert_eq!(index.index_name(), name);
        let keys: Vec<(&str, &KeyType)> = index
            .key_schema()
            .iter()
            .map(|key| (key.attribute_name(), key.key_type()))
            .collect();
        assert_eq!(
            keys,
            [(partition_key, &KeyType::Hash), (sort_key, &KeyType::Range)]
        );
        assert_eq!(
            index.projection().unwrap().projection_type(),
            Some(&projection)
        );
        assert_eq!(index.provisioned_throughput(), None);
    }
    assert_eq!(input.billing_mode(), Some(&BillingMode::PayPerRequest));
    assert_eq!(input.provisioned_throughput(), None);
    assert_eq!(
        reference().time_to_live_attribute().unwrap(),
        Some("expires_at")
    );
}

#[test]
fn schema_defaults_are_on_demand_all_projections_and_point_in_time_recovery() {
    let definition = reference();
    assert_eq!(definition.billing_mode(), TableBilling::PayPerRequest);
    assert_eq!(definition.projection("GSI1"), &IndexProjection::All);
    assert!(definition.point_in_time_recovery_enabled());
    // Every index projects ALL unless the definition says otherwise: the
    // reference model declares GSI3 keys-only.
    let indexes = definition.indexes().unwrap();
    let projections: Vec<(&str, &IndexProjection)> = indexes
        .iter()
        .map(|index| (index.name, &index.projection))
        .collect();
    assert_eq!(
        projections,
        [
            ("GSI1", &IndexProjection::All),
            ("GSI2", &IndexProjection::All),
            ("GSI3", &IndexProjection::KeysOnly)
        ]
    );
}

#[test]
fn schema_adding_an_entity_twice_adds_it_once() {
    let definition = reference().entity::<stamp_examples::Order>();
    assert_eq!(definition.entities().len(), 6);
}

// --- Key spaces. ---

#[test]
fn schema_colliding_key_spaces_are_refused_with_an_example_key() {
    let error = reference().entity::<Address>().check().unwrap_err();
    let Error::Definition(DefinitionError::CollidingKeySpaces {
        first_entity,
        second_entity,
        partition_key,
        sort_key,
    }) = &error
    else {
        panic!("expected CollidingKeySpaces, got {error:?}");
    };
    assert_eq!(
        (
            *first_entity,
            *second_entity,
            partition_key.as_str(),
            sort_key.as_str()
        ),
        ("Customer", "Address", "CUST#x", "PROFILE")
    );
    assert_eq!(
        error.to_string(),
        "the keys of entities `Customer` and `Address` can collide: both can have partition key \
         `CUST#x` and sort key `PROFILE`; give one of them a distinct literal prefix"
    );
    // Every output refuses it, before anything is sent.
    let definition = reference().entity::<Address>();
    assert!(matches!(
        definition.request("t"),
        Err(Error::Definition(
            DefinitionError::CollidingKeySpaces { .. }
        ))
    ));
    assert!(matches!(
        definition.cloudformation(),
        Err(Error::Definition(
            DefinitionError::CollidingKeySpaces { .. }
        ))
    ));
    assert!(matches!(
        definition.catalogue(),
        Err(Error::Definition(
            DefinitionError::CollidingKeySpaces { .. }
        ))
    ));
}

#[test]
fn schema_item_and_items_prefixes_do_not_collide() {
    // `ITEM#<a>` against `ITEMS#<b>` in the same partitions: the literals
    // differ at `#` / `S`, so no value of `a` or `b` can make them meet.
    TableDefinition::new()
        .entity::<BasketItem>()
        .entity::<BasketItemSet>()
        .check()
        .unwrap();
}

#[test]
fn schema_a_prefix_without_its_delimiter_does_not_collide_once_delimiters_are_escaped() {
    // `ITEM<a>` has no `#` after `ITEM`, but every template escapes `#` in
    // field values (`KeyTemplate::ESCAPED`, issue 12), so `a = "S#x"` is
    // `ITEMS%23x` and no value of `a` spells `ITEMS#…`. (Before that change
    // this pair collided at `ITEMS#x`.)
    TableDefinition::new()
        .entity::<BasketItemSet>()
        .entity::<LooseBasketItem>()
        .check()
        .unwrap();
    assert_eq!(
        LooseBasketItem::key(LooseBasketItemKey {
            basket_id: "x",
            a: "S#x"
        })
        .unwrap()
        .sort_key(),
        "ITEMS%23x"
    );
}

#[test]
fn schema_equal_sort_keys_in_disjoint_partitions_do_not_collide() {
    TableDefinition::new()
        .entity::<BasketItem>()
        .entity::<WishlistItem>()
        .check()
        .unwrap();
}

// --- The other checks. ---

#[test]
fn schema_an_empty_definition_is_refused() {
    assert!(matches!(
        TableDefinition::new().check(),
        Err(Error::Definition(DefinitionError::EmptyTableDefinition))
    ));
}

#[test]
fn schema_two_entities_with_one_type_name_are_refused() {
    let error = TableDefinition::new()
        .entity::<first::Thing>()
        .entity::<second::Thing>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::DuplicateEntityType { type_name: "Thing" })
        ),
        "{error:?}"
    );
}

#[test]
fn schema_more_than_twenty_indexes_are_refused() {
    TableDefinition::new().entity::<Wide>().check().unwrap();
    let error = TableDefinition::new()
        .entity::<Wide>()
        .entity::<Narrow>()
        .check()
        .unwrap_err();
    let Error::Definition(DefinitionError::TooManyIndexes {
        count,
        limit,
        indexes,
    }) = &error
    else {
        panic!("expected TooManyIndexes, got {error:?}");
    };
    assert_eq!((*count, *limit), (21, MAX_GSIS));
    // By number, then name: `ByName` is GSI number 1 of `Narrow`.
    let mut expected: Vec<String> = vec!["ByName".into(), "GSI1".into()];
    expected.extend((2..=20).map(|n| format!("GSI{n}")));
    assert_eq!(indexes, &expected);
}

#[test]
fn schema_two_ttl_attributes_are_refused() {
    let error = TableDefinition::new()
        .entity::<Token>()
        .entity::<Lock>()
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::ConflictingTimeToLive {
                first_entity: "Token",
                first_attribute: "expires_at",
                second_entity: "Lock",
                second_attribute: "released_at",
            })
        ),
        "{error:?}"
    );
}

#[test]
fn schema_a_projection_of_an_unknown_index_is_refused() {
    let error = reference()
        .index_projection("GSI9", IndexProjection::KeysOnly)
        .check()
        .unwrap_err();
    let Error::Definition(DefinitionError::UnknownIndex { index, known }) = &error else {
        panic!("expected UnknownIndex, got {error:?}");
    };
    assert_eq!(
        (index.as_str(), known.as_slice()),
        ("GSI9", &["GSI1", "GSI2", "GSI3"][..])
    );
}

#[test]
fn schema_an_empty_include_projection_is_refused() {
    let error = reference()
        .index_projection("GSI1", IndexProjection::Include(vec![]))
        .check()
        .unwrap_err();
    assert!(
        matches!(&error, Error::Definition(DefinitionError::EmptyIncludeProjection { index }) if index == "GSI1"),
        "{error:?}"
    );
}

#[test]
fn schema_more_than_a_hundred_projected_attributes_are_refused() {
    let attributes: Vec<String> = (0..101).map(|n| format!("a{n}")).collect();
    let error = reference()
        .index_projection("GSI1", IndexProjection::Include(attributes))
        .check()
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Definition(DefinitionError::TooManyProjectedAttributes {
                count: 101,
                limit: 100
            })
        ),
        "{error:?}"
    );
}

// --- Options in the outputs. ---

#[test]
fn schema_provisioned_billing_and_projections_go_into_create_table() {
    // A provisioned table has no vector index.
    let input = common::reference_without_vector_indexes()
        .billing(provisioned(5, 2))
        .index_projection(
            "GSI1",
            IndexProjection::Include(vec!["total_cents".into(), "customer_id".into()]),
        )
        .request("shop")
        .unwrap();
    assert_eq!(input.billing_mode(), Some(&BillingMode::Provisioned));
    let throughput = input.provisioned_throughput().unwrap();
    assert_eq!(
        (
            throughput.read_capacity_units(),
            throughput.write_capacity_units()
        ),
        (5, 2)
    );
    let index = &input.global_secondary_indexes()[0];
    let throughput = index.provisioned_throughput().unwrap();
    assert_eq!(
        (
            throughput.read_capacity_units(),
            throughput.write_capacity_units()
        ),
        (5, 2)
    );
    let projection = index.projection().unwrap();
    assert_eq!(projection.projection_type(), Some(&ProjectionType::Include));
    assert_eq!(
        projection.non_key_attributes(),
        ["total_cents", "customer_id"]
    );
}

#[test]
fn schema_cloudformation_of_the_options() {
    // A provisioned table has no vector index.
    let template = common::reference_without_vector_indexes()
        .billing(provisioned(5, 2))
        .index_projection("GSI1", IndexProjection::KeysOnly)
        .point_in_time_recovery(false)
        .cloudformation()
        .unwrap()
        .to_json_value();
    let properties = &template["Resources"]["Table"]["Properties"];
    assert_eq!(properties["BillingMode"], json!("PROVISIONED"));
    assert_eq!(
        properties["ProvisionedThroughput"],
        json!({"ReadCapacityUnits": 5, "WriteCapacityUnits": 2})
    );
    assert_eq!(
        properties["GlobalSecondaryIndexes"][0],
        json!({
            "IndexName": "GSI1",
            "KeySchema": [
                {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                {"AttributeName": "GSI1SK", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 2}
        })
    );
    assert_eq!(
        properties["PointInTimeRecoverySpecification"],
        json!({"PointInTimeRecoveryEnabled": false})
    );
    assert_eq!(
        properties["TimeToLiveSpecification"],
        json!({"AttributeName": "expires_at", "Enabled": true})
    );
    assert_eq!(properties["TableName"], json!({"Ref": "TableName"}));
}

#[test]
fn schema_cloudformation_without_ttl_or_indexes_leaves_them_out() {
    let template = TableDefinition::new()
        .entity::<BasketItem>()
        .cloudformation()
        .unwrap()
        .to_json_value();
    let properties = template["Resources"]["Table"]["Properties"]
        .as_object()
        .unwrap();
    let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "AttributeDefinitions",
            "BillingMode",
            "KeySchema",
            "PointInTimeRecoverySpecification",
            "TableName"
        ]
    );
    assert_eq!(
        properties["AttributeDefinitions"],
        json!([
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"}
        ])
    );
}

#[test]
fn schema_the_yaml_and_the_json_are_the_same_document() {
    let template = reference().cloudformation().unwrap();
    let from_yaml: serde_json::Value = serde_yaml_ng::from_str(&template.to_yaml()).unwrap();
    let from_json: serde_json::Value = serde_json::from_str(&template.to_json()).unwrap();
    assert_eq!(from_yaml, from_json);
    assert_eq!(from_json, template.to_json_value());
}

// --- The catalogue. ---

#[test]
fn schema_the_catalogue_samples_fields_without_an_example_and_scopes_each_query() {
    let catalogue = TableDefinition::new()
        .entity::<Event>()
        .catalogue()
        .unwrap();
    let rows: Vec<&str> = catalogue
        .lines()
        .filter(|line| line.starts_with("| `Event::"))
        .collect();
    // Without an example item each field is its type's `KeyPart::example`,
    // encoded as stored: a `DateTime<Utc>` and a `u32`, not `at-1`/`seq-1`.
    assert_eq!(
        rows,
        [
            "| `Event::key(stream, at, seq)` then `table.get(&key)` | `Event` | GetItem | table | \
             `PK = EVENT#<stream>`<br>`SK = AT#<at>#<seq>` | whole key | — | \
             `PK = EVENT#stream-1`<br>`SK = AT#2026-01-01T00:00:00.000000000Z#0000000001` |",
            "| `Event::query(stream)` | `Event` | Query | table | `PK = EVENT#<stream>`<br>`SK = AT#<at>#<seq>` | \
             `begins_with(SK, \"AT#\")` | `at`<br>`at, seq` | `PK = EVENT#stream-1` |",
            "| `Event::query_gsi1(kind)` | `Event` | Query | `GSI1` | `GSI1PK = KIND#<kind>`<br>`GSI1SK = <at>` | \
             none (no literal prefix) | `at` | `GSI1PK = KIND#kind-1` |",
            "| `Event::query_gsi2(seq)` | `Event` | Query | `GSI2` | `GSI2PK = SEQ\\|<seq>` | \
             none (the index has no sort key) | — | `GSI2PK = SEQ\\|0000000001` |",
        ]
    );
}

/// A field type with a hand-written `KeyPart` and no example.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Shelf(u8);

impl stamp::KeyPart for Shelf {
    fn encode_key(&self, out: &mut String) -> Result<(), stamp::error::KeyPartError> {
        out.push_str(&format!("S{:02}", self.0));
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, stamp::error::KeyPartError> {
        encoded
            .strip_prefix('S')
            .and_then(|digits| digits.parse().ok())
            .map(Shelf)
            .ok_or_else(|| {
                stamp::error::KeyPartError::invalid("a shelf as S and two digits", encoded)
            })
    }
}

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum IssueState {
    InProgress,
    Done,
}

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Project(String);

/// The issue of point 15: a `u32` and an enum in one sort key, and one
/// field of every other kind.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "PROJECT#<project>"]
#[sk = "ISSUE#<state>#<number>"]
#[gsi1(pk = "DUE#<due>#<urgent>", sk = "<id>#<delta>")]
#[gsi2(pk = "SHELF#<shelf>", sk = "<number>")]
#[gsi3(pk = "ASSIGNEE#<assignee>", sk = "<number>")]
struct Issue {
    project: Project,
    state: IssueState,
    number: u32,
    due: chrono::NaiveDate,
    urgent: bool,
    id: uuid::Uuid,
    delta: i16,
    shelf: Shelf,
    assignee: Option<String>,
}

#[test]
fn schema_the_catalogue_example_keys_are_valid_encodings_of_their_types() {
    let definition = TableDefinition::new().entity::<Issue>();
    let catalogue = definition.catalogue().unwrap();
    let get = catalogue
        .lines()
        .find(|line| line.starts_with("| `Issue::key("))
        .unwrap();
    assert!(
        get.ends_with("| `PK = PROJECT#project-1`<br>`SK = ISSUE#IN_PROGRESS#0000000001` |"),
        "{get}"
    );
    // They parse back with the entity's own parsers: valid encodings.
    assert_eq!(
        Issue::parse_sort_key("ISSUE#IN_PROGRESS#0000000001").unwrap(),
        (IssueState::InProgress, 1)
    );
    let rows: Vec<&str> = catalogue
        .lines()
        .filter(|line| line.starts_with("| `Issue::query_gsi"))
        .map(|line| line.rsplit(" | ").next().unwrap().trim_end_matches(" |"))
        .collect();
    assert_eq!(
        rows,
        [
            // A `NaiveDate`, a `bool`.
            "`GSI1PK = DUE#2026-01-01#true`",
            // A hand-written `KeyPart` without an example: the placeholder.
            "`GSI2PK = SHELF#<shelf>`",
            // An `Option<String>`: the inner type's example.
            "`GSI3PK = ASSIGNEE#assignee-1`",
        ]
    );
    assert!(catalogue.contains(
        "| `Issue::query_gsi3(assignee)` | `Issue` | Query | `GSI3` (sparse: only items with `assignee`) |"
    ));
    let entity = catalogue
        .lines()
        .find(|line| line.starts_with("| `Issue` |"))
        .unwrap();
    assert_eq!(
        entity,
        "| `Issue` | `PROJECT#<project>` | `ISSUE#<state>#<number>` | \
         `GSI1`: `GSI1PK = DUE#<due>#<urgent>`<br>`GSI1SK = <id>#<delta>`<br>\
         `GSI2`: `GSI2PK = SHELF#<shelf>`<br>`GSI2SK = <number>`<br>\
         `GSI3` (sparse: only items with `assignee`): `GSI3PK = ASSIGNEE#<assignee>`<br>`GSI3SK = <number>` | — |"
    );
}

#[test]
fn schema_the_catalogue_lists_recorded_collections_and_sparse_indexes() {
    let catalogue = reference().catalogue().unwrap();
    let start = catalogue.find("## Collections").unwrap();
    let end = catalogue.find("## Access patterns").unwrap();
    assert_eq!(
        &catalogue[start..end],
        "## Collections\n\n\
         Entities that share a partition key template: one `Query` per page reads the whole partition, \
         every member's items in sort-key order, each decoded by its type attribute into the collection enum \
         (`#[derive(Collection)]`, recorded with `TableDefinition::collection`). A group without a name \
         has no recorded enum.\n\n\
         | collection | index | partition key | members (sort key) | query | example key |\n\
         |---|---|---|---|---|---|\n\
         | `CustomerWithOrders` | table | `PK = CUST#<customer_id>` | `Customer` (`SK = PROFILE`)<br>\
         `Order` (`SK = ORDER#<created_at>#<order_id>`) | \
         `Customer::query(customer_id).collection::<CustomerWithOrders>()` | `PK = CUST#customer_id-1` |\n\
         | `OrderWithItems` | `GSI2` | `GSI2PK = ORDER#<order_id>` | `Order` (`GSI2SK = ORDER`)<br>\
         `LineItem` (`GSI2SK = ITEM#<line_no>`) | `Order::query_gsi2(order_id).collection::<OrderWithItems>()` | \
         `GSI2PK = ORDER#00000000-0000-0000-0000-000000000001` |\n\
         | — | table | `PK = PRODUCT#<sku>` | `Product` (`SK = PRODUCT`)<br>\
         `ProductSales` (`SK = SALES#<day>`) | `Product::query(sku).collection::<…>()` | \
         `PK = PRODUCT#sku-1` |\n\n"
    );
    // The example key's shard is the example primary key's (2, as
    // `stamp::key::shard_of` gives for it; the catalogue draws the same item).
    assert_eq!(
        stamp::key::shard_of(
            "CUST#customer_id-1",
            "ORDER#2026-01-01T00:00:00.000000000Z#00000000-0000-0000-0000-000000000001",
            16
        ),
        2
    );
    assert!(catalogue.contains(
        "| `Order::query_gsi1(status)` | `Order` | Query ×16 (one per shard, `STATUS#<status>#0` to \
         `STATUS#<status>#15`, merged in sort-key order) | `GSI1` (sparse: only items with `status`) | \
         `GSI1PK = STATUS#<status>#<shard>`<br>`GSI1SK = <updated_at>` | none (no literal prefix) | `updated_at` | \
         `GSI1PK = STATUS#PENDING#2` |"
    ));
}

#[test]
fn schema_the_catalogue_finds_entities_sharing_a_partition_without_a_collection() {
    use stamp_examples::{Customer, LineItem, Order, Product};
    let catalogue = TableDefinition::new()
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<LineItem>()
        .entity::<Product>()
        .catalogue()
        .unwrap();
    let rows: Vec<&str> = catalogue
        .lines()
        .filter(|line| line.starts_with("| — |"))
        .collect();
    assert_eq!(
        rows,
        [
            "| — | table | `PK = CUST#<customer_id>` | `Customer` (`SK = PROFILE`)<br>\
             `Order` (`SK = ORDER#<created_at>#<order_id>`) | `Customer::query(customer_id).collection::<…>()` | \
             `PK = CUST#customer_id-1` |",
            "| — | `GSI2` | `GSI2PK = ORDER#<order_id>` | `Order` (`GSI2SK = ORDER`)<br>\
             `LineItem` (`GSI2SK = ITEM#<line_no>`) | `Order::query_gsi2(order_id).collection::<…>()` | \
             `GSI2PK = ORDER#00000000-0000-0000-0000-000000000001` |",
        ]
    );
    // A recorded collection takes the place of its group; one entity alone
    // is no collection.
    let recorded = TableDefinition::new()
        .collection::<stamp_examples::CustomerWithOrders>()
        .catalogue()
        .unwrap();
    assert!(
        recorded.contains("| `CustomerWithOrders` | table |"),
        "{recorded}"
    );
    assert!(!recorded.contains("| — | table |"), "{recorded}");
    let alone = TableDefinition::new()
        .entity::<Product>()
        .catalogue()
        .unwrap();
    assert!(alone.contains(
        "## Collections\n\nNone: no two entities share a partition key template on the table or an index.\n"
    ));
}

#[test]
fn schema_the_catalogue_shows_the_keys_of_an_example_as_stored() {
    let at: DateTime<Utc> = "2026-06-01T10:00:00Z".parse().unwrap();
    let catalogue = TableDefinition::new()
        .example(&Event {
            stream: "s#1".into(),
            at,
            seq: 7,
            kind: "CLICK".into(),
        })
        .unwrap()
        .catalogue()
        .unwrap();
    // The `#` in the stream is escaped as stored (`%23`, every template
    // escapes it since issue 12), and the sort key is encoded as stored.
    assert!(
        catalogue.contains(
            "`PK = EVENT#s%231`<br>`SK = AT#2026-06-01T10:00:00.000000000Z#0000000007` |"
        ),
        "{catalogue}"
    );
    assert!(
        catalogue.contains("| `GSI1PK = KIND#CLICK` |"),
        "{catalogue}"
    );
}

#[test]
fn schema_every_provided_key_part_example_encodes_and_parses_back() {
    use stamp::KeyPart;
    fn check<T: KeyPart + PartialEq + std::fmt::Debug>(expected: &str) {
        let value = T::example("f").expect("an example");
        let mut out = String::new();
        value.encode_key(&mut out).unwrap();
        assert_eq!(out, expected);
        assert_eq!(T::decode_key(&out).unwrap(), value);
    }
    check::<String>("f-1");
    check::<bool>("true");
    check::<u8>("001");
    check::<u32>("0000000001");
    check::<u64>("00000000000000000001");
    check::<usize>("00000000000000000001");
    check::<i8>("129");
    check::<i32>("2147483649");
    check::<i64>("09223372036854775809");
    check::<isize>("09223372036854775809");
    check::<uuid::Uuid>("00000000-0000-0000-0000-000000000001");
    check::<chrono::NaiveDate>("2026-01-01");
    check::<DateTime<Utc>>("2026-01-01T00:00:00.000000000Z");
    check::<IssueState>("IN_PROGRESS");
    check::<Project>("f-1");
    assert_eq!(Shelf::example("f"), None);
}

#[test]
fn schema_a_table_name_dynamodb_refuses_is_refused_before_create_table() {
    // "Naming rules": 3 to 255 characters of a-z, A-Z, 0-9, `_`, `-`, `.`.
    let definition = reference();
    for (name, reason) in [
        ("ab", "it has 2 characters, and a table name has 3 to 255"),
        (
            "shop table",
            "` ` is not allowed; a table name has only a-z, A-Z, 0-9, `_`, `-` and `.`",
        ),
        (
            "boutique#1",
            "`#` is not allowed; a table name has only a-z, A-Z, 0-9, `_`, `-` and `.`",
        ),
    ] {
        let error = definition.request(name).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("the table name `{name}` is not valid: {reason}")
        );
    }
    let longest = "t".repeat(255);
    assert!(definition.request(&longest).is_ok());
    assert!(matches!(
        definition.request(&"t".repeat(256)),
        Err(Error::Definition(DefinitionError::InvalidTableName {
            reason: stamp::error::TableNameReason::Length { length: 256 },
            ..
        }))
    ));
    assert!(definition.request("Shop_2026-06.v1").is_ok());
}
