use serde::{Deserialize, Serialize};

/// Two `String` fields in the key: `Membership::key` takes them by name.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "ORG#<org_id>"]
#[sk = "USER#<user_id>"]
struct Membership {
    org_id: String,
    user_id: String,
}

fn main() {
    // Swappable by position: refused.
    let _ = Membership::key("u-1", "o-1");
    // By name: compiles.
    let _ = Membership::key(MembershipKey { org_id: "o-1", user_id: "u-1" });
}
