//! The rules of `#[derive(Item)]` that involve several attributes or fields.
//! Each one reports every offence and goes on.

mod fields;

use std::collections::BTreeMap;

use crate::ast::{Container, Name, Template};
use crate::ctxt::Ctxt;
use fields::{check_special_fields, check_unique, check_write_once};

/// A kind of numbered index attribute: its name (`gsi`, `lsi`), its
/// highest number (DynamoDB's limit of such indexes per table) and what
/// the limit counts.
struct NumberedIndex {
    attribute: &'static str,
    max: usize,
    counted: &'static str,
}

/// `#[gsiN…]`: 1 to 20.
const GSI: NumberedIndex = NumberedIndex {
    attribute: "gsi",
    max: crate::limits::MAX_GSIS,
    counted: "GSIs",
};

/// `#[lsiN…]`: 1 to 5.
const LSI: NumberedIndex = NumberedIndex {
    attribute: "lsi",
    max: crate::limits::MAX_LSIS,
    counted: "local secondary indexes",
};

/// Reports an index number out of range or repeated (`seen` holds the
/// numbers of the kind so far).
fn check_number(
    cx: &mut Ctxt,
    seen: &mut BTreeMap<u32, ()>,
    ident: &syn::Ident,
    path: &syn::Path,
    number: u32,
    kind: NumberedIndex,
) {
    let NumberedIndex {
        attribute,
        max,
        counted,
    } = kind;
    if !(1..=max as u32).contains(&number) {
        cx.error_spanned_by(
            path,
            format!(
                "index number {number} is out of range in `#[{attribute}{number}]` of `{ident}`: DynamoDB allows {max} {counted} per table, written `#[{attribute}1]` to `#[{attribute}{max}]`"
            ),
        );
    }
    if seen.insert(number, ()).is_some() {
        cx.error_spanned_by(
            path,
            format!(
                "`#[{attribute}{number}]` is repeated on `{ident}`: give each index number once"
            ),
        );
    }
}

/// Records every rule the container breaks.
pub fn check(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    if !container.pk_written {
        cx.error_spanned_by(
            ident,
            format!("`{ident}` has no partition key template: add `#[pk = \"…\"]`, such as `#[pk = \"USER#<id>\"]`"),
        );
    }
    if !container.sk_written {
        cx.error_spanned_by(
            ident,
            format!(
                "`{ident}` has no sort key template: add `#[sk = \"…\"]`, such as `#[sk = \"PROFILE\"]` for one item per partition"
            ),
        );
    }
    for template in container.pk.iter().chain(&container.sk) {
        check_template(cx, container, template, false);
    }
    let mut seen = BTreeMap::new();
    for index in &container.indexes {
        let number = index.number;
        check_number(cx, &mut seen, ident, index.attribute.path(), number, GSI);
        if let (None, Some(sort_key)) = (&index.pk, &index.sk) {
            cx.error_spanned_by(
                &sort_key.literal,
                format!(
                    "`#[gsi{number}(…)]` of `{ident}` has a sort key but no partition key: add `pk = \"…\"`, like `#[gsi{number}(pk = \"STATUS#<status>\", sk = \"<updated_at>\")]`"
                ),
            );
        }
        for template in index.pk.iter().chain(&index.sk) {
            check_template(cx, container, template, true);
        }
        let sharded = index
            .pk
            .iter()
            .flat_map(|template| template.pieces.iter().flatten())
            .any(|piece| matches!(piece, crate::template::Piece::Shard(_)));
        if let (true, Some(field)) = (sharded, container.field("shard")) {
            cx.error_spanned_by(
                field.ident,
                format!(
                    "`{ident}` has a field named `shard` and a sharded `#[gsi{number}(…)]`, whose `<shard>` is the shard placeholder, not the field: rename the field"
                ),
            );
        }
    }
    check_local_indexes(cx, container);
    check_names(cx, container);
    check_index_field_forms(cx, container);
    check_special_fields(cx, container);
    check_write_once(cx, container);
    check_unique(cx, container);
    check_previous(cx, container);
}

/// `#[lsiN(…)]`: numbers 1 to 5, each once, a sort key template.
fn check_local_indexes(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let mut seen = BTreeMap::new();
    for index in &container.local_indexes {
        let number = index.number;
        check_number(cx, &mut seen, ident, index.attribute.path(), number, LSI);
        match &index.sk {
            Some(template) => check_template(cx, container, template, true),
            None => cx.error_spanned_by(
                index.attribute.path(),
                format!(
                    "`#[lsi{number}(…)]` of `{ident}` has no sort key: add `sk = \"…\"`, like `#[lsi{number}(sk = \"<updated_at>\")]`; a local secondary index is another sort key over the table's partition key"
                ),
            ),
        }
    }
}

/// `#[stamp(previous(…))]`: its templates follow the rules of `#[pk]` and
/// `#[sk]`, and together they differ from the current format.
fn check_previous(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let Some(previous) = &container.previous else {
        return;
    };
    for template in previous.pk.iter().chain(&previous.sk) {
        check_template(cx, container, template, false);
    }
    if previous.pk.is_none() && previous.sk.is_none() {
        cx.error_spanned_by(
            &previous.path,
            format!(
                "`previous(…)` of `{ident}` gives no template: name the earlier key templates that differ from the current ones, such as `previous(pk = \"USER#<id>\")`"
            ),
        );
        return;
    }
    let same = |earlier: &Option<Template>, current: &Option<Template>| match (earlier, current) {
        (None, _) => true,
        (Some(earlier), Some(current)) => earlier.literal.value() == current.literal.value(),
        (Some(_), None) => false,
    };
    if same(&previous.pk, &container.pk) && same(&previous.sk, &container.sk) {
        cx.error_spanned_by(
            &previous.path,
            format!(
                "the previous key format of `{ident}` is the current one (`#[pk]` and `#[sk]`): give the earlier templates that differ, or remove `previous(…)`"
            ),
        );
    }
}

/// A field of a GSI template is decoded back from its stored form when an
/// update rebuilds the index attributes, so serde must read what it writes:
/// a custom serializer needs its matching deserializer.
fn check_index_field_forms(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let mut seen: Vec<&str> = Vec::new();
    let templates = container
        .indexes
        .iter()
        .flat_map(|index| {
            index
                .pk
                .iter()
                .chain(&index.sk)
                .map(move |template| (format!("gsi{}", index.number), template))
        })
        .chain(container.local_indexes.iter().flat_map(|index| {
            index
                .sk
                .iter()
                .map(move |template| (format!("lsi{}", index.number), template))
        }));
    for (label, template) in templates {
        for name in template.fields() {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let Some(field) = container.fields.iter().find(|field| field.name == name) else {
                continue;
            };
            let one_sided = match (&field.serde.serialize_with, &field.serde.deserialize_with) {
                (Some(only), None) | (None, Some(only)) if field.serde.with.is_none() => Some(only),
                _ => None,
            };
            if let Some(attribute) = one_sided {
                cx.error_spanned_by(
                    attribute,
                    format!(
                        "the field `{name}` of `{ident}` is in a key template of `#[{label}]` and has only one of `serialize_with` and `deserialize_with`: an update rebuilds the index attributes from the stored form, so Stamp must read back what serde writes; give both, or `with = \"…\"`"
                    ),
                );
            }
        }
    }
}

fn check_template(
    cx: &mut Ctxt,
    container: &Container,
    template: &Template,
    optional_allowed: bool,
) {
    let ident = container.ident;
    let source = template.literal.value();
    let label = &template.label;
    let mut used: Vec<&str> = Vec::new();
    for name in template.fields() {
        let Some(field) = container.fields.iter().find(|field| field.name == name) else {
            let fields: Vec<&str> = container
                .fields
                .iter()
                .map(|field| field.name.as_str())
                .collect();
            let hint = if name == "shard" {
                "; `<shard>` is the shard placeholder that ends the partition key of a sharded GSI, given with `shards = N`: `#[gsi1(pk = \"STATUS#<status>#<shard>\", sk = \"<updated_at>\", shards = 8)]`"
            } else {
                ""
            };
            cx.error_spanned_by(
                &template.literal,
                format!(
                    "unknown field `{name}` in key template `{source}` (`{label}` of `{ident}`); fields are: {}{hint}",
                    fields.join(", ")
                ),
            );
            continue;
        };
        if used.contains(&name) {
            cx.error_spanned_by(
                &template.literal,
                format!("field `{name}` appears twice in key template `{source}` (`{label}` of `{ident}`): use it once"),
            );
        }
        used.push(name);
        if field.option_inner.is_some() && !optional_allowed {
            cx.error_spanned_by(
                &template.literal,
                format!(
                    "field `{name}` is an `Option`, so it cannot be in the primary key template `{source}` (`{label}` of `{ident}`): every item needs its primary key; only GSI and LSI templates may use `Option` fields (a sparse index)"
                ),
            );
        }
    }
}

/// Key attribute names must differ from each other and from every field's
/// serialized name.
fn check_names(cx: &mut Ctxt, container: &Container) {
    let ident = container.ident;
    let mut reserved: Vec<(&Name, String)> = vec![
        (
            &container.pk_attribute,
            "the partition key attribute".to_owned(),
        ),
        (&container.sk_attribute, "the sort key attribute".to_owned()),
        (
            &container.type_attribute,
            "the entity type attribute".to_owned(),
        ),
    ];
    let mut numbers = Vec::new();
    for index in &container.indexes {
        // A repeated index number is reported above; its names are not checked
        // twice. A multi-attribute index's key attributes are fields.
        if numbers.contains(&index.number) || index.is_multi_attribute() {
            continue;
        }
        numbers.push(index.number);
        reserved.push((
            &index.pk_attribute,
            format!("the partition key attribute of {}", index.name),
        ));
        if index.sk.is_some() {
            reserved.push((
                &index.sk_attribute,
                format!("the sort key attribute of {}", index.name),
            ));
        }
    }
    let mut local_numbers = Vec::new();
    for index in &container.local_indexes {
        if local_numbers.contains(&index.number) || index.sk.is_none() {
            continue;
        }
        local_numbers.push(index.number);
        reserved.push((
            &index.sk_attribute,
            format!("the sort key attribute of {}", index.name),
        ));
    }
    for (position, (name, role)) in reserved.iter().enumerate() {
        if let Some((first, first_role)) = reserved[..position]
            .iter()
            .find(|(other, _)| other.value == name.value)
        {
            let message = format!(
                "attribute name `{}` is both {first_role} and {role} of `{ident}`: give them different names",
                name.value
            );
            match name.span.or(first.span) {
                Some(span) => cx.syn_error(syn::Error::new(span, message)),
                None => cx.error_spanned_by(ident, message),
            }
        }
    }
    for field in &container.fields {
        let Some(serialized) = &field.serialized else {
            continue;
        };
        if let Some((_, role)) = reserved.iter().find(|(name, _)| name.value == *serialized) {
            cx.error_spanned_by(
                field.ident,
                format!(
                    "field `{}` is stored as attribute `{serialized}`, which is {role} of `{ident}`: rename the field, or give it `#[serde(rename = \"…\")]`",
                    field.name
                ),
            );
        }
    }
}
