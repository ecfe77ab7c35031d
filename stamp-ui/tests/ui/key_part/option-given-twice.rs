use serde::{Deserialize, Serialize};

#[derive(stamp::KeyPart, Serialize, Deserialize)]
#[stamp(rename_all = "lowercase", rename_all = "UPPERCASE")]
enum Status {
    Open,
    #[stamp(rename = "done", rename = "closed")]
    Closed,
}

fn main() {}
