//! `Entity::SCHEMA`: the static description of the entity (key templates,
//! indexes, stored fields, special attributes, previous key format).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{Key, Model, Segment, Stored};
use crate::expand::codecs::decode_call;
use crate::expand::keys::{index_template_keys, key_template_tokens, template_parts};
use crate::names;

/// `Some("name")` or `None`, for an optional attribute name.
fn optional_name(stored: Option<Stored>) -> TokenStream {
    match stored {
        Some(Stored { attribute, .. }) => quote!(::core::option::Option::Some(#attribute)),
        None => quote!(::core::option::Option::None),
    }
}

/// The `key_fields` table of `SCHEMA`: every field a current key template
/// names, once, with `KeyPart::example` of its type (the catalogue) and,
/// for a field a secondary index's template names, a reader of its stored
/// value (`Entity::key_attribute_from_values`, in stamp-core). Each example
/// is spanned at the field's type, so that a type without `KeyPart` gets
/// the one error the key builders already give.
fn key_fields(model: &Model) -> TokenStream {
    let index_keys: Vec<&Key> = index_template_keys(model)
        .into_iter()
        .map(|key| key.key)
        .collect();
    let in_index = |name: &str| {
        index_keys
            .iter()
            .any(|key| key.fields().any(|field| field.name == name))
    };
    let keys: Vec<&Key> = [&model.pk, &model.sk]
        .into_iter()
        .chain(index_keys.iter().copied())
        .collect();
    let mut fields: Vec<&Field> = Vec::new();
    for key in keys {
        for segment in &key.segments {
            if let Segment::Field(field) = segment
                && !fields.iter().any(|known| known.name == field.name)
            {
                fields.push(field);
            }
        }
    }
    let entries = fields.iter().map(|field| {
        let name = &field.name;
        let ty = field.key_type();
        let example = quote_spanned!(ty.span()=> <#ty as __stamp::KeyPart>::__stamp_example);
        match &field.serialized {
            Some(stored) if in_index(name) => {
                let decoded = decode_call(model, field, stored);
                let part = if field.option_inner.is_some() {
                    quote!(__stamp::known_optional_part)
                } else {
                    quote!(__stamp::known_part)
                };
                quote!(__stamp::KeyField::known(#name, #example, |__schema, __values| #part(#decoded)))
            }
            _ => quote!(__stamp::KeyField::new(#name, #example)),
        }
    });
    quote!(&[#(#entries),*])
}

/// The `&EntitySchema` expression of `SCHEMA`.
pub fn schema(model: &Model) -> TokenStream {
    let krate = model.krate;
    let container = model.container;
    let type_name = &container.type_name;
    let type_attribute = &container.type_attribute.value;
    let pk_attribute = &container.pk_attribute.value;
    let sk_attribute = &container.sk_attribute.value;
    let pk_template = template_parts(&model.pk);
    let sk_template = template_parts(&model.sk);
    let index_schemas = model.indexes.iter().map(|index| {
        let number = index.number;
        let name = &index.index.name;
        let index_pk = &index.index.pk_attribute.value;
        let index_pk_template = template_parts(&index.pk);
        let sort_key = match &index.sk {
            Some(key) => {
                let index_sk = &index.index.sk_attribute.value;
                let index_sk_template = template_parts(key);
                quote!(::core::option::Option::Some(__stamp::key_attribute(#index_sk, #index_sk_template)))
            }
            None => quote!(::core::option::Option::None),
        };
        let read_method = names::query_gsi(number);
        let shards = index.pk.shards().unwrap_or(0);
        quote! {
            __stamp::gsi(
                #number,
                #name,
                #read_method,
                #shards,
                __stamp::key_attribute(#index_pk, #index_pk_template),
                #sort_key,
            )
        }
    });
    let local_index_schemas = model.local_indexes.iter().map(|index| {
        let number = index.number;
        let name = &index.index.name;
        let sk_attribute = &index.index.sk_attribute.value;
        let pk_template = &pk_template;
        let template = template_parts(&index.sk);
        // An LSI's partition key is the table's.
        let read_method = names::query_lsi(number);
        quote! {
            __stamp::lsi(
                #number,
                #name,
                #read_method,
                __stamp::key_attribute(#pk_attribute, #pk_template),
                __stamp::key_attribute(#sk_attribute, #template),
            )
        }
    });
    let serialized = model.stored_fields().map(|stored| stored.attribute);
    let field_attributes = model.stored_fields().map(|Stored { field, attribute }| {
        let name = &field.name;
        let optional = field.option_inner.is_some();
        let stored_type = field.stored_type().unwrap_or_default();
        quote!(__stamp::field_attribute(#name, #attribute, #optional, #stored_type))
    });
    let ttl_attribute = optional_name(model.ttl);
    let version_attribute = optional_name(model.version);
    let created_at_attribute = optional_name(model.created_at);
    let updated_at_attribute = optional_name(model.updated_at);
    let write_once_attributes = model.write_once.iter().map(|stored| stored.attribute);
    let unique_values = model.unique.iter().map(|fields| {
        let names = fields.iter().map(|stored| &stored.field.name);
        let attributes = fields.iter().map(|stored| stored.attribute);
        quote!(#krate::UniqueValue { fields: &[#(#names),*], attributes: &[#(#attributes),*] })
    });
    let key_fields = key_fields(model);
    let named_inputs = named_inputs(model).into_iter().map(|(function, input)| {
        let input = input.to_string();
        quote!((#function, #input))
    });
    let multi_attribute_indexes = crate::expand::multi::schema_tokens(model);
    let vector_indexes = crate::expand::vector::schema_tokens(model);
    let previous_key = match &model.previous {
        Some((pk, sk)) => {
            let pk_template = key_template_tokens(pk);
            let sk_template = key_template_tokens(sk);
            quote! {
                ::core::option::Option::Some(#krate::PreviousKeyFormat {
                    partition_key: #pk_template,
                    sort_key: #sk_template,
                })
            }
        }
        None => quote!(::core::option::Option::None),
    };
    // Only what differs from `__private::SCHEMA` (no index, no special
    // attribute, …) is written out.
    let mut optional = Vec::new();
    let mut give = |name: &str, value: TokenStream, default: bool| {
        if !default {
            let name = syn::Ident::new(name, proc_macro2::Span::call_site());
            optional.push(quote!(#name: #value,));
        }
    };
    let indexes: Vec<TokenStream> = index_schemas
        .chain(multi_attribute_indexes)
        .chain(local_index_schemas)
        .chain(vector_indexes)
        .collect();
    give("indexes", quote!(&[#(#indexes),*]), indexes.is_empty());
    give("ttl_attribute", ttl_attribute, model.ttl.is_none());
    give(
        "version_attribute",
        version_attribute,
        model.version.is_none(),
    );
    give(
        "created_at_attribute",
        created_at_attribute,
        model.created_at.is_none(),
    );
    give(
        "updated_at_attribute",
        updated_at_attribute,
        model.updated_at.is_none(),
    );
    let write_once_attributes: Vec<_> = write_once_attributes.collect();
    give(
        "write_once_attributes",
        quote!(&[#(#write_once_attributes),*]),
        write_once_attributes.is_empty(),
    );
    let unique_values: Vec<_> = unique_values.collect();
    give(
        "unique_values",
        quote!(&[#(#unique_values),*]),
        unique_values.is_empty(),
    );
    give("previous_key", previous_key, model.previous.is_none());
    let named_inputs: Vec<_> = named_inputs.collect();
    give(
        "named_inputs",
        quote!(&[#(#named_inputs),*]),
        named_inputs.is_empty(),
    );
    quote! {
        &#krate::EntitySchema {
            type_name: #type_name,
            type_attribute: #type_attribute,
            partition_key: __stamp::key_attribute(#pk_attribute, #pk_template),
            sort_key: __stamp::key_attribute(#sk_attribute, #sk_template),
            fields: &[#(#serialized),*],
            field_attributes: &[#(#field_attributes),*],
            key_fields: #key_fields,
            #(#optional)*
            ..__stamp::SCHEMA
        }
    }
}

/// The key functions that take a named input struct, and its name.
fn named_inputs(model: &Model) -> Vec<(String, syn::Ident)> {
    use crate::check::distinct_fields;
    use crate::expand::keys::{ambiguous, input_name};
    let mut named = Vec::new();
    let mut add = |function: String, fields: &[&crate::ast::Field], suffix: &str| {
        if ambiguous(fields) {
            named.push((function, input_name(model, suffix)));
        }
    };
    let primary = distinct_fields(&[&model.pk, &model.sk]);
    add(names::KEY.to_owned(), &primary, names::KEY_INPUT);
    add(names::UPDATE.to_owned(), &primary, names::KEY_INPUT);
    add(names::UPSERT.to_owned(), &primary, names::KEY_INPUT);
    add(
        names::QUERY.to_owned(),
        &distinct_fields(&[&model.pk]),
        names::PARTITION_INPUT,
    );
    for index in &model.indexes {
        let number = index.number;
        add(
            names::query_gsi(number),
            &distinct_fields(&[&index.pk]),
            &names::gsi_partition_input(number),
        );
        let keys: Vec<&crate::check::Key> = std::iter::once(&index.pk).chain(&index.sk).collect();
        add(
            names::gsi_key(number),
            &distinct_fields(&keys),
            &names::gsi_key_input(number),
        );
    }
    for index in &model.local_indexes {
        add(
            names::query_lsi(index.number),
            &distinct_fields(&[&model.pk]),
            names::PARTITION_INPUT,
        );
    }
    if let Some((pk, sk)) = &model.previous {
        add(
            names::PREVIOUS_KEY.to_owned(),
            &distinct_fields(&[pk, sk]),
            names::PREVIOUS_KEY_INPUT,
        );
    }
    named.extend(crate::expand::multi::named_inputs(model));
    named
}
