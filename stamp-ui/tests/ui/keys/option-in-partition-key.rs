use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TENANT#<tenant_id>"]
#[sk = "PROFILE"]
struct User {
    tenant_id: Option<String>,
}

fn main() {}
