//! Mirrors the serde attributes that decide how a field is stored: its
//! attribute name (`rename`, `rename_all`, `skip`, `flatten`) and its
//! custom (de)serializers. serde reports its own attribute errors, so
//! reading them never records one.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, LitStr, Token};

use crate::case::RenameRule;

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
    /// `#[serde(default)]` (`Some(None)`) or `#[serde(default = "…")]`.
    pub default: Option<Option<LitStr>>,
    /// `#[serde(flatten)]` or `getter`: the field is not one attribute, so
    /// the item is serialized through the struct's own `Serialize`.
    pub whole_struct: bool,
    /// An attribute that changes how the field is read which the direct
    /// decoding does not model (`alias`, `skip`, `skip_deserializing`,
    /// `skip_serializing`, `rename(deserialize = …)`, `borrow`, `with`,
    /// `deserialize_with`): the item is read through the struct's own
    /// `Deserialize`.
    pub deserialize_whole: bool,
}

impl SerdeField {
    /// The first of `with`, `serialize_with` and `deserialize_with` given:
    /// the field has its own stored form.
    pub fn custom_codec(&self) -> Option<&LitStr> {
        self.with
            .iter()
            .chain(&self.serialize_with)
            .chain(&self.deserialize_with)
            .next()
    }

    /// Whether serialization goes through something other than the type's
    /// own `Serialize`.
    pub fn custom_serialize(&self) -> bool {
        self.with.is_some() || self.serialize_with.is_some() || self.skip_serializing_if.is_some()
    }
}

/// What serde's field attributes say: the stored name (`None` when serde
/// flattens or skips the field) and the custom (de)serializers.
pub struct SerdeFieldAttributes {
    pub serialized: Option<String>,
    pub serde: SerdeField,
}

/// Reads `#[serde(rename_all = "…")]` from a container attribute.
pub fn read_rename_all(attribute: &Attribute, rename_all: &mut Option<RenameRule>) {
    let _ = attribute.parse_nested_meta(|meta| {
        if meta.path.is_ident("rename_all") {
            if let Some(rule) = serde_name(&meta)? {
                *rename_all = RenameRule::from_name(&rule);
            }
        } else {
            skip_value(&meta)?;
        }
        Ok(())
    });
}

/// serde's `rename` among `attributes` (`rename = "…"`, or the
/// `serialize` name of `rename(…)`), if one is given.
pub fn read_rename(attributes: &[Attribute]) -> Option<String> {
    let mut found = None;
    for attribute in attributes.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attribute.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if let Some(name) = serde_name(&meta)? {
                    found = Some(name);
                }
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
    found
}

/// Whether a container attribute `#[serde(…)]` keeps the struct a plain
/// map of its fields (only `rename_all = "…"`, `rename`, `crate`, `bound`
/// and `expecting`), so that the derive may convert the fields itself;
/// `transparent`, `tag`, `into`, `from`, `default`,
/// `deny_unknown_fields`, … leave the item to the struct's own serde impls.
pub fn is_plain_container(attribute: &Attribute) -> bool {
    let mut plain = true;
    let _ = attribute.parse_nested_meta(|meta| {
        let known = ["rename", "crate", "bound", "expecting"]
            .iter()
            .any(|name| meta.path.is_ident(name))
            || (meta.path.is_ident("rename_all") && meta.input.peek(Token![=]));
        plain &= known;
        skip_value(&meta)
    });
    plain
}

/// Reads the serde attributes of a field whose default stored name is
/// `serialized`.
pub fn read_field(attributes: &[Attribute], serialized: String) -> SerdeFieldAttributes {
    let mut found = SerdeFieldAttributes {
        serialized: Some(serialized),
        serde: SerdeField::default(),
    };
    for attribute in attributes.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attribute.parse_nested_meta(|meta| {
            let serde = &mut found.serde;
            if meta.path.is_ident("rename") {
                found.serde.deserialize_whole |= !meta.input.peek(Token![=]);
                if let Some(renamed) = serde_name(&meta)? {
                    found.serialized = Some(renamed);
                }
            } else if meta.path.is_ident("flatten")
                || meta.path.is_ident("skip")
                || meta.path.is_ident("skip_serializing")
            {
                found.serialized = None;
                serde.whole_struct |= meta.path.is_ident("flatten");
                serde.deserialize_whole = true;
            } else if meta.path.is_ident("default") {
                serde.default = Some(if meta.input.peek(Token![=]) {
                    Some(meta.value()?.parse::<LitStr>()?)
                } else {
                    None
                });
            } else if meta.path.is_ident("getter") {
                serde.whole_struct = true;
                skip_value(&meta)?;
            } else if ["alias", "skip_deserializing", "borrow"]
                .iter()
                .any(|name| meta.path.is_ident(name))
            {
                serde.deserialize_whole = true;
                skip_value(&meta)?;
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
    }
    let serde = &mut found.serde;
    serde.deserialize_whole |= serde.with.is_some() || serde.deserialize_with.is_some();
    found
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
