//! Reads the struct's attributes: `#[pk]`, `#[sk]`, `#[gsiN…]`, `#[lsiN(…)]`,
//! `#[vectorN(…)]`, and `#[stamp(…)]` through the options reader shared by
//! the four derives (`options.rs`), each option at most once.

use syn::{Attribute, DeriveInput, Expr, Ident, LitStr};

use crate::ast::attr::{Attr, read_template};
use crate::ast::index::{read_index, read_local_index};
use crate::ast::options::{Derive, PreviousFormat, read_type_options};
use crate::ast::{Container, Name, Previous, field};
use crate::ctxt::Ctxt;

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
        let mut options = read_type_options(cx, input, Derive::Item);
        let previous = read_previous_formats(cx, ident, std::mem::take(&mut options.previous));
        let mut indexes = Vec::new();
        let mut local_indexes = Vec::new();
        let mut vector_indexes = Vec::new();
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
                    options.serde_rename_all,
                ))
            })
            .collect();
        let name =
            |attr: Attr<Name>, default: &str| attr.get().unwrap_or_else(|| Name::default(default));
        Container {
            ident,
            vis: &input.vis,
            krate: options.krate,
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
            previous,
            unique: std::mem::take(&mut options.unique),
            serde_plain: options.serde_plain,
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

/// The earlier key format of `previous(…)`, its templates read: a second
/// `previous` is an error (an entity migrates from one format at a time).
fn read_previous_formats(
    cx: &mut Ctxt,
    ident: &Ident,
    formats: Vec<PreviousFormat>,
) -> Option<Previous> {
    let mut previous = Attr::none();
    for (path, templates) in formats {
        if previous.is_set() {
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
        let format = Previous {
            path: path.clone(),
            pk: pk.get(),
            sk: sk.get(),
        };
        previous.set(cx, &path, format, String::new);
    }
    previous.get()
}
