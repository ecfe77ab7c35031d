//! The memory of an export from S3 to S3 at scale: a DynamoDB S3 export of
//! `$STAMP_EXPORT_ITEMS` generated items (1,000,000 unless set; nine orders
//! to a customer) in gzipped data files of 50,000 items, written into S3,
//! then exported to Parquet objects in S3 while the process's peak resident
//! set (`VmHWM`, reset after the data is written) is measured.
//!
//! Ignored (minutes of work): `cargo xtask export-memory [--items N]`
//! starts ministack with S3 and runs it, printing the figure that
//! BENCHMARKS.md quotes. Its only assertions are the exact counts and the
//! goal of a peak under 200 MB; the time is printed, never asserted.

use std::io::Write as _;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Duration, Utc};
use stamp::export::{Export, ExportFormat};
use stamp::{AttributeMap, Entity};
use stamp_examples::{Customer, Order, OrderStatus};

use crate::export::s3::{fresh_bucket, keys};

/// The items of each data file, as DynamoDB's exports have many files.
const ITEMS_PER_FILE: usize = 50_000;

/// The goal of issue 28: an export of a million items under 200 MB.
const PEAK_GOAL_BYTES: u64 = 200_000_000;

/// `field` of `/proc/self/status` (`VmHWM`, `VmRSS`), in bytes.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with(&format!("{field}:")))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kilobytes: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|value| value.parse().ok())
        .unwrap();
    kilobytes * 1024
}

/// Item `number` of the generated table, as stored: every tenth a
/// customer, the others orders of the customer before them.
fn item(number: usize, epoch: DateTime<Utc>) -> AttributeMap {
    let customer_id = format!("c-{:07}", number / 10);
    let at = epoch + Duration::seconds(number as i64 * 37);
    if number.is_multiple_of(10) {
        Customer {
            customer_id,
            name: format!("Customer {number}"),
            email: format!("customer{number}@example.com"),
            order_count: 9,
            created_at: at,
        }
        .to_item()
        .unwrap()
    } else {
        let statuses = [
            Some(OrderStatus::Pending),
            Some(OrderStatus::Paid),
            Some(OrderStatus::Shipped),
            Some(OrderStatus::Delivered),
            None,
        ];
        Order {
            customer_id,
            order_id: uuid::Uuid::from_u128(number as u128),
            created_at: at,
            created_month: Order::month_of(at),
            status: statuses[number % statuses.len()],
            updated_at: at + Duration::minutes(5),
            total_cents: (number % 997) as u64 * 100 + 99,
            line_count: (number % 7) as u32 + 1,
            embedding: stamp_examples::embedding::feature_hash(
                [format!("order {number}").as_str()],
            ),
        }
        .to_item()
        .unwrap()
    }
}

/// `item` as a line of a `DYNAMODB_JSON` data file, `{"Item": {…}}`,
/// written directly (the generated items hold strings, numbers, nulls and
/// the orders' vectors, lists of numbers): the data is made faster than
/// through `serde_json::Value`, and is what the export reads back, not
/// what it measures.
fn dynamodb_json(item: &AttributeMap, line: &mut String) {
    line.push_str("{\"Item\":{");
    for (position, (name, value)) in item.iter().enumerate() {
        if position > 0 {
            line.push(',');
        }
        line.push_str(&serde_json::to_string(name).unwrap());
        line.push(':');
        value_json(value, line);
    }
    line.push_str("}}\n");
}

/// One attribute value in DynamoDB JSON, such as `{"N":"1"}`.
fn value_json(value: &AttributeValue, line: &mut String) {
    match value {
        AttributeValue::S(text) => {
            line.push_str("{\"S\":");
            line.push_str(&serde_json::to_string(text).unwrap());
            line.push('}');
        }
        AttributeValue::N(number) => {
            line.push_str("{\"N\":\"");
            line.push_str(number);
            line.push_str("\"}");
        }
        AttributeValue::Null(_) => line.push_str("{\"NULL\":true}"),
        AttributeValue::L(values) => {
            line.push_str("{\"L\":[");
            for (position, value) in values.iter().enumerate() {
                if position > 0 {
                    line.push(',');
                }
                value_json(value, line);
            }
            line.push_str("]}");
        }
        other => panic!("no generated item holds {other:?}"),
    }
}

#[tokio::test]
#[ignore = "minutes of work: `cargo xtask export-memory` runs it on ministack (STAMP_S3_ENDPOINT)"]
async fn peak_memory_of_an_export_from_s3_to_s3() {
    let total: usize = std::env::var("STAMP_EXPORT_ITEMS")
        .ok()
        .map_or(1_000_000, |items| {
            items.parse().expect("STAMP_EXPORT_ITEMS is a number")
        });
    let (client, _requests, bucket) = fresh_bucket("export-memory").await;
    let epoch = stamp_examples::data::epoch();

    // The source export, one data file at a time (each gzipped in memory).
    let started = Instant::now();
    let folder = "in/AWSDynamoDB/01767225600000-memory00";
    let mut manifest = String::new();
    let mut gzipped_bytes = 0;
    for (file, first) in (0..total).step_by(ITEMS_PER_FILE).enumerate() {
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let last = (first + ITEMS_PER_FILE).min(total);
        let mut line = String::new();
        for number in first..last {
            line.clear();
            dynamodb_json(&item(number, epoch), &mut line);
            gzip.write_all(line.as_bytes()).unwrap();
        }
        let bytes = gzip.finish().unwrap();
        gzipped_bytes += bytes.len();
        let key = format!("{folder}/data/{file:05}.json.gz");
        client
            .put_object()
            .bucket(&bucket)
            .key(&key)
            .body(bytes.into())
            .send()
            .await
            .unwrap();
        manifest.push_str(
            &serde_json::json!({ "itemCount": last - first, "dataFileS3Key": key }).to_string(),
        );
        manifest.push('\n');
    }
    let files = manifest.lines().count();
    for (key, body) in [
        (format!("{folder}/manifest-files.json"), manifest),
        (
            format!("{folder}/manifest-summary.json"),
            serde_json::json!({
                "manifestFilesS3Key": format!("{folder}/manifest-files.json"),
                "itemCount": total,
                "outputFormat": "DYNAMODB_JSON",
                "exportType": "FULL_EXPORT",
            })
            .to_string(),
        ),
    ] {
        client
            .put_object()
            .bucket(&bucket)
            .key(key)
            .body(body.into_bytes().into())
            .send()
            .await
            .unwrap();
    }
    let generated = started.elapsed();

    // Forget the peak so far (Linux: `5` to clear_refs resets VmHWM).
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
    let resident_before = status_bytes("VmRSS");
    let started = Instant::now();
    let outcome = Export::to_s3(client.clone(), &bucket, "out")
        .format(ExportFormat::Parquet)
        .entity::<Customer>()
        .entity::<Order>()
        .run_from_s3_export(&client, &bucket, folder)
        .await
        .unwrap();
    let exported = started.elapsed();
    let peak = status_bytes("VmHWM");

    let customers = total.div_ceil(10) as u64;
    assert_eq!(outcome.scanned, total as u64);
    assert_eq!(outcome.items("Customer"), customers);
    assert_eq!(outcome.items("Order"), total as u64 - customers);
    let written: u64 = outcome.objects.iter().map(|object| object.bytes).sum();
    // The objects, and the marker of a complete export (listed first: `_`
    // sorts before `e`).
    let mut expected = vec!["out/_SUCCESS".to_owned()];
    expected.extend(outcome.objects.iter().map(|object| object.key.clone()));
    assert_eq!(keys(&client, &bucket, "out/").await, expected);
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "export-memory: {total} items in {files} gzipped DYNAMODB_JSON files ({:.1} MiB, written in {:.0} s) \
         exported from S3 to {} Parquet objects in S3 ({:.1} MiB) in {:.0} s; peak RSS during the export \
         {:.1} MiB (VmHWM, reset before it; {:.1} MiB resident when it started)",
        mib(gzipped_bytes as u64),
        generated.as_secs_f64(),
        outcome.objects.len(),
        mib(written),
        exported.as_secs_f64(),
        mib(peak),
        mib(resident_before),
    );
    assert!(
        peak < PEAK_GOAL_BYTES,
        "peak RSS {:.1} MiB, goal 200 MB",
        mib(peak)
    );
}
