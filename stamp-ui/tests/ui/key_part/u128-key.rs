use serde::{Deserialize, Serialize};

// A DynamoDB Number holds 38 digits and the key field is stored as an
// attribute too, so a 128-bit integer cannot be a key field.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "ACCOUNT#<id>"]
#[sk = "ACCOUNT"]
struct Account {
    id: u128,
}

fn main() {}
