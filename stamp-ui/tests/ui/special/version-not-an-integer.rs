use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
struct Document {
    id: String,
    #[stamp(version)]
    version: String,
}

fn main() {}
