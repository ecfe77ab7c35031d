// A template error: the derive emits the error and a stub of the generated
// surface, so the uses below report nothing more (no "no function named
// `key`", no "`Order: Entity` is not satisfied").
use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CUST#<customer_idd>"]
#[sk = "ORDER#<order_id>"]
#[gsi1 = "STATUS#<status>"]
struct Order {
    customer_id: String,
    order_id: String,
    status: String,
}

fn needs_entity<E: stamp::Entity>() {}

fn main() {
    let _ = Order::key("c", "o");
    let _ = Order::query("c").limit(10);
    let _ = Order::gsi1_key("s");
    let _ = Order::parse_sort_key("ORDER#o");
    let _ = Order::STATUS;
    needs_entity::<Order>();
}
