//! An export run again into a directory that holds an earlier export: the
//! rerun's output is its own files and nothing of the earlier run's (its
//! files in another format, the file of an entity it no longer exports),
//! so a reader of the directory under the new `_SUCCESS` counts each item
//! once; a file of the user's stays. The directory's `_MANIFEST` names the
//! files exports write there (`stamp::export::MANIFEST`).

use std::collections::BTreeMap;
use std::path::Path;

use stamp::Table;
use stamp::export::{Export, ExportFormat, MANIFEST, SUCCESS_MARKER};
use stamp_examples::data::{self, Size};
use stamp_examples::{Customer, Product};

use super::files::{directory, ndjson, parquet, sorted};
use crate::common;

const SIZE: Size = Size {
    customers: 6,
    products: 4,
    orders: 0,
    orders_with_line_items: 0,
};

/// A table holding `SIZE`'s customers and products.
async fn customers_and_products(test: &str) -> (Table, Vec<Customer>, Vec<Product>) {
    let table = common::fresh_table(test, &stamp_examples::table_definition()).await;
    let data = data::generate(data::SEED, SIZE);
    // Stored by the raw client: `table.put` would add the guard of each
    // customer's unique e-mail, which an export files in `_unknown`, and
    // these tests name every file of the directory.
    for customer in &data.customers {
        table
            .client()
            .put_item()
            .table_name(table.name())
            .set_item(Some(stamp::Entity::to_item(customer).unwrap()))
            .send()
            .await
            .unwrap();
    }
    for product in &data.products {
        table.put(product).await.unwrap();
    }
    (table, data.customers, data.products)
}

/// The names in `dir`, with each file's bytes.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    contents(dir).into_keys().collect()
}

fn manifest(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(MANIFEST)).unwrap()
}

#[tokio::test]
async fn a_rerun_in_another_format_leaves_no_file_of_the_earlier_format() {
    let (table, customers, products) = customers_and_products("export-rerun-format").await;
    let dir = directory("export-rerun-format");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.ndjson"), "{\"mine\":true}\n").unwrap();
    let export = |format| {
        Export::new(&dir)
            .entity::<Customer>()
            .entity::<Product>()
            .format(format)
    };
    export(ExportFormat::Ndjson).run(&table).await.unwrap();
    assert_eq!(
        names(&dir),
        [
            "Customer.ndjson",
            "Product.ndjson",
            MANIFEST,
            SUCCESS_MARKER,
            "notes.ndjson"
        ]
    );
    assert_eq!(
        manifest(&dir),
        "Customer.ndjson\nProduct.ndjson\n_unknown.ndjson\n"
    );

    let outcome = export(ExportFormat::Parquet).run(&table).await.unwrap();
    assert_eq!(outcome.items("Customer"), customers.len() as u64);
    // Only the Parquet files under the marker: a reader of every entity
    // file counts each customer once. The user's file stays.
    let found = contents(&dir);
    assert_eq!(
        found.keys().map(String::as_str).collect::<Vec<_>>(),
        [
            "Customer.parquet",
            "Product.parquet",
            MANIFEST,
            SUCCESS_MARKER,
            "notes.ndjson"
        ]
    );
    assert_eq!(found["notes.ndjson"], b"{\"mine\":true}\n");
    assert_eq!(
        manifest(&dir),
        "Customer.parquet\nProduct.parquet\n_unknown.ndjson\n"
    );
    let exported: Vec<Customer> = parquet(&dir.join("Customer.parquet"));
    assert_eq!(sorted(exported), sorted(customers));
    let exported: Vec<Product> = parquet(&dir.join("Product.parquet"));
    assert_eq!(sorted(exported), sorted(products));
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_rerun_without_an_entity_or_its_items_leaves_no_earlier_items() {
    let (table, customers, products) = customers_and_products("export-rerun-entity").await;
    let dir = directory("export-rerun-entity");
    Export::new(&dir)
        .entity::<Customer>()
        .entity::<Product>()
        .run(&table)
        .await
        .unwrap();
    let exported: Vec<Customer> = ndjson(&dir.join("Customer.ndjson"));
    assert_eq!(exported.len(), customers.len());

    // The customers are gone from the table: the rerun's file of them is
    // empty, not the earlier run's.
    for customer in &customers {
        table
            .delete(&Customer::key(&customer.customer_id).unwrap())
            .await
            .unwrap();
    }
    let outcome = Export::new(&dir)
        .entity::<Customer>()
        .entity::<Product>()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.items("Customer"), 0);
    assert_eq!(std::fs::read(dir.join("Customer.ndjson")).unwrap(), b"");

    // An export of the products alone: no customer file under its marker.
    let outcome = Export::new(&dir)
        .entity::<Product>()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(outcome.items("Product"), products.len() as u64);
    assert_eq!(names(&dir), ["Product.ndjson", MANIFEST, SUCCESS_MARKER]);
    let exported: Vec<Product> = ndjson(&dir.join("Product.ndjson"));
    assert_eq!(sorted(exported), sorted(products));
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_manifest_naming_other_files_deletes_none_of_them() {
    let (table, _, products) = customers_and_products("export-rerun-manifest").await;
    let dir = directory("export-rerun-manifest");
    std::fs::create_dir_all(&dir).unwrap();
    // A manifest edited by hand (or hostile): only plain names of export
    // files are taken from it.
    let outside = dir.with_extension("outside.ndjson");
    std::fs::write(&outside, "keep").unwrap();
    std::fs::write(dir.join("notes.txt"), "keep").unwrap();
    std::fs::write(
        dir.join(MANIFEST),
        format!(
            "notes.txt\n../{}\n{}\nOld.ndjson\n",
            outside.file_name().unwrap().to_str().unwrap(),
            outside.display()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("Old.ndjson"), "{}\n").unwrap();
    Export::new(&dir)
        .entity::<Customer>()
        .entity::<Product>()
        .run(&table)
        .await
        .unwrap();
    assert_eq!(
        names(&dir),
        [
            "Customer.ndjson",
            "Product.ndjson",
            MANIFEST,
            SUCCESS_MARKER,
            "notes.txt"
        ]
    );
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    let exported: Vec<Product> = ndjson(&dir.join("Product.ndjson"));
    assert_eq!(sorted(exported), sorted(products));
    std::fs::remove_file(outside).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}
