use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "TASK#<id>"]
#[sk = "TASK"]
#[gsi3(pk(tenant_id), sk(done))]
struct Task {
    id: String,
    tenant_id: String,
    done: bool,
}

fn main() {}
