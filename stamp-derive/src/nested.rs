//! `#[derive(Attributes)]`: the attribute constants of a struct stored
//! inside an entity (as a map), such as `Address::CITY`, which
//! `Attribute::then` joins to the entity's own (`Customer::ADDRESS`) into
//! a typed document path.
//!
//! The derive states each field's stored name (serde's `rename` and
//! `rename_all`), its type and its kind; the encoding is generic code in
//! stamp-core (`__private::nested_field`), except for a field with its own
//! serde serializer (`with`, `serialize_with`, `skip_serializing_if`),
//! whose encoder serializes a one-field wrapper with the same attributes.

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
    let options = read_type_options(&mut cx, input, Derive::Attributes);
    let krate = options.krate.clone();
    let rename_all = options.serde_rename_all;
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
                "`#[derive(Attributes)]` needs a struct with named fields, and `{ident}` is not one"
            ),
        );
        return cx.check().err().unwrap_or_default();
    };
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(Attributes)]` does not support generic parameters on `{ident}`"),
        );
    }
    if !options.serde_plain {
        cx.error_spanned_by(
            ident,
            format!("`#[derive(Attributes)]` needs `{ident}` stored as a map of its fields: serde's container attributes other than `rename_all` change that"),
        );
    }
    let serde_path = format!("{}::__private::serde", quote!(#krate));
    let mut constants = Vec::new();
    let mut encoders = Vec::new();
    for field in fields {
        let field_ident = field.ident.as_ref().expect("named fields");
        let name = field_ident.to_string().trim_start_matches("r#").to_owned();
        let default_name =
            rename_all.map_or_else(|| name.clone(), |rule| rule.apply_to_field(&name));
        let read = serde::read_field(&field.attrs, default_name);
        // A field serde skips or flattens has no path of its own.
        let Some(stored) = read.serialized else {
            continue;
        };
        let serde = read.serde;
        let ty = &field.ty;
        let inner = option_inner(ty);
        let key_ty = inner.unwrap_or(ty);
        let (kind, what) = match inner {
            Some(_) => (
                quote!(#krate::Optional),
                "optional: an update may set or remove it",
            ),
            None => (quote!(#krate::Required), "an update may set it"),
        };
        let none_is_null = inner.is_some() && serde.skip_serializing_if.is_none();
        let constant = names::attribute_constant(&name, field_ident.span());
        let encoder = if serde.custom_serialize() {
            let function = quote::format_ident!("__stamp_nested_{}", name);
            let serialize = match (&serde.with, &serde.serialize_with) {
                (Some(with), _) => {
                    let path: syn::Path =
                        with.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                    Some(quote!(#path::serialize))
                }
                (None, Some(path)) => {
                    let path: syn::Path =
                        path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                    Some(quote!(#path))
                }
                (None, None) => None,
            };
            let serialize_helper = serialize.as_ref().map(|path| {
                quote! {
                    fn __serialize<__S: __stamp::serde::Serializer>(__value: &&#ty, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                        #path(*__value, __serializer)
                    }
                }
            });
            let skip_helper = serde.skip_serializing_if.as_ref().map(|path| {
                let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                quote! {
                    fn __skip(__value: &&#ty) -> bool {
                        #path(*__value)
                    }
                }
            });
            let serialize_attribute = serialize_helper
                .as_ref()
                .map(|_| quote!(#[serde(serialize_with = "__serialize")]));
            let skip_attribute = skip_helper
                .as_ref()
                .map(|_| quote!(#[serde(skip_serializing_if = "__skip")]));
            let value = if inner.is_some() {
                quote_spanned! {key_ty.span()=>
                    &::core::option::Option::Some(::core::clone::Clone::clone(__value))
                }
            } else {
                quote!(__value)
            };
            encoders.push(quote! {
                #[allow(non_snake_case)]
                fn #function(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
                    #serialize_helper
                    #skip_helper
                    #[derive(__stamp::serde::Serialize)]
                    #[serde(crate = #serde_path)]
                    struct __Wrapper<'__stamp> {
                        #[serde(rename = "v")]
                        #serialize_attribute
                        #skip_attribute
                        v: &'__stamp #ty,
                    }
                    __stamp::nested_serialized(&__Wrapper { v: #value })
                }
            });
            quote!(#function)
        } else {
            quote_spanned!(key_ty.span()=> __stamp::nested_field::<#key_ty>)
        };
        let doc = format!(
            "The `{stored}` field of `{ident}`, stored inside an item: join it to the entity's attribute with `Attribute::then` ({what})."
        );
        constants.push(quote! {
            #[doc = #doc]
            pub const #constant: #krate::Attribute<Self, #key_ty, #kind> =
                #krate::Attribute::nested(#stored, #encoder, #none_is_null);
        });
    }
    if let Err(errors) = cx.check() {
        return errors;
    }
    quote! {
        const _: () = {
            use #krate::__private as __stamp;
            #(#encoders)*
            #[automatically_derived]
            impl #ident {
                #(#constants)*
            }
        };
    }
}
