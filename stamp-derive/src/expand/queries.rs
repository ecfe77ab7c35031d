//! Queries and writes by key: `query`, `query_gsiN`, `scan`, `update`, and
//! the typed sort-key prefixes (`impl SortKeyPrefix`) their conditions take.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use crate::check::{Key, Model, Segment, distinct_fields};
use crate::expand::IndexRef;
use crate::expand::keys::{KeyInputs, MORE, TemplatePlace, input_name, key_args, key_inputs};
use crate::names;

/// The inherent query functions: one per key (table and GSIs), scoped to
/// the entity, then `scan` and `update`; and the input structs of those
/// that take their fields by name.
pub fn query_functions(
    model: &Model,
    key_inputs: &KeyInputs,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut definitions = Vec::new();
    let container = model.container;
    let ident = model.ident;
    let doc = format!(
        "A query of `{ident}` items on the table: `{} = {}`, sort key `{}` = `{}`{MORE}.",
        container.pk_attribute.value,
        model.pk.source(),
        container.sk_attribute.value,
        model.sk.source(),
    );
    let mut functions = vec![query_function(
        model,
        (
            &names::ident(names::QUERY),
            input_name(model, names::PARTITION_INPUT),
        ),
        &doc,
        &model.pk,
        TemplatePlace::PartitionKey,
        IndexRef::Table,
        &mut definitions,
    )];
    for (position, index) in model.indexes.iter().enumerate() {
        let doc = format!(
            "A query of `{ident}` items on index `{}`: `{} = {}`{}{MORE}.",
            index.index.name,
            index.index.pk_attribute.value,
            index.pk.source(),
            index.sort_key_text(|attribute, source| format!(
                ", sort key `{attribute}` = `{source}`"
            )),
        );
        functions.push(query_function(
            model,
            (
                &names::ident(&names::query_gsi(index.number)),
                input_name(model, &names::gsi_partition_input(index.number)),
            ),
            &doc,
            &index.pk,
            TemplatePlace::IndexPartitionKey(position),
            IndexRef::Gsi(index.number),
            &mut definitions,
        ));
    }
    for index in &model.local_indexes {
        let doc = format!(
            "A query of `{ident}` items on local secondary index `{}`: `{} = {}`, sort key `{}` = `{}`{MORE}.",
            index.index.name,
            container.pk_attribute.value,
            model.pk.source(),
            index.index.sk_attribute.value,
            index.sk.source(),
        );
        // The same inputs as `query`, whose input struct (if any) is already defined.
        let mut shared = Vec::new();
        functions.push(query_function(
            model,
            (
                &names::ident(&names::query_lsi(index.number)),
                input_name(model, names::PARTITION_INPUT),
            ),
            &doc,
            &model.pk,
            TemplatePlace::PartitionKey,
            IndexRef::Lsi(index.number),
            &mut shared,
        ));
    }
    functions.push(scan_function(model));
    functions.push(update_function(model, key_inputs));
    functions.push(upsert_function(model, key_inputs));
    (functions, definitions)
}

/// One query function: the partition key built from its fields, an error
/// kept in the query until it is sent.
fn query_function(
    model: &Model,
    (function, input): (&Ident, Ident),
    doc: &str,
    pk: &Key,
    place: TemplatePlace,
    index: IndexRef,
    definitions: &mut Vec<TokenStream>,
) -> TokenStream {
    let krate = model.krate;
    let marker = index.marker(krate);
    let KeyInputs {
        parameters,
        unpack,
        definition,
        ..
    } = key_inputs(
        model.container,
        &distinct_fields(&[pk]),
        input,
        "the partition key",
    );
    definitions.extend(definition);
    // A sharded index: the text before the shard, which the query completes
    // with each shard number.
    let segments = match pk.shards() {
        Some(_) => &pk.segments[..pk.segments.len() - 1],
        None => &pk.segments[..],
    };
    let (at, args) = (place.at(), key_args(segments));
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #function(#(#parameters),*) -> #krate::Query<Self, #marker> {
            #unpack
            __stamp::query(#at, #args)
        }
    }
}

fn scan_function(model: &Model) -> TokenStream {
    let krate = model.krate;
    let container = model.container;
    let doc = format!(
        "A scan of the whole table for `{}` items (`{}` = `{}`); nothing is sent until `stream`.",
        model.ident, container.type_attribute.value, container.type_name,
    );
    let scan = names::ident(names::SCAN);
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #scan() -> #krate::Scan<Self> {
            #krate::Scan::new()
        }
    }
}

/// `update(…)`: the primary-key fields it is given are values it knows,
/// for rebuilding index attributes that use them.
fn update_function(model: &Model, inputs: &KeyInputs) -> TokenStream {
    let krate = model.krate;
    let ident = model.ident;
    let key_fields = distinct_fields(&[&model.pk, &model.sk]);
    let KeyInputs {
        parameters,
        unpack,
        forward,
        ..
    } = inputs;
    let known_key_values = key_fields.iter().filter_map(|field| {
        // A field serde does not store is no known value.
        field.serialized.as_ref()?;
        let ident = field.ident;
        let value = if field.is_string() {
            quote!(&::std::string::String::from(#ident))
        } else {
            quote!(#ident)
        };
        let constant = names::attribute_constant(&field.name, proc_macro2::Span::call_site());
        Some(quote!(__stamp::know(&mut __known, &Self::#constant, #value);))
    });
    let doc = format!(
        "An update of the `{ident}` item with this primary key, set through `{ident}::FIELD`{MORE}."
    );
    let update = names::ident(names::UPDATE);
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #update(#(#parameters),*) -> #krate::Update<Self> {
            #unpack
            #[allow(unused_mut)]
            let mut __known = #krate::AttributeMap::new();
            #(#known_key_values)*
            #krate::Update::new(Self::key(#forward)).with_known_values(__known)
        }
    }
}

/// `upsert(…)`: the update of the same key, made an upsert by stamp-core.
fn upsert_function(model: &Model, inputs: &KeyInputs) -> TokenStream {
    let krate = model.krate;
    let ident = model.ident;
    let KeyInputs {
        parameters,
        unpack,
        forward,
        ..
    } = inputs;
    let doc = format!(
        "An upsert of the `{ident}` item with this primary key: `{ident}::update(…).into_upsert()`{MORE}."
    );
    let update = names::ident(names::UPDATE);
    let upsert = names::ident(names::UPSERT);
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #upsert(#(#parameters),*) -> #krate::Update<Self> {
            #unpack
            Self::#update(#forward).into_upsert()
        }
    }
}

/// `impl SortKeyPrefix` for the table's sort key, every GSI sort key and
/// every LSI sort key.
pub fn prefix_impls(model: &Model) -> Vec<TokenStream> {
    let mut impls = sort_key_prefixes(model, &model.sk, &TemplatePlace::SortKey, IndexRef::Table);
    for (position, index) in model.indexes.iter().enumerate() {
        if let Some(key) = &index.sk {
            let place = TemplatePlace::IndexSortKey(position);
            impls.extend(sort_key_prefixes(
                model,
                key,
                &place,
                IndexRef::Gsi(index.number),
            ));
        }
    }
    for (position, index) in model.local_indexes.iter().enumerate() {
        let place = TemplatePlace::LocalSortKey(model.local_position(position));
        impls.extend(sort_key_prefixes(
            model,
            &index.sk,
            &place,
            IndexRef::Lsi(index.number),
        ));
    }
    impls
}

/// `impl SortKeyPrefix<E, I>` for each leading prefix of a sort-key
/// template's fields: `&A`, `(&A, &B)`, ….
fn sort_key_prefixes(
    model: &Model,
    key: &Key,
    place: &TemplatePlace,
    index: IndexRef,
) -> Vec<TokenStream> {
    let krate = model.krate;
    let index = index.marker(krate);
    let ident = model.ident;
    let all = &key.segments;
    let field_positions: Vec<usize> = all
        .iter()
        .enumerate()
        .filter_map(|(position, segment)| matches!(segment, Segment::Field(_)).then_some(position))
        .collect();
    let mut impls = Vec::new();
    for (count, &position) in field_positions.iter().enumerate() {
        let count = count + 1;
        let mut end = position + 1;
        if matches!(all.get(end), Some(Segment::Literal(_))) {
            end += 1;
        }
        let prefix = &all[..end];
        let fields: Vec<_> = prefix
            .iter()
            .filter_map(|segment| match segment {
                Segment::Field(field) => Some(*field),
                Segment::Literal(_) | Segment::Shard(_) => None,
            })
            .collect();
        let types: Vec<TokenStream> = fields
            .iter()
            .map(|field| {
                if field.is_string() {
                    quote!(&'__a str)
                } else {
                    let ty = field.key_type();
                    quote!(&'__a #ty)
                }
            })
            .collect();
        let idents: Vec<&Ident> = fields.iter().map(|field| field.ident).collect();
        let (self_type, binding) = if count == 1 {
            let ty = &types[0];
            let ident = idents[0];
            (quote!(#ty), quote!(let #ident = *self;))
        } else {
            (quote!((#(#types),*)), quote!(let (#(#idents),*) = *self;))
        };
        let at = place.at();
        let args = key_args(prefix);
        impls.push(quote! {
            #[automatically_derived]
            impl<'__a> #krate::SortKeyPrefix<#ident, #index> for #self_type {
                #[inline]
                fn sort_key_prefix(&self) -> ::core::result::Result<#krate::SortKeyText, #krate::Error> {
                    #binding
                    __stamp::key_prefix(<#ident as #krate::Entity>::SCHEMA, #at, #args)
                }
            }
        });
    }
    impls
}
