use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
#[gsi1(pk = "GROUP#<group>", sk = "<rank>", shards = 8)]
struct Ticket {
    id: String,
    group: String,
    rank: u32,
}

fn main() {}
