// `lt`, `le`, `gt`, `ge` and `between` need a type whose stored form
// DynamoDB orders as its values (`stamp::expression::Ordered`): a `bool` is `BOOL`, a
// list is `L`, and neither has an order on the server.
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "SHOW#<id>"]
#[sk = "SHOW"]
struct Show {
    id: String,
    sold_out: bool,
    tags: Vec<String>,
}

fn main() {
    let _ = Show::SOLD_OUT.lt(&true);
    let _ = Show::TAGS.between(&vec![], &vec!["b".to_owned()]);
}
