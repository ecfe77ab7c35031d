//! On invalid input, the `compile_error!`s and a minimal stub of the
//! generated surface (the idea of thiserror's fallback), so that the user
//! sees the real error and not a cascade of "no function named `key`".
//!
//! The stub implements `Entity` with bodies that are never run, and gives
//! the inherent functions the derive would generate (`key`, `query`,
//! `gsiN_key`, `parse_…`, the attribute constants) with the signatures read
//! so far: one parameter per placeholder of the templates, of any type
//! (`impl Sized`), so a call with the intended arguments type-checks even
//! when a placeholder names no field.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::DeriveInput;

use crate::ast::{Container, Template};

/// The errors, and the stub when the struct's type can carry one (it has no
/// generic parameters).
pub fn fallback(
    input: &DeriveInput,
    container: Option<&Container>,
    errors: syn::Error,
) -> TokenStream {
    let errors = errors.to_compile_error();
    if !input.generics.params.is_empty() {
        return errors;
    }
    let ident = &input.ident;
    let krate: syn::Path = match container {
        Some(container) => container.krate.clone(),
        None => syn::parse_quote!(::stamp),
    };
    let functions = container.map(|container| stub_functions(&krate, container));
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #krate::Entity for #ident {
                const SCHEMA: &'static #krate::EntitySchema = ::core::unreachable!();

                fn primary_key(&self) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
                    ::core::unreachable!()
                }

                fn to_item_at(
                    &self,
                    _: ::core::option::Option<#krate::WriteTime>,
                ) -> ::core::result::Result<#krate::Item, #krate::Error> {
                    ::core::unreachable!()
                }

                fn from_item(_: #krate::Item) -> ::core::result::Result<Self, #krate::Error> {
                    ::core::unreachable!()
                }

                fn key_attribute_from_values(
                    _: &str,
                    _: &#krate::Item,
                ) -> ::core::result::Result<::core::option::Option<::std::string::String>, #krate::Error> {
                    ::core::unreachable!()
                }
            }

            #functions
        };
    }
}

/// The placeholder names of a template, also of one that did not parse
/// (read leniently: what stands between `<` and `>` or the end).
fn placeholders(template: Option<&Template>) -> Vec<String> {
    let Some(template) = template else {
        return Vec::new();
    };
    if template.pieces.is_some() {
        return template.fields().map(str::to_owned).collect();
    }
    let source = template.literal.value();
    source
        .split('<')
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or_default().to_owned())
        .collect()
}

/// The distinct names of some templates' placeholders, in order.
fn distinct(lists: &[&[String]]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in lists.iter().copied().flatten() {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// `fn name(_: impl Sized, …) -> output`, one parameter a name.
fn stub(function: &str, names: &[String], output: TokenStream) -> TokenStream {
    let function = format_ident!("{function}");
    let parameters = names.iter().map(|_| quote!(_: impl ::core::marker::Sized));
    quote! {
        pub fn #function(#(#parameters),*) -> #output {
            ::core::unreachable!()
        }
    }
}

/// `fn name(key: &str) -> Result<(field types…), Error>`; a placeholder
/// that names no field is `()`.
fn parse_stub(
    krate: &syn::Path,
    container: &Container,
    function: &str,
    names: &[String],
) -> TokenStream {
    let function = format_ident!("{function}");
    let types = names.iter().map(|name| match container.field(name) {
        Some(field) => {
            let ty = field.key_type();
            quote!(#ty)
        }
        None => quote!(()),
    });
    quote! {
        pub fn #function(_: &str) -> ::core::result::Result<(#(#types,)*), #krate::Error> {
            ::core::unreachable!()
        }
    }
}

/// The inherent functions and constants of the derive, with the
/// parameters read so far.
fn stub_functions(krate: &syn::Path, container: &Container) -> TokenStream {
    let ident = container.ident;
    let result = |ty: TokenStream| quote!(::core::result::Result<#ty, #krate::Error>);
    let pk = placeholders(container.pk.as_ref());
    let sk = placeholders(container.sk.as_ref());
    let key = distinct(&[&pk, &sk]);
    let primary_key = result(quote!(#krate::PrimaryKey<Self>));
    let mut functions = vec![
        stub("key", &key, primary_key.clone()),
        stub("query", &pk, quote!(#krate::Query<Self, 0>)),
        stub("scan", &[], quote!(#krate::Scan<Self>)),
        stub("update", &key, quote!(#krate::Update<Self>)),
        parse_stub(krate, container, "parse_partition_key", &pk),
        parse_stub(krate, container, "parse_sort_key", &sk),
    ];
    let mut numbers = Vec::new();
    for index in &container.indexes {
        let Ok(number) = u8::try_from(index.number) else {
            continue;
        };
        if numbers.contains(&number) {
            continue;
        }
        numbers.push(number);
        if index.is_multi_attribute() {
            let fields: Vec<String> = index
                .pk_fields
                .iter()
                .flat_map(|list| &list.fields)
                .map(ToString::to_string)
                .collect();
            functions.push(stub(
                &format!("query_gsi{number}"),
                &fields,
                quote!(#krate::Query<Self, #number>),
            ));
            continue;
        }
        let (index_pk, index_sk) = (
            placeholders(index.pk.as_ref()),
            placeholders(index.sk.as_ref()),
        );
        let index_key = result(quote!(#krate::IndexKey<Self>));
        functions.extend([
            stub(
                &format!("gsi{number}_key"),
                &distinct(&[&index_pk, &index_sk]),
                index_key,
            ),
            stub(
                &format!("query_gsi{number}"),
                &index_pk,
                quote!(#krate::Query<Self, #number>),
            ),
            parse_stub(
                krate,
                container,
                &format!("parse_gsi{number}_partition_key"),
                &index_pk,
            ),
            parse_stub(
                krate,
                container,
                &format!("parse_gsi{number}_sort_key"),
                &index_sk,
            ),
        ]);
    }
    let mut local_numbers = Vec::new();
    for index in &container.local_indexes {
        let Ok(number) = u8::try_from(index.number) else {
            continue;
        };
        if local_numbers.contains(&number) || number > 100 {
            continue;
        }
        local_numbers.push(number);
        let query_index = 100 + number;
        functions.extend([
            stub(
                &format!("query_lsi{number}"),
                &pk,
                quote!(#krate::Query<Self, #query_index>),
            ),
            parse_stub(
                krate,
                container,
                &format!("parse_lsi{number}_sort_key"),
                &placeholders(index.sk.as_ref()),
            ),
        ]);
    }
    if let Some(previous) = &container.previous {
        let previous_pk = placeholders(previous.pk.as_ref().or(container.pk.as_ref()));
        let previous_sk = placeholders(previous.sk.as_ref().or(container.sk.as_ref()));
        functions.extend([
            stub(
                "previous_key",
                &distinct(&[&previous_pk, &previous_sk]),
                primary_key,
            ),
            parse_stub(
                krate,
                container,
                "parse_previous_partition_key",
                &previous_pk,
            ),
            parse_stub(krate, container, "parse_previous_sort_key", &previous_sk),
        ]);
    }
    let constants = container
        .fields
        .iter()
        .filter(|field| field.serialized.is_some())
        .map(|field| {
            let constant = format_ident!("{}", field.name.to_uppercase());
            let ty = field.key_type();
            quote!(pub const #constant: #krate::Attribute<Self, #ty, #krate::Required> = ::core::unreachable!();)
        });
    quote! {
        #[automatically_derived]
        #[allow(dead_code, unreachable_code)]
        impl #ident {
            #(#functions)*
            #(#constants)*
        }
    }
}
