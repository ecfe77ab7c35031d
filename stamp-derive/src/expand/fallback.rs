//! On invalid input, the `compile_error!`s and a minimal stub of the
//! generated surface (the idea of thiserror's fallback), so that the user
//! sees the real error and not a cascade of "no function named `key`".
//!
//! The stub implements `Entity` with bodies that are never run, and gives
//! the inherent functions the derive would generate (`key`, `query`,
//! `gsiN_key`, `query_gsiN` of a multi-attribute index, `parse_…`,
//! `search_similar_vectorN` and `search_similar`, the attribute constants
//! with their kinds) with their real signatures
//! wherever the placeholders name fields: the fields' parameter types, or
//! the named input struct (`OrderKey { … }`) when two share a type, as the
//! real expansion makes them (`keys::key_inputs`); and the impls the
//! sort-key conditions take (`SortKeyPrefix`, `SortAttributes`). A
//! function over a placeholder that names no field (the error reported)
//! takes one parameter of any type (`impl Sized`) per placeholder, so a
//! call with the intended arguments type-checks still.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::DeriveInput;

use crate::ast::{Container, Field, FieldList, Template};
use crate::expand::IndexRef;
use crate::expand::keys::{input_name_of, key_inputs};
use crate::names;
use crate::template::Piece;

mod stubs;

use stubs::parse_stub;

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
    let (functions, definitions) = match container {
        Some(container) => {
            let (functions, definitions) = stub_functions(&krate, container);
            (Some(functions), definitions)
        }
        None => (None, Vec::new()),
    };
    quote! {
        #errors
        #(#definitions)*
        const _: () = {
            #[automatically_derived]
            impl #krate::Entity for #ident {
                const SCHEMA: &'static #krate::EntitySchema = ::core::unreachable!();

                fn primary_key(&self) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
                    ::core::unreachable!()
                }

                fn encode_item_at(
                    &self,
                    _: ::core::option::Option<#krate::WriteTime>,
                    _: bool,
                ) -> ::core::result::Result<#krate::__private::ItemBuilder, #krate::Error> {
                    ::core::unreachable!()
                }

                fn from_item(_: #krate::AttributeMap) -> ::core::result::Result<Self, #krate::Error> {
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

/// The stubs and input structs being collected.
struct Stubs<'a> {
    container: &'a Container<'a>,
    functions: Vec<TokenStream>,
    definitions: Vec<TokenStream>,
    /// The `impl` blocks of traits (sort-key prefixes and runs), and the
    /// `Self` types already given one, so no impl is given twice.
    impls: Vec<TokenStream>,
    implemented: Vec<String>,
}

/// Whether a template ends in `<shard>` (a sharded GSI's partition key).
fn sharded(template: Option<&Template>) -> bool {
    template
        .and_then(|template| template.pieces.as_ref())
        .is_some_and(|pieces| pieces.iter().any(|piece| matches!(piece, Piece::Shard(_))))
}

/// The inherent functions and constants of the derive, with the real
/// parameters (the fields' types, the named input structs) wherever the
/// placeholders name fields; the sort-key prefix and run impls that the
/// sort-key conditions take; and the input structs, to emit outside the
/// `const _`.
fn stub_functions(krate: &syn::Path, container: &Container) -> (TokenStream, Vec<TokenStream>) {
    let ident = container.ident;
    let result = |ty: TokenStream| quote!(::core::result::Result<#ty, #krate::Error>);
    let pk = placeholders(container.pk.as_ref());
    let sk = placeholders(container.sk.as_ref());
    let key = distinct(&[&pk, &sk]);
    let primary_key = result(quote!(#krate::PrimaryKey<Self>));
    let mut stubs = Stubs {
        container,
        functions: Vec::new(),
        definitions: Vec::new(),
        impls: Vec::new(),
        implemented: Vec::new(),
    };
    stubs.function(
        names::KEY,
        &key,
        names::KEY_INPUT,
        None,
        primary_key.clone(),
    );
    stubs.function(
        names::QUERY,
        &pk,
        names::PARTITION_INPUT,
        None,
        quote!(#krate::Query<Self>),
    );
    stubs.function(
        names::SCAN,
        &[],
        names::SCAN_INPUT,
        None,
        quote!(#krate::Scan<Self>),
    );
    for function in [names::UPDATE, names::UPSERT] {
        stubs.function(
            function,
            &key,
            names::KEY_INPUT,
            None,
            quote!(#krate::Update<Self>),
        );
    }
    stubs.sort_key_prefixes(krate, &sk, IndexRef::Table);
    stubs.functions.extend([
        parse_stub(krate, container, names::PARSE_PARTITION_KEY, &pk),
        parse_stub(krate, container, names::PARSE_SORT_KEY, &sk),
    ]);
    let mut numbers = Vec::new();
    for index in &container.indexes {
        let Ok(number) = u8::try_from(index.number) else {
            continue;
        };
        if numbers.contains(&number) || !(1..=crate::limits::MAX_GSIS as u8).contains(&number) {
            continue;
        }
        numbers.push(number);
        let marker = IndexRef::Gsi(number).marker(krate);
        if index.is_multi_attribute() {
            let names = |list: &Option<FieldList>| -> Vec<String> {
                list.iter()
                    .flat_map(|list| &list.fields)
                    .map(ToString::to_string)
                    .collect()
            };
            stubs.function(
                &names::query_gsi(number),
                &names(&index.pk_fields),
                &names::gsi_partition_input(number),
                None,
                quote!(#krate::MultiAttributeQuery<Self, #marker>),
            );
            stubs.sort_attributes(krate, &names(&index.sk_fields), IndexRef::Gsi(number));
            continue;
        }
        let (index_pk, index_sk) = (
            placeholders(index.pk.as_ref()),
            placeholders(index.sk.as_ref()),
        );
        let shard = sharded(index.pk.as_ref()).then(|| quote!(shard: u16));
        stubs.function(
            &names::gsi_key(number),
            &distinct(&[&index_pk, &index_sk]),
            &names::gsi_key_input(number),
            shard,
            result(quote!(#krate::IndexKey<Self>)),
        );
        stubs.function(
            &names::query_gsi(number),
            &index_pk,
            &names::gsi_partition_input(number),
            None,
            quote!(#krate::Query<Self, #marker>),
        );
        stubs.sort_key_prefixes(krate, &index_sk, IndexRef::Gsi(number));
        stubs.functions.extend([
            parse_stub(
                krate,
                container,
                &names::parse_gsi_partition_key(number),
                &index_pk,
            ),
            parse_stub(
                krate,
                container,
                &names::parse_gsi_sort_key(number),
                &index_sk,
            ),
        ]);
    }
    let mut local_numbers = Vec::new();
    for index in &container.local_indexes {
        let Ok(number) = u8::try_from(index.number) else {
            continue;
        };
        if local_numbers.contains(&number) || !(1..=crate::limits::MAX_LSIS as u8).contains(&number)
        {
            continue;
        }
        local_numbers.push(number);
        let marker = IndexRef::Lsi(number).marker(krate);
        let index_sk = placeholders(index.sk.as_ref());
        stubs.function(
            &names::query_lsi(number),
            &pk,
            names::PARTITION_INPUT,
            None,
            quote!(#krate::Query<Self, #marker>),
        );
        stubs.sort_key_prefixes(krate, &index_sk, IndexRef::Lsi(number));
        stubs.functions.push(parse_stub(
            krate,
            container,
            &names::parse_lsi_sort_key(number),
            &index_sk,
        ));
    }
    let mut vector_numbers = Vec::new();
    for index in &container.vector_indexes {
        let Ok(number) = u8::try_from(index.number) else {
            continue;
        };
        if vector_numbers.contains(&number)
            || !(1..=crate::limits::MAX_VECTOR_INDEXES as u8).contains(&number)
        {
            continue;
        }
        vector_numbers.push(number);
        let partition = placeholders(index.pk.as_ref());
        let marker = IndexRef::Vector(number).marker(krate);
        let search = quote!(#krate::SimilaritySearch<Self, #marker>);
        let vector = Some(quote!(vector: &[f32]));
        stubs.function(
            &format!("search_similar_vector{number}"),
            &partition,
            &format!("Vector{number}Partition"),
            vector.clone(),
            search.clone(),
        );
        if number == 1 {
            stubs.function(
                "search_similar",
                &partition,
                "Vector1Partition",
                vector,
                search,
            );
        }
        // The inline filters, so a search's `filter(|f| f.price…)` reports
        // nothing more (unknown or unstored names are left out: their own
        // error is reported at the attribute).
        let filters: Vec<&Field> = index
            .filters
            .iter()
            .filter_map(|name| container.field(&name.to_string()))
            .filter(|field| field.serialized.is_some())
            .collect();
        stubs.impls.push(crate::expand::vector::filters_tokens(
            krate,
            container.ident,
            number,
            &index.name,
            &filters,
        ));
    }
    if let Some(previous) = &container.previous {
        let previous_pk = placeholders(previous.pk.as_ref().or(container.pk.as_ref()));
        let previous_sk = placeholders(previous.sk.as_ref().or(container.sk.as_ref()));
        stubs.function(
            names::PREVIOUS_KEY,
            &distinct(&[&previous_pk, &previous_sk]),
            names::PREVIOUS_KEY_INPUT,
            None,
            primary_key,
        );
        stubs.functions.extend([
            parse_stub(
                krate,
                container,
                names::PARSE_PREVIOUS_PARTITION_KEY,
                &previous_pk,
            ),
            parse_stub(
                krate,
                container,
                names::PARSE_PREVIOUS_SORT_KEY,
                &previous_sk,
            ),
        ]);
    }
    let constants = container
        .fields
        .iter()
        .filter(|field| field.serialized.is_some())
        .map(|field| {
            let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
            let ty = field.key_type();
            let kind = if key.contains(&field.name) {
                quote!(#krate::PrimaryKeyField)
            } else if field.option_inner.is_some() {
                quote!(#krate::Optional)
            } else {
                quote!(#krate::Required)
            };
            // A real value, not `unreachable!()`: a `#[derive(Projection)]`
            // of the entity evaluates the constants in its checks, which
            // would add an "evaluation panicked" error to the real one.
            let attribute = field.serialized.as_deref().expect("filtered on `serialized`");
            quote!(pub const #constant: #krate::Attribute<Self, #ty, #kind> = #krate::Attribute::new(#attribute);)
        });
    let Stubs {
        functions,
        definitions,
        impls,
        ..
    } = stubs;
    (
        quote! {
            #[automatically_derived]
            #[allow(dead_code, unreachable_code, unused_variables)]
            impl #ident {
                #(#functions)*
                #(#constants)*
            }

            #(#impls)*
        },
        definitions,
    )
}
