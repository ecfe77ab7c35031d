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

impl TemplatePlace {
    /// The expression of the template, given `__schema`.
    pub fn path(&self) -> TokenStream {
        match self {
            TemplatePlace::PartitionKey => quote!(__schema.partition_key.template),
            TemplatePlace::SortKey => quote!(__schema.sort_key.template),
            TemplatePlace::IndexPartitionKey(position) => {
                quote!(__schema.indexes[#position].partition_template().expect("a template index"))
            }
            TemplatePlace::IndexSortKey(position) | TemplatePlace::LocalSortKey(position) => {
                quote!(__schema.indexes[#position].sort_template().expect("the index has a sort key"))
            }
            TemplatePlace::VectorPartitionKey(position) => {
                quote!(__schema.indexes[#position].partition_template().expect("a vector index partitioned by a template"))
            }
            TemplatePlace::PreviousPartitionKey => {
                quote!(
                    __schema
                        .previous_key
                        .as_ref()
                        .expect("the entity has a previous key format")
                        .partition_key
                )
            }
            TemplatePlace::PreviousSortKey => {
                quote!(
                    __schema
                        .previous_key
                        .as_ref()
                        .expect("the entity has a previous key format")
                        .sort_key
                )
            }
        }
    }

    fn is_partition_key(&self) -> bool {
        matches!(
            self,
            TemplatePlace::PartitionKey
                | TemplatePlace::IndexPartitionKey(_)
                | TemplatePlace::PreviousPartitionKey
                | TemplatePlace::VectorPartitionKey(_)
        )
    }
}

/// The static `KeyTemplate` of `key`.
pub fn key_template_tokens(krate: &syn::Path, key: &Key) -> TokenStream {
    let source = key.source();
    let segments = key.segments.iter().map(|segment| match segment {
        Segment::Literal(text) => quote!(#krate::Segment::Literal(#text)),
        Segment::Field(field) => {
            let name = &field.name;
            quote!(#krate::Segment::Field(#name))
        }
        Segment::Shard(count) => quote!(#krate::Segment::Shard(#count)),
    });
    quote! {
        #krate::KeyTemplate {
            source: #source,
            segments: &[#(#segments),*],
            escaped: #krate::KeyTemplate::ESCAPED,
        }
    }
}

/// An expression building one key attribute value from the parameters named
/// after the template's fields.
pub fn build_key(model: &Model, key: &Key, place: &TemplatePlace) -> TokenStream {
    build_key_from(model, &key.segments, place)
}

/// The same, for the first `segments` of a template (a sort-key prefix).
pub fn build_key_from(model: &Model, segments: &[Segment], place: &TemplatePlace) -> TokenStream {
    build_segments(model, segments, place, true)
}

/// The text of `segments` without the length check: the part of a sharded
/// partition key before the shard, which the query checks with each
/// shard's number appended.
pub fn build_key_unchecked(
    model: &Model,
    segments: &[Segment],
    place: &TemplatePlace,
) -> TokenStream {
    build_segments(model, segments, place, false)
}

fn build_segments(
    model: &Model,
    segments: &[Segment],
    place: &TemplatePlace,
    checked: bool,
) -> TokenStream {
    let krate = model.krate;
    let template_path = place.path();
    let mut capacity = vec![quote!(#template_path.literal_len())];
    let limit = if place.is_partition_key() {
        quote!(#krate::limits::MAX_PARTITION_KEY_BYTES)
    } else {
        quote!(#krate::limits::MAX_SORT_KEY_BYTES)
    };
    let finish = if checked {
        quote!(__builder.finish_within(#limit)?)
    } else {
        quote!(__builder.finish())
    };
    let mut steps = Vec::new();
    for segment in segments {
        match segment {
            Segment::Literal(text) => steps.push(quote!(__builder.literal(#text);)),
            // The shard number, from the local `__shard` of the caller.
            Segment::Shard(_) => {
                capacity.push(quote!(2));
                steps.push(quote!(__builder.shard(__shard);));
            }
            Segment::Field(field) => {
                let ident = field.ident;
                let name = &field.name;
                if field.is_string() {
                    capacity.push(quote!(#ident.len()));
                    steps.push(quote!(__builder.str_field(#name, #ident)?;));
                } else {
                    let ty = field.key_type();
                    capacity.push(quote_spanned!(ty.span()=> <#ty as #krate::KeyPart>::LEN_HINT));
                    steps.push(quote_spanned!(ty.span()=> __builder.field::<#ty>(#name, #ident)?;));
                }
            }
        }
    }
    quote! {{
        let mut __builder = #krate::__private::KeyBuilder::new(
            __schema.type_name,
            &#template_path,
            #(#capacity)+*,
        );
        #(#steps)*
        #finish
    }}
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

/// The `# Errors` section of every key builder's documentation.
const KEY_ERRORS: &str = "# Errors\n\n\
    `stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; \
    `stamp::KeyError::KeyEncode` when a field has no key encoding.";

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
    let build_pk = build_key(model, pk, &places.0);
    let build_sk = build_key(model, sk, &places.1);
    let doc = format!("{summary}\n\n{KEY_ERRORS}");
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #function(#(#parameters),*) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
            #unpack
            let __schema = <Self as #krate::Entity>::SCHEMA;
            let __partition_key = #build_pk;
            let __sort_key = #build_sk;
            ::core::result::Result::Ok(#krate::PrimaryKey::from_parts(__partition_key, __sort_key))
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
    let build_pk = build_key(
        model,
        &index.pk,
        &TemplatePlace::IndexPartitionKey(position),
    );
    let (shard_parameter, shard_check, shard_doc) = match index.pk.shards() {
        Some(count) => (
            Some(quote!(shard: u16)),
            quote! {
                let __shard = shard;
                if __shard >= #count {
                    return ::core::result::Result::Err(#krate::Error::Key(#krate::KeyError::InvalidShard {
                        entity: <Self as #krate::Entity>::SCHEMA.type_name,
                        index: <Self as #krate::Entity>::SCHEMA.indexes[#position].name,
                        shard: __shard,
                        shards: #count,
                    }));
                }
            },
            format!(
                "\n\nThe index is sharded over {count} partition keys: `shard` (0 to {}) is the item's shard, `stamp::shard_of(PK, SK, {count})` of its primary key; `stamp::KeyError::InvalidShard` for another.",
                count - 1,
            ),
        ),
        None => (None, quote!(), String::new()),
    };
    let build_sk = match &index.sk {
        Some(key) => {
            let build = build_key(model, key, &TemplatePlace::IndexSortKey(position));
            quote!(::core::option::Option::Some(#build))
        }
        None => quote!(::core::option::Option::None),
    };
    let doc = format!(
        "Builds the key of a `{}` in index `{}`: `{}` = `{}`{}.{shard_doc}\n\n{KEY_ERRORS}",
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
            #shard_check
            #unpack
            let __schema = <Self as #krate::Entity>::SCHEMA;
            let __partition_key = #build_pk;
            let __sort_key = #build_sk;
            ::core::result::Result::Ok(#krate::IndexKey::from_parts(&__schema.indexes[#position], __partition_key, __sort_key))
        }
    };
    (function, definition)
}

/// The name `gsiN_key` of an index's key builder.
pub fn index_key_function_name(index: &IndexKeys) -> Ident {
    names::ident(&names::gsi_key(index.number))
}
