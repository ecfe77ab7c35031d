//! The codecs of the fields: one encoder per stored field (the attribute
//! value `to_item` stores for it), one decoder per field of a GSI template
//! (its stored value back), both through the field's own serde attributes.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{Key, Model, distinct_fields};
use crate::expand::direct;
use crate::expand::keys::index_template_keys;
use crate::names;

/// The encoders of every stored field, then the decoders of every stored
/// field of a GSI template.
pub fn codecs(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    let mut codecs: Vec<TokenStream> = model
        .stored_fields()
        .filter_map(|stored| {
            field_encoder(krate, stored.field, model.is_index_key_field(stored.field))
        })
        .collect();
    let index_keys: Vec<&Key> = index_template_keys(model)
        .into_iter()
        .map(|key| key.key)
        .collect();
    codecs.extend(
        distinct_fields(&index_keys)
            .into_iter()
            .filter(|field| field.serialized.is_some())
            .filter_map(|field| field_decoder(krate, field)),
    );
    codecs
}

/// The name of the generated encoder of `field`, when it has one of its
/// own (a TTL, a key attribute of a multi-attribute GSI, a field with a
/// serde serializer); any other field's encoder is the generic one,
/// chosen by type, in its attribute constant.
fn encoder_name(field: &Field) -> Ident {
    names::field_encoder(&field.name)
}

/// The name of the generated decoder of `field`.
fn decoder_name(field: &Field) -> Ident {
    names::field_decoder(&field.name)
}

/// Whether `field` is stored by the encoder Stamp chooses by its type
/// (`__private::codec`), with no function of its own.
fn generic_encoder(field: &Field, index_key: bool) -> bool {
    field.ttl.is_none() && !index_key && !field.serde.custom_serialize()
}

/// The encoder of `field` in its attribute constant: a closure over the
/// codec chosen by type, or the field's own function.
pub fn encoder(model: &Model, field: &Field) -> TokenStream {
    if generic_encoder(field, model.is_index_key_field(field)) {
        let ty = field.key_type();
        quote_spanned! {ty.span()=>
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored()
        }
    } else {
        let name = encoder_name(field);
        quote!(#name)
    }
}

/// A call of `field`'s encoder on `value` (a `&T` of its key type),
/// through its attribute constant: the stored form, `None` for none.
pub fn encode_call(model: &Model, field: &Field, value: TokenStream) -> TokenStream {
    let krate = model.krate;
    let entity = model.ident;
    let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
    quote!(#krate::Attribute::stored(&#entity::#constant, #value))
}

/// A call of the decoder of `field` (a field of an index template) on
/// attribute `stored` of `__values`: a `Result` of the field's type and
/// `stamp::Error`, given `__schema`.
pub fn decode_call(_model: &Model, field: &Field, stored: &str) -> TokenStream {
    let serde = &field.serde;
    if field.ttl.is_none() && serde.with.is_none() && serde.deserialize_with.is_none() {
        let ty = field.ty;
        quote_spanned! {ty.span()=>
            (&&&__stamp::codec::Decode::<#ty>::new()).__stamp_known(__schema, __values, #stored)
        }
    } else {
        let name = decoder_name(field);
        quote!(__stamp::codec::decoded(__schema, #name(__values.get(#stored))))
    }
}

/// `#[serde(crate = "…")]` for the wrapper structs of the codecs.
fn serde_crate(krate: &syn::Path) -> String {
    format!("{}::__private::serde", quote!(#krate))
}

/// The encoder of one serialized field: a value of its key type (`T` for
/// `Option<T>`) to the attribute value `to_item` stores for it, through the
/// field's own serde attributes (a one-field wrapper struct serialized the
/// way `to_item` serializes the entity), `None` when `to_item` stores no
/// attribute (an empty set, a skipped value). A TTL is epoch seconds; a
/// key attribute of a multi-attribute GSI (`index_key`) is its
/// `IndexKeyAttribute::to_key_attribute`, the form that sorts.
fn field_encoder(krate: &syn::Path, field: &Field, index_key: bool) -> Option<TokenStream> {
    if generic_encoder(field, index_key) {
        return None;
    }
    let name = encoder_name(field);
    let key_ty = field.key_type();
    let ty = field.ty;
    if field.ttl.is_some() {
        return Some(quote_spanned! {ty.span()=>
            #[allow(non_snake_case)]
            #[inline]
            fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
                ::core::result::Result::Ok(::core::option::Option::Some(__stamp::AttributeValue::N(
                    ::std::string::ToString::to_string(&<#key_ty as #krate::TimeToLive>::epoch_seconds(__value)),
                )))
            }
        });
    }
    if index_key {
        return Some(quote_spanned! {key_ty.span()=>
            #[allow(non_snake_case)]
            #[inline]
            fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
                <#key_ty as #krate::IndexKeyAttribute>::to_key_attribute(__value).map(::core::option::Option::Some)
            }
        });
    }
    let serde_path = serde_crate(krate);
    let serde = &field.serde;
    // Only `skip_serializing_if`: the value's own form (as `to_item`
    // stores it, through the codec chosen by type), or no attribute when
    // skipped.
    if serde.with.is_none()
        && serde.serialize_with.is_none()
        && let Some(skip) = &serde.skip_serializing_if
    {
        let skip: syn::Path = skip.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
        let whole = if field.option_inner.is_some() {
            quote_spanned! {key_ty.span()=>
                &::core::option::Option::Some(::core::clone::Clone::clone(__value))
            }
        } else {
            quote!(__value)
        };
        return Some(quote_spanned! {key_ty.span()=>
            #[allow(non_snake_case)]
            #[inline]
            fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
                if #skip(#whole) {
                    return ::core::result::Result::Ok(::core::option::Option::None);
                }
                (&&&__stamp::codec::Field(__value)).__stamp_stored()
            }
        });
    }
    let serialize = match (&serde.with, &serde.serialize_with) {
        (Some(with), _) => {
            let path: syn::Path = with.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
            Some(quote!(#path::serialize))
        }
        (None, Some(path)) => {
            let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
            Some(quote!(#path))
        }
        (None, None) => None,
    };
    let serialize_helper = serialize.map(|path| {
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
    // The wrapper holds the field's own type, so an `Option` field's value is
    // rebuilt as `Some` (a clone) for its serializer.
    let value = if field.option_inner.is_some() {
        quote_spanned! {key_ty.span()=>
            &::core::option::Option::Some(::core::clone::Clone::clone(__value))
        }
    } else {
        quote!(__value)
    };
    let serializer = direct::serializer_name(field);
    Some(quote! {
        /// The field's whole value as `to_item` stores it, through its serde attributes.
        #[allow(non_snake_case)]
        #[inline]
        fn #serializer(__value: &#ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
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
            __stamp::codec::serialized(&__Wrapper { v: __value })
        }

        #[allow(non_snake_case)]
        #[inline]
        fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, __stamp::serde_dynamo::Error> {
            ::core::result::Result::Ok(#serializer(#value)?.filter(|__value| !__stamp::codec::is_empty_set(__value)))
        }
    })
}

/// The decoder of one field used in a GSI template: its stored attribute
/// value (absent or `NULL` for none) back to the field's type, through the
/// field's own serde attributes; a TTL from epoch seconds.
fn field_decoder(krate: &syn::Path, field: &Field) -> Option<TokenStream> {
    let name = decoder_name(field);
    let ty = field.ty;
    if field.ttl.is_some() {
        let key_ty = field.key_type();
        let wrap = if field.option_inner.is_some() {
            quote!(::core::option::Option::Some(__value))
        } else {
            quote!(__value)
        };
        return Some(quote_spanned! {ty.span()=>
            #[allow(non_snake_case)]
            #[inline]
            fn #name(__stored: ::core::option::Option<&__stamp::AttributeValue>) -> ::core::result::Result<#ty, __stamp::serde_dynamo::Error> {
                let __value: #key_ty = __stamp::decode_time_to_live(__stored, <#key_ty as #krate::TimeToLive>::from_epoch_seconds)?;
                ::core::result::Result::Ok(#wrap)
            }
        });
    }
    let serde = &field.serde;
    if serde.with.is_none() && serde.deserialize_with.is_none() {
        return None;
    }
    let serde_path = serde_crate(krate);
    let with = serde
        .with
        .as_ref()
        .map(|with| quote!(#[serde(with = #with)]));
    let deserialize_with = serde
        .deserialize_with
        .as_ref()
        .filter(|_| serde.with.is_none())
        .map(|path| quote!(#[serde(deserialize_with = #path)]));
    let default = field
        .option_inner
        .is_some()
        .then(|| quote!(#[serde(default)]));
    Some(quote! {
        #[allow(non_snake_case)]
        #[inline]
        fn #name(__stored: ::core::option::Option<&__stamp::AttributeValue>) -> ::core::result::Result<#ty, __stamp::serde_dynamo::Error> {
            #[derive(__stamp::serde::Deserialize)]
            #[serde(crate = #serde_path)]
            struct __Wrapper {
                #[serde(rename = "v")]
                #with
                #deserialize_with
                #default
                v: #ty,
            }
            __stamp::decode_field(__stored).map(|__wrapper: __Wrapper| __wrapper.v)
        }
    })
}
