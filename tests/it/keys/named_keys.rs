//! Key inputs that cannot be swapped (issue 13, point 4): where two fields
//! of one key take the same type, every key function takes them by name,
//! and what it builds is the same key as the templates say.

use crate::common;

use serde::{Deserialize, Serialize};
use stamp::{Entity, Item, TableDefinition};

/// A user's membership of an organisation: two `String` fields in the
/// primary key, swapped in the GSI, and an older format with both in the
/// partition key.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ORG#<org_id>"]
#[sk = "USER#<user_id>"]
#[gsi1(pk = "USER#<user_id>", sk = "ORG#<org_id>#<role>")]
#[stamp(previous(pk = "MEMBER#<org_id>#<user_id>", sk = "MEMBER"))]
struct Membership {
    org_id: String,
    user_id: String,
    role: Option<String>,
}

/// One `String` and one number: positional, since they cannot be swapped.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "ORG#<org_id>"]
#[sk = "INVOICE#<number>"]
struct Invoice {
    org_id: String,
    number: u32,
}

fn membership() -> Membership {
    Membership {
        org_id: "o-1".into(),
        user_id: "u-1".into(),
        role: Some("admin".into()),
    }
}

#[test]
fn named_inputs_build_the_keys_the_templates_say() {
    let key = Membership::key(MembershipKey {
        org_id: "o-1",
        user_id: "u-1",
    })
    .unwrap();
    assert_eq!(
        (key.partition_key(), key.sort_key()),
        ("ORG#o-1", "USER#u-1")
    );
    assert_eq!(key, membership().primary_key().unwrap());

    let index = Membership::gsi1_key(MembershipGsi1Key {
        user_id: "u-1",
        org_id: "o-1",
        role: "admin",
    })
    .unwrap();
    assert_eq!(index.partition_key(), "USER#u-1");
    assert_eq!(index.sort_key(), Some("ORG#o-1#admin"));

    let previous = Membership::previous_key(MembershipPreviousKey {
        org_id: "o-1",
        user_id: "u-1",
    })
    .unwrap();
    assert_eq!(
        (previous.partition_key(), previous.sort_key()),
        ("MEMBER#o-1#u-1", "MEMBER")
    );
    assert_eq!(membership().previous_primary_key().unwrap(), Some(previous));

    // One field in the partition key: positional.
    let request = Membership::query("o-1").request("t").unwrap();
    assert_eq!(
        request.expression_attribute_values().unwrap()[":v0"]
            .as_s()
            .unwrap(),
        "ORG#o-1"
    );
    // Fields of different types: positional.
    let invoice = Invoice::key("o-1", &7).unwrap();
    assert_eq!(invoice.sort_key(), "INVOICE#0000000007");
}

#[test]
fn the_catalogue_shows_the_calls_as_they_compile() {
    let catalogue = TableDefinition::new()
        .entity::<Membership>()
        .entity::<Invoice>()
        .catalogue()
        .unwrap();
    for call in [
        "`Membership::key(MembershipKey { org_id, user_id })`",
        "`Membership::query(org_id)`",
        "`Membership::query_gsi1(user_id)`",
        "`Invoice::key(org_id, number)`",
    ] {
        assert!(catalogue.contains(call), "{call} in\n{catalogue}");
    }
    assert!(
        catalogue.contains("Membership::key(MembershipKey { org_id, user_id }) get"),
        "the diagram:\n{catalogue}"
    );
    assert_eq!(
        Membership::SCHEMA.named_inputs,
        [
            ("key", "MembershipKey"),
            ("update", "MembershipKey"),
            ("upsert", "MembershipKey"),
            ("gsi1_key", "MembershipGsi1Key"),
            ("previous_key", "MembershipPreviousKey"),
        ]
    );
}

#[tokio::test]
async fn an_update_by_named_key_rewrites_the_index_it_touches() {
    let definition = TableDefinition::new().entity::<Membership>();
    let table = common::fresh_table("named-keys", &definition).await;
    table.put(&membership()).await.unwrap();
    let updated = Membership::update(MembershipKey {
        org_id: "o-1",
        user_id: "u-1",
    })
    .set(Membership::ROLE, &"owner".to_owned())
    .send_returning_new(&table)
    .await
    .unwrap();
    assert_eq!(updated.role.as_deref(), Some("owner"));
    let page = Membership::query_gsi1("u-1").send(&table).await.unwrap();
    assert_eq!(page.items, std::slice::from_ref(&updated));
    let stored = table
        .get(
            &Membership::key(MembershipKey {
                org_id: "o-1",
                user_id: "u-1",
            })
            .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(stored, Some(updated));
    table.delete_table().await.unwrap();
}
