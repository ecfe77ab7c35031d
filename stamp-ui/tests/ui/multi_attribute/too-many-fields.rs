use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "CELL#<id>"]
#[sk = "CELL"]
#[gsi3(pk(a, b, c, d, e), sk(f, g, h, i, j))]
struct Cell {
    id: String,
    a: String,
    b: String,
    c: String,
    d: String,
    e: String,
    f: u32,
    g: u32,
    h: u32,
    i: u32,
    j: u32,
}

fn main() {}
