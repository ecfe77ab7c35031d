//! Reads the struct's attributes: `#[pk]`, `#[sk]`, `#[gsiN…]`, `#[lsiN(…)]` and
//! `#[stamp(…)]`, each option at most once.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, DeriveInput, Expr, Ident, LitStr};

use crate::ast::attr::{self, Attr, read_template, string};
use crate::ast::index::{read_index, read_local_index};
use crate::ast::{Container, Name, Previous, field, serde};
use crate::ctxt::Ctxt;

/// The options of `#[stamp(…)]` on the struct.
struct StampOptions {
    type_name: Attr<String>,
    krate: Attr<syn::Path>,
    pk_attribute: Attr<Name>,
    sk_attribute: Attr<Name>,
    type_attribute: Attr<Name>,
    previous: Attr<Previous>,
}

impl<'a> Container<'a> {
    /// Reads `input`, a struct with the named fields `named`.
    pub fn from_ast(
        cx: &mut Ctxt,
        input: &'a DeriveInput,
        named: &'a syn::FieldsNamed,
    ) -> Container<'a> {
        let ident = &input.ident;
        let (mut pk, mut sk) = (Attr::none(), Attr::none());
        let (mut pk_written, mut sk_written) = (false, false);
        let mut options = StampOptions {
            type_name: Attr::none(),
            krate: Attr::none(),
            pk_attribute: Attr::none(),
            sk_attribute: Attr::none(),
            type_attribute: Attr::none(),
            previous: Attr::none(),
        };
        let mut indexes = Vec::new();
        let mut local_indexes = Vec::new();
        let mut vector_indexes = Vec::new();
        let mut rename_all = None;
        let mut serde_plain = true;
        for attribute in &input.attrs {
            let path = attribute.path();
            if path.is_ident("pk") || path.is_ident("sk") {
                let (which, slot, written) = if path.is_ident("pk") {
                    ("pk", &mut pk, &mut pk_written)
                } else {
                    ("sk", &mut sk, &mut sk_written)
                };
                *written = true;
                let Some(literal) = template_literal(attribute) else {
                    cx.error_spanned_by(
                        attribute,
                        format!("`#[{which}]` of `{ident}` takes a key template: `#[{which} = \"USER#<id>\"]`"),
                    );
                    continue;
                };
                let template = read_template(cx, ident, literal.clone(), format!("#[{which}]"));
                slot.set(cx, attribute, template, || {
                    format!("`#[{which}]` is given twice on `{ident}`: an entity has one")
                });
            } else if let Some(number) = super::index_number(attribute) {
                indexes.extend(read_index(cx, ident, attribute, number));
            } else if let Some(number) = super::local_index_number(attribute) {
                local_indexes.extend(read_local_index(cx, ident, attribute, number));
            } else if let Some(number) = super::vector::vector_index_number(attribute) {
                vector_indexes.extend(super::vector::read_vector_index(
                    cx, ident, attribute, number,
                ));
            } else if path.is_ident("stamp") {
                read_stamp(cx, ident, attribute, &mut options);
            } else if path.is_ident("serde") {
                serde::read_rename_all(attribute, &mut rename_all);
                serde_plain &= serde::is_plain_container(attribute);
            }
        }
        let fields = named
            .named
            .iter()
            .filter_map(|f| {
                Some(field::read_field(
                    cx,
                    ident,
                    f.ident.as_ref()?,
                    f,
                    rename_all,
                ))
            })
            .collect();
        let name =
            |attr: Attr<Name>, default: &str| attr.get().unwrap_or_else(|| Name::default(default));
        Container {
            ident,
            vis: &input.vis,
            krate: options
                .krate
                .get()
                .unwrap_or_else(|| syn::parse_quote!(::stamp)),
            type_name: options.type_name.get().unwrap_or_else(|| ident.to_string()),
            type_attribute: name(options.type_attribute, "Type"),
            pk_attribute: name(options.pk_attribute, "PK"),
            sk_attribute: name(options.sk_attribute, "SK"),
            pk: pk.get(),
            sk: sk.get(),
            pk_written,
            sk_written,
            indexes,
            local_indexes,
            vector_indexes,
            fields,
            previous: options.previous.get(),
            serde_plain,
        }
    }
}

/// The string literal of `#[name = "…"]`.
pub(super) fn template_literal(attribute: &Attribute) -> Option<&LitStr> {
    match &attribute.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value:
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(literal),
                    ..
                }),
            ..
        }) => Some(literal),
        _ => None,
    }
}

/// Reads one `#[stamp(…)]` attribute of the struct.
fn read_stamp(cx: &mut Ctxt, ident: &Ident, attribute: &Attribute, options: &mut StampOptions) {
    let mut previous_formats: Vec<(syn::Path, Vec<(&str, LitStr)>)> = Vec::new();
    let result = attribute.parse_nested_meta(|meta| {
        let twice = || attr::given_twice(&meta, "stamp", ident);
        if meta.path.is_ident("type_name") {
            options.type_name.set(cx, &meta.path, string(&meta)?.value(), twice);
        } else if meta.path.is_ident("crate") {
            options.krate.set(cx, &meta.path, string(&meta)?.parse()?, twice);
        } else if let Some(slot) = [
            ("pk_attribute", &mut options.pk_attribute),
            ("sk_attribute", &mut options.sk_attribute),
            ("type_attribute", &mut options.type_attribute),
        ]
        .into_iter()
        .find_map(|(name, slot)| meta.path.is_ident(name).then_some(slot))
        {
            slot.set(cx, &meta.path, Name::from_literal(&string(&meta)?), twice);
        } else if meta.path.is_ident("previous") {
            previous_formats.push((meta.path.clone(), read_previous(&meta, ident)?));
        } else {
            let option = attr::option_name(&meta);
            return Err(meta.error(format!(
                "unknown option `{option}` in `#[stamp(…)]` of `{ident}`; options are: type_name, crate, pk_attribute, sk_attribute, type_attribute, previous"
            )));
        }
        Ok(())
    });
    if let Err(error) = result {
        cx.syn_error(error);
    }
    for (path, templates) in previous_formats {
        if options.previous.is_set() {
            cx.error_spanned_by(
                &path,
                format!("`previous(…)` is given twice on `{ident}`: an entity declares one earlier key format; migrate from it, then replace it with the next one"),
            );
            continue;
        }
        let mut pk = Attr::none();
        let mut sk = Attr::none();
        for (which, literal) in templates {
            let label = format!("#[stamp(previous({which}))]");
            let template = read_template(cx, ident, literal.clone(), label);
            let slot = if which == "pk" { &mut pk } else { &mut sk };
            slot.set(cx, &literal, template, || {
                format!("`{which}` is given twice in `#[stamp(previous(…))]` of `{ident}`")
            });
        }
        let previous = Previous {
            path: path.clone(),
            pk: pk.get(),
            sk: sk.get(),
        };
        options.previous.set(cx, &path, previous, String::new);
    }
}

/// The templates of `previous(pk = "…", sk = "…")` in `#[stamp(…)]`.
fn read_previous(
    meta: &ParseNestedMeta,
    struct_name: &Ident,
) -> syn::Result<Vec<(&'static str, LitStr)>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`previous` in `#[stamp(…)]` of `{struct_name}` takes the earlier key templates, such as `previous(pk = \"USER#<id>\", sk = \"PROFILE\")`"
        )));
    }
    let mut templates = Vec::new();
    // `previous()`: no template, which the checks report with their own message.
    let fork = meta.input.fork();
    let content;
    syn::parenthesized!(content in fork);
    if content.is_empty() {
        let _empty;
        syn::parenthesized!(_empty in meta.input);
        return Ok(templates);
    }
    meta.parse_nested_meta(|inner| {
        let which = if inner.path.is_ident("pk") {
            "pk"
        } else if inner.path.is_ident("sk") {
            "sk"
        } else {
            let option = attr::option_name(&inner);
            return Err(inner.error(format!(
                "unknown option `{option}` in `#[stamp(previous(…))]` of `{struct_name}`; options are: pk, sk (the earlier key templates)"
            )));
        };
        templates.push((which, string(&inner)?));
        Ok(())
    })?;
    Ok(templates)
}
