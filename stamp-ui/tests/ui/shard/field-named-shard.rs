use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TICKET#<id>"]
#[sk = "TICKET"]
#[gsi1(pk = "GROUP#<group>#<shard>", sk = "<rank>", shards = 8)]
struct Ticket {
    id: String,
    group: String,
    rank: u32,
    shard: u8,
}

fn main() {}
