// A template error elsewhere in the struct: the stub of the generated
// surface has the real signatures (the named input struct of a key whose
// fields share a type, the fields' types, the sort-key prefixes and runs
// the conditions take, the attribute constants' kinds), so typed uses of
// it report nothing more than the template error.
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[gsi1(pk = "STATUS#<status>", sk = "<updated_at>")]
#[gsi2(pk = "REGION#<regionn>")]
#[gsi3(pk(tenant_id), sk(round, seq))]
#[lsi1(sk = "TOTAL#<total_cents>")]
struct Order {
    customer_id: String,
    order_id: String,
    status: String,
    updated_at: DateTime<Utc>,
    region: String,
    tenant_id: String,
    round: u32,
    seq: i64,
    total_cents: u64,
    note: Option<String>,
}

fn main() {
    let key: Result<stamp::PrimaryKey<Order>, stamp::Error> = Order::key(OrderKey {
        customer_id: "c",
        order_id: "o",
    });
    let _ = key;
    let _ = Order::query("c").sort_key_eq("o").limit(10);
    let _ = Order::gsi1_key("PAID", &Utc::now());
    let _ = Order::query_gsi1("PAID").sort_key_gt(&Utc::now()).newest_first();
    let _ = Order::query_gsi2("north");
    let _ = Order::query_gsi3("t-1")
        .newest_first()
        .sort_between((&1u32,), &2i64, &9i64);
    let _ = Order::query_lsi1("c").sort_key_ge(&100u64);
    let _ = Order::update(OrderKey {
        customer_id: "c",
        order_id: "o",
    })
    .set(Order::STATUS, &"PAID".to_owned())
    .remove(Order::NOTE);
    let _: Result<(String, String), stamp::Error> = Order::parse_sort_key("ORDER#o")
        .map(|(order_id,)| ("c".to_owned(), order_id));
}
