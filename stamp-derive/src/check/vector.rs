//! The rules of `#[vectorN(…)]`, each a compile error at the attribute:
//! N from 1 to 5 and not repeated (DynamoDB allows 5 vector indexes per
//! table), a vector field of type `Vec<f32>` or `[f32; N]` (or an `Option`
//! of one: a sparse index), dimensions from 1 to 4,096 equal to the array's
//! length (one number of dimensions per vector field), a distance
//! function, inline filter fields whose stored type is a String, a Number
//! or a Binary (DynamoDB declares each in `AttributeDefinitions`; decided
//! as for a multi-attribute key attribute: the types known by name not to
//! be are refused here with their reason, any other is bound by
//! `IndexKeyAttribute` where the schema names its type, so a
//! `#[derive(KeyPart)]` unit enum is a String), and a partition template
//! of the struct's fields.

use syn::Type;

use crate::ast::Container;
use crate::ast::vector::{VectorIndex, VectorProjectionAttr};
use crate::check::model::{Key, Stored};
use crate::check::multi::refused_type;
use crate::ctxt::Ctxt;

use crate::limits::{MAX_VECTOR_DIMENSIONS as MAX_DIMENSIONS, MAX_VECTOR_INDEXES};

/// One checked `#[vectorN(…)]`.
pub struct VectorKeys<'a> {
    pub index: &'a VectorIndex,
    pub number: u8,
    pub field: Stored<'a>,
    pub dimensions: u32,
    /// `Cosine`, `DotProduct` or `Euclidean`.
    pub distance: &'static str,
    pub pk: Option<Key<'a>>,
    /// The inline filter fields; each one's type (S, N or B) is
    /// `<T as IndexKeyAttribute>::TYPE`, named where the schema is
    /// generated, as for a multi-attribute key attribute.
    pub filters: Vec<Stored<'a>>,
    /// `None` for `ALL` and `KEYS_ONLY` (see `keys_only`), else the
    /// included attributes.
    pub include: Option<Vec<&'a str>>,
    pub keys_only: bool,
}

/// Whether `ty` is `f32`.
fn is_f32(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident("f32"))
}

/// `Some(None)` for `Vec<f32>`, `Some(Some(n))` for `[f32; n]` (n a literal),
/// `Some(Some(0))` for an array whose length is not a literal; `None` for any
/// other type.
fn vector_shape(ty: &Type) -> Option<Option<u32>> {
    match ty {
        Type::Array(array) if is_f32(&array.elem) => Some(Some(match &array.len {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(length),
                ..
            }) => length.base10_parse().unwrap_or(0),
            _ => 0,
        })),
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            if last.ident != "Vec" {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(arguments) => match arguments.args.first() {
                    Some(syn::GenericArgument::Type(inner)) if is_f32(inner) => Some(None),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

fn distance_name(ident: &syn::Ident) -> Option<&'static str> {
    match ident.to_string().as_str() {
        "cosine" => Some("Cosine"),
        "dot_product" => Some("DotProduct"),
        "euclidean" => Some("Euclidean"),
        _ => None,
    }
}

/// A field named in the attribute, or an error at the name.
fn named_field<'a>(
    cx: &mut Ctxt,
    container: &'a Container<'a>,
    ident: &syn::Ident,
    vector: &str,
) -> Option<Stored<'a>> {
    let struct_name = container.ident;
    let Some(field) = container.field(&ident.to_string()) else {
        cx.error_spanned_by(
            ident,
            format!("`{ident}` in `#[{vector}(…)]` is not a field of `{struct_name}`"),
        );
        return None;
    };
    let Some(attribute) = field.serialized.as_deref() else {
        cx.error_spanned_by(
            ident,
            format!("`{ident}` in `#[{vector}(…)]` of `{struct_name}` is skipped by serde, so it is never stored"),
        );
        return None;
    };
    Some(Stored { field, attribute })
}

/// Checks every `#[vectorN(…)]` of `container` and returns the checked
/// ones, by number; reports each broken rule.
pub fn check<'a>(cx: &mut Ctxt, container: &'a Container<'a>) -> Vec<VectorKeys<'a>> {
    let struct_name = container.ident;
    let mut checked: Vec<VectorKeys<'a>> = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    for index in &container.vector_indexes {
        let vector = format!("vector{}", index.number);
        if !(1..=MAX_VECTOR_INDEXES as u32).contains(&index.number) {
            cx.error_spanned_by(
                &index.attribute,
                format!(
                    "`#[{vector}]` of `{struct_name}`: a vector index is numbered 1 to {MAX_VECTOR_INDEXES}; DynamoDB allows at most {MAX_VECTOR_INDEXES} vector indexes per table"
                ),
            );
            continue;
        }
        if seen.contains(&index.number) {
            cx.error_spanned_by(
                &index.attribute,
                format!("`#[{vector}]` is given twice on `{struct_name}`"),
            );
            continue;
        }
        seen.push(index.number);
        let Some(field_ident) = &index.field else {
            cx.error_spanned_by(
                &index.attribute,
                format!("`#[{vector}(…)]` of `{struct_name}` names its vector field: `field = embedding`"),
            );
            continue;
        };
        let Some(field) = named_field(cx, container, field_ident, &vector) else {
            continue;
        };
        let ty = field.field.key_type();
        let Some(shape) = vector_shape(ty) else {
            cx.error_spanned_by(
                field_ident,
                format!(
                    "the vector field `{field_ident}` of `#[{vector}(…)]` of `{struct_name}` is not `Vec<f32>` or `[f32; N]` (or an `Option` of one): DynamoDB stores a vector as a list of 32-bit floats"
                ),
            );
            continue;
        };
        let dimensions = match (shape, &index.dimensions) {
            (Some(length), Some((dimensions, literal))) if length != *dimensions => {
                cx.error_spanned_by(
                    literal,
                    format!(
                        "`dimensions = {dimensions}` in `#[{vector}(…)]` of `{struct_name}` does not match the vector field `{field_ident}`, an array of {length}"
                    ),
                );
                continue;
            }
            (_, Some((dimensions, _))) => *dimensions,
            (Some(length), None) => length,
            (None, None) => {
                cx.error_spanned_by(
                    &index.attribute,
                    format!("`#[{vector}(…)]` of `{struct_name}` gives its `dimensions = N` (1 to {MAX_DIMENSIONS})"),
                );
                continue;
            }
        };
        if !(1..=MAX_DIMENSIONS).contains(&dimensions) {
            let span: &dyn quote::ToTokens = match &index.dimensions {
                Some((_, literal)) => literal,
                None => field_ident,
            };
            cx.error_spanned_by(
                span,
                format!(
                    "`#[{vector}(…)]` of `{struct_name}` has {dimensions} dimensions; DynamoDB takes 1 to {MAX_DIMENSIONS}"
                ),
            );
            continue;
        }
        let distance = match &index.distance {
            Some(ident) => match distance_name(ident) {
                Some(name) => name,
                None => {
                    cx.error_spanned_by(
                        ident,
                        format!("`distance = {ident}` in `#[{vector}(…)]` of `{struct_name}`: the distance is `cosine`, `dot_product` or `euclidean`"),
                    );
                    continue;
                }
            },
            None => {
                cx.error_spanned_by(
                    &index.attribute,
                    format!("`#[{vector}(…)]` of `{struct_name}` gives its `distance = cosine | dot_product | euclidean`"),
                );
                continue;
            }
        };
        let mut filters = Vec::new();
        let mut broken = false;
        for ident in &index.filters {
            let Some(stored) = named_field(cx, container, ident, &vector) else {
                broken = true;
                continue;
            };
            let here = format!("the filter field `{ident}` of `#[{vector}(…)]` of `{struct_name}`");
            if let Some(custom) = stored.field.serde.custom_codec() {
                cx.error_spanned_by(
                    custom,
                    format!(
                        "{here} has a serde `with`/`serialize_with`/`deserialize_with`, so Stamp cannot know the type it is stored as (an inline filter is a String, a Number or a Binary, by the field's type): remove it"
                    ),
                );
                broken = true;
                continue;
            }
            if let Some(reason) = refused_type(stored.field.key_type()) {
                cx.error_spanned_by(
                    ident,
                    format!(
                        "{here} cannot be an inline filter: {reason} (DynamoDB declares each inline filter in AttributeDefinitions, as a key attribute); use a String, an integer up to 64 bits, a Uuid, a DateTime<Utc>, a NaiveDate or a `#[derive(KeyPart)]` unit enum"
                    ),
                );
                broken = true;
                continue;
            }
            filters.push(stored);
        }
        let pk = match &index.pk {
            Some(template) => {
                let Some(key) = Key::resolve(container, template) else {
                    // An unparsed template is reported where it was read; an
                    // unknown field here.
                    for name in template.fields() {
                        if container.field(name).is_none() {
                            cx.error_spanned_by(
                                &template.literal,
                                format!("`<{name}>` in the partition template of `#[{vector}(…)]` is not a field of `{struct_name}`"),
                            );
                        }
                    }
                    continue;
                };
                if let Some(optional) = key.fields().find(|field| field.option_inner.is_some()) {
                    cx.error_spanned_by(
                        &template.literal,
                        format!("`<{}>` in the partition template of `#[{vector}(…)]` of `{struct_name}` is an `Option`; a vector index is sparse by its vector field, make that one an `Option` instead", optional.name),
                    );
                    continue;
                }
                Some(key)
            }
            None => None,
        };
        let (include, keys_only) = match &index.projection {
            VectorProjectionAttr::All => (None, false),
            VectorProjectionAttr::KeysOnly => (None, true),
            VectorProjectionAttr::Include(idents) => {
                let mut names = Vec::new();
                for ident in idents {
                    match named_field(cx, container, ident, &vector) {
                        Some(stored) => names.push(stored.attribute),
                        None => broken = true,
                    }
                }
                (Some(names), false)
            }
        };
        if broken {
            continue;
        }
        checked.push(VectorKeys {
            index,
            number: index.number as u8,
            field,
            dimensions,
            distance,
            pk,
            filters,
            include,
            keys_only,
        });
    }
    checked.sort_by_key(|index| index.number);
    check_one_dimension_count(cx, struct_name, &checked);
    checked
}

/// Refuses two indexes of one vector attribute with different dimensions
/// (DynamoDB requires one number of dimensions per vector attribute:
/// <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateVectorIndexAction.html>),
/// at the second's `dimensions` (or attribute).
fn check_one_dimension_count(cx: &mut Ctxt, struct_name: &syn::Ident, checked: &[VectorKeys]) {
    for (position, second) in checked.iter().enumerate() {
        let Some(first) = checked[..position]
            .iter()
            .find(|first| first.field.attribute == second.field.attribute)
        else {
            continue;
        };
        if first.dimensions == second.dimensions {
            continue;
        }
        let span: &dyn quote::ToTokens = match &second.index.dimensions {
            Some((_, literal)) => literal,
            None => &second.index.attribute,
        };
        cx.error_spanned_by(
            span,
            format!(
                "`#[vector{}(…)]` of `{struct_name}` indexes `{}` with {} dimensions, and `#[vector{}(…)]` with {}: DynamoDB requires every vector index of one attribute to have the same dimensions; give both `dimensions = {}`",
                second.number,
                second.field.field.name,
                second.dimensions,
                first.number,
                first.dimensions,
                first.dimensions
            ),
        );
    }
}
