//! Properties of upserts, stored items compared attribute for attribute
//! (raw `GetItem`), over every index kind: a template GSI built from a key
//! field, a sparse GSI, a sharded GSI, a multi-attribute GSI, an LSI and a
//! vector index (its vector optional, so the index is sparse too,
//! partitioned by a template of a field and with an inline filter field).
//!
//! - An upsert of an absent item stores what a put of the resulting struct
//!   stores.
//! - An upsert of a present item stores what the same update stores (with
//!   `set_if_not_exists` for the `write_once` field, which is what an
//!   upsert makes of its `set`).

use crate::common;

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use stamp::{AttributeMap, Item, Put, Table, TableDefinition, Update};

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "SHOP#<shop>"]
#[sk = "LISTING#<id>"]
#[gsi1(pk = "SHOP#<shop>", sk = "PRICE#<price>")]
#[gsi2(pk = "LABEL#<label>", sk = "<updated_at>")]
#[gsi3(pk = "BUCKET#<bucket>#<shard>", sk = "<id>", shards = 4)]
#[gsi4(pk(region), sk(rank))]
#[lsi1(sk = "GRADE#<grade>")]
#[vector1(
    field = embedding,
    dimensions = 3,
    distance = euclidean,
    pk = "REGION#<region>",
    filter(rank)
)]
struct Listing {
    shop: String,
    id: u32,
    price: u32,
    label: Option<String>,
    bucket: String,
    region: String,
    rank: u32,
    grade: u32,
    /// A counter (outside the indexes: an `ADD`'s result is not known
    /// before sending, so it cannot be in a template).
    stock: u64,
    note: Option<String>,
    /// The vector of `VECTOR1`: set, replaced or removed (`None` takes the
    /// item out of the index).
    embedding: Option<[f32; 3]>,
    #[stamp(write_once)]
    origin: String,
    #[stamp(created_at)]
    created_at: DateTime<Utc>,
    #[stamp(updated_at)]
    updated_at: DateTime<Utc>,
}

fn definition() -> TableDefinition {
    TableDefinition::new().entity::<Listing>()
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 12, 0, 0).unwrap()
}

fn arbitrary_listing() -> impl Strategy<Value = Listing> {
    (
        any::<u32>(),
        proptest::option::of("[a-z]{1,4}"),
        "[a-z]{1,3}",
        "[a-z]{1,3}",
        (any::<u32>(), any::<u32>()),
        0u64..1_000_000,
        proptest::option::of("[a-z ]{1,5}"),
        "[a-z]{1,4}",
        0i64..2_000_000_000,
        // Quarters, exact in 32 bits (DynamoDB stores vectors at 32-bit
        // precision).
        proptest::option::of(proptest::array::uniform3(-40i32..=40)),
    )
        .prop_map(
            |(
                price,
                label,
                bucket,
                region,
                (rank, grade),
                stock,
                note,
                origin,
                created,
                embedding,
            )| Listing {
                shop: "s-1".into(),
                id: 7,
                price,
                label,
                bucket,
                region,
                rank,
                grade,
                stock,
                note,
                embedding: embedding.map(|vector| vector.map(|quarters| quarters as f32 / 4.0)),
                origin,
                created_at: Utc.timestamp_opt(created, 0).unwrap(),
                updated_at: Utc.timestamp_opt(created, 0).unwrap(),
            },
        )
}

/// The changes that make `to` of any item: every field set (the stock
/// added to the stored one, which is 0 when absent), the `Option`s set or
/// removed. `write_once` chooses `set` (an upsert makes it
/// `if_not_exists`) or `set_if_not_exists` (what an update needs to match).
fn changes(
    mut update: Update<Listing>,
    to: &Listing,
    stock: u64,
    write_once_set: bool,
) -> Update<Listing> {
    update = update
        .set(Listing::PRICE, &to.price)
        .set(Listing::BUCKET, &to.bucket)
        .set(Listing::REGION, &to.region)
        .set(Listing::RANK, &to.rank)
        .set(Listing::GRADE, &to.grade)
        .add(Listing::STOCK, &stock);
    update = match &to.label {
        Some(label) => update.set(Listing::LABEL, label),
        None => update.remove(Listing::LABEL),
    };
    update = match &to.note {
        Some(note) => update.set(Listing::NOTE, note),
        None => update.remove(Listing::NOTE),
    };
    update = match &to.embedding {
        Some(embedding) => update.set(Listing::EMBEDDING, embedding),
        None => update.remove(Listing::EMBEDDING),
    };
    if write_once_set {
        update.set(Listing::ORIGIN, &to.origin)
    } else {
        update.set_if_not_exists(Listing::ORIGIN, &to.origin)
    }
    .at(now())
}

async fn raw(table: &Table) -> AttributeMap {
    table
        .client()
        .get_item()
        .table_name(table.name())
        .set_key(Some(Listing::key("s-1", &7).unwrap().to_attribute_map()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::repetitions(24, 8) as u32, ..ProptestConfig::default() })]

    #[test]
    fn an_upsert_of_an_absent_item_stores_a_put_of_the_resulting_struct(to in arbitrary_listing()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let table = common::fresh_table("upsert-as-put", &definition()).await;
            changes(Listing::upsert("s-1", &7), &to, to.stock, true)
                .send(&table)
                .await
                .unwrap();
            let upserted = raw(&table).await;
            let read = table.get(&Listing::key("s-1", &7).unwrap()).await.unwrap().unwrap();
            let expected = Listing { created_at: now(), updated_at: now(), ..to };
            Put::new(&expected).at(now()).send(&table).await.unwrap();
            let put = raw(&table).await;
            table.delete_table().await.unwrap();
            // The item is in the vector index when it has a vector: its
            // partition attribute built from the region.
            if expected.embedding.is_some() {
                prop_assert_eq!(
                    put.get("VECTOR1PK"),
                    Some(&aws_sdk_dynamodb::types::AttributeValue::S(format!("REGION#{}", expected.region)))
                );
            }
            prop_assert_eq!(upserted, put);
            prop_assert_eq!(read, expected);
            Ok(())
        })?;
    }

    #[test]
    fn an_upsert_of_a_present_item_stores_what_the_update_stores(
        from in arbitrary_listing(),
        to in arbitrary_listing(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let table = common::fresh_table("upsert-as-update", &definition()).await;
            table.put(&from).await.unwrap();
            changes(Listing::upsert("s-1", &7), &to, to.stock, true)
                .send(&table)
                .await
                .unwrap();
            let upserted = raw(&table).await;
            table.put(&from).await.unwrap();
            changes(Listing::update("s-1", &7), &to, to.stock, false)
                .send(&table)
                .await
                .unwrap();
            let updated = raw(&table).await;
            let read = table.get(&Listing::key("s-1", &7).unwrap()).await.unwrap().unwrap();
            table.delete_table().await.unwrap();
            prop_assert_eq!(upserted, updated);
            prop_assert_eq!(
                read,
                Listing {
                    stock: from.stock + to.stock,
                    origin: from.origin.clone(),
                    created_at: from.created_at,
                    updated_at: now(),
                    ..to
                }
            );
            Ok(())
        })?;
    }
}
