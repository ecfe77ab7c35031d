use serde::{Deserialize, Serialize};

// The usual template errors, in LSI sort keys: an unknown field, an
// unclosed `<`, two placeholders with no delimiter, a field used twice.
#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
#[lsi1(sk = "TOTAL#<totl>")]
#[lsi2(sk = "DAY#<day")]
#[lsi3(sk = "<day><order_id>")]
#[lsi4(sk = "<day>#<day>")]
struct Order {
    customer_id: String,
    order_id: String,
    day: String,
}

fn main() {}
