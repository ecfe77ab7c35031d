// DynamoDB takes one sort-key condition per query: each `sort_*` of a
// multi-attribute query returns the `Query`, which has none, so a second
// condition does not compile (it used to fail only when sent).
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "MATCH#<id>"]
#[sk = "MATCH"]
#[gsi3(pk(tenant_id), sk(round, seq))]
struct Match {
    id: String,
    tenant_id: String,
    round: u32,
    seq: i64,
}

fn main() {
    // Options before and after the condition are fine.
    let _ = Match::query_gsi3("t-1")
        .newest_first()
        .limit(10)
        .sort_between((), &1, &3)
        .max_items(5);
    // A second condition is not.
    let _ = Match::query_gsi3("t-1")
        .sort_between((), &1, &3)
        .sort_gt((), &2);
    let _ = Match::query_gsi3("t-1").sort_eq((&1,)).sort_eq((&1, &2));
}
