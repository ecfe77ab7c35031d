//! Key parsers: `parse_partition_key`, `parse_sort_key`,
//! `parse_gsiN_partition_key`/`_sort_key`, `parse_lsiN_sort_key` and
//! `parse_previous_…`, each
//! splitting a key value back into its fields.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::check::{Key, Model};
use crate::expand::keys::{TemplatePlace, index_template_keys};
use crate::names;

/// The parsers of the entity's current keys and, with
/// `#[stamp(previous(…))]`, those of its previous ones.
pub fn parse_functions(model: &Model) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let container = model.container;
    let pk_attribute = &container.pk_attribute.value;
    let sk_attribute = &container.sk_attribute.value;
    let mut functions = vec![
        parse_function(
            model,
            &model.pk,
            TemplatePlace::PartitionKey,
            names::PARSE_PARTITION_KEY,
            pk_attribute,
        ),
        parse_function(
            model,
            &model.sk,
            TemplatePlace::SortKey,
            names::PARSE_SORT_KEY,
            sk_attribute,
        ),
    ];
    for key in index_template_keys(model) {
        functions.push(parse_function(
            model,
            key.key,
            key.place,
            &names::parser(&key.name),
            key.attribute,
        ));
    }
    let mut previous = Vec::new();
    if let Some((pk, sk)) = &model.previous {
        previous.push(parse_function(
            model,
            pk,
            TemplatePlace::PreviousPartitionKey,
            names::PARSE_PREVIOUS_PARTITION_KEY,
            pk_attribute,
        ));
        previous.push(parse_function(
            model,
            sk,
            TemplatePlace::PreviousSortKey,
            names::PARSE_PREVIOUS_SORT_KEY,
            sk_attribute,
        ));
    }
    (functions, previous)
}

/// `parse_…` for one key attribute: splits a key value back into its fields.
fn parse_function(
    model: &Model,
    key: &Key,
    place: TemplatePlace,
    function: &str,
    attribute: &str,
) -> TokenStream {
    let krate = model.krate;
    let function: Ident = format_ident!("{function}");
    let at = place.at();
    let fields: Vec<_> = key.fields().collect();
    let types = fields.iter().map(|field| field.key_type());
    let decoded = fields.iter().enumerate().map(|(position, field)| {
        let ty = field.key_type();
        quote_spanned!(ty.span()=> <#ty as __stamp::KeyPart>::__stamp_parse(&__key, #position)?)
    });
    let names: Vec<&str> = fields.iter().map(|field| field.name.as_str()).collect();
    let doc = format!(
        "Parses a `{attribute}` value of `{}` into its fields ({}) by the template `{}`{}.",
        model.ident,
        if names.is_empty() {
            "none: the template is a constant".to_owned()
        } else {
            names.join(", ")
        },
        key.source(),
        crate::expand::keys::MORE,
    );
    let binding = if fields.is_empty() {
        quote!(let _ = )
    } else {
        quote!(let __key = )
    };
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #function(key: &str) -> ::core::result::Result<(#(#types,)*), #krate::Error> {
            #binding __stamp::parse_key::<Self>(#at, key)?;
            ::core::result::Result::Ok((#(#decoded,)*))
        }
    }
}
