use serde::{Deserialize, Serialize};

fn upper<S: serde::Serializer>(value: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&value.to_uppercase())
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "DOC#<id>"]
#[sk = "DOC"]
#[gsi1 = "OWNER#<owner>"]
struct Document {
    id: String,
    #[serde(serialize_with = "upper")]
    owner: String,
}

fn main() {}
