//! The files of an import (`ExportFormat::DynamoDbJson`): the reference
//! table written as gzipped `DYNAMODB_JSON` (one `{"Item": {…}}` a line,
//! typed values, the format `ImportTable` reads:
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Format.html>),
//! to a directory and to S3, then read back as an export's source; the
//! round trip export → import files → export gives the same per-entity
//! files, byte for byte (both reads of the table are one-segment scans of
//! an unchanged table, so they see the items in the same order).
//!
//! The S3 test is ignored under plain `cargo test` (it needs ministack):
//! `cargo xtask test` runs it with `STAMP_S3_ENDPOINT` set.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use stamp::AttributeMap;
use stamp::export::{Export, ExportFormat};
use stamp::schema::ImportSource;
use stamp_examples::data::Size;

use super::files::{directory, expected_counts, loaded};
use super::s3::{body, fresh_bucket, keys, reference};

const SIZE: Size = Size {
    customers: 20,
    products: 8,
    orders: 150,
    orders_with_line_items: 30,
};

/// The files of the reference entities in `format`, then the unknown
/// types' file, as an export names them.
fn names(format: ExportFormat) -> Vec<String> {
    [
        "Customer", "Order", "LineItem", "Product", "Session", "_unknown",
    ]
    .iter()
    .enumerate()
    .map(|(position, stem)| {
        let extension = if position == 5 {
            format.unknown_extension()
        } else {
            format.extension()
        };
        format!("{stem}.{extension}")
    })
    .collect()
}

/// The bytes of each of `names` in `dir`.
fn files(dir: &Path, names: &[String]) -> BTreeMap<String, Vec<u8>> {
    names
        .iter()
        .map(|name| (name.clone(), std::fs::read(dir.join(name)).unwrap()))
        .collect()
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// The items of `DYNAMODB_JSON` text, each line checked to be exactly
/// `{"Item": {…}}` with typed values.
fn items_of(text: &str) -> Vec<AttributeMap> {
    text.lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let object = value.as_object().unwrap();
            assert_eq!(object.keys().collect::<Vec<_>>(), ["Item"], "{line}");
            let item: serde_dynamo::Item = serde_json::from_value(value["Item"].clone()).unwrap();
            AttributeMap::from(item)
        })
        .collect()
}

/// Items in a fixed order: by their debug form with sorted attributes.
fn canonical(items: Vec<AttributeMap>) -> Vec<String> {
    let mut items: Vec<String> = items
        .into_iter()
        .map(|item| format!("{:?}", item.into_iter().collect::<BTreeMap<_, _>>()))
        .collect();
    items.sort();
    items
}

async fn every_item(table: &stamp::Table) -> Vec<AttributeMap> {
    table
        .client()
        .scan()
        .table_name(table.name())
        .into_paginator()
        .items()
        .send()
        .collect::<Result<Vec<_>, _>>()
        .await
        .unwrap()
}

/// Export → import files (directory) → export from those files: the same
/// per-entity NDJSON, byte for byte; and the import files read back and
/// written again are the same bytes.
#[tokio::test]
async fn import_files_of_an_export_round_trip_to_the_same_entity_files() {
    let (table, data) = loaded("import-files", SIZE).await;
    let ndjson_dir = directory("import-ndjson");
    let import_dir = directory("import-files");
    let again_dir = directory("import-again");
    let import_again_dir = directory("import-files-again");

    let first = reference(Export::new(&ndjson_dir))
        .segments(1)
        .run(&table)
        .await
        .unwrap();
    let written = reference(Export::new(&import_dir))
        .format(ExportFormat::DynamoDbJson)
        .segments(1)
        .run(&table)
        .await
        .unwrap();
    let counts: Vec<(Option<&str>, u64)> = written
        .files
        .iter()
        .map(|file| (file.entity, file.items))
        .collect();
    assert_eq!(counts, expected_counts(&data));
    let import_names = names(ExportFormat::DynamoDbJson);
    assert_eq!(
        written
            .files
            .iter()
            .map(|file| file.path.clone())
            .collect::<Vec<PathBuf>>(),
        import_names
            .iter()
            .map(|name| import_dir.join(name))
            .collect::<Vec<_>>()
    );
    assert!(import_dir.join("_SUCCESS").exists());

    // Every item of the table, whole and as stored, in the import files;
    // each entity's file holds exactly the items of its type.
    let import_files = files(&import_dir, &import_names);
    let mut all = Vec::new();
    for (name, bytes) in &import_files {
        let items = items_of(&gunzip(bytes));
        let stem = name.strip_suffix(".json.gz").unwrap();
        for item in &items {
            let kind = item.get("Type").and_then(|kind| kind.as_s().ok());
            if stem == "_unknown" {
                assert!(matches!(kind.map(String::as_str), None | Some("Coupon")));
            } else {
                assert_eq!(kind.map(String::as_str), Some(stem));
            }
        }
        all.extend(items);
    }
    assert_eq!(canonical(all), canonical(every_item(&table).await));
    // A number keeps its type and digits: `{"N": "15"}`.
    let unknown = gunzip(&import_files["_unknown.json.gz"]);
    assert!(unknown.contains("\"percent\":{\"N\":\"15\"}"), "{unknown}");

    // Read back as an export's source: the same per-entity files.
    let paths: Vec<PathBuf> = import_names
        .iter()
        .map(|name| import_dir.join(name))
        .collect();
    let second = reference(Export::new(&again_dir))
        .run_from_files(&paths)
        .await
        .unwrap();
    assert_eq!(second.scanned, first.scanned);
    let ndjson_names = names(ExportFormat::Ndjson);
    assert_eq!(
        files(&again_dir, &ndjson_names),
        files(&ndjson_dir, &ndjson_names)
    );

    // And the import files written from the import files are the same.
    reference(Export::new(&import_again_dir))
        .format(ExportFormat::DynamoDbJson)
        .run_from_files(&paths)
        .await
        .unwrap();
    assert_eq!(files(&import_again_dir, &import_names), import_files);

    // A rerun in another format replaces the import files (the manifest
    // names them).
    reference(Export::new(&import_dir))
        .segments(1)
        .run(&table)
        .await
        .unwrap();
    for name in &import_names {
        assert!(!import_dir.join(name).exists(), "{name} was replaced");
    }
    assert_eq!(
        files(&import_dir, &ndjson_names),
        files(&ndjson_dir, &ndjson_names)
    );
}

/// An empty entity still has its file: an empty gzip stream, which reads
/// as no item.
#[tokio::test]
async fn an_entity_without_items_has_an_empty_import_file() {
    let table =
        crate::common::fresh_table("import-empty", &stamp_examples::table_definition()).await;
    let item = AttributeMap::from([
        ("PK".to_owned(), AttributeValue::S("COUPON#1".to_owned())),
        ("SK".to_owned(), AttributeValue::S("X".to_owned())),
        ("Type".to_owned(), AttributeValue::S("Coupon".to_owned())),
    ]);
    table
        .client()
        .put_item()
        .table_name(table.name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let dir = directory("import-empty");
    let outcome = reference(Export::new(&dir))
        .format(ExportFormat::DynamoDbJson)
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.unknown(), 1);
    let order = std::fs::read(dir.join("Order.json.gz")).unwrap();
    assert_eq!(&order[..2], [0x1f, 0x8b], "a gzip stream");
    assert_eq!(gunzip(&order), "");
    assert_eq!(
        gunzip(&std::fs::read(dir.join("_unknown.json.gz")).unwrap()),
        "{\"Item\":{\"PK\":{\"S\":\"COUPON#1\"},\"SK\":{\"S\":\"X\"},\"Type\":{\"S\":\"Coupon\"}}}\n"
    );
}

/// The import files written to S3 (ministack): each object a whole gzip
/// stream (objects rolled at a line boundary), the whole table under the
/// key prefix of `ImportSource::of_export` and one entity under
/// `ImportSource::of_entity`, and read back from S3 as an export's source:
/// the same per-entity files as the export of the table.
#[tokio::test]
#[ignore = "needs S3: `cargo xtask test` runs it on ministack (STAMP_S3_ENDPOINT)"]
async fn export_s3_import_files_round_trip_to_the_same_entity_files() {
    let (table, data) = loaded("import-s3", SIZE).await;
    let (client, _requests, bucket) = fresh_bucket("import").await;
    let ndjson_dir = directory("import-s3-ndjson");
    let import_dir = directory("import-s3-files");
    reference(Export::new(&ndjson_dir))
        .segments(1)
        .run(&table)
        .await
        .unwrap();
    reference(Export::new(&import_dir))
        .format(ExportFormat::DynamoDbJson)
        .segments(1)
        .run(&table)
        .await
        .unwrap();

    let outcome = reference(Export::to_s3(client.clone(), &bucket, "seed/shop/"))
        .format(ExportFormat::DynamoDbJson)
        .segments(1)
        .file_bytes(4 * 1024)
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.scanned, data.len() as u64 + 2);
    let orders: Vec<&str> = outcome
        .objects
        .iter()
        .filter(|object| object.entity == Some("Order"))
        .map(|object| object.key.as_str())
        .collect();
    assert!(orders.len() > 1, "the orders rolled: {orders:?}");
    assert_eq!(orders[0], "seed/shop/entity=Order/part-00000.json.gz");
    assert_eq!(orders[1], "seed/shop/entity=Order/part-00001.json.gz");

    // The key prefix of the whole table holds every data object and not
    // the marker; the entity's holds its objects alone.
    let whole = ImportSource::of_export(bucket.clone(), "seed/shop/");
    assert_eq!(whole.key_prefix(), "seed/shop/entity=");
    let mut written: Vec<String> = outcome
        .objects
        .iter()
        .map(|object| object.key.clone())
        .collect();
    written.sort();
    assert_eq!(keys(&client, &bucket, whole.key_prefix()).await, written);
    assert_eq!(
        keys(&client, &bucket, "seed/shop/").await.len(),
        written.len() + 1,
        "and `_SUCCESS` beside them"
    );
    let order_prefix = ImportSource::of_entity(bucket.clone(), "seed/shop", "Order");
    let mut order_keys: Vec<String> = orders.iter().map(|key| (*key).to_owned()).collect();
    order_keys.sort();
    assert_eq!(
        keys(&client, &bucket, order_prefix.key_prefix()).await,
        order_keys
    );

    // Each object is a whole gzip stream; an entity's objects in order
    // hold its directory file's lines.
    let directory_files = files(&import_dir, &names(ExportFormat::DynamoDbJson));
    let mut paths = Vec::new();
    let download = directory("import-s3-download");
    std::fs::create_dir_all(&download).unwrap();
    for stem in [
        "Customer", "Order", "LineItem", "Product", "Session", "_unknown",
    ] {
        let mut text = String::new();
        let entity = (stem != "_unknown").then_some(stem);
        for (number, object) in outcome
            .objects
            .iter()
            .filter(|object| object.entity == entity)
            .enumerate()
        {
            let bytes = body(&client, &bucket, &object.key).await;
            assert_eq!(bytes.len() as u64, object.bytes);
            let part = gunzip(&bytes);
            assert_eq!(part.lines().count() as u64, object.items, "{}", object.key);
            text.push_str(&part);
            let path = download.join(format!("{stem}-{number:05}.json.gz"));
            std::fs::write(&path, bytes).unwrap();
            paths.push(path);
        }
        assert_eq!(
            text,
            gunzip(&directory_files[&format!("{stem}.json.gz")]),
            "{stem}"
        );
    }

    // Read back: the same per-entity files as the export of the table.
    let again_dir = directory("import-s3-again");
    reference(Export::new(&again_dir))
        .run_from_files(&paths)
        .await
        .unwrap();
    let ndjson_names = names(ExportFormat::Ndjson);
    assert_eq!(
        files(&again_dir, &ndjson_names),
        files(&ndjson_dir, &ndjson_names)
    );
}
