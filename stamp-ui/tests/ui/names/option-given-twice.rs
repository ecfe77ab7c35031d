use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE"]
#[stamp(type_name = "User", type_name = "Person")]
struct User {
    id: String,
    #[stamp(ttl, ttl)]
    expires_at: i64,
}

fn main() {}
