//! Collects the errors of one derive so they are reported together.

use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The errors found so far.
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// Records an error spanning `tokens`.
    pub fn error_spanned_by(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records a `syn` error as it is.
    pub fn syn_error(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// `Ok` without errors, otherwise every error as `compile_error!`s.
    pub fn check(self) -> Result<(), TokenStream> {
        self.into_result().map_err(|error| error.to_compile_error())
    }

    /// `Ok` without errors, otherwise every error combined into one.
    pub fn into_result(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut combined) => {
                for error in errors {
                    combined.combine(error);
                }
                Err(combined)
            }
        }
    }
}
