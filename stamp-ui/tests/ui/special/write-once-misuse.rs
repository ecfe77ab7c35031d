use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
struct Document {
    #[stamp(write_once)]
    id: String,
    #[stamp(updated_at, write_once)]
    changed_at: DateTime<Utc>,
    #[stamp(version, write_once)]
    version: u64,
    #[serde(skip)]
    #[stamp(write_once)]
    scratch: String,
}

fn main() {}
