//! Generates the code of `#[derive(Item)]` from the checked [`Model`], one
//! file a generated surface: [`schema`] (`Entity::SCHEMA`), [`item`] (the
//! rest of `impl Entity`: item conversion), [`keys`] (key building and the
//! key builders), [`queries`] (queries, scan, update, sort-key prefixes),
//! [`parsers`] (key parsers), [`attributes`] (attribute constants and index
//! attributes from update values) and [`codecs`] (per-field encoders and
//! decoders).

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;
use syn::{DeriveInput, Fields};

use crate::ast::{self, Container};
use crate::check::{self, Model};
use crate::ctxt::Ctxt;
use crate::names;

pub use index_ref::IndexRef;

mod attributes;
mod codecs;
mod direct;
mod fallback;
mod index_ref;
mod item;
mod keys;
mod multi;
mod parsers;
mod queries;
mod schema;
mod vector;

/// The derive's entry point: the generated code, or the errors with a stub
/// of the generated surface ([`fallback`]).
pub fn derive_item(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    if let Some(shape) = ast::unsupported_shape(input) {
        cx.error_spanned_by(
            ident,
            format!(
                "`#[derive(Item)]` needs a struct with named fields, but `{ident}` is {shape}: an item stores each named field as an attribute"
            ),
        );
    }
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(Item)]` does not support generic parameters on `{ident}`: an entity has one concrete type"),
        );
    }
    let named = match &input.data {
        syn::Data::Struct(syn::DataStruct {
            fields: Fields::Named(named),
            ..
        }) if input.generics.params.is_empty() => named,
        _ => {
            return match cx.into_result() {
                Ok(()) => TokenStream::new(),
                Err(errors) => fallback::fallback(input, None, errors),
            };
        }
    };
    let container = Container::from_ast(&mut cx, input, named);
    match check::check(cx, &container) {
        Ok(model) => generate(&model),
        Err(errors) => fallback::fallback(input, Some(&container), errors),
    }
}

/// The whole generated code: the codecs, `impl Entity`, the inherent
/// functions and constants, and the sort-key prefixes, in one
/// `const _: () = { … };`.
fn generate(model: &Model) -> TokenStream {
    let ident = model.ident;
    let codecs = codecs::codecs(model);
    let entity = item::entity_impl(model);
    let primary_key_inputs = keys::primary_key_inputs(model);
    let key_function = keys::key_function(model, &primary_key_inputs);
    let (index_functions, mut input_structs): (Vec<TokenStream>, Vec<Option<TokenStream>>) = model
        .indexes
        .iter()
        .enumerate()
        .map(|(position, index)| keys::index_key_function(model, position, index))
        .unzip();
    let (query_functions, query_inputs) = queries::query_functions(model, &primary_key_inputs);
    input_structs.push(primary_key_inputs.definition.clone());
    input_structs.extend(query_inputs.into_iter().map(Some));
    let (search_functions, search_inputs) = vector::search_functions(model);
    input_structs.extend(search_inputs.into_iter().map(Some));
    let (multi_queries, multi_inputs) = multi::query_functions(model);
    input_structs.extend(multi_inputs.into_iter().map(Some));
    let multi_sort_impls = multi::sort_impls(model);
    let vector_filters = vector::filters_impls(model);
    let (parse_functions, previous_parse_functions) = parsers::parse_functions(model);
    let (previous_key_function, previous_input) = model
        .previous
        .as_ref()
        .map(|(pk, sk)| previous_key_function(model, (pk, sk)))
        .unzip();
    input_structs.push(previous_input.flatten());
    let attributes = attributes::attribute_constants(model);
    let prefix_impls = queries::prefix_impls(model);
    let span = Span::call_site();
    let krate = model.krate;
    quote_spanned! {span=>
        #(#input_structs)*

        const _: () = {
            // The codec selection of `__private::codec`: each field's
            // conversion, direct or through serde_dynamo, by its type.
            use #krate::__private as __stamp;
            #[allow(unused_imports)]
            use #krate::__private::codec::{
                DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
                EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
                StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
            };

            #(#codecs)*

            #entity

            #[automatically_derived]
            impl #ident {
                #key_function

                #(#index_functions)*

                #(#query_functions)*

                #(#multi_queries)*

                #(#search_functions)*

                #(#parse_functions)*

                #previous_key_function

                #(#previous_parse_functions)*

                #(#attributes)*
            }

            #(#prefix_impls)*

            #(#multi_sort_impls)*

            #(#vector_filters)*
        };
    }
}

/// `previous_key(…)`: the primary key in the `#[stamp(previous(…))]` format.
fn previous_key_function(
    model: &Model,
    keys: (&check::Key, &check::Key),
) -> (TokenStream, Option<TokenStream>) {
    let container = model.container;
    let summary = format!(
        "Builds the primary key a `{}` had in its previous key format \
         (`#[stamp(previous(…))]`): `{}` = `{}`, `{}` = `{}`. \
         Read an item that the key migration has not moved yet with it.",
        model.ident,
        container.pk_attribute.value,
        keys.0.source(),
        container.sk_attribute.value,
        keys.1.source(),
    );
    let inputs = keys::key_inputs(
        model.container,
        &check::distinct_fields(&[keys.0, keys.1]),
        keys::input_name(model, names::PREVIOUS_KEY_INPUT),
        "the previous primary key",
    );
    let function = keys::primary_key_function(
        model,
        &names::ident(names::PREVIOUS_KEY),
        &summary,
        keys,
        (
            keys::TemplatePlace::PreviousPartitionKey,
            keys::TemplatePlace::PreviousSortKey,
        ),
        &inputs,
    );
    (function, inputs.definition)
}
