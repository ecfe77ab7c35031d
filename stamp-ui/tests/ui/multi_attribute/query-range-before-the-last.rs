use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "MATCH#<id>"]
#[sk = "MATCH"]
#[gsi3(pk(tenant_id), sk(round, bracket, seq))]
struct Match {
    id: String,
    tenant_id: String,
    round: u32,
    bracket: String,
    seq: i64,
}

fn main() {
    // A range on `bracket` without `=` on `round` before it: with the run
    // `()` the range is on `round`, so its value must be a `round` (a gap
    // does not type-check).
    let _ = Match::query_gsi3("t-1").sort_gt((), "Winners");
    // A range after every attribute is given.
    let _ = Match::query_gsi3("t-1").sort_lt((&1, "Winners", &3), &4);
    // `begins_with` on a Number.
    let _ = Match::query_gsi3("t-1").sort_begins_with((), &1);
    // The partition key needs every attribute.
    let _ = Match::query_gsi3();
}
