//! The codec's and the keys' benches: items encoded and decoded, keys
//! built, a page decoded, each against the hand-written form.

use super::*;

/// Point 1: one item, encoded and decoded.
pub(super) fn items(criterion: &mut Criterion, facts: &mut Facts) {
    let order = model::order(7, 3);
    let order_item = order.to_item().unwrap();
    let reading = model::reading(3);
    let reading_item = reading.to_item().unwrap();
    facts.set("item_bytes.order", stamp::item::item_size(&order_item));
    facts.set("attributes.order", order_item.len());
    facts.set("item_bytes.reading", stamp::item::item_size(&reading_item));
    facts.set("attributes.reading", reading_item.len());

    let mut group = criterion.benchmark_group("encode_order");
    group.bench_function("stamp", |b| b.iter(|| black_box(&order).to_item().unwrap()));
    group.bench_function("stamp_checked", |b| {
        b.iter(|| black_box(&order).to_checked_item().unwrap())
    });
    group.bench_function("serde_dynamo", |b| {
        b.iter(|| hand::serde_order_to_item(black_box(&order)).unwrap())
    });
    group.bench_function("direct", |b| {
        b.iter(|| hand::direct_order_to_item(black_box(&order)))
    });
    group.finish();

    let mut group = criterion.benchmark_group("encode_reading");
    group.bench_function("stamp", |b| {
        b.iter(|| black_box(&reading).to_item().unwrap())
    });
    group.bench_function("stamp_checked", |b| {
        b.iter(|| black_box(&reading).to_checked_item().unwrap())
    });
    group.bench_function("serde_dynamo", |b| {
        b.iter(|| hand::serde_reading_to_item(black_box(&reading)).unwrap())
    });
    group.bench_function("direct", |b| {
        b.iter(|| hand::direct_reading_to_item(black_box(&reading)))
    });
    group.finish();

    let mut group = criterion.benchmark_group("decode_order");
    let input = || order_item.clone();
    group.bench_function("stamp", |b| {
        b.iter_batched(
            input,
            |item| Order::from_item(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("serde_dynamo", |b| {
        b.iter_batched(
            input,
            |item| hand::serde_from_item::<Order>(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("direct", |b| {
        b.iter_batched(
            input,
            |item| hand::direct_order_from_item(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = criterion.benchmark_group("decode_reading");
    let input = || reading_item.clone();
    group.bench_function("stamp", |b| {
        b.iter_batched(
            input,
            |item| Reading::from_item(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("serde_dynamo", |b| {
        b.iter_batched(
            input,
            |item| hand::serde_from_item::<Reading>(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("direct", |b| {
        b.iter_batched(
            input,
            |item| hand::direct_reading_from_item(item).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();

    const CALLS: u32 = 1_000;
    facts.allocations(
        "encode_order.stamp",
        alloc::per_call(CALLS, || order.to_item().unwrap()),
    );
    facts.allocations(
        "encode_order.serde_dynamo",
        alloc::per_call(CALLS, || hand::serde_order_to_item(&order).unwrap()),
    );
    facts.allocations(
        "encode_order.direct",
        alloc::per_call(CALLS, || hand::direct_order_to_item(&order)),
    );
    let items: Vec<AttributeMap> = vec![order_item.clone(); CALLS as usize];
    let mut inputs = items.clone().into_iter();
    facts.allocations(
        "decode_order.stamp",
        alloc::per_call(CALLS, || Order::from_item(inputs.next().unwrap()).unwrap()),
    );
    let mut inputs = items.clone().into_iter();
    facts.allocations(
        "decode_order.serde_dynamo",
        alloc::per_call(CALLS, || {
            hand::serde_from_item::<Order>(inputs.next().unwrap()).unwrap()
        }),
    );
    let mut inputs = items.into_iter();
    facts.allocations(
        "decode_order.direct",
        alloc::per_call(CALLS, || {
            hand::direct_order_from_item(inputs.next().unwrap()).unwrap()
        }),
    );
}

/// Point 2: key building, time and allocations.
pub(super) fn keys(criterion: &mut Criterion, facts: &mut Facts) {
    let shipment = model::shipment();

    let mut group = criterion.benchmark_group("key_sort_3_fields");
    group.bench_function("stamp", |b| {
        b.iter(|| stamp_shipment_sort_key(black_box(&shipment)))
    });
    group.bench_function("format", |b| {
        b.iter(|| hand::format_shipment_sort_key(black_box(&shipment)))
    });
    group.bench_function("direct", |b| {
        b.iter(|| hand::direct_shipment_sort_key(black_box(&shipment)))
    });
    group.finish();

    let mut group = criterion.benchmark_group("key_primary");
    group.bench_function("stamp", |b| {
        b.iter(|| stamp_shipment_key(black_box(&shipment)))
    });
    group.bench_function("format", |b| {
        b.iter(|| hand::format_shipment_key(black_box(&shipment)))
    });
    group.bench_function("direct", |b| {
        b.iter(|| hand::direct_shipment_key(black_box(&shipment)))
    });
    group.finish();

    const CALLS: u32 = 10_000;
    facts.allocations(
        "key_sort_3_fields.stamp",
        alloc::per_call(CALLS, || stamp_shipment_sort_key(&shipment)),
    );
    facts.allocations(
        "key_sort_3_fields.format",
        alloc::per_call(CALLS, || hand::format_shipment_sort_key(&shipment)),
    );
    facts.allocations(
        "key_sort_3_fields.direct",
        alloc::per_call(CALLS, || hand::direct_shipment_sort_key(&shipment)),
    );
    facts.allocations(
        "key_primary.stamp",
        alloc::per_call(CALLS, || stamp_shipment_key(&shipment)),
    );
    facts.allocations(
        "key_primary.format",
        alloc::per_call(CALLS, || hand::format_shipment_key(&shipment)),
    );
    facts.allocations(
        "key_primary.direct",
        alloc::per_call(CALLS, || hand::direct_shipment_key(&shipment)),
    );
    // The same key with a delimiter in the carrier, which Stamp escapes.
    let mut escaped = shipment.clone();
    escaped.carrier = "royal#mail".to_owned();
    facts.allocations(
        "key_sort_3_fields.stamp_escaping",
        alloc::per_call(CALLS, || stamp_shipment_sort_key(&escaped)),
    );
}

/// Point 3: a full query page (1 MB of ~1 KB orders) decoded into structs.
pub(super) fn page(criterion: &mut Criterion, facts: &mut Facts) {
    let one = stamp::item::item_size(&model::order(0, 0).to_item().unwrap());
    let count = PAGE_BYTES / one;
    let page = model::items(&model::orders(count, 40));
    let bytes: usize = page.iter().map(stamp::item::item_size).sum();
    facts.set("page.items", page.len());
    facts.set("page.bytes", bytes);

    // Point 7: the peak of the bytes live while each style decodes the
    // page, from the page as the SDK hands it over (its clone counts: each
    // style frees it as it reads) to the structs.
    const PEAK_CALLS: usize = 5;
    let input = || page.clone();
    facts.set(
        "peak.page_decode.stamp",
        alloc::median_peak(PEAK_CALLS, || stamp_decode_page(input())),
    );
    facts.set(
        "peak.page_decode.serde_dynamo",
        alloc::median_peak(PEAK_CALLS, || {
            serde_dynamo::from_items::<_, Order>(input()).unwrap()
        }),
    );
    facts.set(
        "peak.page_decode.direct",
        alloc::median_peak(PEAK_CALLS, || direct_decode_page(input())),
    );

    let mut group = criterion.benchmark_group("page_decode");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("stamp", |b| {
        b.iter_batched(input, stamp_decode_page, BatchSize::LargeInput)
    });
    group.bench_function("serde_dynamo", |b| {
        b.iter_batched(
            input,
            |items| serde_dynamo::from_items::<_, Order>(items).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("direct", |b| {
        b.iter_batched(input, direct_decode_page, BatchSize::LargeInput)
    });
    group.finish();
}
