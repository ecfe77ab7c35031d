use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "PROFILE#<created_at>"]
#[lsi1(sk = "EMAIL#<email>", index_name = "by email")]
struct User {
    id: String,
    created_at: String,
    email: String,
}

fn main() {}
