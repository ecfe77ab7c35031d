//! How [`Stubs`] collects each stub: a function with the real parameters
//! wherever the placeholders name fields, the sort-key prefix and run impls,
//! and the `parse_…` stubs.

use super::*;

impl<'a> Stubs<'a> {
    /// The fields named by `names`, when each names one and none is named
    /// twice (both errors of their own).
    fn fields(&self, names: &[String]) -> Option<Vec<&'a Field<'a>>> {
        if distinct(&[names]).len() != names.len() {
            return None;
        }
        names
            .iter()
            .map(|name| self.container.field(name))
            .collect()
    }

    /// `fn function(…) -> output` with the real parameters over `names`
    /// (positional, or the named input struct `input`, which is defined
    /// once), and `extra` after them; one `impl Sized` parameter a name
    /// when a name is no field (the error already reported).
    pub(super) fn function(
        &mut self,
        function: &str,
        names: &[String],
        input: &str,
        extra: Option<TokenStream>,
        output: TokenStream,
    ) {
        let function = format_ident!("{function}");
        let parameters = match self.fields(names) {
            Some(fields) => {
                let inputs = key_inputs(
                    self.container,
                    &fields,
                    input_name_of(self.container.ident, input),
                    "the key",
                );
                if let Some(definition) = inputs.definition {
                    let text = definition.to_string();
                    if !self.implemented.contains(&text) {
                        self.implemented.push(text);
                        self.definitions.push(definition);
                    }
                }
                inputs.parameters
            }
            None => names
                .iter()
                .map(|_| quote!(_: impl ::core::marker::Sized))
                .collect(),
        };
        let parameters = parameters.iter().chain(extra.as_ref());
        self.functions.push(quote! {
            pub fn #function(#(#parameters),*) -> #output {
                ::core::unreachable!()
            }
        });
    }

    /// `impl SortKeyPrefix<Self, index>` for each leading run of the
    /// sort-key fields that all name fields.
    pub(super) fn sort_key_prefixes(
        &mut self,
        krate: &syn::Path,
        names: &[String],
        index: IndexRef,
    ) {
        let ident = self.container.ident;
        let marker = index.marker(krate);
        for count in 1..=names.len() {
            let Some(fields) = self.fields(&names[..count]) else {
                return;
            };
            let types: Vec<TokenStream> = fields.iter().map(|field| run_type(field)).collect();
            let self_type = if count == 1 {
                types[0].clone()
            } else {
                quote!((#(#types),*))
            };
            let key = format!("prefix {index:?} {self_type}");
            if self.implemented.contains(&key) {
                continue;
            }
            self.implemented.push(key);
            self.impls.push(quote! {
                #[automatically_derived]
                impl<'__a> #krate::SortKeyPrefix<#ident, #marker> for #self_type {
                    fn sort_key_prefix(&self) -> ::core::result::Result<#krate::SortKeyText, #krate::Error> {
                        ::core::unreachable!()
                    }
                }
            });
        }
    }

    /// `impl SortAttributes<Self, index>` for each leading run of a
    /// multi-attribute index's sort-key fields, the empty run included.
    pub(super) fn sort_attributes(&mut self, krate: &syn::Path, names: &[String], index: IndexRef) {
        let ident = self.container.ident;
        let marker = index.marker(krate);
        let Some(fields) = self.fields(names) else {
            return;
        };
        if fields.is_empty() {
            return;
        }
        for count in 0..=fields.len() {
            let types: Vec<TokenStream> = fields[..count]
                .iter()
                .map(|field| run_type(field))
                .collect();
            let generics = (count > 0).then(|| quote!(<'__a>));
            let next = match fields.get(count) {
                Some(field) if field.is_string() => quote!(str),
                Some(field) => {
                    let ty = field.key_type();
                    quote!(#ty)
                }
                None => quote!(#krate::NoSortAttributeLeft),
            };
            self.impls.push(quote! {
                #[automatically_derived]
                impl #generics #krate::SortAttributes<#ident, #marker> for (#(#types,)*) {
                    type Next = #next;

                    fn values(&self) -> ::core::result::Result<::std::vec::Vec<#krate::__private::AttributeValue>, #krate::Error> {
                        ::core::unreachable!()
                    }

                    fn next_value(_: &Self::Next) -> ::core::result::Result<#krate::__private::AttributeValue, #krate::Error> {
                        ::core::unreachable!()
                    }
                }
            });
        }
    }
}

/// A field's type in a run of sort-key values: `&'__a str` or `&'__a T`.
fn run_type(field: &Field) -> TokenStream {
    if field.is_string() {
        quote!(&'__a str)
    } else {
        let ty = field.key_type();
        quote!(&'__a #ty)
    }
}

/// `fn name(key: &str) -> Result<(field types…), Error>`; a placeholder
/// that names no field is `()`.
pub(super) fn parse_stub(
    krate: &syn::Path,
    container: &Container,
    function: &str,
    names: &[String],
) -> TokenStream {
    let function = format_ident!("{function}");
    let types = names.iter().map(|name| match container.field(name) {
        Some(field) => {
            let ty = field.key_type();
            quote!(#ty)
        }
        None => quote!(()),
    });
    quote! {
        pub fn #function(_: &str) -> ::core::result::Result<(#(#types,)*), #krate::Error> {
            ::core::unreachable!()
        }
    }
}
