use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "SINGLETON"]
#[sk = "PROFILE"]
struct Settings;

fn main() {}
