//! The direct item conversion of `to_item_at` and `from_item`: each field
//! straight to and from its attribute (`stamp::AttributeCodec` for the
//! common types, serde_dynamo for the others, chosen by the compiler per
//! field type: `__private::codec`), with no pass through the struct's
//! `Serialize`/`Deserialize`. Used when the serde attributes keep the
//! struct a plain map of its fields; otherwise the whole struct goes
//! through serde as before (`__private::serialize_fields`,
//! `deserialize_fields`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{Model, Stored};

/// The name of the generated serializer of a field with a custom serde
/// serializer (`with`, `serialize_with`): its whole value (not the key
/// type) to the attribute `to_item` stores, empty sets kept.
pub fn serializer_name(field: &Field) -> Ident {
    format_ident!("__stamp_serialize_{}", field.name)
}

/// Whether the fields can be written one by one: no flattened field, no
/// container attribute that reshapes the struct.
pub fn direct_encode(model: &Model) -> bool {
    model.container.serde_plain
        && model
            .container
            .fields
            .iter()
            .all(|field| !field.serde.whole_struct)
}

/// Whether the fields can be read one by one: as [`direct_encode`], and no
/// field attribute that the direct decoding does not model.
pub fn direct_decode(model: &Model) -> bool {
    direct_encode(model)
        && model
            .container
            .fields
            .iter()
            .all(|field| !field.serde.deserialize_whole && field.serialized.is_some())
}

/// The statements that build `__item` from the fields (the TTL is stored
/// later, as epoch seconds), or the whole-struct serialization.
pub fn encode_fields(model: &Model) -> TokenStream {
    let krate = model.krate;
    if !direct_encode(model) {
        return quote! {
            let mut __item = #krate::__private::serialize_fields(__schema, self)?;
        };
    }
    let stored: Vec<Stored> = model
        .stored_fields()
        .filter(|stored| stored.field.ttl.is_none())
        .collect();
    let count = stored.len();
    let inserts = stored.iter().map(|Stored { field, attribute }| {
        let ident = field.ident;
        let serde = &field.serde;
        if serde.with.is_some() || serde.serialize_with.is_some() {
            let serializer = serializer_name(field);
            return quote! {
                #krate::__private::codec::insert_serialized(__schema, &mut __item, #attribute, #serializer(&self.#ident))?;
            };
        }
        let insert = quote_spanned! {field.ty.span()=>
            #krate::__private::codec::insert(
                __schema,
                &mut __item,
                #attribute,
                (&&#krate::__private::codec::Field(&self.#ident)).__stamp_encode(),
            )?;
        };
        match &serde.skip_serializing_if {
            Some(path) => {
                let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                quote! {
                    if !#path(&self.#ident) {
                        #insert
                    }
                }
            }
            None => insert,
        }
    });
    quote! {
        let mut __item = #krate::__private::codec::item(__schema, #count);
        #(#inserts)*
    }
}

/// The body of `from_item` after the TTL is loaded: the fields read one by
/// one, or the whole struct through serde.
pub fn decode_fields(model: &Model) -> TokenStream {
    let krate = model.krate;
    if !direct_decode(model) {
        return quote! {
            #krate::__private::deserialize_fields(<Self as #krate::Entity>::SCHEMA, item)
        };
    }
    let fields = model.stored_fields().map(|Stored { field, attribute }| {
        let ident = field.ident;
        let ty = field.ty;
        let decode = quote_spanned! {ty.span()=>
            #krate::__private::codec::decoded(
                __schema,
                (&&#krate::__private::codec::Decode::<#ty>::new()).__stamp_decode(#attribute, __stored),
            )?
        };
        let default = match &field.serde.default {
            None => return quote!(#ident: { let __stored = item.remove(#attribute); #decode },),
            Some(None) => quote!(::core::default::Default::default()),
            Some(Some(path)) => {
                let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                quote!(#path())
            }
        };
        quote! {
            #ident: match item.remove(#attribute) {
                ::core::option::Option::None => #default,
                __stored => #decode,
            },
        }
    });
    quote! {
        let __schema = <Self as #krate::Entity>::SCHEMA;
        #krate::__private::codec::check_type(__schema, &item)?;
        ::core::result::Result::Ok(Self {
            #(#fields)*
        })
    }
}
