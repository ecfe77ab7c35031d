//! Reads `#[vectorN(field = embedding, dimensions = 64, distance = cosine,
//! pk = "TENANT#<tenant_id>", filter(price, category), projection = all)]`.

use syn::{Attribute, Ident, LitInt};

use crate::ast::attr::{self, Attr, read_template, string};
use crate::ast::{Name, Template};
use crate::ctxt::Ctxt;

/// What `projection = …` says.
pub enum VectorProjectionAttr {
    All,
    KeysOnly,
    Include(Vec<Ident>),
}

/// One `#[vectorN(…)]` as written.
pub struct VectorIndex {
    pub number: u32,
    pub attribute: Attribute,
    pub name: String,
    pub field: Option<Ident>,
    pub dimensions: Option<(u32, LitInt)>,
    /// `cosine`, `dot_product` or `euclidean`, with its identifier.
    pub distance: Option<Ident>,
    pub pk: Option<Template>,
    pub pk_attribute: Name,
    pub filters: Vec<Ident>,
    pub projection: VectorProjectionAttr,
}

/// N of `#[vectorN(…)]`.
pub fn vector_index_number(attribute: &Attribute) -> Option<u32> {
    let ident = attribute.path().get_ident()?.to_string();
    let digits = ident.strip_prefix("vector")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The identifiers of `name(a, b)`.
fn ident_list(meta: &syn::meta::ParseNestedMeta, what: &str) -> syn::Result<Vec<Ident>> {
    let mut idents = Vec::new();
    meta.parse_nested_meta(|inner| {
        match inner.path.get_ident() {
            Some(ident) => idents.push(ident.clone()),
            None => return Err(inner.error(format!("`{what}(…)` lists field names"))),
        }
        Ok(())
    })?;
    Ok(idents)
}

/// Reads `#[vectorN(…)]`; `None` when it cannot be read at all (reported).
pub(super) fn read_vector_index(
    cx: &mut Ctxt,
    struct_name: &Ident,
    attribute: &Attribute,
    number: u32,
) -> Option<VectorIndex> {
    let vector = format!("vector{number}");
    let syn::Meta::List(_) = &attribute.meta else {
        cx.error_spanned_by(
            attribute,
            format!(
                "`#[{vector}]` of `{struct_name}` takes its field and options: `#[{vector}(field = embedding, dimensions = 64, distance = cosine)]`"
            ),
        );
        return None;
    };
    let mut field: Attr<Ident> = Attr::none();
    let mut dimensions: Attr<(u32, LitInt)> = Attr::none();
    let mut distance: Attr<Ident> = Attr::none();
    let mut pk: Attr<Template> = Attr::none();
    let mut pk_attribute: Attr<Name> = Attr::none();
    let mut index_name: Attr<String> = Attr::none();
    let mut filters: Attr<Vec<Ident>> = Attr::none();
    let mut projection: Attr<VectorProjectionAttr> = Attr::none();
    let result = attribute.parse_nested_meta(|meta| {
        let twice = || attr::given_twice(&meta, &vector, struct_name);
        if meta.path.is_ident("field") {
            let ident: Ident = meta.value()?.parse()?;
            field.set(cx, &meta.path, ident, twice);
        } else if meta.path.is_ident("dimensions") {
            let literal: LitInt = meta.value()?.parse()?;
            let value = literal.base10_parse::<u32>().unwrap_or(0);
            dimensions.set(cx, &meta.path, (value, literal), twice);
        } else if meta.path.is_ident("distance") {
            let ident: Ident = meta.value()?.parse()?;
            distance.set(cx, &meta.path, ident, twice);
        } else if meta.path.is_ident("pk") {
            let literal = string(&meta)?;
            let template =
                read_template(cx, struct_name, literal.clone(), format!("#[{vector}(pk)]"));
            pk.set(cx, &literal, template, twice);
        } else if meta.path.is_ident("pk_attribute") {
            pk_attribute.set(cx, &meta.path, Name::from_literal(&string(&meta)?), twice);
        } else if meta.path.is_ident("index_name") {
            let name = attr::index_name(cx, &string(&meta)?, &vector, struct_name);
            index_name.set(cx, &meta.path, name, twice);
        } else if meta.path.is_ident("filter") {
            let list = ident_list(&meta, "filter")?;
            filters.set(cx, &meta.path, list, twice);
        } else if meta.path.is_ident("projection") {
            let value = if meta.input.peek(syn::Token![=]) {
                let ident: Ident = meta.value()?.parse()?;
                if ident == "all" {
                    VectorProjectionAttr::All
                } else if ident == "keys_only" {
                    VectorProjectionAttr::KeysOnly
                } else if ident == "include" {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    let names = content.parse_terminated(Ident::parse_any_ident, syn::Token![,])?;
                    VectorProjectionAttr::Include(names.into_iter().collect())
                } else {
                    return Err(syn::Error::new_spanned(
                        ident,
                        format!("`projection` in `#[{vector}(…)]` of `{struct_name}` is `all`, `keys_only` or `include(field, …)`"),
                    ));
                }
            } else {
                return Err(meta.error(format!(
                    "`projection` in `#[{vector}(…)]` of `{struct_name}` is `projection = all`, `keys_only` or `include(field, …)`"
                )));
            };
            projection.set(cx, &meta.path, value, twice);
        } else {
            let option = attr::option_name(&meta);
            return Err(meta.error(format!(
                "unknown option `{option}` in `#[{vector}(…)]` of `{struct_name}`; options are: field, dimensions, distance, pk, pk_attribute, filter, projection, index_name"
            )));
        }
        Ok(())
    });
    if let Err(error) = result {
        cx.syn_error(error);
        return None;
    }
    Some(VectorIndex {
        number,
        attribute: attribute.clone(),
        name: index_name
            .get()
            .unwrap_or_else(|| format!("VECTOR{number}")),
        field: field.get(),
        dimensions: dimensions.get(),
        distance: distance.get(),
        pk: pk.get(),
        pk_attribute: pk_attribute
            .get()
            .unwrap_or_else(|| Name::default(&format!("VECTOR{number}PK"))),
        filters: filters.get().unwrap_or_default(),
        projection: projection.get().unwrap_or(VectorProjectionAttr::All),
    })
}

trait ParseAnyIdent {
    fn parse_any_ident(input: syn::parse::ParseStream) -> syn::Result<Ident>;
}

impl ParseAnyIdent for Ident {
    fn parse_any_ident(input: syn::parse::ParseStream) -> syn::Result<Ident> {
        input.parse()
    }
}
