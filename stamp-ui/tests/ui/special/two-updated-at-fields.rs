use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
struct Document {
    id: String,
    #[stamp(updated_at)]
    changed_at: DateTime<Utc>,
    #[stamp(updated_at)]
    touched_at: DateTime<Utc>,
}

fn main() {}
