use serde::{Deserialize, Serialize};

#[derive(stamp::Attributes, Serialize, Deserialize)]
enum Kind {
    A,
}

#[derive(stamp::Attributes, Serialize, Deserialize)]
struct Pair(String, String);

#[derive(stamp::Attributes, Serialize, Deserialize)]
#[serde(transparent)]
struct Wrapped {
    inner: String,
}

#[derive(stamp::Attributes, Serialize, Deserialize)]
#[stamp(entity = Wrapped)]
struct UnknownOption {
    inner: String,
}

fn main() {}
