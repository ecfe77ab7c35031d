//! The codec and key goals measured alternated (facts only, no criterion):
//! a batch of calls one way, then the same batch the other way, many
//! times. Each pair's ratio compares two batches taken within a fraction
//! of a millisecond of each other, so a change of the machine's speed
//! between criterion's measurements (seconds of one function, then
//! seconds of the next; on a shared VM the same function moves by 20 %
//! between runs) does not enter it. The reported ratio is the median of
//! the pair ratios, with their middle half; BENCHMARKS.md judges goals 2
//! and 3 on it.
//!
//! Facts: `pairs.NAME.ratio`, `.ratio_p25`, `.ratio_p75`, `.pairs`,
//! `.batch` (calls per batch).

use std::hint::black_box;
use std::time::Instant;

use stamp::{AttributeMap, Entity};

use crate::model::{self, Order, Reading};
use crate::{
    Facts, PAGE_BYTES, direct_decode_page, hand, stamp_decode_page, stamp_shipment_key,
    stamp_shipment_sort_key,
};

/// Pairs of batches for the one-item and key measurements.
pub const PAIRS: usize = 301;

/// Pairs of batches for the 1 MB page (one page a batch).
pub const PAGE_PAIRS: usize = 31;

/// Batches of warm-up, each way, before the measured pairs.
const WARM_UP: usize = 5;

/// Measures every paired work, `pairs` pairs each (`page_pairs` for the
/// page), and records its facts.
pub fn measure(facts: &mut Facts, pairs: usize, page_pairs: usize) {
    let order = model::order(7, 3);
    let order_item = order.to_item().unwrap();
    let reading = model::reading(3);
    let reading_item = reading.to_item().unwrap();

    alternate(
        facts,
        "encode_order.stamp",
        (50, pairs),
        || &order,
        |order| order.to_item().unwrap(),
        hand::direct_order_to_item,
    );
    alternate(
        facts,
        "encode_order.stamp_checked",
        (50, pairs),
        || &order,
        |order| order.to_checked_item().unwrap(),
        hand::direct_order_to_item,
    );
    alternate(
        facts,
        "encode_reading.stamp",
        (50, pairs),
        || &reading,
        |reading| reading.to_item().unwrap(),
        hand::direct_reading_to_item,
    );
    alternate(
        facts,
        "encode_reading.stamp_checked",
        (50, pairs),
        || &reading,
        |reading| reading.to_checked_item().unwrap(),
        hand::direct_reading_to_item,
    );
    alternate(
        facts,
        "decode_order.stamp",
        (50, pairs),
        || order_item.clone(),
        |item| Order::from_item(item).unwrap(),
        |item| hand::direct_order_from_item(item).unwrap(),
    );
    alternate(
        facts,
        "decode_reading.stamp",
        (50, pairs),
        || reading_item.clone(),
        |item| Reading::from_item(item).unwrap(),
        |item| hand::direct_reading_from_item(item).unwrap(),
    );

    let shipment = model::shipment();
    alternate(
        facts,
        "key_sort_3_fields.stamp",
        (1_000, pairs),
        || &shipment,
        stamp_shipment_sort_key,
        hand::direct_shipment_sort_key,
    );
    alternate(
        facts,
        "key_primary.stamp",
        (1_000, pairs),
        || &shipment,
        stamp_shipment_key,
        hand::direct_shipment_key,
    );

    let one = stamp::item::item_size(&model::order(0, 0).to_item().unwrap());
    let page: Vec<AttributeMap> = model::items(&model::orders(PAGE_BYTES / one, 40));
    alternate(
        facts,
        "page_decode.stamp",
        (1, page_pairs),
        || page.clone(),
        stamp_decode_page,
        direct_decode_page,
    );
}

/// Alternates a batch of `batch` calls of `stamp` with as many of
/// `baseline` (which goes first alternates from pair to pair), `pairs`
/// times after [`WARM_UP`] pairs, each call given an input from `input`
/// made before the batch's timing starts, and records the median and the
/// middle half of the ratios (Stamp's batch time over the baseline's) as
/// `pairs.NAME.*`.
fn alternate<I, SO, BO>(
    facts: &mut Facts,
    name: &str,
    (batch, pairs): (usize, usize),
    mut input: impl FnMut() -> I,
    mut stamp: impl FnMut(I) -> SO,
    mut baseline: impl FnMut(I) -> BO,
) {
    let mut ratios = Vec::with_capacity(pairs);
    for pair in 0..WARM_UP + pairs {
        let (stamp_time, baseline_time) = if pair.is_multiple_of(2) {
            let stamp_time = time(batch, &mut input, &mut stamp);
            (stamp_time, time(batch, &mut input, &mut baseline))
        } else {
            let baseline_time = time(batch, &mut input, &mut baseline);
            (time(batch, &mut input, &mut stamp), baseline_time)
        };
        if pair >= WARM_UP {
            ratios.push(stamp_time / baseline_time);
        }
    }
    ratios.sort_by(f64::total_cmp);
    let key = |what: &str| format!("pairs.{name}.{what}");
    facts.set(&key("ratio"), ratios[ratios.len() / 2]);
    facts.set(&key("ratio_p25"), ratios[ratios.len() / 4]);
    facts.set(&key("ratio_p75"), ratios[ratios.len() * 3 / 4]);
    facts.set(&key("pairs"), pairs);
    facts.set(&key("batch"), batch);
}

/// The time in seconds of one call of `call` on each of `batch` inputs,
/// made before the clock starts; the outputs are dropped after it stops,
/// as criterion's batched iterations drop theirs.
fn time<I, O>(batch: usize, input: &mut impl FnMut() -> I, call: &mut impl FnMut(I) -> O) -> f64 {
    let inputs: Vec<I> = (0..batch).map(|_| input()).collect();
    let mut outputs = Vec::with_capacity(batch);
    let started = Instant::now();
    for input in inputs {
        outputs.push(call(black_box(input)));
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(black_box(outputs));
    elapsed
}
