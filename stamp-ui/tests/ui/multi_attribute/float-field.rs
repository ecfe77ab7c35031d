use serde::{Deserialize, Serialize};

#[derive(stamp::Item, Serialize, Deserialize)]
#[pk = "READING#<id>"]
#[sk = "READING"]
#[gsi3(pk(sensor), sk(value))]
struct Reading {
    id: String,
    sensor: String,
    value: f64,
}

fn main() {}
