use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "GAME#<id>"]
#[sk = "GAME"]
#[gsi3(pk = "TENANT#<tenant_id>", sk(round))]
struct Game {
    id: String,
    tenant_id: String,
    round: u32,
}

fn main() {}
