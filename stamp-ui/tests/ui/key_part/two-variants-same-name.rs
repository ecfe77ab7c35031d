use serde::{Deserialize, Serialize};

#[derive(stamp::KeyPart, Serialize, Deserialize)]
enum Status {
    Pending,
    #[stamp(rename = "Pending")]
    Waiting,
}

fn main() {}
