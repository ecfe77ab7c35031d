//! A key function with two inputs of one type takes a struct named for the
//! key: a call missing a field names it.
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "ORG#<org_id>"]
#[sk = "USER#<user_id>"]
struct Membership {
    org_id: String,
    user_id: String,
}

fn main() {
    let _ = Membership::key(MembershipKey { org_id: "o-1" });
    let _ = Membership::key("o-1", "u-1");
}
