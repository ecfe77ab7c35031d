//! The rules of multi-attribute GSIs, `#[gsiN(pk(a, b), sk(c, d))]`: 1 to 4
//! partition-key fields, 0 to 4 sort-key fields, each a field of the struct
//! that serde stores as a top-level attribute of its own type, once per
//! index. Whether the type is S, N or B and sorts in value order is
//! checked where the type is used (`IndexKeyAttribute`); the types known
//! not to are refused here, each with its reason.

use syn::Type;

use crate::ast::{Container, Field, FieldList, Index};
use crate::ctxt::Ctxt;

use crate::limits::MAX_INDEX_KEY_ATTRIBUTES as MAX_ATTRIBUTES;

/// Records every multi-attribute rule the container breaks.
pub fn check(cx: &mut Ctxt, container: &Container) {
    for index in container
        .indexes
        .iter()
        .filter(|index| index.is_multi_attribute())
    {
        check_index(cx, container, index);
    }
}

fn check_index(cx: &mut Ctxt, container: &Container, index: &Index) {
    let ident = container.ident;
    let number = index.number;
    let Some(pk) = &index.pk_fields else {
        if let Some(sk) = &index.sk_fields {
            cx.error_spanned_by(
                &sk.path,
                format!(
                    "`#[gsi{number}(…)]` of `{ident}` has sort-key fields but no partition-key fields: add `pk(…)`, like `#[gsi{number}(pk(tenant_id), sk(round))]`"
                ),
            );
        }
        return;
    };
    let mut seen: Vec<String> = Vec::new();
    for (which, list, minimum) in [("pk", Some(pk), 1), ("sk", index.sk_fields.as_ref(), 0)] {
        let Some(list) = list else { continue };
        check_count(cx, container, number, which, list, minimum);
        for name in &list.fields {
            let name_text = name.to_string();
            let Some(field) = container.field(&name_text) else {
                let fields: Vec<&str> = container
                    .fields
                    .iter()
                    .map(|field| field.name.as_str())
                    .collect();
                cx.error_spanned_by(
                    name,
                    format!(
                        "unknown field `{name_text}` in `{which}(…)` of `#[gsi{number}(…)]` of `{ident}`; fields are: {}",
                        fields.join(", ")
                    ),
                );
                continue;
            };
            if seen.contains(&name_text) {
                cx.error_spanned_by(
                    name,
                    format!(
                        "field `{name_text}` is named twice in `#[gsi{number}(…)]` of `{ident}`: a key attribute appears once in an index's key schema"
                    ),
                );
                continue;
            }
            seen.push(name_text);
            check_field(cx, container, number, name, field);
        }
    }
}

fn check_count(
    cx: &mut Ctxt,
    container: &Container,
    number: u32,
    which: &str,
    list: &FieldList,
    minimum: usize,
) {
    let ident = container.ident;
    let count = list.fields.len();
    let role = if which == "pk" { "partition" } else { "sort" };
    if count < minimum.max(1) {
        cx.error_spanned_by(
            &list.path,
            format!(
                "`{which}()` of `#[gsi{number}(…)]` of `{ident}` names no field: a multi-attribute {role} key has 1 to {MAX_ATTRIBUTES} fields{}",
                if which == "sk" { ", or leave `sk(…)` out" } else { "" }
            ),
        );
    }
    if count > MAX_ATTRIBUTES {
        cx.error_spanned_by(
            &list.path,
            format!(
                "`{which}(…)` of `#[gsi{number}(…)]` of `{ident}` names {count} fields, and DynamoDB allows at most {MAX_ATTRIBUTES} {role}-key attributes in a multi-attribute key"
            ),
        );
    }
}

fn check_field(
    cx: &mut Ctxt,
    container: &Container,
    number: u32,
    name: &syn::Ident,
    field: &Field,
) {
    let ident = container.ident;
    let here = format!("the key field `{name}` of `#[gsi{number}(…)]` of `{ident}`");
    if field.serialized.is_none() {
        cx.error_spanned_by(
            name,
            format!(
                "{here} is skipped or flattened by serde, so it is not a top-level attribute of the item: a multi-attribute key attribute is a field stored under its own name"
            ),
        );
        return;
    }
    if let Some(custom) = field.serde.custom_codec() {
        cx.error_spanned_by(
            custom,
            format!(
                "{here} has a serde `with`/`serialize_with`/`deserialize_with`, so Stamp cannot know the type it is stored as (a key attribute is S, N or B, by the field's type): remove it, or put the field in a key template"
            ),
        );
        return;
    }
    if let Some(reason) = refused_type(field.key_type()) {
        cx.error_spanned_by(
            field.ty,
            format!(
                "{here} cannot be a multi-attribute key attribute: {reason}; use a String, an integer up to 64 bits, a Uuid, a DateTime<Utc>, a NaiveDate or a `#[derive(KeyPart)]` unit enum, or put the field in a key template, whose encoding sorts"
            ),
        );
    }
}

/// Why a type known by name is not an S, N or B value sorting in value
/// order; `None` for any other type (the trait bound decides). The one
/// list for every field whose stored type `IndexKeyAttribute` decides: a
/// multi-attribute key attribute, a vector index's inline filter.
pub(crate) fn refused_type(ty: &Type) -> Option<&'static str> {
    let Type::Path(path) = ty else {
        return match ty {
            Type::Reference(_) => Some("a reference is not stored (use the owned type)"),
            Type::Tuple(_) | Type::Array(_) | Type::Slice(_) => {
                Some("serde stores it as a list (L), and a key attribute is S, N or B")
            }
            _ => None,
        };
    };
    let last = path.path.segments.last()?.ident.to_string();
    Some(match last.as_str() {
        "bool" => "serde stores a bool as BOOL, and a key attribute is S, N or B",
        "f32" | "f64" => {
            "a float can be NaN or infinite, which has no DynamoDB Number form (store integer units, such as cents)"
        }
        "u128" | "i128" => {
            "its values can have 39 digits, beyond DynamoDB's 38-digit Numbers (use a 64-bit integer, or a String)"
        }
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "HashMap" | "BTreeMap" => {
            "a collection is stored as a list, set or map (a byte string as B, which a multi-attribute key does not take yet), and a key attribute is S, N or B"
        }
        "Option" => "a nested `Option` cannot be told apart from a missing value",
        _ => return None,
    })
}
