//! Reads a `#[derive(Item)]` struct and its attributes into a typed model.
//! Every malformed attribute is recorded in the [`Ctxt`](crate::ctxt::Ctxt);
//! reading goes on. [`container`] reads the struct's attributes, [`field`]
//! its fields, [`serde`] mirrors what serde stores, and [`attr`] holds the
//! option reader that reports a repeated option.

use proc_macro2::Span;
use syn::{Attribute, DeriveInput, Fields, Ident, LitStr, Type};

use crate::template::Piece;

mod attr;
mod container;
mod field;
mod index;
pub mod options;
pub mod serde;
pub mod vector;

pub use self::field::option_inner;
pub use self::serde::SerdeField;

/// The struct, as the derive sees it.
pub struct Container<'a> {
    pub ident: &'a Ident,
    /// The struct's visibility, given to the key-input structs.
    pub vis: &'a syn::Visibility,
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
    /// The `#[lsiN(…)]` attributes.
    pub local_indexes: Vec<LocalIndex>,
    /// The `#[vectorN(…)]` attributes, as written.
    pub vector_indexes: Vec<vector::VectorIndex>,
    pub fields: Vec<Field<'a>>,
    /// The earlier key format of `#[stamp(previous(pk = "…", sk = "…"))]`.
    pub previous: Option<Previous>,
    /// The `#[stamp(unique(a, b))]` combinations, as written: the path
    /// (for spans) and the fields named.
    pub unique: Vec<(syn::Path, Vec<Ident>)>,
    /// Whether the struct's serde attributes keep it a plain map of its
    /// fields (`serde::is_plain_container`).
    pub serde_plain: bool,
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
    fn default(value: &str) -> Self {
        Name {
            value: value.to_owned(),
            span: None,
        }
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
                Piece::Literal(_) | Piece::Shard(_) => None,
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
    /// `pk(field, …)` of a multi-attribute index (`None` for a template
    /// index).
    pub pk_fields: Option<FieldList>,
    /// `sk(field, …)` of a multi-attribute index.
    pub sk_fields: Option<FieldList>,
}

impl Index {
    /// Whether the index names its key fields, `#[gsiN(pk(a, b), sk(c))]`,
    /// rather than templates.
    pub fn is_multi_attribute(&self) -> bool {
        self.pk_fields.is_some() || self.sk_fields.is_some()
    }
}

/// The fields of `pk(a, b)` or `sk(c)` in a multi-attribute index, with the
/// `pk` / `sk` path for spans.
pub struct FieldList {
    pub path: syn::Path,
    pub fields: Vec<Ident>,
}

/// One `#[lsiN(sk = "…")]` attribute: a sort key over the table's
/// partition key.
pub struct LocalIndex {
    pub number: u32,
    pub attribute: Attribute,
    pub name: String,
    pub sk_attribute: Name,
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
    /// The `write_once` of `#[stamp(write_once)]`: an upsert sets the field
    /// with `if_not_exists`.
    pub write_once: Option<syn::Path>,
    /// The `unique` of `#[stamp(unique)]`: no two items of the entity hold
    /// one value of the field (a guard item per value).
    pub unique: Option<syn::Path>,
    /// serde's field attributes that change how the value is stored, which
    /// the generated encoders and decoders copy.
    pub serde: SerdeField,
}

impl<'a> Container<'a> {
    /// The field named `name` in templates.
    pub fn field(&self, name: &str) -> Option<&Field<'a>> {
        self.fields.iter().find(|field| field.name == name)
    }
}

impl Field<'_> {
    /// The type a key uses: `T` for `Option<T>`, else the field type.
    pub fn key_type(&self) -> &Type {
        self.option_inner.unwrap_or(self.ty)
    }

    /// The DynamoDB type of the field's stored form when its type says it
    /// by name (`String` is `S`, an integer `N`, a `Vec` `L`, …), for the
    /// table definition's check of fields stored under another entity's key
    /// attribute; `None` for any other type, and for a field with a serde
    /// codec of its own. A TTL is epoch seconds, `N`.
    pub fn stored_type(&self) -> Option<&'static str> {
        if self.ttl.is_some() {
            return Some("N");
        }
        if self.serde.custom_codec().is_some() {
            return None;
        }
        stored_type_of(self.key_type())
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

/// The number N of a `gsiN` attribute path.
pub fn index_number(attribute: &Attribute) -> Option<u32> {
    let ident = attribute.path().get_ident()?.to_string();
    let digits = ident.strip_prefix("gsi")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The number N of an `lsiN` attribute path.
pub fn local_index_number(attribute: &Attribute) -> Option<u32> {
    let ident = attribute.path().get_ident()?.to_string();
    let digits = ident.strip_prefix("lsi")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
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

/// The DynamoDB type of the stored form of `ty`, known by its name.
fn stored_type_of(ty: &Type) -> Option<&'static str> {
    let is_u8 = |ty: &Type| matches!(ty, Type::Path(path) if path.path.is_ident("u8"));
    match ty {
        Type::Array(array) if is_u8(&array.elem) => return Some("B"),
        Type::Array(_) | Type::Tuple(_) | Type::Slice(_) => return Some("L"),
        Type::Reference(reference) => return stored_type_of(&reference.elem),
        _ => {}
    }
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    Some(match last.ident.to_string().as_str() {
        "String" | "str" | "char" | "Uuid" | "DateTime" | "NaiveDate" => "S",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" | "f32" | "f64" => "N",
        "bool" => "BOOL",
        "Bytes" => "B",
        "Vec" => match &last.arguments {
            syn::PathArguments::AngleBracketed(arguments) => match arguments.args.first() {
                Some(syn::GenericArgument::Type(inner)) if is_u8(inner) => "B",
                _ => "L",
            },
            _ => "L",
        },
        "VecDeque" | "HashSet" | "BTreeSet" => "L",
        "HashMap" | "BTreeMap" => "M",
        "Box" | "Rc" | "Arc" => match &last.arguments {
            syn::PathArguments::AngleBracketed(arguments) => match arguments.args.first()? {
                syn::GenericArgument::Type(inner) => return stored_type_of(inner),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    })
}
