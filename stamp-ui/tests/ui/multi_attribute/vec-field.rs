use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "FILE#<id>"]
#[sk = "FILE"]
#[gsi3(pk(digest))]
struct File {
    id: String,
    digest: Vec<u8>,
}

fn main() {}
