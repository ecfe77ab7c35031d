use serde::{Deserialize, Serialize};

#[derive(stamp::KeyPart, Serialize, Deserialize)]
enum Status {
    Pending,
    #[serde(rename = "Pending")]
    Waiting,
}

fn main() {}
