use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "V#<version>"]
struct Document {
    id: String,
    #[stamp(version)]
    version: u64,
}

fn main() {}
