//! Reads a `#[derive(Item)]` struct and its attributes into a typed model.
//! Every malformed attribute is recorded in the [`Ctxt`]; reading goes on.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{
    Attribute, DeriveInput, Expr, Fields, GenericArgument, Ident, LitStr, PathArguments, Token,
    Type,
};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::template::{self, Piece};

/// The struct, as the derive sees it.
pub struct Container<'a> {
    pub ident: &'a Ident,
    /// The path of the runtime: `::stamp` unless `#[stamp(crate = "…")]`.
    pub krate: syn::Path,
    pub type_name: String,
    pub type_attribute: Name,
    pub pk_attribute: Name,
    pub sk_attribute: Name,
    pub pk: Option<Template>,
    pub sk: Option<Template>,
    /// Whether `#[pk]` / `#[sk]` were written at all, even malformed, so
    /// that a malformed one is not also reported as missing.
    pub pk_written: bool,
    pub sk_written: bool,
    pub indexes: Vec<Index>,
    pub fields: Vec<Field<'a>>,
    /// The earlier key format of `#[stamp(previous(pk = "…", sk = "…"))]`.
    pub previous: Option<Previous>,
}

/// `#[stamp(previous(…))]`: the key templates of an earlier format. A
/// template left out is the current one.
pub struct Previous {
    /// The `previous` path, for spans.
    pub path: syn::Path,
    pub pk: Option<Template>,
    pub sk: Option<Template>,
}

/// An attribute name, with the span of the literal that set it (`None` for
/// a default).
pub struct Name {
    pub value: String,
    pub span: Option<Span>,
}

impl Name {
    fn default(value: String) -> Self {
        Name { value, span: None }
    }

    fn from_literal(literal: &LitStr) -> Self {
        Name {
            value: literal.value(),
            span: Some(literal.span()),
        }
    }
}

/// One key template attribute.
pub struct Template {
    /// The string literal, for spans.
    pub literal: LitStr,
    /// How the attribute is written in messages, such as `#[gsi1(sk)]`.
    pub label: String,
    /// The parsed pieces; `None` after a syntax error (already reported).
    pub pieces: Option<Vec<Piece>>,
}

impl Template {
    /// The field names of the template, in order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.pieces
            .iter()
            .flatten()
            .filter_map(|piece| match piece {
                Piece::Field(name) => Some(name.as_str()),
                Piece::Literal(_) => None,
            })
    }
}

/// One `#[gsiN…]` attribute.
pub struct Index {
    pub number: u32,
    pub attribute: Attribute,
    pub name: String,
    pub pk_attribute: Name,
    pub sk_attribute: Name,
    pub pk: Option<Template>,
    pub sk: Option<Template>,
}

/// One field of the struct.
pub struct Field<'a> {
    pub ident: &'a Ident,
    /// The field name without `r#`, as placeholders name it.
    pub name: String,
    pub ty: &'a Type,
    /// `T` when the field is an `Option<T>`.
    pub option_inner: Option<&'a Type>,
    /// The attribute name serde gives the field; `None` when serde flattens
    /// or skips it.
    pub serialized: Option<String>,
    /// The `ttl` of `#[stamp(ttl)]`, when the field is the item's TTL.
    pub ttl: Option<syn::Path>,
    /// The `version` of `#[stamp(version)]`: the optimistic-locking counter.
    pub version: Option<syn::Path>,
    /// The `created_at` of `#[stamp(created_at)]`: stamped on create.
    pub created_at: Option<syn::Path>,
    /// The `updated_at` of `#[stamp(updated_at)]`: stamped on every write.
    pub updated_at: Option<syn::Path>,
    /// serde's field attributes that change how the value is stored, which
    /// the generated encoders and decoders copy.
    pub serde: SerdeField,
}

/// The serde attributes of a field that change its stored form: every
/// value Stamp serializes itself goes through them too.
#[derive(Default)]
pub struct SerdeField {
    /// `#[serde(with = "…")]`
    pub with: Option<LitStr>,
    /// `#[serde(serialize_with = "…")]`
    pub serialize_with: Option<LitStr>,
    /// `#[serde(deserialize_with = "…")]`
    pub deserialize_with: Option<LitStr>,
    /// `#[serde(skip_serializing_if = "…")]`
    pub skip_serializing_if: Option<LitStr>,
}

impl SerdeField {
    /// Whether serialization goes through something other than the type's
    /// own `Serialize`.
    pub fn custom_serialize(&self) -> bool {
        self.with.is_some() || self.serialize_with.is_some() || self.skip_serializing_if.is_some()
    }
}

impl Field<'_> {
    /// The type a key uses: `T` for `Option<T>`, else the field type.
    pub fn key_type(&self) -> &Type {
        self.option_inner.unwrap_or(self.ty)
    }

    /// Whether the key type is `String`, so key builders take `&str`.
    pub fn is_string(&self) -> bool {
        match self.key_type() {
            Type::Path(path) if path.qself.is_none() => {
                let names: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let plain = path.path.segments.iter().all(|s| s.arguments.is_none());
                plain
                    && matches!(
                        names.iter().map(String::as_str).collect::<Vec<_>>()[..],
                        ["String"] | ["std", "string", "String"] | ["alloc", "string", "String"]
                    )
            }
            _ => false,
        }
    }
}

/// `T` when `ty` is written `Option<T>` (or `std::option::Option<T>`).
fn option_inner(ty: &Type) -> Option<&Type> {
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

/// Skips the value of a nested meta item that is not ours (`= expr` or
/// `(…)`), so other crates' attributes do not stop parsing.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// Reads `name = "…"` or `name(serialize = "…", …)` from serde's attributes.
fn serde_name(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse::<LitStr>()?.value()));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            found = Some(inner.value()?.parse::<LitStr>()?.value());
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(found)
}

/// The number N of a `gsiN` attribute path.
pub fn index_number(attribute: &Attribute) -> Option<u32> {
    let ident = attribute.path().get_ident()?.to_string();
    let digits = ident.strip_prefix("gsi")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn read_template(cx: &mut Ctxt, struct_name: &Ident, literal: LitStr, label: String) -> Template {
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

impl<'a> Container<'a> {
    /// Reads `input`, which must be a struct with named fields (checked by
    /// the caller).
    pub fn from_ast(
        cx: &mut Ctxt,
        input: &'a DeriveInput,
        named: &'a syn::FieldsNamed,
    ) -> Container<'a> {
        let ident = &input.ident;
        let mut container = Container {
            ident,
            krate: syn::parse_quote!(::stamp),
            type_name: ident.to_string(),
            type_attribute: Name::default("Type".to_owned()),
            pk_attribute: Name::default("PK".to_owned()),
            sk_attribute: Name::default("SK".to_owned()),
            pk: None,
            sk: None,
            pk_written: false,
            sk_written: false,
            indexes: Vec::new(),
            fields: Vec::new(),
            previous: None,
        };
        let mut rename_all = None;
        for attribute in &input.attrs {
            let path = attribute.path();
            if path.is_ident("pk") || path.is_ident("sk") {
                let which = if path.is_ident("pk") { "pk" } else { "sk" };
                if which == "pk" {
                    container.pk_written = true;
                } else {
                    container.sk_written = true;
                }
                let literal = match &attribute.meta {
                    syn::Meta::NameValue(syn::MetaNameValue {
                        value:
                            Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Str(literal),
                                ..
                            }),
                        ..
                    }) => literal.clone(),
                    _ => {
                        cx.error_spanned_by(
                            attribute,
                            format!("`#[{which}]` of `{ident}` takes a key template: `#[{which} = \"USER#<id>\"]`"),
                        );
                        continue;
                    }
                };
                let template = read_template(cx, ident, literal, format!("#[{which}]"));
                let slot = if which == "pk" {
                    &mut container.pk
                } else {
                    &mut container.sk
                };
                if slot.is_some() {
                    cx.error_spanned_by(
                        attribute,
                        format!("`#[{which}]` is given twice on `{ident}`: an entity has one"),
                    );
                } else {
                    *slot = Some(template);
                }
            } else if let Some(number) = index_number(attribute) {
                if let Some(index) = read_index(cx, ident, attribute, number) {
                    container.indexes.push(index);
                }
            } else if path.is_ident("stamp") {
                let mut previous_formats: Vec<(syn::Path, Vec<(&str, LitStr)>)> = Vec::new();
                let result = attribute.parse_nested_meta(|meta| {
                    let string = |meta: &ParseNestedMeta| -> syn::Result<LitStr> { meta.value()?.parse::<LitStr>() };
                    if meta.path.is_ident("type_name") {
                        container.type_name = string(&meta)?.value();
                    } else if meta.path.is_ident("crate") {
                        container.krate = string(&meta)?.parse()?;
                    } else if meta.path.is_ident("pk_attribute") {
                        container.pk_attribute = Name::from_literal(&string(&meta)?);
                    } else if meta.path.is_ident("sk_attribute") {
                        container.sk_attribute = Name::from_literal(&string(&meta)?);
                    } else if meta.path.is_ident("type_attribute") {
                        container.type_attribute = Name::from_literal(&string(&meta)?);
                    } else if meta.path.is_ident("previous") {
                        previous_formats.push((meta.path.clone(), read_previous(&meta, ident)?));
                    } else {
                        let option = meta.path.get_ident().map(Ident::to_string).unwrap_or_default();
                        return Err(meta.error(format!(
                            "unknown option `{option}` in `#[stamp(…)]` of `{ident}`; options are: type_name, crate, pk_attribute, sk_attribute, type_attribute, previous"
                        )));
                    }
                    Ok(())
                });
                if let Err(error) = result {
                    cx.syn_error(error);
                }
                for (previous_path, templates) in previous_formats {
                    if container.previous.is_some() {
                        cx.error_spanned_by(
                            &previous_path,
                            format!("`previous(…)` is given twice on `{ident}`: an entity declares one earlier key format; migrate from it, then replace it with the next one"),
                        );
                        continue;
                    }
                    let mut previous = Previous {
                        path: previous_path,
                        pk: None,
                        sk: None,
                    };
                    for (which, literal) in templates {
                        let template = read_template(
                            cx,
                            ident,
                            literal.clone(),
                            format!("#[stamp(previous({which}))]"),
                        );
                        let slot = if which == "pk" {
                            &mut previous.pk
                        } else {
                            &mut previous.sk
                        };
                        if slot.is_some() {
                            cx.error_spanned_by(
                                &literal,
                                format!("`{which}` is given twice in `#[stamp(previous(…))]` of `{ident}`"),
                            );
                        } else {
                            *slot = Some(template);
                        }
                    }
                    container.previous = Some(previous);
                }
            } else if path.is_ident("serde") {
                // serde reports its own attribute errors; read only what names attributes.
                let _ = attribute.parse_nested_meta(|meta| {
                    if meta.path.is_ident("rename_all") {
                        if let Some(rule) = serde_name(&meta)? {
                            rename_all = RenameRule::from_name(&rule);
                        }
                    } else {
                        skip_value(&meta)?;
                    }
                    Ok(())
                });
            }
        }
        container.fields = named
            .named
            .iter()
            .map(|field| read_field(cx, ident, field, rename_all))
            .collect();
        container
    }
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
            let option = inner
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            return Err(inner.error(format!(
                "unknown option `{option}` in `#[stamp(previous(…))]` of `{struct_name}`; options are: pk, sk (the earlier key templates)"
            )));
        };
        templates.push((which, inner.value()?.parse::<LitStr>()?));
        Ok(())
    })?;
    Ok(templates)
}

fn read_index(
    cx: &mut Ctxt,
    struct_name: &Ident,
    attribute: &Attribute,
    number: u32,
) -> Option<Index> {
    let mut index = Index {
        number,
        attribute: attribute.clone(),
        name: format!("GSI{number}"),
        pk_attribute: Name::default(format!("GSI{number}PK")),
        sk_attribute: Name::default(format!("GSI{number}SK")),
        pk: None,
        sk: None,
    };
    match &attribute.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value:
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(literal),
                    ..
                }),
            ..
        }) => {
            index.pk = Some(read_template(
                cx,
                struct_name,
                literal.clone(),
                format!("#[gsi{number}]"),
            ));
        }
        syn::Meta::List(_) => {
            let mut templates = Vec::new();
            let result = attribute.parse_nested_meta(|meta| {
                let string = |meta: &ParseNestedMeta| -> syn::Result<LitStr> { meta.value()?.parse::<LitStr>() };
                if meta.path.is_ident("pk") {
                    templates.push(("pk", string(&meta)?));
                } else if meta.path.is_ident("sk") {
                    templates.push(("sk", string(&meta)?));
                } else if meta.path.is_ident("index_name") {
                    index.name = string(&meta)?.value();
                } else if meta.path.is_ident("pk_attribute") {
                    index.pk_attribute = Name::from_literal(&string(&meta)?);
                } else if meta.path.is_ident("sk_attribute") {
                    index.sk_attribute = Name::from_literal(&string(&meta)?);
                } else {
                    let option = meta.path.get_ident().map(Ident::to_string).unwrap_or_default();
                    return Err(meta.error(format!(
                        "unknown option `{option}` in `#[gsi{number}(…)]` of `{struct_name}`; options are: pk, sk, index_name, pk_attribute, sk_attribute"
                    )));
                }
                Ok(())
            });
            if let Err(error) = result {
                cx.syn_error(error);
                return None;
            }
            for (which, literal) in templates {
                let template = read_template(
                    cx,
                    struct_name,
                    literal.clone(),
                    format!("#[gsi{number}({which})]"),
                );
                let slot = if which == "pk" {
                    &mut index.pk
                } else {
                    &mut index.sk
                };
                if slot.is_some() {
                    cx.error_spanned_by(
                        &literal,
                        format!(
                            "`{which}` is given twice in `#[gsi{number}(…)]` of `{struct_name}`"
                        ),
                    );
                } else {
                    *slot = Some(template);
                }
            }
        }
        syn::Meta::Path(_) | syn::Meta::NameValue(_) => {
            cx.error_spanned_by(
                attribute,
                format!(
                    "`#[gsi{number}]` of `{struct_name}` takes a template, `#[gsi{number} = \"STATUS#<status>\"]`, or `#[gsi{number}(pk = \"…\", sk = \"…\")]`"
                ),
            );
            return None;
        }
    }
    Some(index)
}

fn read_field<'a>(
    cx: &mut Ctxt,
    struct_name: &Ident,
    field: &'a syn::Field,
    rename_all: Option<RenameRule>,
) -> Field<'a> {
    let ident = field.ident.as_ref().expect("named fields have names");
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut ttl = None;
    let mut version = None;
    let mut created_at = None;
    let mut updated_at = None;
    let mut serde = SerdeField::default();
    let mut serialized =
        Some(rename_all.map_or_else(|| name.clone(), |rule| rule.apply_to_field(&name)));
    for attribute in &field.attrs {
        if attribute.path().is_ident("serde") {
            let _ = attribute.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    if let Some(renamed) = serde_name(&meta)? {
                        serialized = Some(renamed);
                    }
                } else if meta.path.is_ident("flatten")
                    || meta.path.is_ident("skip")
                    || meta.path.is_ident("skip_serializing")
                {
                    serialized = None;
                } else if let Some(slot) = [
                    ("with", &mut serde.with),
                    ("serialize_with", &mut serde.serialize_with),
                    ("deserialize_with", &mut serde.deserialize_with),
                    ("skip_serializing_if", &mut serde.skip_serializing_if),
                ]
                .into_iter()
                .find_map(|(name, slot)| meta.path.is_ident(name).then_some(slot))
                {
                    *slot = Some(meta.value()?.parse::<LitStr>()?);
                } else {
                    skip_value(&meta)?;
                }
                Ok(())
            });
        } else if attribute.path().is_ident("stamp") {
            let result = attribute.parse_nested_meta(|meta| {
                for (option, slot) in [
                    ("ttl", &mut ttl),
                    ("version", &mut version),
                    ("created_at", &mut created_at),
                    ("updated_at", &mut updated_at),
                ] {
                    if meta.path.is_ident(option) {
                        *slot = Some(meta.path.clone());
                        return Ok(());
                    }
                }
                let option = meta.path.get_ident().map(Ident::to_string).unwrap_or_default();
                Err(meta.error(format!(
                    "unknown option `{option}` in `#[stamp(…)]` on field `{name}` of `{struct_name}`; field options are: ttl, version, created_at, updated_at"
                )))
            });
            if let Err(error) = result {
                cx.syn_error(error);
            }
        }
    }
    Field {
        ident,
        name,
        ty: &field.ty,
        option_inner: option_inner(&field.ty),
        serialized,
        ttl,
        version,
        created_at,
        updated_at,
        serde,
    }
}

/// The kind of data `input` holds, when it is not a struct with named fields.
pub fn unsupported_shape(input: &DeriveInput) -> Option<&'static str> {
    match &input.data {
        syn::Data::Struct(data) => match data.fields {
            Fields::Named(_) => None,
            Fields::Unnamed(_) => Some("a tuple struct"),
            Fields::Unit => Some("a unit struct"),
        },
        syn::Data::Enum(_) => Some("an enum"),
        syn::Data::Union(_) => Some("a union"),
    }
}
