//! Typed attribute constants (`Order::STATUS`) for conditions, filters and
//! updates.

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::{Model, Stored};
use crate::expand::codecs::encoder;
use crate::names;

/// One `pub const FIELD: Attribute<Self, T, Kind>` per stored field.
pub fn attribute_constants(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    let ident = model.ident;
    let primary_key_fields: Vec<&str> = model
        .pk
        .fields()
        .chain(model.sk.fields())
        .map(|field| field.name.as_str())
        .collect();
    model
        .stored_fields()
        .map(|Stored { field, attribute }| {
            let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
            let ty = field.key_type();
            let (kind, what) = if primary_key_fields.contains(&field.name.as_str()) {
                (quote!(#krate::PrimaryKeyField), "a primary-key field: conditions only, no update")
            } else if field.option_inner.is_some() {
                (quote!(#krate::Optional), "optional: an update may set or remove it")
            } else {
                (quote!(#krate::Required), "an update may set it")
            };
            let doc = format!("The `{attribute}` attribute of `{ident}`, for conditions, filters and updates ({what}).");
            let encoder = encoder(model, field);
            quote! {
                #[doc = #doc]
                pub const #constant: #krate::Attribute<Self, #ty, #kind> = #krate::Attribute::with_encoder(#attribute, #encoder);
            }
        })
        .collect()
}
