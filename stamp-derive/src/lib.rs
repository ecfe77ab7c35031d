//! The derives of Stamp. Use them through the `stamp` facade:
//! `#[derive(stamp::Item)]` and `#[derive(stamp::KeyPart)]`.
//!
//! Each derive runs three steps over a typed model, as serde_derive does:
//! `ast` reads the attributes (collecting every error), `check` applies
//! the rules that involve several attributes, and `expand` generates the
//! code (private modules, as a proc-macro crate exports only its derives). Errors of one struct are reported together; beside them
//! `#[derive(Item)]` emits a stub of its surface (`expand::fallback`), so
//! no follow-on errors appear.

#![deny(missing_docs)]

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod ast;
mod case;
mod check;
mod collection;
mod ctxt;
mod expand;
mod key_part;
mod limits;
mod names;
mod nested;
mod projection;
#[cfg(test)]
mod snapshot;
mod template;

/// Derives `stamp::Entity` and typed key builders from key templates.
///
/// See the `stamp` crate documentation, "Attribute grammar", for every
/// attribute: `#[pk]`, `#[sk]`, `#[gsiN]`, `#[lsiN]`, `#[vectorN]` and the
/// `#[stamp(…)]` options of the struct and of its fields (`ttl`, `version`,
/// `created_at`, `updated_at`).
///
/// The numbered attributes DynamoDB allows are `#[gsi1]` to `#[gsi20]`,
/// `#[lsi1]` to `#[lsi5]` and `#[vector1]` to `#[vector5]`. The derive also
/// declares `gsi0`, `gsi21` to `gsi30`, `lsi0`, `lsi6` to `lsi10`, `vector0`
/// and `vector6` to `vector8` (which is why this page lists them as helper
/// attributes), only so that a number out of range is the derive's own
/// error, "GSIs are numbered 1 to 20", rather than rustc's "cannot find
/// attribute `gsi21`".
#[proc_macro_derive(
    Item,
    attributes(
        pk, sk, stamp, gsi0, gsi1, gsi2, gsi3, gsi4, gsi5, gsi6, gsi7, gsi8, gsi9, gsi10, gsi11,
        gsi12, gsi13, gsi14, gsi15, gsi16, gsi17, gsi18, gsi19, gsi20, gsi21, gsi22, gsi23, gsi24,
        gsi25, gsi26, gsi27, gsi28, gsi29, gsi30, lsi0, lsi1, lsi2, lsi3, lsi4, lsi5, lsi6, lsi7,
        lsi8, lsi9, lsi10, vector0, vector1, vector2, vector3, vector4, vector5, vector6, vector7,
        vector8
    )
)]
pub fn derive_item(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive_item(&input).into()
}

/// Derives `stamp::KeyPart` for a unit-only enum (by variant name, after
/// serde's or `#[stamp(…)]`'s `rename_all` and `rename`) or a newtype (by its
/// inner value).
#[proc_macro_derive(KeyPart, attributes(stamp))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    key_part::derive(&input).into()
}

/// Derives `stamp::Collection` for an enum of entities: one variant per
/// entity, `Order(Order)`, each wrapping the entity, and a variant
/// `Unknown(stamp::AttributeMap)` that you write yourself (the derive does
/// not add it, and an enum without it does not compile): it keeps, as read,
/// an item whose type attribute names none of the entities (an entity added
/// later, an item another program wrote).
///
/// ```text
/// #[derive(stamp::Collection, Debug, Clone, PartialEq)]
/// enum Library {
///     Book(Book),
///     BookId(BookId),
///     Unknown(stamp::AttributeMap),
/// }
/// ```
///
/// A collection is what a query of a partition with several entity types
/// decodes into (`Book::query(…).collection::<Library>()`), and what a
/// change of a stream decodes into: `stamp::streams::Change<C>` and
/// `Table::changes::<C>` take a collection even for a table of one entity
/// (`enum Books { Book(Book), Unknown(stamp::AttributeMap) }`).
///
/// - Without options, the members must share one partition key template on
///   the table (checked at compile time).
/// - `#[stamp(index = N)]`: a collection of GSI N, whose members share its
///   partition key template.
/// - `#[stamp(vector = N)]`: the results of a similarity search of vector
///   index N, which two members or more write.
/// - `#[stamp(any_partition)]`: members of any partitions, for a change
///   feed over the whole table (`Change<C>`, `Table::changes`); no query
///   reads such an enum.
///
/// The `stamp` crate documentation, "Collections", has the example
/// compiled.
#[proc_macro_derive(Collection, attributes(stamp))]
pub fn derive_collection(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    collection::derive(&input).into()
}

/// Derives `stamp::Projection<E>` for a struct of some of entity `E`'s
/// fields, named by `#[stamp(entity = E)]`: `Query::project::<P>()` then
/// reads only those attributes (a `ProjectionExpression` made from the
/// fields) and decodes each item into `P` through its `Deserialize`. Each
/// field must be a stored field of `E` of the same type (an `Option<T>`
/// field may read a field of type `T`), under the attribute name `E` stores
/// it; anything else does not compile.
#[proc_macro_derive(Projection, attributes(stamp))]
pub fn derive_projection(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    projection::derive(&input).into()
}

/// Derives the attribute constants of a struct stored inside an entity (a
/// map attribute), one per serialized field, as `#[derive(Item)]` does for
/// an entity: `Address::CITY: stamp::Attribute<Address, String,
/// stamp::Required>` (an `Option<T>` field is `Optional`, of type `T`),
/// under the name serde stores it (`rename`, `rename_all`), encoded as
/// serde stores it inside the struct (`with`, `serialize_with`,
/// `skip_serializing_if`). `Attribute::then` joins them to the entity's:
/// `Customer::ADDRESS.then(Address::CITY)` is the document path
/// `address.city`, for conditions and updates. Fields serde skips or
/// flattens have none. Takes `#[stamp(crate = "…")]`.
///
/// ```text
/// #[derive(stamp::Attributes, Serialize, Deserialize, Clone)]
/// struct Address { city: String, #[serde(rename = "zip_code")] zip: Option<String> }
/// ```
#[proc_macro_derive(Attributes, attributes(stamp))]
pub fn derive_attributes(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    nested::derive(&input).into()
}
