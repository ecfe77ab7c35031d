use serde::{Deserialize, Serialize};

#[derive(stamp::KeyPart, Serialize, Deserialize)]
struct Sku {
    code: String,
}

fn main() {}
