//! What Stamp costs against hand-written SDK code, as ratios from one run.
//!
//! `cargo xtask bench` runs this with a local DynamoDB and writes
//! BENCHMARKS.md from criterion's estimates and from the facts this binary
//! records (allocation counts, item sizes) in `stamp-facts.tsv` next to
//! them. The groups, each with a `stamp` function and its hand-written
//! baselines (see `hand.rs`):
//!
//! 1. `encode_order`, `encode_reading`, `decode_order`, `decode_reading`:
//!    one item, ~1 KB order and 20-attribute reading;
//! 2. `key_sort_3_fields`, `key_primary`: key building (and, in the facts,
//!    allocations per call);
//! 3. `page_decode`: a 1 MB query page into structs (and, in the facts,
//!    the peak of the bytes each style allocates for it);
//! 4. `server_query`, `server_put`: one request end to end;
//! 5. `server_batch_load`: 10,000 items with `BatchWriteItem`.
//!
//! Then, outside criterion (facts only): the works of groups 1 to 3
//! alternated with the direct code, batch by batch (`pairs.rs`); every request
//! alternated with the hand-written one, requests per second, and the peak
//! memory of the 1 MB page and of the 16-shard merged page.
//!
//! Groups 4 and 5 run on the embedded DynamoDB (dynoxide, in this process),
//! or on the server in `STAMP_DYNAMODB_ENDPOINT` when it is set. Under `cargo test` (criterion's test mode) every
//! benchmark runs once, the load on fewer items, and no facts are written.

mod alloc;
mod hand;
mod model;
mod pairs;
mod requests;
mod server;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Criterion};
use stamp::AttributeMap;
use stamp::{Entity, key::SortKeyPrefix};

use crate::model::{Order, Reading, Shipment, ShipmentKey};

mod codec;

use codec::{items, keys, page};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// DynamoDB's page limit: a `Query` returns at most 1 MB of items.
const PAGE_BYTES: usize = 1024 * 1024;

/// Numbers recorded beside criterion's estimates, for BENCHMARKS.md.
#[derive(Default)]
pub struct Facts(BTreeMap<String, String>);

impl Facts {
    pub fn set(&mut self, key: &str, value: impl ToString) {
        self.0.insert(key.to_owned(), value.to_string());
    }

    fn allocations(&mut self, name: &str, per_call: alloc::PerCall) {
        self.set(&format!("alloc.{name}"), per_call.allocations);
        self.set(&format!("alloc_bytes.{name}"), per_call.bytes);
    }

    /// Writes `stamp-facts.tsv` in criterion's output directory.
    fn write(&self) {
        let dir = criterion_home();
        std::fs::create_dir_all(&dir).expect("create criterion's directory");
        let text: String = self
            .0
            .iter()
            .map(|(key, value)| format!("{key}\t{value}\n"))
            .collect();
        let path = dir.join("stamp-facts.tsv");
        std::fs::write(&path, text).expect("write the facts");
        println!("facts written to {}", path.display());
    }
}

/// Where criterion writes (the same rule as criterion's, minus `cargo
/// metadata`: the xtask sets `CRITERION_HOME`).
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        PathBuf::from(home)
    } else if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        PathBuf::from(target).join("criterion")
    } else {
        PathBuf::from("target/criterion")
    }
}

/// Whether criterion benchmarks (`cargo bench`) rather than tests each
/// benchmark once (`cargo test --benches`), by criterion's own rule.
pub fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|arg| arg == "--bench") && !args.iter().any(|arg| arg == "--test")
}

fn main() {
    check_equivalence();
    if let Ok(target) = std::env::var("STAMP_BENCH_PROFILE") {
        profile(&target);
        return;
    }
    if std::env::var_os("STAMP_BENCH_PAIRS").is_some() {
        // `STAMP_BENCH_PAIRS=1`: only the alternated works (`pairs.rs`),
        // printed, for a quick comparison of two builds.
        let mut facts = Facts::default();
        pairs::measure(&mut facts, pairs::PAIRS, pairs::PAGE_PAIRS);
        for (key, value) in &facts.0 {
            println!("{key}\t{value}");
        }
        return;
    }
    let mut facts = Facts::default();
    // The same works alternated (`pairs.rs`), first, on the process's
    // fresh heap: after criterion's groups the heap's state moved the
    // page's ratio from 0.6 to 1.2. A few pairs under `cargo test`, which
    // only checks that they run.
    if benchmarking() {
        pairs::measure(&mut facts, pairs::PAIRS, pairs::PAGE_PAIRS);
    } else {
        pairs::measure(&mut facts, 3, 1);
    }
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
        .configure_from_args();
    items(&mut criterion, &mut facts);
    keys(&mut criterion, &mut facts);
    page(&mut criterion, &mut facts);
    server::benches(&mut criterion, &mut facts);
    criterion.final_summary();
    if benchmarking() {
        facts.write();
    }
}

/// `STAMP_BENCH_PROFILE=GROUP/FUNCTION`: runs one item or key benchmark
/// [`PROFILE_CALLS`] times in [`profile_loop`] and nothing else, for
/// `valgrind --tool=callgrind --toggle-collect=cost::profile_loop`, which
/// counts instructions deterministically (divide by the calls).
fn profile(target: &str) {
    let order = model::order(7, 3);
    let order_item = order.to_item().unwrap();
    let reading = model::reading(3);
    let reading_item = reading.to_item().unwrap();
    let shipment = model::shipment();
    let mut operation: Box<dyn FnMut()> = match target {
        "encode_order/stamp" => Box::new(|| drop(black_box(order.to_item().unwrap()))),
        "encode_order/serde_dynamo" => {
            Box::new(|| drop(black_box(hand::serde_order_to_item(&order).unwrap())))
        }
        "encode_order/direct" => Box::new(|| drop(black_box(hand::direct_order_to_item(&order)))),
        "encode_reading/stamp" => Box::new(|| drop(black_box(reading.to_item().unwrap()))),
        "encode_order/stamp_checked" => {
            Box::new(|| drop(black_box(order.to_checked_item().unwrap())))
        }
        "encode_reading/stamp_checked" => {
            Box::new(|| drop(black_box(reading.to_checked_item().unwrap())))
        }
        "encode_reading/direct" => {
            Box::new(|| drop(black_box(hand::direct_reading_to_item(&reading))))
        }
        "decode_order/stamp" => {
            Box::new(|| drop(black_box(Order::from_item(order_item.clone()).unwrap())))
        }
        "decode_order/serde_dynamo" => Box::new(|| {
            drop(black_box(
                hand::serde_from_item::<Order>(order_item.clone()).unwrap(),
            ))
        }),
        "decode_order/direct" => Box::new(|| {
            drop(black_box(
                hand::direct_order_from_item(order_item.clone()).unwrap(),
            ))
        }),
        // What the decode targets spend on their input (clone and drop).
        "decode_order/input" => Box::new(|| drop(black_box(order_item.clone()))),
        "decode_reading/input" => Box::new(|| drop(black_box(reading_item.clone()))),
        "decode_reading/serde_dynamo" => Box::new(|| {
            drop(black_box(
                hand::serde_from_item::<Reading>(reading_item.clone()).unwrap(),
            ))
        }),
        "decode_reading/direct" => Box::new(|| {
            drop(black_box(
                hand::direct_reading_from_item(reading_item.clone()).unwrap(),
            ))
        }),
        "encode_reading/serde_dynamo" => {
            Box::new(|| drop(black_box(hand::serde_reading_to_item(&reading).unwrap())))
        }
        "key_sort_3_fields/format" => {
            Box::new(|| drop(black_box(hand::format_shipment_sort_key(&shipment))))
        }
        "key_primary/format" => Box::new(|| drop(black_box(hand::format_shipment_key(&shipment)))),
        "key_primary/direct" => Box::new(|| drop(black_box(hand::direct_shipment_key(&shipment)))),
        "decode_reading/stamp" => {
            Box::new(|| drop(black_box(Reading::from_item(reading_item.clone()).unwrap())))
        }
        "key_sort_3_fields/stamp" => {
            Box::new(|| drop(black_box(stamp_shipment_sort_key(&shipment))))
        }
        "key_sort_3_fields/direct" => {
            Box::new(|| drop(black_box(hand::direct_shipment_sort_key(&shipment))))
        }
        "key_primary/stamp" => Box::new(|| drop(black_box(stamp_shipment_key(&shipment)))),
        other => panic!("STAMP_BENCH_PROFILE: no benchmark `{other}` to profile"),
    };
    profile_loop(&mut *operation);
    println!("ran {target} {PROFILE_CALLS} times");
}

/// How many times [`profile`] runs its operation.
const PROFILE_CALLS: u32 = 10_000;

#[inline(never)]
fn profile_loop(operation: &mut dyn FnMut()) {
    for _ in 0..PROFILE_CALLS {
        operation();
    }
}

/// Stamp and both hand-written styles give the same items and values: the
/// benchmarks compare equal work.
fn check_equivalence() {
    let order = model::order(7, 3);
    let stamp = order.to_item().unwrap();
    assert_eq!(stamp, hand::serde_order_to_item(&order).unwrap());
    assert_eq!(stamp, hand::direct_order_to_item(&order));
    assert_eq!(Order::from_item(stamp.clone()).unwrap(), order);
    assert_eq!(
        hand::serde_from_item::<Order>(stamp.clone()).unwrap(),
        order
    );
    assert_eq!(hand::direct_order_from_item(stamp).unwrap(), order);

    let reading = model::reading(3);
    let stamp = reading.to_item().unwrap();
    assert_eq!(stamp.len(), 20, "the reading has 20 attributes");
    assert_eq!(stamp, hand::serde_reading_to_item(&reading).unwrap());
    assert_eq!(stamp, hand::direct_reading_to_item(&reading));
    assert_eq!(Reading::from_item(stamp.clone()).unwrap(), reading);
    assert_eq!(
        hand::serde_from_item::<Reading>(stamp.clone()).unwrap(),
        reading
    );
    assert_eq!(hand::direct_reading_from_item(stamp).unwrap(), reading);

    let shipment = model::shipment();
    let key = stamp_shipment_key(&shipment);
    assert_eq!(key, hand::format_shipment_key(&shipment));
    assert_eq!(key, hand::direct_shipment_key(&shipment));
    assert_eq!(stamp_shipment_sort_key(&shipment), key.1);
}

pub fn stamp_shipment_key(shipment: &Shipment) -> (String, String) {
    Shipment::key(ShipmentKey {
        warehouse: &shipment.warehouse,
        shipped_on: &shipment.shipped_on,
        carrier: &shipment.carrier,
        shipment_id: &shipment.shipment_id,
    })
    .unwrap()
    .into_parts()
}

/// The three-field sort key alone, through the typed prefix every sort-key
/// condition uses (all three fields: the whole key).
pub fn stamp_shipment_sort_key(shipment: &Shipment) -> String {
    let fields = (
        &shipment.shipped_on,
        shipment.carrier.as_str(),
        &shipment.shipment_id,
    );
    let text =
        SortKeyPrefix::<Shipment, stamp::schema::BaseTable>::sort_key_prefix(&fields).unwrap();
    debug_assert!(text.complete);
    text.text
}

/// A page decoded as `Query::send` decodes it: `Order::from_item` on each
/// item, in order.
pub fn stamp_decode_page(items: Vec<AttributeMap>) -> Vec<Order> {
    items
        .into_iter()
        .map(Order::from_item)
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// The same page read attribute by attribute (`hand::direct_order_from_item`).
pub fn direct_decode_page(items: Vec<AttributeMap>) -> Vec<Order> {
    items
        .into_iter()
        .map(hand::direct_order_from_item)
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}
