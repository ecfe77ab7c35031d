//! `#[derive(KeyPart)]` for unit-only enums and newtypes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// Options read from `#[stamp(…)]` and `#[serde(…)]` on the type.
struct Options {
    krate: syn::Path,
    stamp_rename_all: Option<RenameRule>,
    serde_rename_all: Option<RenameRule>,
}

fn read_rename(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(meta.value()?.parse::<LitStr>()?.value()));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            found = Some(inner.value()?.parse::<LitStr>()?.value());
        } else if inner.input.peek(syn::Token![=]) {
            inner.value()?.parse::<syn::Expr>()?;
        }
        Ok(())
    })?;
    Ok(found)
}

fn skip(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip(&inner))?;
    }
    Ok(())
}

/// The derive's entry point.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    let mut options = Options {
        krate: syn::parse_quote!(::stamp),
        stamp_rename_all: None,
        serde_rename_all: None,
    };
    for attribute in &input.attrs {
        if attribute.path().is_ident("stamp") {
            let result = attribute.parse_nested_meta(|meta| {
                if meta.path.is_ident("crate") {
                    options.krate = meta.value()?.parse::<LitStr>()?.parse()?;
                } else if meta.path.is_ident("rename_all") {
                    let literal = meta.value()?.parse::<LitStr>()?;
                    options.stamp_rename_all = Some(RenameRule::from_name(&literal.value()).ok_or_else(|| {
                        syn::Error::new(
                            literal.span(),
                            format!("unknown rename rule `{}`; rules are: {}", literal.value(), RenameRule::NAMES),
                        )
                    })?);
                } else {
                    let option = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
                    return Err(meta.error(format!(
                        "unknown option `{option}` in `#[stamp(…)]` of `{ident}` for `#[derive(KeyPart)]`; options are: crate, rename_all"
                    )));
                }
                Ok(())
            });
            if let Err(error) = result {
                cx.syn_error(error);
            }
        } else if attribute.path().is_ident("serde") {
            let _ = attribute.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename_all") {
                    options.serde_rename_all =
                        read_rename(&meta)?.and_then(|rule| RenameRule::from_name(&rule));
                } else {
                    skip(&meta)?;
                }
                Ok(())
            });
        }
    }
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(KeyPart)]` does not support generic parameters on `{ident}`"),
        );
    }
    let body = match &input.data {
        Data::Enum(data) => enum_body(&mut cx, input, data, &options),
        Data::Struct(data) => match &data.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                let inner = &fields.unnamed[0].ty;
                let krate = &options.krate;
                Some(quote! {
                    const LEN_HINT: usize = <#inner as #krate::KeyPart>::LEN_HINT;

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
    options: &Options,
) -> Option<TokenStream> {
    let ident = &input.ident;
    if data.variants.is_empty() {
        cx.error_spanned_by(
            ident,
            format!("`#[derive(KeyPart)]` needs at least one variant in `{ident}`"),
        );
        return None;
    }
    let rule = options.stamp_rename_all.or(options.serde_rename_all);
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
        let mut stamp_name = None;
        let mut serde_name = None;
        for attribute in &variant.attrs {
            if attribute.path().is_ident("stamp") {
                let result = attribute.parse_nested_meta(|meta| {
                    if meta.path.is_ident("rename") {
                        stamp_name = Some(meta.value()?.parse::<LitStr>()?.value());
                        Ok(())
                    } else {
                        let option = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
                        Err(meta.error(format!(
                            "unknown option `{option}` in `#[stamp(…)]` of variant `{}`; options are: rename",
                            variant.ident
                        )))
                    }
                });
                if let Err(error) = result {
                    cx.syn_error(error);
                }
            } else if attribute.path().is_ident("serde") {
                let _ = attribute.parse_nested_meta(|meta| {
                    if meta.path.is_ident("rename") {
                        serde_name = read_rename(&meta)?;
                    } else {
                        skip(&meta)?;
                    }
                    Ok(())
                });
            }
        }
        let variant_name = variant.ident.to_string();
        let name = stamp_name.or(serde_name).unwrap_or_else(|| {
            rule.map_or_else(
                || variant_name.clone(),
                |rule| rule.apply_to_variant(&variant_name),
            )
        });
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
