//! Reading one attribute option: the value, once. As serde's `Attr::set`,
//! a repeated option is reported at its second occurrence, never silently
//! overwritten.

use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Ident, LitStr};

use crate::ast::Template;
use crate::ctxt::Ctxt;
use crate::template;

/// An option that may be given at most once.
pub struct Attr<T> {
    value: Option<T>,
}

impl<T> Default for Attr<T> {
    fn default() -> Self {
        Attr::none()
    }
}

impl<T> Attr<T> {
    /// No value yet.
    pub fn none() -> Self {
        Attr { value: None }
    }

    /// Whether a value was given.
    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }

    /// Sets the value, or reports `repeated()` spanning `tokens` when it
    /// was given already (the first value stays).
    pub fn set(
        &mut self,
        cx: &mut Ctxt,
        tokens: impl ToTokens,
        value: T,
        repeated: impl FnOnce() -> String,
    ) {
        if self.value.is_some() {
            cx.error_spanned_by(tokens, repeated());
        } else {
            self.value = Some(value);
        }
    }

    /// The value, if it was given.
    pub fn get(self) -> Option<T> {
        self.value
    }

    /// Takes the value out, if it was given.
    pub fn take(&mut self) -> Option<T> {
        self.value.take()
    }
}

/// The string literal of `name = "…"`.
pub fn string(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    meta.value()?.parse::<LitStr>()
}

/// The name of `index_name = "…"` in `#[{attribute}(…)]` (a GSI, an LSI or
/// a vector index), checked by DynamoDB's naming rule for tables and
/// indexes: 3 to 255 characters, each one of `a-z`, `A-Z`, `0-9`, `_`, `-`
/// and `.` ("Naming rules", Amazon DynamoDB Developer Guide). A name that
/// breaks it is reported spanning the literal.
pub fn index_name(cx: &mut Ctxt, literal: &LitStr, attribute: &str, struct_name: &Ident) -> String {
    use crate::limits::{MAX_NAME_LENGTH, MIN_NAME_LENGTH};
    let name = literal.value();
    let length = name.chars().count();
    let at = format!("`index_name = {name:?}` in `#[{attribute}(…)]` of `{struct_name}`");
    if !(MIN_NAME_LENGTH..=MAX_NAME_LENGTH).contains(&length) {
        cx.error_spanned_by(
            literal,
            format!(
                "{at} has {length} characters; DynamoDB's index names have {MIN_NAME_LENGTH} to {MAX_NAME_LENGTH}"
            ),
        );
    } else if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        cx.error_spanned_by(
            literal,
            format!(
                "{at} has `{bad}`; DynamoDB's index names have only a-z, A-Z, 0-9, `_`, `-` and `.`"
            ),
        );
    }
    name
}

/// The message of an option given twice inside `#[{attribute}(…)]`.
pub fn given_twice(meta: &ParseNestedMeta, attribute: &str, struct_name: &Ident) -> String {
    let option = option_name(meta);
    format!("`{option}` is given twice in `#[{attribute}(…)]` of `{struct_name}`: give it once")
}

/// The name of a nested option, for messages.
pub fn option_name(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default()
}

/// Parses a key template literal, reporting a syntax error with the
/// template quoted.
pub fn read_template(
    cx: &mut Ctxt,
    struct_name: &Ident,
    literal: LitStr,
    label: String,
) -> Template {
    let source = literal.value();
    let pieces = match template::parse(&source) {
        Ok(pieces) => Some(pieces),
        Err(error) => {
            let context = if source.is_empty() {
                format!("`{label}` of `{struct_name}`")
            } else {
                format!("key template `{source}` (`{label}` of `{struct_name}`)")
            };
            cx.error_spanned_by(
                &literal,
                format!("{} in {context}: {}", error.what, error.fix),
            );
            None
        }
    };
    Template {
        literal,
        label,
        pieces,
    }
}
