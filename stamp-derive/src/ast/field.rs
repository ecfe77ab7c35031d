//! Reads one field: its name, type, stored name and `#[stamp(…)]` options.

use syn::{GenericArgument, Ident, PathArguments, Type};

use crate::ast::attr::{self, Attr};
use crate::ast::{Field, serde};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// Reads a named field of `struct_name`.
pub fn read_field<'a>(
    cx: &mut Ctxt,
    struct_name: &Ident,
    ident: &'a Ident,
    field: &'a syn::Field,
    rename_all: Option<RenameRule>,
) -> Field<'a> {
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut ttl = Attr::none();
    let mut version = Attr::none();
    let mut created_at = Attr::none();
    let mut updated_at = Attr::none();
    let mut write_once = Attr::none();
    let mut unique = Attr::none();
    for attribute in field.attrs.iter().filter(|a| a.path().is_ident("stamp")) {
        let result = attribute.parse_nested_meta(|meta| {
            for (option, slot) in [
                ("ttl", &mut ttl),
                ("version", &mut version),
                ("created_at", &mut created_at),
                ("updated_at", &mut updated_at),
                ("write_once", &mut write_once),
                ("unique", &mut unique),
            ] {
                if meta.path.is_ident(option) {
                    slot.set(cx, &meta.path, meta.path.clone(), || {
                        format!("`{option}` is given twice in `#[stamp(…)]` on field `{name}` of `{struct_name}`: give it once")
                    });
                    return Ok(());
                }
            }
            let option = attr::option_name(&meta);
            Err(meta.error(format!(
                "unknown option `{option}` in `#[stamp(…)]` on field `{name}` of `{struct_name}`; field options are: ttl, version, created_at, updated_at, write_once, unique"
            )))
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    let default_name = rename_all.map_or_else(|| name.clone(), |rule| rule.apply_to_field(&name));
    let serde = serde::read_field(&field.attrs, default_name);
    Field {
        ident,
        name,
        ty: &field.ty,
        option_inner: option_inner(&field.ty),
        serialized: serde.serialized,
        ttl: ttl.get(),
        version: version.get(),
        created_at: created_at.get(),
        updated_at: updated_at.get(),
        write_once: write_once.get(),
        unique: unique.get(),
        serde: serde.serde,
    }
}

/// `T` when `ty` is written `Option<T>` (or `std::option::Option<T>`).
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.iter().collect::<Vec<_>>()[..] {
        [GenericArgument::Type(inner)] => Some(inner),
        _ => None,
    }
}
