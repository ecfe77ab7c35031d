//! The vector indexes of an entity: their `VectorIndexSchema`s, the
//! statements of `encode_item_at` that check the vector and write the
//! partition attribute, and the similarity searches
//! (`search_similar_vectorN`, and `search_similar` for `#[vector1]`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

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
                    let template = template_parts(krate, key);
                    let pk_name = &index.index.pk_attribute.value;
                    quote!(#krate::IndexKeySchema::Templates {
                        partition_key: __stamp::key_attribute(#pk_name, #template),
                        sort_key: ::core::option::Option::None,
                    })
                }
                None => quote!(#krate::IndexKeySchema::Unpartitioned),
            };
            let filters = index.filters.iter().map(|(stored, attribute_type)| {
                let field = &stored.field.name;
                let attribute = stored.attribute;
                let attribute_type = format_ident!("{}", attribute_type);
                quote!(#krate::VectorElement {
                    field: #field,
                    attribute: #attribute,
                    attribute_type: #krate::KeyAttributeType::#attribute_type,
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
        "A similarity search of vector index `{}` (`{}`, {} dimensions, {}) of `{entity}` for the items nearest `vector`, {partition_doc}: one `SearchVectors` request, the 10 most similar unless `top_k` says otherwise (1 to 100).\n\n\
         The vector's length, a NaN or an infinity, `top_k` and the filter are checked before sending (`stamp::Error::Vector`).\n\n\
         See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.",
        index.index.name, index.field.attribute, index.dimensions, index.distance
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
