//! The rules of `#[derive(Item)]` ([`rules`]), and the checked [`Model`]
//! that expansion reads ([`model`]).

mod model;
mod multi;
mod rules;
pub mod vector;

pub use model::{
    IndexKeys, Key, LocalIndexKeys, Model, MultiIndexKeys, Segment, Stored, distinct_fields,
};

use crate::ast::Container;
use crate::ctxt::Ctxt;

/// Applies every rule to `container`: its checked model, or the
/// errors of every rule it breaks, combined.
pub fn check<'a>(mut cx: Ctxt, container: &'a Container<'a>) -> Result<Model<'a>, syn::Error> {
    rules::check(&mut cx, container);
    multi::check(&mut cx, container);
    let vector_indexes = vector::check(&mut cx, container);
    let model = Model::new(container).map(|mut model| {
        model.vector_indexes = vector_indexes;
        model
    });
    cx.into_result()?;
    // A model is missing only where a rule failed, so this is not reached.
    model.ok_or_else(|| {
        syn::Error::new_spanned(
            container.ident,
            "internal error of `#[derive(Item)]`: a check passed but the model is incomplete; please report it",
        )
    })
}
