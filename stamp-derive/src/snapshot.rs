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

/// The doc strings (`#[doc = "…"]`) in `tokens`, at any depth.
fn doc_strings(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (at, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => doc_strings(group.stream(), out),
            TokenTree::Ident(ident) if ident == "doc" => {
                if let (Some(TokenTree::Punct(equals)), Some(TokenTree::Literal(literal))) =
                    (trees.get(at + 1), trees.get(at + 2))
                    && equals.as_char() == '='
                {
                    let text: syn::LitStr =
                        syn::parse_str(&literal.to_string()).expect("a doc string");
                    out.push(text.value());
                }
            }
            _ => {}
        }
    }
}

/// The generated docs read as prose once rendered: no runs of spaces inside
/// a line (a `\` line continuation in a literal keeps the next line's
/// indentation unless the literal says otherwise), for the reference model
/// and for an entity whose key functions take named fields (two `String`s).
#[test]
fn generated_doc_strings_have_no_runs_of_spaces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reference = std::fs::read_to_string(root.join("../stamp-examples/src/lib.rs"))
        .expect("the reference model is beside stamp-derive");
    let named = r#"
        #[derive(Item)]
        #[pk = "ORG#<org_id>"]
        #[sk = "USER#<user_id>"]
        #[gsi1(pk = "TEAM#<team>#<org_id>", sk = "USER#<user_id>")]
        struct Membership { org_id: String, user_id: String, team: String }
    "#;
    let mut docs = Vec::new();
    for source in [reference.as_str(), named] {
        let file = syn::parse_file(source).expect("the source parses");
        for item in file.items {
            let input: DeriveInput = match item {
                Item::Struct(item) => item.into(),
                Item::Enum(item) => item.into(),
                _ => continue,
            };
            if stamp_derives(&input.attrs).iter().any(|d| d == "Item") {
                doc_strings(crate::expand::derive_item(&input), &mut docs);
            }
        }
    }
    let key_struct = docs
        .iter()
        .find(|doc| doc.contains("`Membership`, by name"))
        .expect("the named key struct of `Membership` is documented");
    assert!(
        key_struct.contains("have the same type, so the key functions take them named"),
        "{key_struct}"
    );
    for doc in &docs {
        for line in doc.lines() {
            assert!(
                !line.trim_start().contains("  "),
                "a run of spaces in a generated doc: {line:?}"
            );
        }
    }
}
