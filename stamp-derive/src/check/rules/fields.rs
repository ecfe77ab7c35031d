//! The rules of the fields Stamp gives a meaning: the special fields (TTL,
//! version, time stamps), `#[stamp(write_once)]` and `#[stamp(unique)]`.

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// At most one field of each special kind (ttl, version, created_at,
/// updated_at), each stored by serde under a known name, and none of them
/// in the primary key.
pub(super) fn check_special_fields(cx: &mut Ctxt, container: &Container) {
    type Marker = for<'f> fn(&'f crate::ast::Field) -> Option<&'f syn::Path>;
    let ident = container.ident;
    let kinds: [(&str, &str, Marker); 4] = [
        ("ttl", "DynamoDB expires items by one attribute", |field| {
            field.ttl.as_ref()
        }),
        ("version", "an item has one version counter", |field| {
            field.version.as_ref()
        }),
        ("created_at", "an item is created once", |field| {
            field.created_at.as_ref()
        }),
        (
            "updated_at",
            "one attribute records the last write",
            |field| field.updated_at.as_ref(),
        ),
    ];
    let key_fields: Vec<&str> = container
        .pk
        .iter()
        .chain(&container.sk)
        .flat_map(|template| template.fields())
        .collect();
    for (kind, reason, marker) in kinds {
        let fields: Vec<_> = container
            .fields
            .iter()
            .filter(|field| marker(field).is_some())
            .collect();
        for extra in fields.iter().skip(1) {
            cx.error_spanned_by(
                marker(extra),
                format!(
                    "`{ident}` has two `#[stamp({kind})]` fields, `{}` and `{}`: {reason}",
                    fields[0].name, extra.name
                ),
            );
        }
        for field in &fields {
            if field.serialized.is_none() {
                cx.error_spanned_by(
                    marker(field),
                    format!(
                        "the `#[stamp({kind})]` field `{}` of `{ident}` is skipped or flattened by serde, so it would never be stored",
                        field.name
                    ),
                );
            }
            if kind == "version"
                && let Some(custom) = field.serde.custom_codec()
            {
                cx.error_spanned_by(
                    custom,
                    format!(
                        "the `#[stamp(version)]` field `{}` of `{ident}` has a serde `with`/`serialize_with`/`deserialize_with`, but Stamp stores a version as a plain Number (it checks and increments it in the request): remove it",
                        field.name
                    ),
                );
            }
            if kind != "ttl" && key_fields.contains(&field.name.as_str()) {
                cx.error_spanned_by(
                    marker(field),
                    format!(
                        "the `#[stamp({kind})]` field `{}` of `{ident}` is in the primary key, which a write cannot change: keep it out of `#[pk]` and `#[sk]`",
                        field.name
                    ),
                );
            }
        }
    }
}

/// `#[stamp(write_once)]`: on a stored field outside the primary key (a
/// key field never changes), and not on a field Stamp writes itself
/// (`created_at` is written once already; `updated_at`, `version` and the
/// TTL change on every write that sets them).
pub(super) fn check_write_once(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let key_fields: Vec<&str> = container
        .pk
        .iter()
        .chain(&container.sk)
        .flat_map(|template| template.fields())
        .collect();
    for field in &container.fields {
        let Some(marker) = &field.write_once else {
            continue;
        };
        let name = &field.name;
        let clash = [
            (
                field.created_at.is_some(),
                "created_at",
                "which an upsert already writes once",
            ),
            (
                field.updated_at.is_some(),
                "updated_at",
                "which every write stamps",
            ),
            (
                field.version.is_some(),
                "version",
                "which every write increments",
            ),
        ]
        .into_iter()
        .find(|(marked, ..)| *marked);
        let message = if key_fields.contains(&name.as_str()) {
            Some(format!(
                "the `#[stamp(write_once)]` field `{name}` of `{ident}` is in the primary key, which no write changes: remove `write_once`"
            ))
        } else if let Some((_, kind, reason)) = clash {
            Some(format!(
                "the field `{name}` of `{ident}` is `#[stamp({kind})]`, {reason}: it cannot also be `write_once`"
            ))
        } else if field.serialized.is_none() {
            Some(format!(
                "the `#[stamp(write_once)]` field `{name}` of `{ident}` is skipped or flattened by serde, so it would never be stored"
            ))
        } else {
            None
        };
        if let Some(message) = message {
            cx.error_spanned_by(marker, message);
        }
    }
}

/// `#[stamp(unique)]` and `#[stamp(unique(a, b))]`: each named field
/// exists, is stored (serde neither skips nor flattens it), is named once,
/// and is not a field Stamp writes itself (the version, the time stamps,
/// the TTL change on every write); a combination names at least two
/// fields, and no value is declared unique twice.
pub(super) fn check_unique(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let mut seen: Vec<Vec<String>> = Vec::new();
    let single = container
        .fields
        .iter()
        .filter_map(|field| Some((field.unique.clone()?, vec![field.ident.clone()])));
    let written: Vec<(syn::Path, Vec<syn::Ident>)> =
        single.chain(container.unique.iter().cloned()).collect();
    for (position, (path, names)) in written.iter().enumerate() {
        let combination = position >= written.len() - container.unique.len();
        if combination && names.len() < 2 {
            cx.error_spanned_by(
                path,
                format!(
                    "`unique(…)` on `{ident}` names {} field{}: a combination names two or more (`unique(a, b)`); mark a single field `#[stamp(unique)]`",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" }
                ),
            );
            continue;
        }
        let mut fields: Vec<String> = Vec::new();
        let mut resolved = true;
        for name in names {
            let text = name.to_string().trim_start_matches("r#").to_owned();
            let Some(field) = container.field(&text) else {
                cx.error_spanned_by(
                    name,
                    format!(
                        "`unique(…)` on `{ident}` names `{text}`, which is not a field of `{ident}`"
                    ),
                );
                resolved = false;
                continue;
            };
            if fields.contains(&text) {
                cx.error_spanned_by(
                    name,
                    format!("`unique(…)` on `{ident}` names `{text}` twice"),
                );
                resolved = false;
                continue;
            }
            let written_by_stamp = [
                (field.version.is_some(), "version"),
                (field.created_at.is_some(), "created_at"),
                (field.updated_at.is_some(), "updated_at"),
                (field.ttl.is_some(), "ttl"),
            ]
            .into_iter()
            .find(|(marked, _)| *marked);
            if field.serialized.is_none() {
                cx.error_spanned_by(
                    name,
                    format!("the unique field `{text}` of `{ident}` is skipped or flattened by serde, so it would never be stored"),
                );
            } else if let Some(stored @ ("L" | "M")) = field.stored_type() {
                cx.error_spanned_by(
                    name,
                    format!("the unique field `{text}` of `{ident}` is stored as a {} (`{stored}`); a unique value is a String, Number, Binary or Boolean", if stored == "L" { "list" } else { "map" }),
                );
            } else if let Some((_, kind)) = written_by_stamp {
                cx.error_spanned_by(
                    name,
                    format!("the field `{text}` of `{ident}` is `#[stamp({kind})]`, which Stamp writes itself: it cannot be unique"),
                );
            }
            fields.push(text);
        }
        let mut sorted = fields.clone();
        sorted.sort();
        if resolved && seen.contains(&sorted) {
            cx.error_spanned_by(
                path,
                format!(
                    "`{ident}` declares the unique value ({}) twice: declare it once",
                    fields.join(", ")
                ),
            );
        }
        seen.push(sorted);
    }
}
