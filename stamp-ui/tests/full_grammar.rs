//! The whole attribute grammar in one struct compiles and behaves: an
//! ordinary test rather than a trybuild `pass` fixture, so that trybuild
//! only type-checks (`cargo check`) its fixtures instead of building them.

use serde::{Deserialize, Serialize};
use stamp::Entity;
use uuid::Uuid;

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum OrderStatus {
    Pending,
    InTransit,
}

#[derive(stamp::KeyPart, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Sku(String);

#[derive(stamp::Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[stamp(
    type_name = "ORDER",
    pk_attribute = "pk",
    sk_attribute = "sk",
    type_attribute = "entity"
)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<number>#<order_id>"]
#[gsi1 = "STATUS#<status>"]
#[gsi2(
    pk = "SKU#<sku>",
    sk = "<type>#<number>",
    index_name = "BySku",
    pk_attribute = "sku_pk",
    sk_attribute = "sku_sk"
)]
#[lsi1(sk = "STATUS#<status>")]
#[lsi2(
    sk = "<type>#<number>",
    index_name = "ByType",
    sk_attribute = "type_lsi"
)]
struct Order {
    customer_id: String,
    number: u32,
    order_id: Uuid,
    status: Option<OrderStatus>,
    sku: Sku,
    r#type: String,
}

#[test]
fn the_full_grammar_compiles_and_builds_its_keys() {
    let key = Order::key("c-1", &42, &Uuid::nil()).unwrap();
    assert_eq!(key.partition_key(), "CUST#c-1");
    assert_eq!(
        key.sort_key(),
        "ORDER#0000000042#00000000-0000-0000-0000-000000000000"
    );
    assert_eq!(
        Order::parse_sort_key(key.sort_key()).unwrap(),
        (42, Uuid::nil())
    );

    let by_status = Order::gsi1_key(&OrderStatus::InTransit).unwrap();
    assert_eq!(by_status.partition_key(), "STATUS#IN_TRANSIT");
    assert_eq!(by_status.sort_key(), None);

    let by_sku = Order::gsi2_key(&Sku("A-1".to_owned()), "gift", &7).unwrap();
    assert_eq!(by_sku.partition_key(), "SKU#A-1");
    assert_eq!(by_sku.sort_key(), Some("gift#0000000007"));
    assert_eq!(by_sku.index().name, "BySku");

    let schema = Order::SCHEMA;
    assert_eq!(
        (
            schema.type_name,
            schema.type_attribute,
            schema.partition_key.name,
            schema.sort_key.name
        ),
        ("ORDER", "entity", "pk", "sk")
    );
    let gsi2 = schema.gsi(2).unwrap();
    assert_eq!(gsi2.partition_key_name(), "sku_pk");
    assert_eq!(gsi2.sort_key_name(), Some("sku_sk"));

    // `status` is an `Option` in a GSI template: the index is sparse.
    let order = Order {
        customer_id: "c-1".to_owned(),
        number: 42,
        order_id: Uuid::nil(),
        status: None,
        sku: Sku("A-1".to_owned()),
        r#type: "gift".to_owned(),
    };
    let item = order.to_item().unwrap();
    assert!(!item.contains_key("GSI1PK"));
    // The sparse LSI is left out too; the other is written.
    assert!(!item.contains_key("LSI1SK"));
    assert_eq!(item["type_lsi"].as_s().unwrap(), "gift#0000000042");
    let lsi2 = schema.lsi(2).unwrap();
    assert_eq!(
        (lsi2.name, lsi2.sort_key_name()),
        ("ByType", Some("type_lsi"))
    );
    let _query: stamp::Query<Order, stamp::schema::Lsi<2>> =
        Order::query_lsi2("c-1").sort_key_eq("gift");
    assert!(
        item.contains_key("sku_pk") && item.contains_key("sku_sk") && item.contains_key("entity")
    );
    assert_eq!(Order::from_item(item).unwrap(), order);
}
