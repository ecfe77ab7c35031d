//! The expansion snapshot: the code the derives generate for the reference
//! model (`stamp-examples/src/lib.rs`), printed by prettyplease and compared
//! with the golden file `stamp-derive/tests/expansion/reference_model.rs`.
//!
//! A refactor of `expand/` that changes nothing generated leaves the file
//! as it is; an intended change rewrites it with
//! `STAMP_BLESS=1 cargo test -p stamp-derive snapshot` and the diff is
//! reviewed like any golden file.

use std::path::Path;

use syn::{DeriveInput, Item};

/// The derives of Stamp named in the `#[derive(…)]` attributes `attrs`.
fn stamp_derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attribute.parse_nested_meta(|meta| {
            let name = meta.path.segments.last().map(|s| s.ident.to_string());
            if let Some(name) = name
                && matches!(
                    name.as_str(),
                    "Item" | "KeyPart" | "Collection" | "Projection"
                )
            {
                found.push(name);
            }
            Ok(())
        });
    }
    found
}

/// The expansion of every Stamp derive in `source`, in source order, each
/// headed by a comment naming the type and the derive.
fn expand_all(source: &str) -> String {
    let file = syn::parse_file(source).expect("the reference model parses");
    let mut out = String::new();
    for item in file.items {
        let input: DeriveInput = match item {
            Item::Struct(item) => item.into(),
            Item::Enum(item) => item.into(),
            _ => continue,
        };
        for derive in stamp_derives(&input.attrs) {
            let tokens = match derive.as_str() {
                "Item" => crate::expand::derive_item(&input),
                "KeyPart" => crate::key_part::derive(&input),
                "Collection" => crate::collection::derive(&input),
                _ => crate::projection::derive(&input),
            };
            let expanded: syn::File = syn::parse2(tokens).expect("the expansion is Rust items");
            out.push_str(&format!("// #[derive({derive})] {}\n", input.ident));
            out.push_str(&prettyplease::unparse(&expanded));
            out.push('\n');
        }
    }
    out
}

#[test]
fn snapshot_of_the_reference_models_expansion() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("../stamp-examples/src/lib.rs"))
        .expect("the reference model is beside stamp-derive");
    let expanded = expand_all(&source);
    let golden = root.join("tests/expansion/reference_model.rs");
    if std::env::var_os("STAMP_BLESS").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &expanded).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        committed == expanded,
        "the derives' expansion of the reference model changed; review it with \
         `STAMP_BLESS=1 cargo test -p stamp-derive snapshot` and `git diff {}`",
        golden.display()
    );
}
