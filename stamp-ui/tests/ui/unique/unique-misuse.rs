use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "USER"]
#[stamp(unique(email, missing), unique(email), unique(name, email), unique(email, email))]
struct User {
    id: String,
    #[stamp(unique)]
    email: String,
    name: String,
    #[stamp(updated_at, unique)]
    changed_at: DateTime<Utc>,
    #[serde(skip)]
    #[stamp(unique)]
    scratch: String,
    #[stamp(unique)]
    tags: Vec<String>,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "USER"]
#[stamp(unique(email, name))]
#[stamp(unique(name, email))]
struct Twice {
    id: String,
    email: String,
    name: String,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "USER"]
struct UniqueTwice {
    id: String,
    #[stamp(unique, unique)]
    email: String,
}

fn main() {}
