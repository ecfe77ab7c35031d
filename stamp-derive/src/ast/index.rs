//! Reads the index attributes of a struct: `#[gsiN = "…"]`, `#[gsiN(pk =
//! "…", sk = "…", shards = N, …)]`, `#[gsiN(pk(a, b), sk(c))]` and
//! `#[lsiN(sk = "…", …)]`.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, Ident, LitStr};

use crate::ast::attr::{self, Attr, read_template, string};
use crate::ast::container::template_literal;
use crate::ast::{FieldList, Index, LocalIndex, Name, Template};
use crate::ctxt::Ctxt;
use crate::template::Piece;

/// Reads `#[gsiN = "…"]` or `#[gsiN(pk = "…", sk = "…", …)]`; `None` when
/// it cannot be read at all (reported).
pub(super) fn read_index(
    cx: &mut Ctxt,
    struct_name: &Ident,
    attribute: &Attribute,
    number: u32,
) -> Option<Index> {
    let label = |which: &str| format!("#[gsi{number}({which})]");
    let (pk, sk, options, (pk_fields, sk_fields)) = if let Some(literal) =
        template_literal(attribute)
    {
        let pk = read_template(cx, struct_name, literal.clone(), format!("#[gsi{number}]"));
        (Some(pk), None, IndexOptions::default(), (None, None))
    } else if let syn::Meta::List(_) = &attribute.meta {
        let (templates, mut options) = match read_index_list(cx, struct_name, attribute, number) {
            Ok(read) => read,
            Err(error) => {
                cx.syn_error(error);
                return None;
            }
        };
        let mut pk: Attr<Template> = Attr::none();
        let mut sk: Attr<Template> = Attr::none();
        for (which, literal) in templates {
            let template = read_template(cx, struct_name, literal.clone(), label(which));
            let slot = if which == "pk" { &mut pk } else { &mut sk };
            slot.set(cx, &literal, template, || {
                format!("`{which}` is given twice in `#[gsi{number}(…)]` of `{struct_name}`")
            });
        }
        let lists = (options.pk_fields.take(), options.sk_fields.take());
        if let Some(fields) = lists.0.iter().chain(&lists.1).next()
            && (pk.is_set() || sk.is_set())
        {
            cx.error_spanned_by(
                &fields.path,
                format!(
                    "`#[gsi{number}(…)]` of `{struct_name}` mixes a key template and a field list: a multi-attribute index names its key fields in both, `#[gsi{number}(pk(tenant_id, region), sk(round))]`; a template index writes templates in both, `#[gsi{number}(pk = \"TENANT#<tenant_id>\", sk = \"<round>\")]`"
                ),
            );
            return None;
        }
        if lists.0.is_some() || lists.1.is_some() {
            for (name, given) in [
                ("pk_attribute", options.pk_attribute.is_set()),
                ("sk_attribute", options.sk_attribute.is_set()),
            ] {
                if given {
                    cx.error_spanned_by(
                        attribute,
                        format!(
                            "`{name}` does not apply to the multi-attribute index `#[gsi{number}(…)]` of `{struct_name}`: its key attributes are the fields it names, stored under their own names"
                        ),
                    );
                }
            }
        }
        let mut pk = pk.get();
        let mut sk = sk.get();
        let shards = std::mem::take(&mut options.shards).get();
        if let (Some((_, literal)), true) = (&shards, lists.0.is_some() || lists.1.is_some()) {
            cx.error_spanned_by(
                literal,
                format!(
                    "`shards` does not apply to the multi-attribute index `#[gsi{number}(…)]` of `{struct_name}`: its partition key is its fields' own values, with no `<shard>` placeholder; add a field to `pk(…)` to spread the writes"
                ),
            );
        } else if let Some((count, literal)) = shards {
            mark_shard(
                cx,
                struct_name,
                number,
                count,
                &literal,
                pk.as_mut(),
                sk.as_mut(),
            );
        }
        (pk, sk, options, lists)
    } else {
        cx.error_spanned_by(
            attribute,
            format!(
                "`#[gsi{number}]` of `{struct_name}` takes a template, `#[gsi{number} = \"STATUS#<status>\"]`, or `#[gsi{number}(pk = \"…\", sk = \"…\")]`"
            ),
        );
        return None;
    };
    Some(Index {
        number,
        attribute: attribute.clone(),
        name: options
            .index_name
            .get()
            .unwrap_or_else(|| format!("GSI{number}")),
        pk_attribute: options
            .pk_attribute
            .get()
            .unwrap_or_else(|| Name::default(&format!("GSI{number}PK"))),
        sk_attribute: options
            .sk_attribute
            .get()
            .unwrap_or_else(|| Name::default(&format!("GSI{number}SK"))),
        pk,
        sk,
        pk_fields,
        sk_fields,
    })
}

use crate::limits::MAX_SHARDS;

/// Turns the `<shard>` that ends the partition key template of a sharded
/// index into the shard piece, and reports a shard count out of range, a
/// template that does not end in `<shard>` and a `<shard>` elsewhere (whose
/// template is then dropped, as after a syntax error, so that it is not
/// reported again as an unknown field).
fn mark_shard(
    cx: &mut Ctxt,
    struct_name: &Ident,
    number: u32,
    count: u16,
    literal: &syn::LitInt,
    pk: Option<&mut Template>,
    sk: Option<&mut Template>,
) {
    if !(2..=MAX_SHARDS).contains(&count) {
        cx.error_spanned_by(
            literal,
            format!(
                "`shards = {count}` in `#[gsi{number}(…)]` of `{struct_name}` is out of range: give 2 to {MAX_SHARDS} (each page of a query sends one request per shard)"
            ),
        );
    }
    let is_shard = |piece: &Piece| matches!(piece, Piece::Field(name) if name == "shard");
    if let Some(sk) = sk
        && sk.pieces.iter().flatten().any(is_shard)
    {
        cx.error_spanned_by(
            &sk.literal,
            format!(
                "`<shard>` is in the sort key template of `#[gsi{number}(…)]` of `{struct_name}`: the shard ends the partition key, like `pk = \"STATUS#<status>#<shard>\"`"
            ),
        );
        sk.pieces = None;
    }
    let Some(pk) = pk else { return };
    let source = pk.literal.value();
    let Some(pieces) = pk.pieces.as_mut() else {
        return;
    };
    let last = pieces.len() - 1;
    if pieces[..last].iter().any(is_shard) {
        cx.error_spanned_by(
            &pk.literal,
            format!(
                "`<shard>` is not at the end of the partition key template `{source}` of `#[gsi{number}(…)]` of `{struct_name}`: the shard ends it, like `STATUS#<status>#<shard>`"
            ),
        );
        pk.pieces = None;
    } else if is_shard(&pieces[last]) {
        pieces[last] = Piece::Shard(count);
    } else {
        cx.error_spanned_by(
            &pk.literal,
            format!(
                "`#[gsi{number}(…)]` of `{struct_name}` has `shards = {count}`, but its partition key template `{source}` does not end in the shard placeholder: write it like `{source}#<shard>`"
            ),
        );
    }
}

/// The options of `#[gsiN(…)]` other than its templates.
#[derive(Default)]
struct IndexOptions {
    index_name: Attr<String>,
    pk_attribute: Attr<Name>,
    sk_attribute: Attr<Name>,
    pk_fields: Attr<FieldList>,
    sk_fields: Attr<FieldList>,
    /// `shards = N`, with its literal for spans.
    shards: Attr<(u16, syn::LitInt)>,
}

/// The field names of `pk(a, b)` / `sk(c)`.
fn read_field_list(meta: &ParseNestedMeta, which: &str, gsi: &str) -> syn::Result<FieldList> {
    let mut fields = Vec::new();
    meta.parse_nested_meta(|inner| {
        let ident = inner.path.get_ident().filter(|_| {
            !(inner.input.peek(syn::Token![=]) || inner.input.peek(syn::token::Paren))
        });
        match ident {
            Some(ident) => fields.push(ident.clone()),
            None => {
                return Err(inner.error(format!(
                    "`{which}(…)` in `#[{gsi}(…)]` lists field names, such as `{which}(tenant_id, region)`"
                )));
            }
        }
        Ok(())
    })?;
    Ok(FieldList {
        path: meta.path.clone(),
        fields,
    })
}

/// The templates (in order, repeats included) and the options of
/// `#[gsiN(…)]`.
fn read_index_list(
    cx: &mut Ctxt,
    struct_name: &Ident,
    attribute: &Attribute,
    number: u32,
) -> syn::Result<(Vec<(&'static str, LitStr)>, IndexOptions)> {
    let mut templates = Vec::new();
    let mut options = IndexOptions::default();
    let gsi = format!("gsi{number}");
    attribute.parse_nested_meta(|meta| {
        let twice = || attr::given_twice(&meta, &gsi, struct_name);
        if (meta.path.is_ident("pk") || meta.path.is_ident("sk"))
            && meta.input.peek(syn::token::Paren)
        {
            let which = if meta.path.is_ident("pk") { "pk" } else { "sk" };
            let list = read_field_list(&meta, which, &gsi)?;
            let slot = if which == "pk" {
                &mut options.pk_fields
            } else {
                &mut options.sk_fields
            };
            slot.set(cx, &meta.path, list, twice);
        } else if meta.path.is_ident("pk") {
            templates.push(("pk", string(&meta)?));
        } else if meta.path.is_ident("sk") {
            templates.push(("sk", string(&meta)?));
        } else if meta.path.is_ident("index_name") {
            let name = attr::index_name(cx, &string(&meta)?, &gsi, struct_name);
            options.index_name.set(cx, &meta.path, name, twice);
        } else if meta.path.is_ident("shards") {
            let literal: syn::LitInt = meta.value()?.parse().map_err(|_| {
                meta.error(format!(
                    "`shards` in `#[gsi{number}(…)]` of `{struct_name}` takes a number of shards, like `shards = 8`"
                ))
            })?;
            let count = literal.base10_parse::<u16>().unwrap_or(0);
            options.shards.set(cx, &meta.path, (count, literal), twice);
        } else if let Some(slot) = [
            ("pk_attribute", &mut options.pk_attribute),
            ("sk_attribute", &mut options.sk_attribute),
        ]
        .into_iter()
        .find_map(|(name, slot)| meta.path.is_ident(name).then_some(slot))
        {
            slot.set(cx, &meta.path, Name::from_literal(&string(&meta)?), twice);
        } else {
            let option = attr::option_name(&meta);
            return Err(meta.error(format!(
                "unknown option `{option}` in `#[gsi{number}(…)]` of `{struct_name}`; options are: pk, sk, index_name, pk_attribute, sk_attribute, shards"
            )));
        }
        Ok(())
    })?;
    Ok((templates, options))
}

/// Reads `#[lsiN(sk = "…", index_name = "…", sk_attribute = "…")]`; `None`
/// when it cannot be read at all (reported). A missing `sk` is reported by
/// the checks.
pub(super) fn read_local_index(
    cx: &mut Ctxt,
    struct_name: &Ident,
    attribute: &Attribute,
    number: u32,
) -> Option<LocalIndex> {
    let lsi = format!("lsi{number}");
    let syn::Meta::List(_) = &attribute.meta else {
        cx.error_spanned_by(
            attribute,
            format!(
                "`#[{lsi}]` of `{struct_name}` takes its sort key template: `#[{lsi}(sk = \"<updated_at>\")]` (the partition key is the table's)"
            ),
        );
        return None;
    };
    let mut sk: Attr<Template> = Attr::none();
    let mut index_name: Attr<String> = Attr::none();
    let mut sk_attribute: Attr<Name> = Attr::none();
    let result = attribute.parse_nested_meta(|meta| {
        let twice = || attr::given_twice(&meta, &lsi, struct_name);
        if meta.path.is_ident("sk") {
            let literal = string(&meta)?;
            let template =
                read_template(cx, struct_name, literal.clone(), format!("#[{lsi}(sk)]"));
            sk.set(cx, &literal, template, || {
                format!("`sk` is given twice in `#[{lsi}(…)]` of `{struct_name}`")
            });
        } else if meta.path.is_ident("pk") {
            let _ = string(&meta)?;
            cx.error_spanned_by(
                &meta.path,
                format!(
                    "`#[{lsi}(…)]` of `{struct_name}` takes no `pk`: a local secondary index shares the table's partition key (`#[pk]`) and only adds a sort key; give `sk = \"…\"`, or use a GSI (`#[gsiN(pk = \"…\", sk = \"…\")]`) for another partition key"
                ),
            );
        } else if meta.path.is_ident("index_name") {
            let name = attr::index_name(cx, &string(&meta)?, &lsi, struct_name);
            index_name.set(cx, &meta.path, name, twice);
        } else if meta.path.is_ident("sk_attribute") {
            sk_attribute.set(cx, &meta.path, Name::from_literal(&string(&meta)?), twice);
        } else {
            let option = attr::option_name(&meta);
            return Err(meta.error(format!(
                "unknown option `{option}` in `#[{lsi}(…)]` of `{struct_name}`; options are: sk, index_name, sk_attribute"
            )));
        }
        Ok(())
    });
    if let Err(error) = result {
        cx.syn_error(error);
    }
    Some(LocalIndex {
        number,
        attribute: attribute.clone(),
        name: index_name.get().unwrap_or_else(|| format!("LSI{number}")),
        sk_attribute: sk_attribute
            .get()
            .unwrap_or_else(|| Name::default(&format!("LSI{number}SK"))),
        sk: sk.get(),
    })
}
