use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "EVENT#<id>"]
#[sk = "EVENT"]
#[gsi3(pk(tenant_id), sk(at))]
struct Event {
    id: String,
    tenant_id: String,
    at: DateTime<Utc>,
}

fn main() {}
