use serde::{Deserialize, Serialize};

#[derive(stamp::KeyPart, Serialize, Deserialize)]
enum Status {
    Pending,
    Shipped { carrier: String },
}

fn main() {}
