use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "SESSION#<token>"]
#[sk = "SESSION"]
struct Session {
    token: String,
    #[stamp(ttl)]
    expires_at: String,
}

fn main() {}
