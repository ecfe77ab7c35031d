use serde::{Deserialize, Serialize};

// `0` sorts above `%`: a field's escaped value could contain it (`%30`), so
// the key could not be parsed back, nor sort in the values' order.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "USER#<id>"]
#[sk = "<x>0<y>"]
struct Pair {
    id: String,
    x: String,
    y: String,
}

fn main() {}
