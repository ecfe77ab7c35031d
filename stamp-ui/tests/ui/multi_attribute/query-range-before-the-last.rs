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
    // A range on `round` followed by a condition on `bracket`: the range
    // goes on the attribute after the equality run, so the run is `()`
    // and the value a `round`.
    let _ = Match::query_gsi3("t-1").sort_gt((), "Winners");
    // A range after every attribute is given.
    let _ = Match::query_gsi3("t-1").sort_lt((&1, "Winners", &3), &4);
    // `begins_with` on a Number.
    let _ = Match::query_gsi3("t-1").sort_begins_with((), &1);
    // The partition key needs every attribute.
    let _ = Match::query_gsi3();
}
