//! The direct item conversion of `encode_item_at` and `from_item`: each field
//! straight to and from its attribute (`stamp::AttributeCodec` for the
//! common types, serde_dynamo for the others, chosen by the compiler per
//! field type: `__private::codec`), with no pass through the struct's
//! `Serialize`/`Deserialize`. Used when the serde attributes keep the
//! struct a plain map of its fields; otherwise the whole struct goes
//! through serde as before (`__private::serialize_fields`,
//! `deserialize_fields`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{Model, Stored};
use crate::names;

/// The name of the generated serializer of a field with a custom serde
/// serializer (`with`, `serialize_with`): its whole value (not the key
/// type) to the attribute `to_item` stores, empty sets kept.
pub fn serializer_name(field: &Field) -> Ident {
    names::field_serializer(&field.name)
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
    let index_keys = model
        .stored_fields()
        .filter(|stored| model.is_index_key_field(stored.field));
    if !direct_encode(model) {
        let index_keys = index_keys.map(|stored| index_key_insert(model, &stored));
        // serde stores a byte string as a list and a time with the digits
        // it needs; binary fields are `B`, times in the form that sorts.
        let binaries = plain_fields(model).map(|Stored { field, attribute }| {
            let ident = field.ident;
            quote_spanned! {field.ty.span()=>
                (&&&__stamp::codec::Field(&self.#ident)).__stamp_store_own_form(__schema, &mut __item, #attribute)?;
            }
        });
        return quote! {
            let _ = __check;
            let mut __item = __stamp::codec::serialized_item(__stamp::serialize_fields(__schema, self)?);
            #(#binaries)*
            #(#index_keys)*
        };
    }
    let stored: Vec<Stored> = model
        .stored_fields()
        .filter(|stored| stored.field.ttl.is_none())
        .collect();
    let count = stored.len();
    let inserts = stored.iter().map(|stored| {
        if model.is_index_key_field(stored.field) {
            return index_key_insert(model, stored);
        }
        let Stored { field, attribute } = stored;
        let ident = field.ident;
        let serde = &field.serde;
        if serde.with.is_some() || serde.serialize_with.is_some() {
            let serializer = serializer_name(field);
            return quote! {
                __stamp::codec::insert_serialized(__schema, &mut __item, #attribute, #serializer(&self.#ident))?;
            };
        }
        let insert = quote_spanned! {field.ty.span()=>
            (&&&__stamp::codec::Field(&self.#ident)).__stamp_insert(__schema, &mut __item, #attribute)?;
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
        let mut __item = __stamp::codec::item(__schema, #count, __check);
        #(#inserts)*
    }
}

/// The stored fields without a serde codec of their own (whose stored
/// form Stamp chooses by type), the TTL excepted.
fn plain_fields<'a>(model: &'a Model<'a>) -> impl Iterator<Item = Stored<'a>> + 'a {
    model
        .stored_fields()
        .filter(|stored| stored.field.ttl.is_none() && stored.field.serde.custom_codec().is_none())
}

/// Stores a key attribute of a multi-attribute GSI through its encoder
/// (`IndexKeyAttribute::to_key_attribute`), checked as a key value; a
/// `None` stores nothing.
fn index_key_insert(model: &Model, stored: &Stored) -> TokenStream {
    let Stored { field, attribute } = stored;
    let ident = field.ident;
    let encode = |value| crate::expand::codecs::encode_call(model, field, value);
    let (some, plain) = (encode(quote!(__value)), encode(quote!(&self.#ident)));
    if field.option_inner.is_some() {
        quote! {
            if let ::core::option::Option::Some(__value) = &self.#ident {
                __stamp::insert_index_key_encoded(__schema, &mut __item, #attribute, #some)?;
            }
        }
    } else {
        quote! {
            __stamp::insert_index_key_encoded(__schema, &mut __item, #attribute, #plain)?;
        }
    }
}

/// The body of `from_item` after the TTL is loaded: one pass over the
/// item's attributes, each moved by name into its field's slot (as
/// serde-derived code reads a map, so no attribute name is hashed), then
/// each field decoded once from its slot, in field order, an absent one as
/// serde reads a missing field (one decoder call per field keeps the
/// generated code, and its compile time, small); or the whole struct
/// through serde.
pub fn decode_fields(model: &Model) -> TokenStream {
    let krate = model.krate;
    if !direct_decode(model) {
        // A binary field's `B` in the form its own `Deserialize` reads.
        let binaries = plain_fields(model).map(|Stored { field, attribute }| {
            let ty = field.ty;
            quote_spanned! {ty.span()=>
                (&&&__stamp::codec::Decode::<#ty>::new()).__stamp_serde_form(&mut item, #attribute);
            }
        });
        return quote! {
            #(#binaries)*
            __stamp::deserialize_fields(<Self as #krate::Entity>::SCHEMA, item)
        };
    }
    let count = proc_macro2::Literal::usize_unsuffixed(model.stored_fields().count());
    let values = model.stored_fields().enumerate().map(|(slot, Stored { field, attribute })| {
        let slot = proc_macro2::Literal::usize_unsuffixed(slot);
        let ident = field.ident;
        let ty = field.ty;
        let decode = |stored: TokenStream| {
            quote_spanned! {ty.span()=>
                (&&&__stamp::codec::Decode::<#ty>::new()).__stamp_field(__schema, #attribute, #stored)?
            }
        };
        let default = match &field.serde.default {
            None => {
                let decoded = decode(quote!(__slots[#slot].take()));
                return quote!(#ident: #decoded,);
            }
            Some(None) => quote!(::core::default::Default::default()),
            Some(Some(path)) => {
                let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
                quote!(#path())
            }
        };
        let decoded = decode(quote!(::core::option::Option::Some(__stored)));
        quote! {
            #ident: match __slots[#slot].take() {
                ::core::option::Option::Some(__stored) => #decoded,
                ::core::option::Option::None => #default,
            },
        }
    });
    quote! {
        let __schema = <Self as #krate::Entity>::SCHEMA;
        let mut __slots = __stamp::codec::slots::<#count>(__schema, item)?;
        ::core::result::Result::Ok(Self {
            #(#values)*
        })
    }
}
