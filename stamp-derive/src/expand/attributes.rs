//! Typed attribute constants (`Order::STATUS`) for conditions, filters and
//! updates, and `Entity::key_attribute_from_values`, which rebuilds index
//! attributes from the values an update knows.

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::{Key, Model, Stored, distinct_fields};
use crate::expand::codecs::{decode_call, encoder};
use crate::expand::keys::{TemplatePlace, index_template_keys, key_args};
use crate::names;

/// One `pub const FIELD: Attribute<Self, T, Kind>` per stored field.
pub fn attribute_constants(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    let ident = model.ident;
    let primary_key_fields: Vec<&str> = model
        .pk
        .fields()
        .chain(model.sk.fields())
        .map(|field| field.name.as_str())
        .collect();
    model
        .stored_fields()
        .map(|Stored { field, attribute }| {
            let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
            let ty = field.key_type();
            let (kind, what) = if primary_key_fields.contains(&field.name.as_str()) {
                (quote!(#krate::PrimaryKeyField), "a primary-key field: conditions only, no update")
            } else if field.option_inner.is_some() {
                (quote!(#krate::Optional), "optional: an update may set or remove it")
            } else {
                (quote!(#krate::Required), "an update may set it")
            };
            let doc = format!("The `{attribute}` attribute of `{ident}`, for conditions, filters and updates ({what}).");
            let encoder = encoder(model, field);
            quote! {
                #[doc = #doc]
                pub const #constant: #krate::Attribute<Self, #ty, #kind> = #krate::Attribute::with_encoder(#attribute, #encoder);
            }
        })
        .collect()
}

/// The match arms of `key_attribute_from_values`: each GSI and LSI key
/// attribute built from the stored values of its fields.
pub fn from_values_arms(model: &Model) -> Vec<TokenStream> {
    let mut arms = Vec::new();
    for key in index_template_keys(model) {
        arms.push(from_values_arm(model, key.key, key.attribute, key.place));
    }
    arms
}

fn from_values_arm(model: &Model, key: &Key, attribute: &str, place: TemplatePlace) -> TokenStream {
    let krate = model.krate;
    let fields = distinct_fields(&[key]);
    if let Some(unstored) = fields.iter().find(|field| field.serialized.is_none()) {
        let field = &unstored.name;
        return quote! {
            #attribute => ::core::result::Result::Err(#krate::Error::Refused(#krate::Refusal::InvalidUpdate {
                entity: __schema.type_name,
                reason: #krate::UpdateReason::UnstoredKeyField {
                    attribute: #attribute,
                    field: #field,
                },
            })),
        };
    }
    let bindings = fields.iter().map(|field| {
        let ident = field.ident;
        let ty = field.key_type();
        let stored = field
            .serialized
            .clone()
            .unwrap_or_else(|| field.name.clone());
        let decoded = decode_call(model, field, &stored);
        if field.option_inner.is_some() {
            quote! {
                let ::core::option::Option::Some(ref #ident) = #decoded? else {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                };
            }
        } else {
            quote!(let #ident: &#ty = &#decoded?;)
        }
    });
    let (at, args) = (place.at(), key_args(&key.segments));
    // A sharded index: the shard follows from the primary key, which the
    // update knows.
    let shard = key.shards().map(|count| {
        let (pk, sk) = (
            &model.container.pk_attribute.value,
            &model.container.sk_attribute.value,
        );
        quote! {
            let __shard = __stamp::shard_from_values(__schema, __values, (#pk, #sk), #count)?;
        }
    });
    quote! {
        #attribute => {
            #shard
            #(#bindings)*
            __stamp::key_from_values(__schema, #at, #args)
        }
    }
}
