//! `#[derive(Collection)]`: an enum of entities that share a partition.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::ast::options::{Derive, read_type_options};
use crate::ctxt::Ctxt;
use crate::expand::IndexRef;

/// The derive's entry point: the options, the members, then the impls.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    let (krate, index, any_partition) = read_options(&mut cx, input);
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            ident,
            format!(
                "`#[derive(Collection)]` needs an enum of entities, and `{ident}` is not an enum"
            ),
        );
        return cx.check().err().unwrap_or_default();
    };
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(Collection)]` does not support generic parameters on `{ident}`"),
        );
    }
    let members = read_members(&mut cx, ident, data);
    if let (IndexRef::Vector(number), [(_, only)]) = (index, members.as_slice()) {
        cx.error_spanned_by(
            ident,
            format!(
                "collection `{ident}` of vector index {number} has one member, `{}`: a similarity search of an index one entity writes returns that entity's items; search it with `{}::search_similar_vector{number}(…)` without a collection, or add the other entities that write the index",
                quote!(#only),
                quote!(#only),
            ),
        );
    }
    if let Err(errors) = cx.check() {
        return errors;
    }
    if any_partition {
        expand_any_partition(&krate, ident, &members)
    } else {
        expand(&krate, index, ident, &members)
    }
}

/// `#[stamp(crate = "…", index = N)]`, `#[stamp(crate = "…", vector = N)]`
/// or `#[stamp(crate = "…", any_partition)]`, through the options reader of
/// every derive.
fn read_options(cx: &mut Ctxt, input: &DeriveInput) -> (syn::Path, IndexRef, bool) {
    let ident = &input.ident;
    let mut options = read_type_options(cx, input, Derive::Collection);
    let gsi = options.index.take();
    let vector = options.vector.take();
    let any_partition = options.any_partition.take();
    let index = match (&gsi, &vector) {
        (Some(_), Some(second)) => {
            cx.syn_error(syn::Error::new(
                second.span(),
                format!(
                    "`{ident}` names its index twice: give one of `index = N` and `vector = N`"
                ),
            ));
            IndexRef::Table
        }
        (Some(number), None) => numbered(
            cx,
            ident,
            number,
            crate::limits::MAX_GSIS,
            "index",
            &format!(
                "GSIs are numbered 1 to {} (leave it out for the table)",
                crate::limits::MAX_GSIS
            ),
        )
        .map_or(IndexRef::Table, IndexRef::Gsi),
        (None, Some(number)) => numbered(
            cx,
            ident,
            number,
            crate::limits::MAX_VECTOR_INDEXES,
            "vector",
            &format!(
                "vector indexes are numbered 1 to {}",
                crate::limits::MAX_VECTOR_INDEXES
            ),
        )
        .map_or(IndexRef::Table, IndexRef::Vector),
        (None, None) => IndexRef::Table,
    };
    let option = if vector.is_some() { "vector" } else { "index" };
    if let (Some(span), true) = (any_partition, gsi.is_some() || vector.is_some()) {
        cx.syn_error(syn::Error::new(
            span,
            format!("`{ident}` has both `any_partition` and `{option}`: a table-wide change type reads no partition of an index; leave `{option}` out"),
        ));
    }
    (options.krate, index, any_partition.is_some())
}

/// The index number `number` of `what = N` when it is 1 to `limit`; else
/// the error, with `hint`.
fn numbered(
    cx: &mut Ctxt,
    ident: &syn::Ident,
    number: &syn::LitInt,
    limit: usize,
    what: &str,
    hint: &str,
) -> Option<u8> {
    match number.base10_parse::<u8>() {
        Ok(value) if (1..=limit as u8).contains(&value) => Some(value),
        _ => {
            cx.syn_error(syn::Error::new(
                number.span(),
                format!("`{what} = {number}` on `{ident}` is out of range: {hint}"),
            ));
            None
        }
    }
}

/// The entity variants `Name(Type)`; the `Unknown(stamp::AttributeMap)` variant is
/// required and not a member.
fn read_members<'a>(
    cx: &mut Ctxt,
    ident: &syn::Ident,
    data: &'a syn::DataEnum,
) -> Vec<(&'a syn::Ident, &'a syn::Type)> {
    let mut members = Vec::new();
    let mut unknown = None;
    for variant in &data.variants {
        let field = match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => &fields.unnamed[0],
            _ => {
                cx.error_spanned_by(
                    &variant.ident,
                    format!(
                        "variant `{}` of `{ident}` must wrap one value: an entity, like `Order(Order)`, or the raw item, `Unknown(stamp::AttributeMap)`",
                        variant.ident
                    ),
                );
                continue;
            }
        };
        if variant.ident == "Unknown" {
            unknown = Some(&variant.ident);
        } else {
            members.push((&variant.ident, &field.ty));
        }
    }
    if unknown.is_none() {
        cx.error_spanned_by(
            ident,
            format!(
                "`{ident}` needs a variant `Unknown(stamp::AttributeMap)`, which keeps items of a type that is not in the collection"
            ),
        );
    }
    if members.is_empty() {
        cx.error_spanned_by(
            ident,
            format!("`{ident}` has no entity variant: add one such as `Order(Order)`"),
        );
    }
    members
}

/// `#[stamp(any_partition)]`: `impl Collection` without the partition
/// checks and without `CollectionMember` impls, so the enum decodes items
/// of any partition (a table-wide change feed, stream records) and is not
/// a collection a query reads.
fn expand_any_partition(
    krate: &syn::Path,
    ident: &syn::Ident,
    members: &[(&syn::Ident, &syn::Type)],
) -> TokenStream {
    let decodes = decodes(krate, members);
    let member_types = members.iter().map(|(_, ty)| ty);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::Collection for #ident {
                const NAME: &'static str = ::core::stringify!(#ident);
                type Index = #krate::BaseTable;
                const ANY_PARTITION: bool = true;
                const MEMBERS: &'static [&'static #krate::EntitySchema] = &[#(<#member_types as #krate::Entity>::SCHEMA),*];

                fn from_item(item: #krate::AttributeMap) -> ::core::result::Result<Self, #krate::Error> {
                    #(#decodes)*
                    ::core::result::Result::Ok(Self::Unknown(item))
                }
            }
        };
    }
}

/// The decoding of each member, by its type attribute.
fn decodes(krate: &syn::Path, members: &[(&syn::Ident, &syn::Type)]) -> Vec<TokenStream> {
    members
        .iter()
        .map(|(variant, ty)| {
            quote! {
                if #krate::__private::has_type(&item, <#ty as #krate::Entity>::SCHEMA) {
                    return <#ty as #krate::Entity>::from_item(item).map(Self::#variant);
                }
            }
        })
        .collect()
}

/// The compile-time partition checks, `impl Collection` and the
/// `CollectionMember` impls.
fn expand(
    krate: &syn::Path,
    index: IndexRef,
    ident: &syn::Ident,
    members: &[(&syn::Ident, &syn::Type)],
) -> TokenStream {
    let place = match index {
        IndexRef::Table => "the table".to_owned(),
        IndexRef::Gsi(number) => format!("GSI{number}"),
        IndexRef::Lsi(number) => format!("LSI{number}"),
        IndexRef::Vector(number) => format!("vector index {number}"),
    };
    let marker = index.marker(krate);
    let (_, first_type) = members[0];
    let checks = members.iter().map(|(_, ty)| {
        let (shared, message) = match index {
            IndexRef::Vector(number) => (
                quote!(#krate::__private::share_vector_index(
                    <#first_type as #krate::Entity>::SCHEMA,
                    <#ty as #krate::Entity>::SCHEMA,
                    #number,
                )),
                format!(
                    "the members of collection `{ident}` must write {place} with one vector attribute, dimensions and partition key template, and `{}` does not write the one of `{}`: add `#[vector{number}(…)]` to it with the same field, dimensions and `pk`",
                    quote!(#ty),
                    quote!(#first_type),
                ),
            ),
            IndexRef::Table | IndexRef::Gsi(_) | IndexRef::Lsi(_) => (
                quote!(#krate::__private::share_partition(
                    <#first_type as #krate::Entity>::SCHEMA,
                    <#ty as #krate::Entity>::SCHEMA,
                    <#marker as #krate::QueryIndex>::ID,
                )),
                format!(
                    "the members of collection `{ident}` must share one partition key template on {place}, and `{}` does not share the one of `{}`; for the change type of a stream over entities of different partitions (`Change<{ident}>`, `Table::changes`), add `#[stamp(any_partition)]`{}: it decodes changes of any partition, and no query reads it",
                    quote!(#ty),
                    quote!(#first_type),
                    match index {
                        IndexRef::Gsi(number) | IndexRef::Lsi(number) => {
                            format!(" in place of `index = {number}`")
                        }
                        IndexRef::Table | IndexRef::Vector(_) => String::new(),
                    },
                ),
            ),
        };
        quote_spanned! {ty.span()=>
            const _: () = ::core::assert!(#shared, #message);
        }
    });
    // The first member is checked against itself only for a vector index
    // (that it writes it at all); a partition template always matches itself.
    let checks: Vec<TokenStream> = match index {
        IndexRef::Vector(_) => checks.collect(),
        IndexRef::Table | IndexRef::Gsi(_) | IndexRef::Lsi(_) => checks.skip(1).collect(),
    };
    let decodes = decodes(krate, members);
    let member_types = members.iter().map(|(_, ty)| ty);
    let member_impls = members.iter().map(|(_, ty)| {
        quote! {
            #[automatically_derived]
            impl #krate::CollectionMember<#ident> for #ty {}
        }
    });
    quote! {
        const _: () = {
            #(#checks)*

            #[automatically_derived]
            impl #krate::Collection for #ident {
                const NAME: &'static str = ::core::stringify!(#ident);
                type Index = #marker;
                const MEMBERS: &'static [&'static #krate::EntitySchema] = &[#(<#member_types as #krate::Entity>::SCHEMA),*];

                fn from_item(item: #krate::AttributeMap) -> ::core::result::Result<Self, #krate::Error> {
                    #(#decodes)*
                    ::core::result::Result::Ok(Self::Unknown(item))
                }
            }

            #(#member_impls)*
        };
    }
}
