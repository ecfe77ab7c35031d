use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Point {
    x: i64,
    y: i64,
}

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "SHAPE#<id>"]
#[sk = "SHAPE"]
#[gsi3(pk(tenant_id), sk(origin))]
struct Shape {
    id: String,
    tenant_id: String,
    origin: Point,
}

fn main() {}
