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
    // `bracket` without `round` before it.
    let _ = Match::query_gsi3("t-1").sort_eq(("Winners",));
}
