use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "GAME#<id>"]
#[sk = "GAME"]
#[gsi3(pk(tenant_id, tenant_id), sk(note))]
#[gsi4(sk(tenant_id))]
struct Game {
    id: String,
    tenant_id: String,
    #[serde(skip)]
    note: String,
}

fn main() {}
