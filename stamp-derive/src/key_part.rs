//! `#[derive(KeyPart)]` for unit-only enums and newtypes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::ast::options::{self, Derive, TypeOptions, read_type_options};
use crate::ctxt::Ctxt;

/// The derive's entry point.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    let mut options = read_type_options(&mut cx, input, Derive::KeyPart);
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(KeyPart)]` does not support generic parameters on `{ident}`"),
        );
    }
    let body = match &input.data {
        Data::Enum(data) => enum_body(&mut cx, input, data, &mut options),
        Data::Struct(data) => match &data.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                let inner = &fields.unnamed[0].ty;
                let krate = &options.krate;
                Some(quote! {
                    const LEN_HINT: usize = <#inner as #krate::KeyPart>::LEN_HINT;
                    const NEEDS_ESCAPING: bool = <#inner as #krate::KeyPart>::NEEDS_ESCAPING;

                    fn encode_key(&self, out: &mut ::std::string::String) -> ::core::result::Result<(), #krate::KeyPartError> {
                        <#inner as #krate::KeyPart>::encode_key(&self.0, out)
                    }

                    fn decode_key(encoded: &str) -> ::core::result::Result<Self, #krate::KeyPartError> {
                        <#inner as #krate::KeyPart>::decode_key(encoded).map(Self)
                    }

                    fn example(field: &str) -> ::core::option::Option<Self> {
                        <#inner as #krate::KeyPart>::example(field).map(Self)
                    }
                })
            }
            _ => {
                cx.error_spanned_by(
                    ident,
                    format!(
                        "`#[derive(KeyPart)]` needs a unit-only enum or a newtype such as `struct Sku(String);`, and `{ident}` is neither"
                    ),
                );
                None
            }
        },
        Data::Union(_) => {
            cx.error_spanned_by(
                ident,
                format!("`#[derive(KeyPart)]` needs a unit-only enum or a newtype, and `{ident}` is a union"),
            );
            None
        }
    };
    if let Err(errors) = cx.check() {
        return errors;
    }
    let body = body.expect("no errors means a body");
    let krate = &options.krate;
    // A unit-only enum is stored by serde as its variant name, a String, so
    // it can be an attribute of a multi-attribute GSI key (sorting by name).
    let index_key = matches!(input.data, Data::Enum(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #krate::IndexKeyAttribute for #ident {
                const TYPE: #krate::KeyAttributeType = #krate::KeyAttributeType::S;

                fn to_key_attribute(&self) -> ::core::result::Result<#krate::__private::AttributeValue, #krate::__private::serde_dynamo::Error> {
                    #krate::__private::key_part_attribute(self)
                }
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::KeyPart for #ident {
                #body
            }

            #index_key
        };
    }
}

fn enum_body(
    cx: &mut Ctxt,
    input: &DeriveInput,
    data: &syn::DataEnum,
    options: &mut TypeOptions,
) -> Option<TokenStream> {
    let ident = &input.ident;
    if data.variants.is_empty() {
        cx.error_spanned_by(
            ident,
            format!("`#[derive(KeyPart)]` needs at least one variant in `{ident}`"),
        );
        return None;
    }
    let rule = options.rename_rule();
    let mut names: Vec<(syn::Ident, String)> = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_spanned_by(
                &variant.ident,
                format!(
                    "variant `{}` of `{ident}` carries data, but `#[derive(KeyPart)]` on an enum needs unit variants only",
                    variant.ident
                ),
            );
            continue;
        }
        let variant_name = variant.ident.to_string();
        let default = rule.map_or_else(
            || variant_name.clone(),
            |rule| rule.apply_to_variant(&variant_name),
        );
        let name = options::variant_name(cx, variant, default);
        if name.is_empty() {
            cx.error_spanned_by(&variant.ident, format!("variant `{variant_name}` of `{ident}` is renamed to the empty string, which cannot be in a key"));
        }
        if let Some((other, _)) = names.iter().find(|(_, known)| *known == name) {
            cx.error_spanned_by(
                &variant.ident,
                format!("variants `{other}` and `{variant_name}` of `{ident}` both encode as `{name}`: rename one"),
            );
        }
        names.push((variant.ident.clone(), name));
    }
    let krate = &options.krate;
    let longest = names.iter().map(|(_, name)| name.len()).max().unwrap_or(0);
    // Whether a name holds a character the derive's templates escape (U+0000
    // to `%`, `KeyTemplate::ESCAPED`): only then does the key builder check.
    let needs_escaping = names.iter().any(|(_, name)| name.chars().any(|c| c <= '%'));
    let encode = names
        .iter()
        .map(|(variant, name)| quote!(Self::#variant => #name));
    let decode = names
        .iter()
        .map(|(variant, name)| quote!(#name => ::core::result::Result::Ok(Self::#variant)));
    let expected = format!(
        "a `{ident}`: one of {}",
        names
            .iter()
            .map(|(_, name)| name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let example = names.first().map(|(variant, _)| {
        quote! {
            fn example(_field: &str) -> ::core::option::Option<Self> {
                ::core::option::Option::Some(Self::#variant)
            }
        }
    });
    Some(quote! {
        const LEN_HINT: usize = #longest;
        const NEEDS_ESCAPING: bool = #needs_escaping;

        #example

        fn encode_key(&self, out: &mut ::std::string::String) -> ::core::result::Result<(), #krate::KeyPartError> {
            out.push_str(match self { #(#encode,)* });
            ::core::result::Result::Ok(())
        }

        fn decode_key(encoded: &str) -> ::core::result::Result<Self, #krate::KeyPartError> {
            match encoded {
                #(#decode,)*
                _ => ::core::result::Result::Err(#krate::KeyPartError::invalid(#expected, encoded)),
            }
        }
    })
}
