//! `#[derive(Projection)]`: a struct of some fields of an entity, read with
//! a `ProjectionExpression` computed from its own fields, so the list of
//! attributes and the type cannot disagree.
//!
//! Each field must be a stored field of the entity, of the same type
//! (`Option<T>` may read any field of type `T` or `Option<T>`; a plain `T`
//! only a field that is always stored), under the same attribute name as
//! the entity stores it. All three are checked at compile time, by the
//! entity's attribute constants (`Order::TOTAL_CENTS`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::ast::options::{Derive, read_type_options};
use crate::ast::{option_inner, serde};
use crate::ctxt::Ctxt;
use crate::names;

/// The derive's entry point.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    let mut options = read_type_options(&mut cx, input, Derive::Projection);
    let krate = options.krate.clone();
    let rename_all = options.serde_rename_all;
    let entity = options.entity.take();
    let Some(entity) = entity else {
        cx.error_spanned_by(
            ident,
            format!("`#[derive(Projection)]` on `{ident}` needs the entity it reads: add `#[stamp(entity = MyEntity)]`"),
        );
        return cx.check().err().unwrap_or_default();
    };
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => Some(&fields.named),
            _ => None,
        },
        _ => None,
    };
    let Some(fields) = fields else {
        cx.error_spanned_by(
            ident,
            format!(
                "`#[derive(Projection)]` needs a struct with named fields, and `{ident}` is not one"
            ),
        );
        return cx.check().err().unwrap_or_default();
    };
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(Projection)]` does not support generic parameters on `{ident}`"),
        );
    }
    let mut names = Vec::new();
    let mut checks = Vec::new();
    for field in fields {
        let field_ident = field.ident.as_ref().expect("named fields");
        let name = field_ident.to_string().trim_start_matches("r#").to_owned();
        let default_name =
            rename_all.map_or_else(|| name.clone(), |rule| rule.apply_to_field(&name));
        let Some(stored) = serde::read_field(&field.attrs, default_name).serialized else {
            cx.error_spanned_by(
                field,
                format!("field `{name}` of projection `{ident}` is skipped or flattened by serde: a projection reads attributes, so every field must be one"),
            );
            continue;
        };
        let constant = names::attribute_constant(&name, field_ident.span());
        let ty = &field.ty;
        let check = match option_inner(ty) {
            Some(inner) => quote_spanned! {ty.span()=>
                #krate::__private::projected_optional::<#entity, #inner, _>(&<#entity>::#constant);
            },
            None => quote_spanned! {ty.span()=>
                #krate::__private::projected_present::<#entity, #ty, _>(&<#entity>::#constant);
            },
        };
        let message = format!(
            "field `{name}` of projection `{ident}` is read as attribute `{stored}`, but the entity stores it under another name: give it the entity's serde name"
        );
        checks.push(quote_spanned! {field.span()=>
            #check
            ::core::assert!(#krate::__private::same_str(<#entity>::#constant.name(), #stored), #message);
        });
        names.push(quote_spanned! {field.span()=> <#entity>::#constant.name()});
    }
    if let Err(errors) = cx.check() {
        return errors;
    }
    quote! {
        impl #krate::Projection<#entity> for #ident {
            const ATTRIBUTES: &'static [&'static str] = &[#(#names),*];

            fn from_item(item: #krate::AttributeMap) -> ::core::result::Result<Self, #krate::Error> {
                #krate::__private::decode_projection::<#entity, Self>(item)
            }
        }

        const _: () = {
            #(#checks)*
        };
    }
}
