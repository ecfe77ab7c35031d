//! Exports from and to S3 (feature `s3`) on ministack's S3: a DynamoDB S3
//! export (manifests and gzipped `DYNAMODB_JSON` parts, written here from
//! the reference data set) read straight from S3 and written back to S3 in
//! the Hive layout `entity=<Type>/part-NNNNN.<ext>`, then read back object
//! by object and queried with DuckDB; rolled parts and multipart uploads;
//! an empty entity, an unknown type, a bad line, a wrong item count, a
//! missing manifest, a prefix already used; and the refusals made before
//! any request.
//!
//! The S3 tests are ignored under plain `cargo test` (they need ministack,
//! and DuckDB from the venv): `cargo xtask test` starts ministack with S3
//! and runs them with `STAMP_S3_ENDPOINT` and `STAMP_PYTHON` set. Run
//! alone, they fail with a message saying so; they never skip.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_s3::Client;
use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use stamp::export::{Export, ExportFormat, ExportedObject};
use stamp::{
    AttributeMap, Entity, Error,
    error::{ExportObjectReason, ExportReason, JobError},
};
use stamp_examples::data::{self, DataSet, Size};
use stamp_examples::{Customer, LineItem, Order, Product, Session};

/// The variable that names the S3 endpoint (`cargo xtask test` sets it to
/// the ministack it starts).
pub const S3_ENDPOINT_ENV: &str = "STAMP_S3_ENDPOINT";

const SIZE: Size = Size {
    customers: 30,
    products: 12,
    orders: 400,
    orders_with_line_items: 50,
};

/// `$STAMP_S3_ENDPOINT`, or a failure that says how to get one.
pub fn s3_endpoint() -> String {
    match std::env::var(S3_ENDPOINT_ENV) {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "{S3_ENDPOINT_ENV} is not set: the S3 export tests need an S3 server. Run `cargo xtask \
             test`, which starts ministack (target/stamp-venv) with S3 and sets it, or set it to \
             an S3 endpoint such as `http://127.0.0.1:4566` of a running `ministack`"
        ),
    }
}

/// Counts the S3 requests a client sends, by operation name.
#[derive(Debug, Clone, Default)]
pub struct S3Requests(Arc<Mutex<Vec<String>>>);

impl S3Requests {
    /// How many requests of `operation` were sent.
    pub fn count(&self, operation: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|sent| *sent == operation)
            .count()
    }

    /// Every operation sent, in order.
    pub fn operations(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl aws_sdk_s3::config::Intercept for S3Requests {
    fn name(&self) -> &'static str {
        "S3Requests"
    }

    fn read_before_transmit(
        &self,
        _context: &aws_sdk_s3::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &aws_sdk_s3::config::RuntimeComponents,
        cfg: &mut aws_sdk_s3::config::ConfigBag,
    ) -> Result<(), aws_sdk_s3::error::BoxError> {
        let operation = cfg
            .load::<aws_smithy_runtime_api::client::orchestrator::Metadata>()
            .map_or("unknown", |metadata| metadata.name());
        self.0.lock().unwrap().push(operation.to_owned());
        Ok(())
    }
}

/// An S3 client for `endpoint` (path-style, test credentials, no retries),
/// and its request counter.
pub fn s3_client_at(endpoint: &str) -> (Client, S3Requests) {
    let requests = S3Requests::default();
    let config = s3_config(endpoint).interceptor(requests.clone()).build();
    (Client::from_conf(config), requests)
}

/// The configuration of an S3 client for `endpoint`: path-style, test
/// credentials, no retries.
pub fn s3_config(endpoint: &str) -> aws_sdk_s3::config::Builder {
    aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "stamp-tests"))
        .force_path_style(true)
        .retry_config(aws_sdk_s3::config::retry::RetryConfig::disabled())
}

/// A client of the S3 server and a new bucket on it.
pub async fn fresh_bucket(test: &str) -> (Client, S3Requests, String) {
    let (client, requests) = s3_client_at(&s3_endpoint());
    let bucket = format!(
        "stamp-{test}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    client.create_bucket().bucket(&bucket).send().await.unwrap();
    (client, requests, bucket)
}

/// Writes a DynamoDB S3 export of `files` (the items of each data file)
/// under `<prefix>/AWSDynamoDB/<id>/` as `ExportTableToPointInTime` lays
/// it out; the export's folder. `lines` overrides the text of a file.
pub async fn put_export(
    client: &Client,
    bucket: &str,
    prefix: &str,
    files: &[Vec<AttributeMap>],
    lines: impl Fn(usize, String) -> String,
) -> String {
    let id = "01767225600000-a1b2c3d4";
    let folder = format!("{prefix}/AWSDynamoDB/{id}");
    let mut manifest = String::new();
    let mut total = 0;
    for (number, items) in files.iter().enumerate() {
        let text: String = items
            .iter()
            .map(|item| {
                let item: serde_dynamo::Item = item.clone().into();
                format!("{}\n", serde_json::json!({ "Item": item }))
            })
            .collect();
        let text = lines(number, text);
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gzip.write_all(text.as_bytes()).unwrap();
        let key = format!("{folder}/data/file{number:02}.json.gz");
        put(client, bucket, &key, gzip.finish().unwrap()).await;
        manifest.push_str(
            &serde_json::json!({
                "itemCount": items.len(),
                "md5Checksum": "",
                "etag": "",
                "dataFileS3Key": key,
            })
            .to_string(),
        );
        manifest.push('\n');
        total += items.len();
    }
    let files_key = format!("{folder}/manifest-files.json");
    put(client, bucket, &files_key, manifest.into_bytes()).await;
    let summary = serde_json::json!({
        "version": "2020-06-30",
        "exportArn": format!("arn:aws:dynamodb:us-east-1:000000000000:table/shop/export/{id}"),
        "startTime": "2026-01-01T00:00:00.000Z",
        "endTime": "2026-01-01T00:05:00.000Z",
        "tableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/shop",
        "exportTime": "2026-01-01T00:00:00.000Z",
        "s3Bucket": bucket,
        "s3Prefix": prefix,
        "s3SseAlgorithm": "AES256",
        "manifestFilesS3Key": files_key,
        "billedSizeBytes": 0,
        "itemCount": total,
        "outputFormat": "DYNAMODB_JSON",
        "exportType": "FULL_EXPORT",
    });
    put(
        client,
        bucket,
        &format!("{folder}/manifest-summary.json"),
        summary.to_string().into_bytes(),
    )
    .await;
    folder
}

async fn put(client: &Client, bucket: &str, key: &str, bytes: Vec<u8>) {
    client
        .put_object()
        .bucket(bucket)
        .key(key)
        .body(bytes.into())
        .send()
        .await
        .unwrap();
}

/// Every key under `prefix`, sorted.
pub async fn keys(client: &Client, bucket: &str, prefix: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut pages = client
        .list_objects_v2()
        .bucket(bucket)
        .prefix(prefix)
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        keys.extend(
            page.unwrap()
                .contents()
                .iter()
                .filter_map(|object| object.key().map(str::to_owned)),
        );
    }
    keys.sort();
    keys
}

pub async fn body(client: &Client, bucket: &str, key: &str) -> Vec<u8> {
    let object = client
        .get_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .unwrap();
    object.body.collect().await.unwrap().to_vec()
}

/// Downloads every object under `prefix` into `directory`, at the same
/// relative paths (the Hive folders kept).
async fn download(client: &Client, bucket: &str, prefix: &str, directory: &Path) {
    for key in keys(client, bucket, prefix).await {
        let path = directory.join(key.strip_prefix(prefix).unwrap().trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body(client, bucket, &key).await).unwrap();
    }
}

/// The reference entities on `export`.
pub(super) fn reference(export: Export) -> Export {
    export
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<LineItem>()
        .entity::<Product>()
        .entity::<Session>()
}

/// Every item of `data` as stored, plus one of a type no entity has.
fn items_of(data: &DataSet) -> Vec<AttributeMap> {
    let mut items = Vec::new();
    items.extend(data.customers.iter().map(|item| item.to_item().unwrap()));
    items.extend(data.orders.iter().map(|item| item.to_item().unwrap()));
    items.extend(data.line_items.iter().map(|item| item.to_item().unwrap()));
    items.extend(data.products.iter().map(|item| item.to_item().unwrap()));
    items.extend(data.sessions.iter().map(|item| item.to_item().unwrap()));
    items.push(coupon());
    items
}

fn coupon() -> AttributeMap {
    AttributeMap::from([
        ("PK".to_owned(), AttributeValue::S("COUPON#1".to_owned())),
        ("SK".to_owned(), AttributeValue::S("X".to_owned())),
        ("Type".to_owned(), AttributeValue::S("Coupon".to_owned())),
        ("percent".to_owned(), AttributeValue::N("15".to_owned())),
    ])
}

/// `items` in `parts` data files of about equal length, in order.
fn split(items: Vec<AttributeMap>, parts: usize) -> Vec<Vec<AttributeMap>> {
    let size = items.len().div_ceil(parts);
    items.chunks(size).map(<[AttributeMap]>::to_vec).collect()
}

fn temp_dir(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stamp-{test}-{}", uuid::Uuid::new_v4().simple()))
}

/// A row of DuckDB's orders per status per month: entity, status, month,
/// orders, cents.
type OrderRow = (String, Option<String>, String, u64, u64);

/// Runs `script` with the venv's Python (`$STAMP_PYTHON`), which has DuckDB.
fn python(script: &str, args: &[&str]) -> String {
    let python = std::env::var("STAMP_PYTHON").unwrap_or_else(|_| {
        panic!("STAMP_PYTHON is not set: run `cargo xtask test`, which installs duckdb in its venv")
    });
    let output = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn objects_by_key(objects: &[ExportedObject]) -> Vec<(&str, Option<&str>, u64)> {
    objects
        .iter()
        .map(|object| (object.key.as_str(), object.entity, object.items))
        .collect()
}

#[tokio::test]
#[ignore = "needs S3 and DuckDB: `cargo xtask test` runs it on ministack (STAMP_S3_ENDPOINT, STAMP_PYTHON)"]
async fn export_s3_reads_a_dynamodb_s3_export_and_writes_hive_parquet_for_duckdb() {
    let (client, requests, bucket) = fresh_bucket("export-s3-parquet").await;
    let data = data::generate(data::SEED, SIZE);
    let export = put_export(
        &client,
        &bucket,
        "exports/shop",
        &split(items_of(&data), 3),
        |_, text| text,
    )
    .await;
    let before = requests.operations().len();
    let outcome = reference(Export::to_s3(client.clone(), &bucket, "analytics/shop/"))
        .format(ExportFormat::Parquet)
        .run_from_s3_export(&client, &bucket, &export)
        .await
        .unwrap();
    // Every S3 request went through Stamp's one request path, which counted
    // it: two manifests and three data files read, the prefix and the
    // marker listed, six objects and the marker put.
    assert_eq!(requests.operations().len() - before, 2 + 3 + 2 + 6 + 1);
    assert_eq!(outcome.s3_requests, 2 + 3 + 2 + 6 + 1);

    let expected = [
        (
            "analytics/shop/entity=Customer/part-00000.parquet",
            Some("Customer"),
            data.customers.len() as u64,
        ),
        (
            "analytics/shop/entity=Order/part-00000.parquet",
            Some("Order"),
            data.orders.len() as u64,
        ),
        (
            "analytics/shop/entity=LineItem/part-00000.parquet",
            Some("LineItem"),
            data.line_items.len() as u64,
        ),
        (
            "analytics/shop/entity=Product/part-00000.parquet",
            Some("Product"),
            data.products.len() as u64,
        ),
        (
            "analytics/shop/entity=Session/part-00000.parquet",
            Some("Session"),
            data.sessions.len() as u64,
        ),
        ("analytics/shop/entity=_unknown/part-00000.ndjson", None, 1),
    ];
    assert_eq!(objects_by_key(&outcome.objects), expected);
    assert_eq!(outcome.scanned, data.len() as u64 + 1);
    assert_eq!(outcome.files, []);
    // The objects, and the marker of a complete export, put last.
    let mut written: Vec<String> = expected
        .iter()
        .map(|(key, _, _)| (*key).to_owned())
        .collect();
    written.push("analytics/shop/_SUCCESS".to_owned());
    written.sort();
    assert_eq!(keys(&client, &bucket, "analytics/").await, written);
    assert_eq!(body(&client, &bucket, "analytics/shop/_SUCCESS").await, b"");
    for object in &outcome.objects {
        let bytes = body(&client, &bucket, &object.key).await;
        assert_eq!(bytes.len() as u64, object.bytes, "{}", object.key);
    }
    // Small objects: one PutObject each (and the marker's), no multipart
    // upload.
    assert_eq!(requests.count("PutObject"), 3 + 2 + 6 + 1);
    assert_eq!(requests.count("CreateMultipartUpload"), 0);
    let unknown = body(
        &client,
        &bucket,
        "analytics/shop/entity=_unknown/part-00000.ndjson",
    )
    .await;
    assert_eq!(
        String::from_utf8(unknown).unwrap(),
        "{\"PK\":\"COUPON#1\",\"SK\":\"X\",\"Type\":\"Coupon\",\"percent\":15}\n"
    );

    // DuckDB reads the downloaded Hive layout: the folder name is a column.
    let dir = temp_dir("export-s3-duckdb");
    download(&client, &bucket, "analytics/shop", &dir).await;
    let script = r#"
import duckdb, json, sys
root = sys.argv[1].replace("'", "''")
rows = duckdb.sql(f"""
    SELECT entity, status, strftime(CAST(created_at AS TIMESTAMP), '%Y-%m') AS month,
           count(*) AS orders, sum(total_cents) AS cents
    FROM read_parquet('{root}/entity=*/*.parquet', hive_partitioning = true, union_by_name = true)
    WHERE entity = 'Order'
    GROUP BY ALL ORDER BY ALL
""").fetchall()
entities = duckdb.sql(f"""
    SELECT entity, count(*) FROM read_parquet('{root}/entity=*/*.parquet', hive_partitioning = true, union_by_name = true)
    GROUP BY ALL ORDER BY ALL
""").fetchall()
print(json.dumps([rows, entities]))
"#;
    let (rows, entities): (Vec<OrderRow>, Vec<(String, u64)>) =
        serde_json::from_str(&python(script, &[dir.to_str().unwrap()])).unwrap();
    let counted: BTreeMap<(Option<String>, String), u64> = rows
        .iter()
        .map(|(_, status, month, orders, _)| ((status.clone(), month.clone()), *orders))
        .collect();
    assert_eq!(
        counted,
        stamp_examples::export::orders_per_status_per_month(&data)
    );
    assert_eq!(
        rows.iter().map(|row| row.4).sum::<u64>(),
        data.orders
            .iter()
            .map(|order| order.total_cents)
            .sum::<u64>()
    );
    let mut expected_entities = vec![
        ("Customer".to_owned(), data.customers.len() as u64),
        ("LineItem".to_owned(), data.line_items.len() as u64),
        ("Order".to_owned(), data.orders.len() as u64),
        ("Product".to_owned(), data.products.len() as u64),
        ("Session".to_owned(), data.sessions.len() as u64),
    ];
    expected_entities.sort();
    assert_eq!(entities, expected_entities);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
#[ignore = "needs S3: `cargo xtask test` runs it on ministack (STAMP_S3_ENDPOINT)"]
async fn export_s3_rolls_parts_and_sends_large_objects_in_multipart_uploads() {
    let (client, requests, bucket) = fresh_bucket("export-s3-roll").await;
    let size = Size {
        customers: 500,
        products: 20,
        // About 540 bytes of NDJSON an order (its 64-number vector included): 8.7 MiB.
        orders: 17_000,
        orders_with_line_items: 0,
    };
    let data = data::generate(data::SEED, size);
    let orders: Vec<AttributeMap> = data
        .orders
        .iter()
        .map(|order| order.to_item().unwrap())
        .collect();
    let export = put_export(&client, &bucket, "in", &split(orders, 4), |_, text| text).await;
    let part = 5 * 1024 * 1024;
    // An object ends at the first line past 6 MiB: part-00000 is one full
    // part and a rest, sent as a multipart upload; part-00001 fits in one
    // part, sent by PutObject.
    let outcome = Export::to_s3(client.clone(), &bucket, "out")
        .entity::<Order>()
        .part_bytes(part)
        .file_bytes(6 * 1024 * 1024)
        .run_from_s3_export(&client, &bucket, &format!("{export}/manifest-summary.json"))
        .await
        .unwrap();
    // Two manifests and four data files read, two listings, part-00001's
    // `PutObject` and the marker's, one multipart upload of two parts
    // (create, two parts, complete).
    assert_eq!(outcome.s3_requests, 2 + 4 + 2 + 2 + (1 + 2 + 1));
    let lines: Vec<String> = {
        let mut lines = Vec::new();
        for object in &outcome.objects {
            let text = String::from_utf8(body(&client, &bucket, &object.key).await).unwrap();
            assert_eq!(text.len() as u64, object.bytes);
            assert_eq!(text.lines().count() as u64, object.items, "{}", object.key);
            lines.extend(text.lines().map(str::to_owned));
        }
        lines
    };
    let total: u64 = outcome.objects.iter().map(|object| object.bytes).sum();
    assert!(
        (7 << 20..12 << 20).contains(&total),
        "{total} bytes: two objects"
    );
    let expected_keys = [
        "out/entity=Order/part-00000.ndjson",
        "out/entity=Order/part-00001.ndjson",
    ];
    assert_eq!(
        outcome
            .objects
            .iter()
            .map(|object| object.key.as_str())
            .collect::<Vec<_>>(),
        expected_keys
    );
    assert_eq!(
        keys(&client, &bucket, "out/").await,
        ["out/_SUCCESS", expected_keys[0], expected_keys[1]]
    );
    let first = &outcome.objects[0];
    assert!(first.bytes >= 6 * 1024 * 1024 && first.bytes < 6 * 1024 * 1024 + 1024);
    assert_eq!(outcome.items("Order"), 17_000);
    let read: Vec<Order> = lines
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(read, data.orders);
    assert_eq!(requests.count("CreateMultipartUpload"), 1);
    assert_eq!(requests.count("UploadPart"), 2);
    assert_eq!(requests.count("CompleteMultipartUpload"), 1);
    assert_eq!(requests.count("AbortMultipartUpload"), 0);
    // The export's own objects, then part-00001 in one request, then the
    // marker.
    assert_eq!(requests.count("PutObject"), 4 + 2 + 1 + 1);
}

#[tokio::test]
#[ignore = "needs S3: `cargo xtask test` runs it on ministack (STAMP_S3_ENDPOINT)"]
async fn export_s3_writes_an_empty_entity_and_unknown_types_and_refuses_bad_input() {
    let (client, requests, bucket) = fresh_bucket("export-s3-edges").await;
    let data = data::generate(data::SEED, SIZE);
    let customers: Vec<AttributeMap> = data.customers[..3]
        .iter()
        .map(|item| item.to_item().unwrap())
        .collect();
    let mut items = customers.clone();
    items.push(coupon());
    let export = put_export(&client, &bucket, "good", &[items], |_, text| text).await;

    // An entity without items still has its part, with its columns and no row.
    let outcome = Export::to_s3(client.clone(), &bucket, "")
        .format(ExportFormat::Parquet)
        .entity::<Customer>()
        .entity::<Order>()
        .run_from_s3_export(&client, &bucket, &format!("{export}/"))
        .await
        .unwrap();
    assert_eq!(
        objects_by_key(&outcome.objects),
        [
            ("entity=Customer/part-00000.parquet", Some("Customer"), 3),
            ("entity=Order/part-00000.parquet", Some("Order"), 0),
            ("entity=_unknown/part-00000.ndjson", None, 1),
        ]
    );
    let empty = body(&client, &bucket, "entity=Order/part-00000.parquet").await;
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        bytes::Bytes::from(empty),
    )
    .unwrap();
    let columns: Vec<String> = reader
        .schema()
        .fields()
        .iter()
        .map(|field| field.name().clone())
        .collect();
    assert_eq!(
        columns,
        [
            "customer_id",
            "order_id",
            "created_at",
            "created_month",
            "status",
            "updated_at",
            "total_cents",
            "line_count",
            "order_embedding"
        ]
    );
    assert_eq!(reader.metadata().file_metadata().num_rows(), 0);

    // A second export to the same place is refused before it writes.
    let before = requests.operations().len();
    let error = Export::to_s3(client.clone(), &bucket, "/")
        .entity::<Customer>()
        .run_from_s3_export(&client, &bucket, &export)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportObject { key, reason: ExportObjectReason::AlreadyExists, .. })
            if key == "entity=Customer/part-00000.parquet"),
        "{error:?}"
    );
    assert_eq!(
        requests.operations()[before..],
        ["GetObject", "GetObject", "ListObjectsV2"]
    );

    // A missing manifest: nothing read, nothing written.
    let error = Export::to_s3(client.clone(), &bucket, "missing")
        .entity::<Customer>()
        .run_from_s3_export(&client, &bucket, "good/AWSDynamoDB/absent")
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportObject { key, reason: ExportObjectReason::Missing, .. })
            if key == "good/AWSDynamoDB/absent/manifest-summary.json"),
        "{error:?}"
    );
    assert_eq!(
        keys(&client, &bucket, "missing").await,
        Vec::<String>::new()
    );

    // A bad line (the third of the second file): its key and number; the
    // first file's items were in the uploads, which are not completed.
    let broken = put_export(
        &client,
        &bucket,
        "broken",
        &[customers.clone(), customers.clone()],
        |file, text| {
            if file == 1 {
                let mut lines: Vec<&str> = text.lines().collect();
                lines[2] = "{\"PK\":{\"S\":\"no Item wrapper\"}}";
                lines.join("\n")
            } else {
                text
            }
        },
    )
    .await;
    let error = Export::to_s3(client.clone(), &bucket, "broken-out")
        .entity::<Customer>()
        .run_from_s3_export(&client, &bucket, &broken)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportObject { key, reason: ExportObjectReason::NotDynamoDbJson { line: 3, .. }, .. })
            if key == &format!("{broken}/data/file01.json.gz")),
        "{error:?}"
    );
    assert_eq!(
        keys(&client, &bucket, "broken-out").await,
        Vec::<String>::new()
    );

    // A data file holding fewer items than its manifest says.
    let short = put_export(
        &client,
        &bucket,
        "short",
        std::slice::from_ref(&customers),
        |_, text| {
            text.lines()
                .take(2)
                .map(|line| format!("{line}\n"))
                .collect()
        },
    )
    .await;
    let error = Export::new(temp_dir("export-s3-short"))
        .entity::<Customer>()
        .run_from_s3_export(&client, &bucket, &short)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Job(JobError::ExportObject { key, reason: ExportObjectReason::ItemCount { expected: 3, found: 2 }, .. })
            if key == &format!("{short}/data/file00.json.gz")),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_export_to_s3_that_cannot_run_is_refused_before_any_request() {
    // Port 9 (discard): nothing may be sent there.
    let (client, requests) = s3_client_at("http://127.0.0.1:9");
    let cases: Vec<(&str, Export, ExportReason)> = vec![
        (
            "part below 5 MiB",
            Export::to_s3(client.clone(), "b", "p").part_bytes(1024),
            ExportReason::PartSize {
                bytes: 1024,
                min: 5 << 20,
                max: 5 << 30,
            },
        ),
        (
            "part above 5 GiB",
            Export::to_s3(client.clone(), "b", "p").part_bytes(6 << 30),
            ExportReason::PartSize {
                bytes: 6 << 30,
                min: 5 << 20,
                max: 5 << 30,
            },
        ),
        (
            "more than 10,000 parts an object",
            Export::to_s3(client.clone(), "b", "p")
                .part_bytes(5 << 20)
                .file_bytes(50_000 << 20),
            ExportReason::PartsPerObject {
                file_bytes: 50_000 << 20,
                part_bytes: 5 << 20,
                limit: 10_000,
            },
        ),
        (
            "objects of 0 bytes",
            Export::to_s3(client.clone(), "b", "p").file_bytes(0),
            ExportReason::ZeroFileBytes,
        ),
        (
            "no bucket",
            Export::to_s3(client.clone(), "", "p"),
            ExportReason::EmptyBucket,
        ),
        (
            "an S3 option on a directory export",
            Export::new(temp_dir("export-s3-not-s3")).file_bytes(1 << 20),
            ExportReason::NotS3 {
                option: "file_bytes",
            },
        ),
    ];
    for (case, export, reason) in cases {
        let error = export
            .entity::<Customer>()
            .run_from_s3_export(&client, "b", "p/AWSDynamoDB/x")
            .await
            .unwrap_err();
        assert!(
            matches!(&error, Error::Job(JobError::InvalidExport { reason: found }) if *found == reason),
            "{case}: {error:?}"
        );
    }
    assert_eq!(requests.operations(), Vec::<String>::new());
}
