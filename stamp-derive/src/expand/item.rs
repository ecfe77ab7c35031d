//! `impl Entity`: item conversion (`encode_item_at`, `from_item`, with TTL,
//! time stamps and index attributes), versions and the trait's key hooks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{IndexKeys, LocalIndexKeys, Model, Stored, distinct_fields};
use crate::expand::codecs::encode_call;
use crate::expand::keys::{
    TemplatePlace, build_key, index_key_function_name, input_name, pass_arguments, self_arguments,
};
use crate::expand::{direct, schema};
use crate::names;

/// The `impl Entity for …` block.
pub fn entity_impl(model: &Model) -> TokenStream {
    let krate = model.krate;
    let ident = model.ident;
    let container = model.container;
    let pk_attribute = &container.pk_attribute.value;
    let sk_attribute = &container.sk_attribute.value;
    let type_attribute = &container.type_attribute.value;
    let type_name = &container.type_name;
    let schema = schema::schema(model);
    let key_arguments = self_arguments(
        &distinct_fields(&[&model.pk, &model.sk]),
        &input_name(model, names::KEY_INPUT),
    );
    let (ttl_to_item, ttl_from_item) = time_to_live(model);
    let stamps = stamps(model);
    let index_attributes = model
        .indexes
        .iter()
        .map(|index| index_attributes(model, index));
    let local_index_attributes = model
        .local_indexes
        .iter()
        .enumerate()
        .map(|(position, index)| local_index_attributes(model, position, index));
    let vector_index_attributes = crate::expand::vector::to_item_statements(model);
    let shards = model.indexes.iter().filter_map(|index| {
        let count = index.pk.shards()?;
        let local = format_ident!("__shard_{}", index.number);
        Some(quote! {
            let #local = #krate::shard_of(&__partition_key, &__sort_key, #count);
        })
    });
    let version_function = model.version.map(|Stored { field, .. }| {
        let ident = field.ident;
        let ty = field.ty;
        quote_spanned! {ty.span()=>
            #[inline]
            fn version(&self) -> ::core::option::Option<u64> {
                ::core::option::Option::Some(<#ty as __stamp::VersionNumber>::as_u64(self.#ident))
            }

            #[inline]
            fn max_version() -> u64 {
                <#ty as __stamp::VersionNumber>::MAX
            }
        }
    });
    let previous_primary_key_function = model.previous.as_ref().map(|(pk, sk)| {
        let arguments = self_arguments(&distinct_fields(&[pk, sk]), &input_name(model, names::PREVIOUS_KEY_INPUT));
        quote! {
            #[inline]
            fn previous_primary_key(&self) -> ::core::result::Result<::core::option::Option<#krate::PrimaryKey<Self>>, #krate::Error> {
                Self::previous_key(#arguments).map(::core::option::Option::Some)
            }
        }
    });
    let time_stamp_function = time_stamp_function(model);
    let encode_fields = direct::encode_fields(model);
    let decode_fields = direct::decode_fields(model);
    quote! {
        #[automatically_derived]
        impl #krate::Entity for #ident {
            const SCHEMA: &'static #krate::EntitySchema = #schema;

            #[inline]
            fn primary_key(&self) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
                Self::key(#key_arguments)
            }

            #[inline]
            fn encode_item_at(
                &self,
                __time: ::core::option::Option<#krate::WriteTime>,
                __check: bool,
            ) -> ::core::result::Result<__stamp::ItemBuilder, #krate::Error> {
                let __schema = <Self as #krate::Entity>::SCHEMA;
                let (__partition_key, __sort_key) = <Self as #krate::Entity>::primary_key(self)?.into_parts();
                #(#shards)*
                #encode_fields
                let _ = &__time;
                #(#stamps)*
                __stamp::insert_key_string(&mut __item, #pk_attribute, __partition_key);
                __stamp::insert_key_string(&mut __item, #sk_attribute, __sort_key);
                #(#index_attributes)*
                #(#local_index_attributes)*
                #(#vector_index_attributes)*
                #ttl_to_item
                __stamp::insert_string(&mut __item, #type_attribute, ::std::string::String::from(#type_name));
                ::core::result::Result::Ok(__item)
            }

            #[inline]
            fn from_item(#[allow(unused_mut)] mut item: #krate::AttributeMap) -> ::core::result::Result<Self, #krate::Error> {
                #ttl_from_item
                #decode_fields
            }

            #version_function

            #previous_primary_key_function

            #time_stamp_function

        }
    }
}

/// The TTL statements of `encode_item_at` and `from_item`: a TTL is stored as a
/// Number of epoch seconds, not as serde writes the field.
fn time_to_live(model: &Model) -> (TokenStream, TokenStream) {
    let krate = model.krate;
    let Some(Stored { field, attribute }) = model.ttl else {
        return (quote!(), quote!());
    };
    let ident = field.ident;
    let ty = field.key_type();
    let value = if field.option_inner.is_some() {
        quote!(self.#ident.as_ref())
    } else {
        quote!(::core::option::Option::Some(&self.#ident))
    };
    (
        quote_spanned! {ty.span()=>
            __stamp::store_time_to_live(
                &mut __item,
                #attribute,
                #value,
                <#ty as #krate::TimeToLive>::epoch_seconds,
            );
        },
        quote_spanned! {ty.span()=>
            __stamp::load_time_to_live(
                <Self as #krate::Entity>::SCHEMA,
                &mut item,
                #attribute,
                <#ty as #krate::TimeToLive>::from_epoch_seconds,
            )?;
        },
    )
}

/// `encode_item_at` stamps the time fields, in the stored attribute and in the
/// index attributes built from them (the locals `__stamp_<field>`).
fn stamps(model: &Model) -> Vec<TokenStream> {
    [(model.created_at, true), (model.updated_at, false)]
        .into_iter()
        .filter_map(|(stored, creating_only)| {
            let Stored { field, attribute } = stored?;
            let ident = field.ident;
            let local = format_ident!("__stamp_{}", field.name);
            let ty = field.ty;
            let when = if creating_only {
                quote!(__time.filter(|__time| __time.creating))
            } else {
                quote!(__time)
            };
            let encode = encode_call(model, field, quote!(&__time.now));
            // A stamped key attribute of a multi-attribute index is checked
            // as one.
            let insert = if model.is_index_key_field(field) {
                quote!(insert_index_key_encoded)
            } else {
                quote!(insert_encoded)
            };
            Some(quote_spanned! {ty.span()=>
                let #local: #ty = match #when {
                    ::core::option::Option::Some(__time) => {
                        __stamp::#insert(__schema, &mut __item, #attribute, #encode)?;
                        __time.now
                    }
                    ::core::option::Option::None => ::core::clone::Clone::clone(&self.#ident),
                };
            })
        })
        .collect()
}

/// The statements of `encode_item_at` that write one index's attributes; for a
/// sparse index, only when every `Option` field is `Some`.
fn index_attributes(model: &Model, index: &IndexKeys) -> TokenStream {
    let keys: Vec<_> = std::iter::once(&index.pk).chain(&index.sk).collect();
    let fields = distinct_fields(&keys);
    let function = index_key_function_name(index);
    let pk_name = &index.index.pk_attribute.value;
    let sk_name = &index.index.sk_attribute.value;
    let values = fields.iter().map(|field| key_value(field));
    let arguments = pass_arguments(
        &fields,
        &input_name(model, &names::gsi_key_input(index.number)),
        values.collect(),
    );
    let shard = index.pk.shards().map(|_| {
        let local = format_ident!("__shard_{}", index.number);
        if arguments.is_empty() {
            quote!(#local)
        } else {
            quote!(, #local)
        }
    });
    let insert = quote! {
        __stamp::insert_index_key(&mut __item, (#pk_name, #sk_name), Self::#function(#arguments #shard)?.into_parts());
    };
    sparse(&fields, insert)
}

/// The value a key builder takes for `field` inside `encode_item_at`: the
/// `Some` of an `Option` (bound by [`sparse`]), the time stamped by this
/// write, or the field.
fn key_value(field: &Field) -> TokenStream {
    let ident = field.ident;
    if field.option_inner.is_some() {
        let local = format_ident!("__value_{}", field.name);
        quote!(#local)
    } else if field.created_at.is_some() || field.updated_at.is_some() {
        let local = format_ident!("__stamp_{}", field.name);
        quote!(&#local)
    } else {
        quote!(&self.#ident)
    }
}

/// `insert`, run only when every `Option` field of `fields` is `Some` (a
/// sparse index), with each bound to `__value_<field>`.
fn sparse(fields: &[&Field], insert: TokenStream) -> TokenStream {
    let optional: Vec<_> = fields
        .iter()
        .filter(|field| field.option_inner.is_some())
        .collect();
    if optional.is_empty() {
        return quote!({ #insert });
    }
    let locals = optional
        .iter()
        .map(|field| format_ident!("__value_{}", field.name));
    let idents = optional.iter().map(|field| field.ident);
    quote! {
        // A sparse index: its attributes are written only when every field is `Some`.
        if let (#(::core::option::Option::Some(#locals),)*) = (#(&self.#idents,)*) {
            #insert
        }
    }
}

/// The statements of `encode_item_at` that write one LSI's sort key; for a
/// sparse index, only when every `Option` field is `Some`.
fn local_index_attributes(model: &Model, position: usize, index: &LocalIndexKeys) -> TokenStream {
    let fields = distinct_fields(&[&index.sk]);
    let sk_name = &index.index.sk_attribute.value;
    let bindings = fields.iter().map(|field| {
        let ident = field.ident;
        let value = key_value(field);
        quote!(let #ident = #value;)
    });
    let build = build_key(
        model,
        &index.sk,
        &TemplatePlace::LocalSortKey(model.local_position(position)),
    );
    let insert = quote! {
        #(#bindings)*
        let __sort_key: ::std::string::String = #build?;
        __stamp::insert_key_string(&mut __item, #sk_name, __sort_key);
    };
    sparse(&fields, insert)
}

/// `Entity::time_stamp_value`: the stored form of `created_at`/`updated_at`
/// at a time, for updates; `None` when the entity stamps neither.
fn time_stamp_function(model: &Model) -> Option<TokenStream> {
    let krate = model.krate;
    let arms: Vec<TokenStream> = [model.created_at, model.updated_at]
        .into_iter()
        .flatten()
        .map(|Stored { field, attribute }| {
            let encode = encode_call(model, field, quote!(&__now));
            quote! {
                #attribute => #encode.map_err(|__source| #krate::Error::Refused(#krate::Refusal::Serialize {
                    entity: <Self as #krate::Entity>::SCHEMA.type_name,
                    source: __source,
                })),
            }
        })
        .collect();
    (!arms.is_empty()).then(|| {
        quote! {
            #[inline]
            fn time_stamp_value(
                __attribute: &str,
                __now: __stamp::chrono::DateTime<__stamp::chrono::Utc>,
            ) -> ::core::result::Result<::core::option::Option<__stamp::AttributeValue>, #krate::Error> {
                match __attribute {
                    #(#arms)*
                    _ => ::core::result::Result::Ok(::core::option::Option::None),
                }
            }
        }
    })
}
