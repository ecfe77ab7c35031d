use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "SESSION#<token>"]
#[sk = "SESSION"]
struct Session {
    token: String,
    #[stamp(ttl)]
    expires_at: i64,
    #[stamp(ttl)]
    deleted_at: i64,
}

fn main() {}
