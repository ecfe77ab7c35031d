//! The one reader of the options the four derives take on their type and
//! on its variants: `#[stamp(…)]` (each option at most once; an option the
//! derive does not take is an error that lists the ones it does) and
//! serde's `rename_all`, `rename` and container attributes.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, LitInt, LitStr};

use crate::ast::Name;
use crate::ast::attr::{self, Attr, string};
use crate::ast::serde;
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// One of Stamp's derives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// `#[derive(Item)]`
    Item,
    /// `#[derive(KeyPart)]`
    KeyPart,
    /// `#[derive(Collection)]`
    Collection,
    /// `#[derive(Projection)]`
    Projection,
    /// `#[derive(Attributes)]`
    Attributes,
}

impl Derive {
    /// The derive's name, such as `Item`.
    pub fn name(self) -> &'static str {
        match self {
            Derive::Item => "Item",
            Derive::KeyPart => "KeyPart",
            Derive::Collection => "Collection",
            Derive::Projection => "Projection",
            Derive::Attributes => "Attributes",
        }
    }

    /// The options the derive takes in `#[stamp(…)]` on its type.
    pub fn options(self) -> &'static [&'static str] {
        match self {
            Derive::Item => &[
                "type_name",
                "crate",
                "pk_attribute",
                "sk_attribute",
                "type_attribute",
                "previous",
                "unique",
            ],
            Derive::KeyPart => &["crate", "rename_all"],
            Derive::Collection => &["index", "vector", "any_partition", "crate"],
            Derive::Projection => &["entity", "crate"],
            Derive::Attributes => &["crate"],
        }
    }
}

/// An earlier key format as written: `previous(pk = "…", sk = "…")`, its
/// path (for messages) and its templates in the order given.
pub type PreviousFormat = (syn::Path, Vec<(&'static str, LitStr)>);

/// The options of a derive's type: `#[stamp(…)]` and what serde's
/// container attributes say. Each derive reads only the options it takes
/// ([`Derive::options`]); the others stay unset.
pub struct TypeOptions {
    /// `crate = "…"`: the path of the `stamp` crate, `::stamp` by default.
    pub krate: syn::Path,
    /// `type_name = "…"` (Item).
    pub type_name: Attr<String>,
    /// `pk_attribute = "…"` (Item).
    pub pk_attribute: Attr<Name>,
    /// `sk_attribute = "…"` (Item).
    pub sk_attribute: Attr<Name>,
    /// `type_attribute = "…"` (Item).
    pub type_attribute: Attr<Name>,
    /// Every `previous(…)` given (Item), in order: the Item derive reports
    /// a second one with its own message.
    pub previous: Vec<PreviousFormat>,
    /// Every `unique(a, b)` given (Item), in order: the path (for spans)
    /// and the fields named.
    pub unique: Vec<(syn::Path, Vec<Ident>)>,
    /// `rename_all = "…"` (KeyPart), which wins over serde's.
    pub rename_all: Attr<RenameRule>,
    /// `entity = Path` (Projection).
    pub entity: Attr<syn::Path>,
    /// `index = N` (Collection), as written.
    pub index: Attr<LitInt>,
    /// `vector = N` (Collection), as written.
    pub vector: Attr<LitInt>,
    /// `any_partition` (Collection), where it was written.
    pub any_partition: Attr<Span>,
    /// serde's `rename_all` on the type.
    pub serde_rename_all: Option<RenameRule>,
    /// Whether serde's container attributes keep the struct a plain map of
    /// its fields ([`serde::is_plain_container`]).
    pub serde_plain: bool,
}

impl TypeOptions {
    /// The rename rule of the type's names: Stamp's `rename_all`, else
    /// serde's.
    pub fn rename_rule(&mut self) -> Option<RenameRule> {
        self.rename_all.take().or(self.serde_rename_all)
    }
}

/// Reads the options of `input`'s type for `derive`, reporting each
/// mistake to `cx` and reading on.
pub fn read_type_options(cx: &mut Ctxt, input: &DeriveInput, derive: Derive) -> TypeOptions {
    let ident = &input.ident;
    let mut krate = Attr::none();
    let mut options = TypeOptions {
        krate: syn::parse_quote!(::stamp),
        type_name: Attr::none(),
        pk_attribute: Attr::none(),
        sk_attribute: Attr::none(),
        type_attribute: Attr::none(),
        previous: Vec::new(),
        unique: Vec::new(),
        rename_all: Attr::none(),
        entity: Attr::none(),
        index: Attr::none(),
        vector: Attr::none(),
        any_partition: Attr::none(),
        serde_rename_all: None,
        serde_plain: true,
    };
    for attribute in &input.attrs {
        if attribute.path().is_ident("stamp") {
            let result = attribute.parse_nested_meta(|meta| {
                read_type_option(cx, ident, derive, &meta, &mut krate, &mut options)
            });
            if let Err(error) = result {
                cx.syn_error(error);
            }
        } else if attribute.path().is_ident("serde") {
            serde::read_rename_all(attribute, &mut options.serde_rename_all);
            options.serde_plain &= serde::is_plain_container(attribute);
        }
    }
    if let Some(path) = krate.get() {
        options.krate = path;
    }
    options
}

/// One option of `#[stamp(…)]` on the type.
fn read_type_option(
    cx: &mut Ctxt,
    ident: &Ident,
    derive: Derive,
    meta: &ParseNestedMeta,
    krate: &mut Attr<syn::Path>,
    options: &mut TypeOptions,
) -> syn::Result<()> {
    let option = attr::option_name(meta);
    if !derive.options().contains(&option.as_str()) {
        return Err(meta.error(format!(
            "unknown option `{option}` in `#[stamp(…)]` of `{ident}` for `#[derive({})]`; options are: {}",
            derive.name(),
            derive.options().join(", ")
        )));
    }
    let twice = || attr::given_twice(meta, "stamp", ident);
    let path = &meta.path;
    match option.as_str() {
        "crate" => krate.set(cx, path, string(meta)?.parse()?, twice),
        "type_name" => options
            .type_name
            .set(cx, path, string(meta)?.value(), twice),
        "pk_attribute" => {
            let name = Name::from_literal(&string(meta)?);
            options.pk_attribute.set(cx, path, name, twice);
        }
        "sk_attribute" => {
            let name = Name::from_literal(&string(meta)?);
            options.sk_attribute.set(cx, path, name, twice);
        }
        "type_attribute" => {
            let name = Name::from_literal(&string(meta)?);
            options.type_attribute.set(cx, path, name, twice);
        }
        "previous" => options
            .previous
            .push((path.clone(), read_previous(meta, ident)?)),
        "unique" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let fields = content.parse_terminated(Ident::parse_any, syn::Token![,])?;
            options
                .unique
                .push((path.clone(), fields.into_iter().collect()));
        }
        "rename_all" => {
            let literal = string(meta)?;
            let rule = RenameRule::from_name(&literal.value()).ok_or_else(|| {
                syn::Error::new(
                    literal.span(),
                    format!(
                        "unknown rename rule `{}`; rules are: {}",
                        literal.value(),
                        RenameRule::NAMES
                    ),
                )
            })?;
            options.rename_all.set(cx, path, rule, twice);
        }
        "entity" => options.entity.set(cx, path, meta.value()?.parse()?, twice),
        "index" => options.index.set(cx, path, meta.value()?.parse()?, twice),
        "vector" => options.vector.set(cx, path, meta.value()?.parse()?, twice),
        _ => options.any_partition.set(cx, path, path.span(), twice),
    }
    Ok(())
}

/// The templates of `previous(pk = "…", sk = "…")` in `#[stamp(…)]`.
fn read_previous(
    meta: &ParseNestedMeta,
    struct_name: &Ident,
) -> syn::Result<Vec<(&'static str, LitStr)>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`previous` in `#[stamp(…)]` of `{struct_name}` takes the earlier key templates, such as `previous(pk = \"USER#<id>\", sk = \"PROFILE\")`"
        )));
    }
    let mut templates = Vec::new();
    // `previous()`: no template, which the checks report with their own message.
    let fork = meta.input.fork();
    let content;
    syn::parenthesized!(content in fork);
    if content.is_empty() {
        let _empty;
        syn::parenthesized!(_empty in meta.input);
        return Ok(templates);
    }
    meta.parse_nested_meta(|inner| {
        let which = if inner.path.is_ident("pk") {
            "pk"
        } else if inner.path.is_ident("sk") {
            "sk"
        } else {
            let option = attr::option_name(&inner);
            return Err(inner.error(format!(
                "unknown option `{option}` in `#[stamp(previous(…))]` of `{struct_name}`; options are: pk, sk (the earlier key templates)"
            )));
        };
        templates.push((which, string(&inner)?));
        Ok(())
    })?;
    Ok(templates)
}

/// The name a variant of a `#[derive(KeyPart)]` enum encodes as: its
/// `#[stamp(rename = "…")]`, else serde's `rename`, else `default` (the
/// variant's name after the type's rename rule).
pub fn variant_name(cx: &mut Ctxt, variant: &syn::Variant, default: String) -> String {
    let mut renamed = Attr::none();
    for attribute in variant.attrs.iter().filter(|a| a.path().is_ident("stamp")) {
        let result = attribute.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let name = string(&meta)?.value();
                renamed.set(cx, &meta.path, name, || {
                    format!(
                        "`rename` is given twice in `#[stamp(…)]` of variant `{}`: give it once",
                        variant.ident
                    )
                });
                Ok(())
            } else {
                let option = attr::option_name(&meta);
                Err(meta.error(format!(
                    "unknown option `{option}` in `#[stamp(…)]` of variant `{}`; options are: rename",
                    variant.ident
                )))
            }
        });
        if let Err(error) = result {
            cx.syn_error(error);
        }
    }
    renamed
        .get()
        .or_else(|| serde::read_rename(&variant.attrs))
        .unwrap_or(default)
}
