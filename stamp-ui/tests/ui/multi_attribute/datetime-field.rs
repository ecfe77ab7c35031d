// A `DateTime<Utc>` is a multi-attribute key attribute (stored in its
// fixed-width key form); a time with an offset is not: its text sorts by
// local time, not by instant.
use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "EVENT#<id>"]
#[sk = "EVENT"]
#[gsi3(pk(tenant_id), sk(at))]
struct Event {
    id: String,
    tenant_id: String,
    at: DateTime<FixedOffset>,
}

// A projection of the entity shows no second error either.
#[derive(stamp::Projection, Deserialize)]
#[stamp(entity = Event)]
struct EventTime {
    at: DateTime<FixedOffset>,
}

fn main() {}
