use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "GAME#<id>"]
#[sk = "GAME"]
#[gsi3(pk(tenant_id), sk(round), shards = 8)]
#[gsi4(pk(tenant_id), pk_attribute = "TENANT")]
struct Game {
    id: String,
    tenant_id: String,
    round: u32,
}

fn main() {}
