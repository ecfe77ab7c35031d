//! Key building: the static `KeyTemplate` of a template, the expression that
//! builds a key value from fields, and the key builders `key`, `gsiN_key`
//! and `previous_key`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::{Container, Field};
use crate::check::{IndexKeys, Key, Model, Segment, distinct_fields};
use crate::names;

/// Where a template's `KeyTemplate` lives inside `Self::SCHEMA`.
#[allow(clippy::enum_variant_names)] // They name key attributes, which all end in "key".
pub enum TemplatePlace {
    PartitionKey,
    SortKey,
    IndexPartitionKey(usize),
    IndexSortKey(usize),
    LocalSortKey(usize),
    /// The partition template of the vector index at this position of
    /// `EntitySchema::indexes`.
    VectorPartitionKey(usize),
    PreviousPartitionKey,
    PreviousSortKey,
}

/// One key attribute the entity builds from a template for a secondary
/// index (a GSI's partition and sort keys, an LSI's sort key: its
/// partition key is the table's; a vector index's partition template),
/// with where its template lives: the one
/// list that the key parsers, the update arms, the decoders and the key
/// examples read.
pub struct IndexTemplateKey<'m, 'a> {
    pub key: &'m Key<'a>,
    /// The attribute name, such as `GSI1PK` or `LSI1SK`.
    pub attribute: &'a str,
    pub place: TemplatePlace,
    /// `gsi1_partition_key`, `gsi1_sort_key`, `lsi1_sort_key`,
    /// `vector1_partition_key`.
    pub name: String,
}

/// Every [`IndexTemplateKey`] of `model`: each GSI's keys, then each LSI's
/// sort key, then each vector index's partition template.
pub fn index_template_keys<'m, 'a>(model: &'m Model<'a>) -> Vec<IndexTemplateKey<'m, 'a>> {
    let mut keys = Vec::new();
    for (position, index) in model.indexes.iter().enumerate() {
        let number = index.number;
        keys.push(IndexTemplateKey {
            key: &index.pk,
            attribute: &index.index.pk_attribute.value,
            place: TemplatePlace::IndexPartitionKey(position),
            name: names::gsi_partition_key(number),
        });
        if let Some(key) = &index.sk {
            keys.push(IndexTemplateKey {
                key,
                attribute: &index.index.sk_attribute.value,
                place: TemplatePlace::IndexSortKey(position),
                name: names::gsi_sort_key(number),
            });
        }
    }
    for (position, index) in model.local_indexes.iter().enumerate() {
        keys.push(IndexTemplateKey {
            key: &index.sk,
            attribute: &index.index.sk_attribute.value,
            place: TemplatePlace::LocalSortKey(model.local_position(position)),
            name: names::lsi_sort_key(index.number),
        });
    }
    for (position, index) in model.vector_indexes.iter().enumerate() {
        if let Some(key) = &index.pk {
            keys.push(IndexTemplateKey {
                key,
                attribute: &index.index.pk_attribute.value,
                place: TemplatePlace::VectorPartitionKey(model.vector_position(position)),
                name: names::vector_partition_key(index.number),
            });
        }
    }
    keys
}

/// The static `KeyTemplate` of `key`.
pub fn key_template_tokens(key: &Key) -> TokenStream {
    let parts = template_parts(key);
    quote!(__stamp::template(#parts))
}

/// The source and segments of `key`'s template, as `__private::template`
/// and `__private::key_attribute` take them.
pub fn template_parts(key: &Key) -> TokenStream {
    let source = key.source();
    let segments = key.segments.iter().map(|segment| match segment {
        Segment::Literal(text) => quote!(__stamp::L(#text)),
        Segment::Field(field) => {
            let name = &field.name;
            quote!(__stamp::F(#name))
        }
        Segment::Shard(count) => quote!(__stamp::S(#count)),
    });
    quote!(#source, &[#(#segments),*])
}

impl TemplatePlace {
    /// The place as stamp-core's `__private::At`, which the generic key
    /// functions take.
    pub fn at(&self) -> TokenStream {
        let position = |position: &usize| proc_macro2::Literal::usize_unsuffixed(*position);
        match self {
            TemplatePlace::PartitionKey => quote!(__stamp::At::Pk),
            TemplatePlace::SortKey => quote!(__stamp::At::Sk),
            TemplatePlace::IndexPartitionKey(at) | TemplatePlace::VectorPartitionKey(at) => {
                let at = position(at);
                quote!(__stamp::At::IndexPk(#at))
            }
            TemplatePlace::IndexSortKey(at) | TemplatePlace::LocalSortKey(at) => {
                let at = position(at);
                quote!(__stamp::At::IndexSk(#at))
            }
            TemplatePlace::PreviousPartitionKey => quote!(__stamp::At::PreviousPk),
            TemplatePlace::PreviousSortKey => quote!(__stamp::At::PreviousSk),
        }
    }
}

/// The key arguments (`__private::KeyArg`) of `segments`' placeholders,
/// from the locals named after the fields (and `__shard`): a string field
/// as `&str`, any other through `KeyPart::__stamp_key_arg`, spanned at its type so a type
/// without `KeyPart` gives its one error at the field.
pub fn key_args(segments: &[Segment]) -> TokenStream {
    let args = segments.iter().filter_map(|segment| match segment {
        Segment::Literal(_) => None,
        Segment::Shard(_) => Some(quote!(__stamp::KeyArg::Shard(__shard))),
        Segment::Field(field) => {
            let ident = field.ident;
            Some(if field.is_string() {
                quote!(__stamp::KeyArg::Str(#ident))
            } else {
                let ty = field.key_type();
                quote_spanned!(ty.span()=> <#ty as __stamp::KeyPart>::__stamp_key_arg(#ident))
            })
        }
    });
    quote!(&[#(#args),*])
}

/// An expression building one key attribute value from the locals named
/// after the template's fields: a `Result<String, Error>`, by stamp-core's
/// generic `build_key`.
pub fn build_key(model: &Model, key: &Key, place: &TemplatePlace) -> TokenStream {
    build_segments(model, &key.segments, place)
}

fn build_segments(_model: &Model, segments: &[Segment], place: &TemplatePlace) -> TokenStream {
    let at = place.at();
    let args = key_args(segments);
    quote!(__stamp::build_key(__schema, #at, #args))
}

/// The parameter type a key builder takes for `field`.
pub fn parameter_type(field: &Field) -> TokenStream {
    if field.is_string() {
        quote!(&str)
    } else {
        let ty = field.key_type();
        quote!(&#ty)
    }
}

/// The parameters `field: &Type, …` of a key builder taking `fields`.
pub fn parameters(fields: &[&Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|field| {
            let ident = field.ident;
            let ty = parameter_type(field);
            quote!(#ident: #ty)
        })
        .collect()
}

/// How a key function takes its fields.
pub struct KeyInputs {
    /// The function's parameters.
    pub parameters: Vec<TokenStream>,
    /// The statement that binds each field's identifier from the
    /// parameters (empty for positional parameters).
    pub unpack: TokenStream,
    /// The named input struct, when there is one, to emit beside the impl.
    pub definition: Option<TokenStream>,
    /// The expression that passes the fields, bound by `unpack`, on to
    /// another key function taking the same inputs.
    pub forward: TokenStream,
}

/// The inputs of a key function over `fields`: positional (`field: &T, …`)
/// when no two fields take the same parameter type, so that no two can be
/// swapped silently; otherwise one parameter of the generated struct `name`
/// with a public field per key field (`Order::key(OrderKey { customer_id:
/// "c-1", order_id: "o-1" })`, as ElectroDB takes an object of named
/// fields).
pub fn key_inputs(
    container: &Container,
    fields: &[&Field],
    name: Ident,
    purpose: &str,
) -> KeyInputs {
    let idents: Vec<&Ident> = fields.iter().map(|field| field.ident).collect();
    if !ambiguous(fields) {
        return KeyInputs {
            parameters: parameters(fields),
            unpack: TokenStream::new(),
            definition: None,
            forward: quote!(#(#idents),*),
        };
    }
    let vis = container.vis;
    let entity = container.ident;
    let members = fields.iter().map(|field| {
        let ident = field.ident;
        let ty = lifetime_parameter_type(field);
        let doc = format!("The `{}` field of the `{entity}`.", field.name);
        quote!(#[doc = #doc] pub #ident: #ty)
    });
    let doc = format!(
        "The fields of {purpose} of `{entity}`, by name: two of them have the same type, so the key functions take them named, never by position, and they cannot be swapped."
    );
    KeyInputs {
        parameters: vec![quote!(key: #name<'_>)],
        unpack: quote!(let #name { #(#idents),* } = key;),
        definition: Some(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy)]
            #vis struct #name<'a> {
                #(#members),*
            }
        }),
        forward: quote!(#name { #(#idents),* }),
    }
}

/// The field type of a key-input struct: the parameter type with lifetime `'a`.
fn lifetime_parameter_type(field: &Field) -> TokenStream {
    if field.is_string() {
        quote!(&'a str)
    } else {
        let ty = field.key_type();
        quote!(&'a #ty)
    }
}

/// The names of the key-input structs of an entity: `OrderKey` (`key`,
/// `update`), `OrderPreviousKey`, `OrderPartition` (`query`),
/// `OrderGsi1Key` and `OrderGsi1Partition`.
pub fn input_name(model: &Model, suffix: &str) -> Ident {
    input_name_of(model.ident, suffix)
}

/// [`input_name`] from the struct's name (for the fallback stubs).
pub fn input_name_of(ident: &Ident, suffix: &str) -> Ident {
    names::key_input(ident, suffix)
}

/// Whether two of `fields` take the same parameter type, so that the key
/// functions over them take a named input struct.
pub fn ambiguous(fields: &[&Field]) -> bool {
    let types: Vec<String> = fields
        .iter()
        .map(|field| parameter_type(field).to_string())
        .collect();
    types
        .iter()
        .enumerate()
        .any(|(position, ty)| types[..position].contains(ty))
}

/// The arguments of a call of a key function over `fields` (whose input
/// struct, if it has one, is `name`) with `values`, one per field.
pub fn pass_arguments(fields: &[&Field], name: &Ident, values: Vec<TokenStream>) -> TokenStream {
    if ambiguous(fields) {
        let idents = fields.iter().map(|field| field.ident);
        quote!(#name { #(#idents: #values),* })
    } else {
        quote!(#(#values),*)
    }
}

/// The arguments that call a key builder over `fields` from an entity:
/// `&self.field, …`, or the input struct `name` of them.
pub fn self_arguments(fields: &[&Field], name: &Ident) -> TokenStream {
    let values = fields
        .iter()
        .map(|field| {
            let ident = field.ident;
            quote!(&self.#ident)
        })
        .collect();
    pass_arguments(fields, name, values)
}

/// The link every generated function's one-line documentation ends with:
/// the shared text (errors, conditions, when requests are sent) is said
/// once, in the `stamp::key` module's documentation.
pub const MORE: &str = " ([more](stamp::key#generated-functions))";

/// A builder of a primary key, `key(…)` or `previous_key(…)`, whose
/// documentation starts with `summary`.
pub fn primary_key_function(
    model: &Model,
    function: &Ident,
    summary: &str,
    (pk, sk): (&Key, &Key),
    places: (TemplatePlace, TemplatePlace),
    inputs: &KeyInputs,
) -> TokenStream {
    let krate = model.krate;
    let KeyInputs {
        parameters, unpack, ..
    } = inputs;
    let build = match places.0 {
        TemplatePlace::PreviousPartitionKey => quote!(__stamp::previous_key),
        _ => quote!(__stamp::primary_key),
    };
    let (pk_args, sk_args) = (key_args(&pk.segments), key_args(&sk.segments));
    let doc = format!("{summary}{MORE}");
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #function(#(#parameters),*) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
            #unpack
            #build(#pk_args, #sk_args)
        }
    }
}

/// The inputs of `key(…)` and `update(…)`: the primary key's fields.
pub fn primary_key_inputs(model: &Model) -> KeyInputs {
    key_inputs(
        model.container,
        &distinct_fields(&[&model.pk, &model.sk]),
        input_name(model, names::KEY_INPUT),
        "the primary key",
    )
}

/// `key(…)`: the primary key builder.
pub fn key_function(model: &Model, inputs: &KeyInputs) -> TokenStream {
    let container = model.container;
    let summary = format!(
        "Builds the primary key of a `{}`: `{}` = `{}`, `{}` = `{}`.",
        model.ident,
        container.pk_attribute.value,
        model.pk.source(),
        container.sk_attribute.value,
        model.sk.source(),
    );
    primary_key_function(
        model,
        &names::ident(names::KEY),
        &summary,
        (&model.pk, &model.sk),
        (TemplatePlace::PartitionKey, TemplatePlace::SortKey),
        inputs,
    )
}

/// `gsiN_key(…)`: the key of an item in one index, and its input struct
/// when it has one.
pub fn index_key_function(
    model: &Model,
    position: usize,
    index: &IndexKeys,
) -> (TokenStream, Option<TokenStream>) {
    let krate = model.krate;
    let keys: Vec<&Key> = std::iter::once(&index.pk).chain(&index.sk).collect();
    let KeyInputs {
        parameters,
        unpack,
        definition,
        ..
    } = key_inputs(
        model.container,
        &distinct_fields(&keys),
        input_name(model, &names::gsi_key_input(index.number)),
        &format!("the key in index `{}`", index.index.name),
    );
    let function = index_key_function_name(index);
    let (shard_parameter, shard_binding, shard_doc) = match index.pk.shards() {
        Some(count) => (
            Some(quote!(shard: u16)),
            quote!(let __shard = shard;),
            format!(" `shard` is the item's (0 to {}).", count - 1,),
        ),
        None => (None, quote!(), String::new()),
    };
    let pk_args = key_args(&index.pk.segments);
    let sk_args = match &index.sk {
        Some(key) => {
            let args = key_args(&key.segments);
            quote!(::core::option::Option::Some(#args))
        }
        None => quote!(::core::option::Option::None),
    };
    let doc = format!(
        "Builds the key of a `{}` in index `{}`: `{}` = `{}`{}.{shard_doc}{MORE}",
        model.ident,
        index.index.name,
        index.index.pk_attribute.value,
        index.pk.source(),
        index.sort_key_text(|attribute, source| format!(", `{attribute}` = `{source}`")),
    );
    let parameters = parameters.iter().chain(shard_parameter.as_ref());
    let function = quote! {
        #[doc = #doc]
        #[inline]
        pub fn #function(#(#parameters),*) -> ::core::result::Result<#krate::IndexKey<Self>, #krate::Error> {
            #shard_binding
            #unpack
            __stamp::index_key(#position, #pk_args, #sk_args)
        }
    };
    (function, definition)
}

/// The name `gsiN_key` of an index's key builder.
pub fn index_key_function_name(index: &IndexKeys) -> Ident {
    names::ident(&names::gsi_key(index.number))
}
