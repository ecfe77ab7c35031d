use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "GAME#<id>"]
#[sk = "GAME"]
#[gsi3(pk(tenant_id, regoin), sk(round))]
struct Game {
    id: String,
    tenant_id: String,
    region: String,
    round: u32,
}

fn main() {}
