//! The vector indexes of an entity: their `VectorIndexSchema`s, the
//! statements of `encode_item_at` that check the vector and write the
//! partition attribute, the similarity searches
//! (`search_similar_vectorN`, and `search_similar` for `#[vector1]`), and
//! the inline filters a search's condition may name (`VectorFilters`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::Model;
use crate::check::vector::VectorKeys;
use crate::expand::IndexRef;
use crate::expand::keys::{TemplatePlace, build_key, input_name, key_inputs, template_parts};
use crate::names;

/// The `IndexSchema` of each vector index, of kind `IndexKind::Vector`
/// (they come last in `EntitySchema::indexes`).
pub fn schema_tokens(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    model
        .vector_indexes
        .iter()
        .map(|index| {
            let number = index.number;
            let name = &index.index.name;
            let field = &index.field.field.name;
            let attribute = index.field.attribute;
            let dimensions = index.dimensions;
            let distance = format_ident!("{}", index.distance);
            let optional = index.field.field.option_inner.is_some();
            let key = match &index.pk {
                Some(key) => {
                    let template = template_parts(key);
                    let pk_name = &index.index.pk_attribute.value;
                    quote!(#krate::IndexKeySchema::Templates {
                        partition_key: __stamp::key_attribute(#pk_name, #template),
                        sort_key: ::core::option::Option::None,
                    })
                }
                None => quote!(#krate::IndexKeySchema::Unpartitioned),
            };
            // The type as a multi-attribute key attribute's: the trait's,
            // spanned at the field's type (its message for a type without it).
            let filters = index.filters.iter().map(|stored| {
                let field = &stored.field.name;
                let attribute = stored.attribute;
                let ty = stored.field.key_type();
                let attribute_type =
                    quote_spanned!(ty.span()=> <#ty as #krate::IndexKeyAttribute>::TYPE);
                quote!(#krate::VectorElement {
                    field: #field,
                    attribute: #attribute,
                    attribute_type: #attribute_type,
                })
            });
            let projection = match (&index.include, index.keys_only) {
                // The type attribute too: a search scopes its results to the
                // entity by it.
                (Some(names), _) => {
                    let type_attribute = &model.container.type_attribute.value;
                    quote!(#krate::VectorProjection::Include(&[#(#names,)* #type_attribute]))
                }
                (None, true) => quote!(#krate::VectorProjection::KeysOnly),
                (None, false) => quote!(#krate::VectorProjection::All),
            };
            let read_method = names::search_similar_vector(number);
            quote! {
                #krate::IndexSchema {
                    number: #number,
                    name: #name,
                    read_method: #read_method,
                    kind: #krate::IndexKind::Vector(&#krate::VectorIndexSchema {
                        field: #field,
                        attribute: #attribute,
                        dimensions: #dimensions,
                        distance: #krate::DistanceFunction::#distance,
                        filters: &[#(#filters),*],
                        projection: #projection,
                        optional: #optional,
                    }),
                    key: #key,
                }
            }
        })
        .collect()
}

/// The statements of `encode_item_at` for each vector index: the stored vector
/// checked (length, finite elements), and when it is there the partition
/// attribute written; an item without its vector has neither (sparse).
pub fn to_item_statements(model: &Model) -> Vec<TokenStream> {
    model
        .vector_indexes
        .iter()
        .enumerate()
        .map(|(position, index)| {
            let absolute = model.vector_position(position);
            let partition = index.pk.as_ref().map(|key| {
                let bindings = key.fields().map(|field| {
                    let ident = field.ident;
                    quote!(let #ident = &self.#ident;)
                });
                let build = build_key(
                    model,
                    key,
                    &TemplatePlace::VectorPartitionKey(model.vector_position(position)),
                );
                let pk_name = &index.index.pk_attribute.value;
                quote! {
                    #(#bindings)*
                    let __vector_partition: ::std::string::String = #build?;
                    __stamp::insert_key_string(&mut __item, #pk_name, __vector_partition);
                }
            });
            quote! {
                if __stamp::check_vector_attribute(
                    __schema,
                    &__schema.indexes[#absolute],
                    &__item,
                )? {
                    #partition
                }
            }
        })
        .collect()
}

/// The search functions of every vector index, and the input structs of
/// their partition fields (when two of them have one type).
pub fn search_functions(model: &Model) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut functions = Vec::new();
    let mut inputs = Vec::new();
    for (position, index) in model.vector_indexes.iter().enumerate() {
        let (function, input) = search_function(model, position, index);
        functions.push(function);
        inputs.extend(input);
    }
    (functions, inputs)
}

fn search_function(
    model: &Model,
    position: usize,
    index: &VectorKeys,
) -> (TokenStream, Option<TokenStream>) {
    let krate = model.krate;
    let number = index.number;
    let absolute = model.vector_position(position);
    let fields: Vec<_> = index
        .pk
        .as_ref()
        .map(|key| key.fields().collect())
        .unwrap_or_default();
    let inputs = key_inputs(
        model.container,
        &fields,
        input_name(model, &format!("Vector{number}Partition")),
        &format!("the partition of vector index {}", index.index.name),
    );
    let parameters = &inputs.parameters;
    let unpack = &inputs.unpack;
    let partition = match &index.pk {
        Some(key) => {
            let build = build_key(
                model,
                key,
                &TemplatePlace::VectorPartitionKey(model.vector_position(position)),
            );
            quote! {
                #build.map(|__key| ::core::option::Option::Some(#krate::aws_sdk_dynamodb::types::AttributeValue::S(__key)))
            }
        }
        None => quote!(::core::result::Result::Ok(::core::option::Option::None)),
    };
    let entity = model.ident;
    let partition_doc = match &index.pk {
        Some(key) => format!(
            "in the partition `{}` = `{}`",
            index.index.pk_attribute.value,
            key.source()
        ),
        None => "across the whole index".to_owned(),
    };
    let doc = format!(
        "A similarity search of vector index `{}` (`{}`, {} dimensions, {}) of `{entity}` for the items nearest `vector`, {partition_doc}{}.",
        index.index.name,
        index.field.attribute,
        index.dimensions,
        index.distance,
        crate::expand::keys::MORE,
    );
    let body = quote! {
        #unpack
        let __schema = <Self as #krate::Entity>::SCHEMA;
        #krate::SimilaritySearch::new(&__schema.indexes[#absolute], #partition, vector)
    };
    let numbered = names::ident(&names::search_similar_vector(number));
    let marker = IndexRef::Vector(number).marker(krate);
    let plain = (number == 1).then(|| {
        let search_similar = names::ident(names::SEARCH_SIMILAR);
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #search_similar(#(#parameters,)* vector: &[f32]) -> #krate::SimilaritySearch<Self, #marker> {
                #body
            }
        }
    });
    (
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #numbered(#(#parameters,)* vector: &[f32]) -> #krate::SimilaritySearch<Self, #marker> {
                #body
            }
            #plain
        },
        inputs.definition,
    )
}

/// The `VectorFilters` implementation of every vector index: the struct of
/// its inline filters, which a search's `filter(|f| …)` gets.
pub fn filters_impls(model: &Model) -> Vec<TokenStream> {
    model
        .vector_indexes
        .iter()
        .map(|index| {
            let fields: Vec<&Field> = index.filters.iter().map(|stored| stored.field).collect();
            filters_tokens(
                model.krate,
                model.ident,
                index.number,
                &index.index.name,
                &fields,
            )
        })
        .collect()
}

/// The struct `{Entity}Vector{N}Filters`, a public field per inline filter
/// of vector index `number` (a `SearchAttribute` of the field's type, from
/// its attribute constant), and `impl VectorFilters<Vector<N>>` for the
/// entity. Also the derive's stub on an error elsewhere in the struct, so
/// a search's filter reports nothing more.
pub fn filters_tokens(
    krate: &syn::Path,
    entity: &syn::Ident,
    number: u8,
    index_name: &str,
    filters: &[&Field],
) -> TokenStream {
    let marker = IndexRef::Vector(number).marker(krate);
    let name = format_ident!("{}Vector{}Filters", entity, number);
    let fields = filters.iter().map(|field| {
        let ident = field.ident;
        let ty = field.key_type();
        let doc = format!(
            "The inline filter `{}` of vector index `{index_name}`.",
            field.name
        );
        quote! {
            #[doc = #doc]
            pub #ident: #krate::SearchAttribute<#entity, #marker, #ty>
        }
    });
    let values = filters.iter().map(|field| {
        let ident = field.ident;
        let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
        quote!(#ident: #krate::SearchAttribute::new(#entity::#constant))
    });
    let doc = format!(
        "The inline filters of vector index `{index_name}` of `{entity}`, the only attributes the condition of a `search_similar_vector{number}(…).filter(|f| …)` may compare: a field that is not one does not compile."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug)]
        pub struct #name {
            #(#fields,)*
        }

        #[automatically_derived]
        impl #krate::VectorFilters<#marker> for #entity {
            type Filters = #name;
            const FILTERS: #name = #name {
                #(#values,)*
            };
        }
    }
}
