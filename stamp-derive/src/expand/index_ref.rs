//! The index a generated query function or impl is for, and its marker
//! type in the runtime (`BaseTable`, `Gsi<N>`, `Lsi<N>`, `Vector<N>`): the one place
//! the derive spells an index as a type.

use proc_macro2::TokenStream;
use quote::quote;

/// The table, GSI N, LSI N or vector index N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexRef {
    Table,
    Gsi(u8),
    Lsi(u8),
    Vector(u8),
}

impl IndexRef {
    /// Its marker type: `stamp::BaseTable`, `stamp::Gsi<N>`, `stamp::Lsi<N>`,
    /// `stamp::Vector<N>`.
    pub fn marker(self, krate: &syn::Path) -> TokenStream {
        match self {
            IndexRef::Table => quote!(#krate::BaseTable),
            IndexRef::Gsi(number) => quote!(#krate::Gsi<#number>),
            IndexRef::Lsi(number) => quote!(#krate::Lsi<#number>),
            IndexRef::Vector(number) => quote!(#krate::Vector<#number>),
        }
    }
}
