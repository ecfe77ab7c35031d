// A projection of an entity whose derive failed shows the real error only:
// the stub's attribute constants are real values (no "evaluation panicked").
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "EVENT#<nope>"]
#[sk = "EVENT"]
struct Event {
    id: String,
    at: String,
}

#[derive(stamp::Projection, Deserialize)]
#[stamp(entity = Event)]
struct EventTime {
    at: String,
}

fn main() {}
