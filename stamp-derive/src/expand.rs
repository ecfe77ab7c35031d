//! Generates the code of `#[derive(Item)]` from a checked [`Container`].

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Fields, Ident};

use crate::ast::{self, Container, Field, Index, Template};
use crate::check;
use crate::ctxt::Ctxt;
use crate::template::Piece;

/// The derive's entry point: the generated code, or only the errors.
pub fn derive_item(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    if let Some(shape) = ast::unsupported_shape(input) {
        cx.error_spanned_by(
            ident,
            format!(
                "`#[derive(Item)]` needs a struct with named fields, but `{ident}` is {shape}: an item stores each named field as an attribute"
            ),
        );
    }
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            format!("`#[derive(Item)]` does not support generic parameters on `{ident}`: an entity has one concrete type"),
        );
    }
    let named = match &input.data {
        syn::Data::Struct(syn::DataStruct {
            fields: Fields::Named(named),
            ..
        }) if input.generics.params.is_empty() => named,
        _ => return cx.check().err().unwrap_or_default(),
    };
    let container = Container::from_ast(&mut cx, input, named);
    check::check(&mut cx, &container);
    match cx.check() {
        Ok(()) => generate(&container),
        Err(errors) => errors,
    }
}

/// Where a template's [`KeyTemplate`] lives inside `Self::SCHEMA`.
#[allow(clippy::enum_variant_names)] // They name key attributes, which all end in "key".
enum TemplatePlace {
    PartitionKey,
    SortKey,
    IndexPartitionKey(usize),
    IndexSortKey(usize),
    PreviousPartitionKey,
    PreviousSortKey,
}

impl TemplatePlace {
    fn path(&self) -> TokenStream {
        match self {
            TemplatePlace::PartitionKey => quote!(__schema.partition_key.template),
            TemplatePlace::SortKey => quote!(__schema.sort_key.template),
            TemplatePlace::IndexPartitionKey(position) => {
                quote!(__schema.indexes[#position].partition_key.template)
            }
            TemplatePlace::IndexSortKey(position) => {
                quote!(__schema.indexes[#position].sort_key.as_ref().expect("the index has a sort key").template)
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
}

fn pieces(template: &Template) -> &[Piece] {
    template
        .pieces
        .as_deref()
        .expect("checked templates have pieces")
}

fn field<'c>(container: &'c Container, name: &str) -> &'c Field<'c> {
    container
        .fields
        .iter()
        .find(|field| field.name == name)
        .expect("checked template fields exist")
}

/// The distinct fields of some templates, in order of first use.
fn template_fields<'c>(container: &'c Container, templates: &[&Template]) -> Vec<&'c Field<'c>> {
    let mut fields: Vec<&Field> = Vec::new();
    for name in templates.iter().flat_map(|template| template.fields()) {
        if !fields.iter().any(|known| known.name == name) {
            fields.push(field(container, name));
        }
    }
    fields
}

/// The parameter type a key builder takes for `field`.
fn parameter_type(field: &Field) -> TokenStream {
    if field.is_string() {
        quote!(&str)
    } else {
        let ty = field.key_type();
        quote!(&#ty)
    }
}

fn key_template_tokens(krate: &syn::Path, template: &Template) -> TokenStream {
    let pieces = pieces(template);
    let source = template.literal.value();
    let segments = pieces.iter().map(|piece| match piece {
        Piece::Literal(text) => quote!(#krate::Segment::Literal(#text)),
        Piece::Field(name) => quote!(#krate::Segment::Field(#name)),
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
fn build_key(container: &Container, template: &Template, place: &TemplatePlace) -> TokenStream {
    build_key_from(container, pieces(template), place)
}

/// The same, for the first `pieces` of a template (a sort-key prefix).
fn build_key_from(container: &Container, pieces: &[Piece], place: &TemplatePlace) -> TokenStream {
    let krate = &container.krate;
    let template_path = place.path();
    let mut capacity = vec![quote!(#template_path.literal_len())];
    let limit = match place {
        TemplatePlace::PartitionKey
        | TemplatePlace::IndexPartitionKey(_)
        | TemplatePlace::PreviousPartitionKey => {
            quote!(#krate::__private::PARTITION_KEY_LIMIT)
        }
        TemplatePlace::SortKey
        | TemplatePlace::IndexSortKey(_)
        | TemplatePlace::PreviousSortKey => {
            quote!(#krate::__private::SORT_KEY_LIMIT)
        }
    };
    let mut steps = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Literal(text) => steps.push(quote!(__builder.literal(#text);)),
            Piece::Field(name) => {
                let field = field(container, name);
                let ident = field.ident;
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
        __builder.finish_within(#limit)?
    }}
}

/// `impl SortKeyPrefix<E, INDEX>` for each leading prefix of a sort-key
/// template's fields: `&A`, `(&A, &B)`, ….
fn sort_key_prefixes(
    container: &Container,
    template: &Template,
    place: &TemplatePlace,
    index: u8,
) -> Vec<TokenStream> {
    let krate = &container.krate;
    let ident = container.ident;
    let all = pieces(template);
    let field_positions: Vec<usize> = all
        .iter()
        .enumerate()
        .filter_map(|(position, piece)| matches!(piece, Piece::Field(_)).then_some(position))
        .collect();
    let mut impls = Vec::new();
    for (count, &position) in field_positions.iter().enumerate() {
        let count = count + 1;
        let mut end = position + 1;
        if matches!(all.get(end), Some(Piece::Literal(_))) {
            end += 1;
        }
        let prefix = &all[..end];
        let fields: Vec<&Field> = prefix
            .iter()
            .filter_map(|piece| match piece {
                Piece::Field(name) => Some(field(container, name)),
                Piece::Literal(_) => None,
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
        let build = build_key_from(container, prefix, place);
        let complete = count == field_positions.len();
        impls.push(quote! {
            #[automatically_derived]
            impl<'__a> #krate::SortKeyPrefix<#ident, #index> for #self_type {
                fn sort_key_prefix(&self) -> ::core::result::Result<#krate::SortKeyText, #krate::Error> {
                    let __schema = <#ident as #krate::Entity>::SCHEMA;
                    #binding
                    ::core::result::Result::Ok(#krate::SortKeyText { text: #build, complete: #complete })
                }
            }
        });
    }
    impls
}

/// `parse_…` for one key attribute: splits a key value back into its fields.
fn parse_function(
    container: &Container,
    template: &Template,
    place: &TemplatePlace,
    function: &Ident,
    attribute: &str,
) -> TokenStream {
    let krate = &container.krate;
    let template_path = place.path();
    let fields: Vec<&Field> = template
        .fields()
        .map(|name| field(container, name))
        .collect();
    let types = fields.iter().map(|field| field.key_type());
    let decoded = fields.iter().enumerate().map(|(position, field)| {
        let name = &field.name;
        let ty = field.key_type();
        quote_spanned! {ty.span()=>
            {
                let __value = <#ty as #krate::KeyPart>::decode_key(&__segments[#position])
                    .map_err(|__source| #krate::__private::key_decode_error(__schema.type_name, #name, key, __source))?;
                #krate::__private::check_canonical(__schema.type_name, #name, key, &__segments[#position], |__out| {
                    <#ty as #krate::KeyPart>::encode_key(&__value, __out)
                })?;
                __value
            }
        }
    });
    let source = template.literal.value();
    let names: Vec<&str> = fields.iter().map(|field| field.name.as_str()).collect();
    let doc = format!(
        "Parses a `{attribute}` value of `{}` back into its fields ({}), following the template `{source}`.\n\n\
         # Errors\n\n\
         `stamp::Error::KeyMismatch` when the value does not have the template's shape; \
         `stamp::Error::KeyDecode` when a field segment is not a valid encoding of its type.",
        container.ident,
        if names.is_empty() {
            "none: the template is a constant".to_owned()
        } else {
            names.join(", ")
        },
    );
    let unused = fields.is_empty().then(|| quote!(let _ = &__segments;));
    quote! {
        #[doc = #doc]
        pub fn #function(key: &str) -> ::core::result::Result<(#(#types,)*), #krate::Error> {
            let __schema = <Self as #krate::Entity>::SCHEMA;
            let __segments = #template_path.split(__schema.type_name, key)?;
            #unused
            ::core::result::Result::Ok((#(#decoded,)*))
        }
    }
}

fn generate(container: &Container) -> TokenStream {
    let krate = &container.krate;
    let ident = container.ident;
    let pk = container.pk.as_ref().expect("checked");
    let sk = container.sk.as_ref().expect("checked");
    let mut indexes: Vec<&Index> = container.indexes.iter().collect();
    indexes.sort_by_key(|index| index.number);

    // The static schema.
    let type_name = &container.type_name;
    let type_attribute = &container.type_attribute.value;
    let pk_attribute = &container.pk_attribute.value;
    let sk_attribute = &container.sk_attribute.value;
    let pk_template = key_template_tokens(krate, pk);
    let sk_template = key_template_tokens(krate, sk);
    let index_schemas = indexes.iter().map(|index| {
        let number = index.number as u8;
        let name = &index.name;
        let index_pk = &index.pk_attribute.value;
        let index_pk_template = key_template_tokens(krate, index.pk.as_ref().expect("checked"));
        let sort_key = match &index.sk {
            Some(template) => {
                let index_sk = &index.sk_attribute.value;
                let index_sk_template = key_template_tokens(krate, template);
                quote!(::core::option::Option::Some(#krate::KeyAttribute { name: #index_sk, template: #index_sk_template }))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #krate::IndexSchema {
                number: #number,
                name: #name,
                partition_key: #krate::KeyAttribute { name: #index_pk, template: #index_pk_template },
                sort_key: #sort_key,
            }
        }
    });
    let serialized = container
        .fields
        .iter()
        .filter_map(|field| field.serialized.as_deref());
    let ttl_field = container
        .fields
        .iter()
        .find(|field| field.ttl.is_some() && field.serialized.is_some());
    let ttl_attribute = match ttl_field.and_then(|field| field.serialized.as_deref()) {
        Some(name) => quote!(::core::option::Option::Some(#name)),
        None => quote!(::core::option::Option::None),
    };
    // A TTL is stored as a Number of epoch seconds, not as serde writes the field.
    let (ttl_to_item, ttl_from_item) = match ttl_field {
        Some(field) => {
            let ident = field.ident;
            let name = field.serialized.as_deref().expect("filtered above");
            let ty = field.key_type();
            let value = if field.option_inner.is_some() {
                quote!(self.#ident.as_ref())
            } else {
                quote!(::core::option::Option::Some(&self.#ident))
            };
            (
                quote_spanned! {ty.span()=>
                    #krate::__private::store_time_to_live(
                        &mut __item,
                        #name,
                        #value,
                        <#ty as #krate::TimeToLive>::epoch_seconds,
                    );
                },
                quote_spanned! {ty.span()=>
                    #krate::__private::load_time_to_live(
                        <Self as #krate::Entity>::SCHEMA,
                        &mut item,
                        #name,
                        <#ty as #krate::TimeToLive>::from_epoch_seconds,
                    )?;
                },
            )
        }
        None => (quote!(), quote!()),
    };

    // Special fields: version and timestamps.
    let special = |get: fn(&Field) -> bool| {
        container
            .fields
            .iter()
            .find(|field| get(field) && field.serialized.is_some())
    };
    let optional_name =
        |field: Option<&Field>| match field.and_then(|field| field.serialized.as_deref()) {
            Some(name) => quote!(::core::option::Option::Some(#name)),
            None => quote!(::core::option::Option::None),
        };
    let version_field = special(|field| field.version.is_some());
    let created_at_field = special(|field| field.created_at.is_some());
    let updated_at_field = special(|field| field.updated_at.is_some());
    let version_attribute = optional_name(version_field);
    let created_at_attribute = optional_name(created_at_field);
    let updated_at_attribute = optional_name(updated_at_field);
    let field_attributes = container.fields.iter().filter_map(|field| {
        let attribute = field.serialized.as_deref()?;
        let name = &field.name;
        let optional = field.option_inner.is_some();
        Some(quote!(#krate::FieldAttribute { field: #name, attribute: #attribute, optional: #optional }))
    });
    // `KeyPart::example` of every field a current key template names, for
    // the catalogue. Spanned at the type, so that a type without `KeyPart`
    // gets the one error the key builders already give.
    let mut example_fields: Vec<&Field> = Vec::new();
    let templates = [&container.pk, &container.sk]
        .into_iter()
        .chain(
            container
                .indexes
                .iter()
                .flat_map(|index| [&index.pk, &index.sk]),
        )
        .flatten();
    for name in templates.flat_map(|template| template.fields()) {
        if let Some(found) = container.fields.iter().find(|field| field.name == name)
            && !example_fields.iter().any(|known| known.name == name)
        {
            example_fields.push(found);
        }
    }
    let example_arms = example_fields.iter().map(|field| {
        let name = &field.name;
        let ty = field.key_type();
        quote_spanned! {ty.span()=>
            #name => <#ty as #krate::KeyPart>::example(#name).and_then(|__value| {
                let mut __out = ::std::string::String::new();
                <#ty as #krate::KeyPart>::encode_key(&__value, &mut __out).ok()?;
                (!__out.is_empty()).then_some(__out)
            }),
        }
    });
    let key_example = quote! {{
        fn __key_example(__field: &str) -> ::core::option::Option<::std::string::String> {
            match __field {
                #(#example_arms)*
                _ => ::core::option::Option::None,
            }
        }
        __key_example
    }};
    let version_function = version_field.map(|field| {
        let ident = field.ident;
        let ty = field.ty;
        quote_spanned! {ty.span()=>
            fn version(&self) -> ::core::option::Option<u64> {
                ::core::option::Option::Some(<#ty as #krate::__private::VersionNumber>::as_u64(self.#ident))
            }

            fn max_version() -> u64 {
                <#ty as #krate::__private::VersionNumber>::MAX
            }
        }
    });
    // `to_item_at` stamps the time fields, in the stored attribute and in
    // the index attributes built from them.
    let stamps = [(created_at_field, true), (updated_at_field, false)]
        .into_iter()
        .filter_map(|(field, creating_only)| {
            let field = field?;
            let ident = field.ident;
            let local = format_ident!("__stamp_{}", field.name);
            let attribute = field.serialized.as_deref().expect("filtered");
            let ty = field.ty;
            let when = if creating_only {
                quote!(__time.filter(|__time| __time.creating))
            } else {
                quote!(__time)
            };
            let encoder = encoder_name(field);
            Some(quote_spanned! {ty.span()=>
                let #local: #ty = match #when {
                    ::core::option::Option::Some(__time) => {
                        #krate::__private::insert_encoded(__schema, &mut __item, #attribute, #encoder(&__time.now))?;
                        __time.now
                    }
                    ::core::option::Option::None => ::core::clone::Clone::clone(&self.#ident),
                };
            })
        })
        .collect::<Vec<_>>();

    // The primary key builder.
    let key_fields = template_fields(container, &[pk, sk]);
    let key_parameters = key_fields.iter().map(|field| {
        let ident = field.ident;
        let ty = parameter_type(field);
        quote!(#ident: #ty)
    });
    let key_arguments: Vec<TokenStream> = key_fields
        .iter()
        .map(|field| {
            let ident = field.ident;
            quote!(&self.#ident)
        })
        .collect();
    let build_pk = build_key(container, pk, &TemplatePlace::PartitionKey);
    let build_sk = build_key(container, sk, &TemplatePlace::SortKey);
    let key_doc = format!(
        "Builds the primary key of a `{ident}`: `{pk_attribute}` = `{}`, `{sk_attribute}` = `{}`.\n\n\
         # Errors\n\n\
         `stamp::Error::EmptyKeyValue` when a field encodes to the empty string; \
         `stamp::Error::KeyEncode` when a field has no key encoding.",
        pk.literal.value(),
        sk.literal.value(),
    );

    // Index key builders, and the index attributes of `to_item`.
    let mut index_functions = Vec::new();
    let mut index_attributes = Vec::new();
    for (position, index) in indexes.iter().enumerate() {
        let index_pk = index.pk.as_ref().expect("checked");
        let templates: Vec<&Template> =
            std::iter::once(index_pk).chain(index.sk.as_ref()).collect();
        let fields = template_fields(container, &templates);
        let function = format_ident!("gsi{}_key", index.number);
        let parameters = fields.iter().map(|field| {
            let ident = field.ident;
            let ty = parameter_type(field);
            quote!(#ident: #ty)
        });
        let build_index_pk = build_key(
            container,
            index_pk,
            &TemplatePlace::IndexPartitionKey(position),
        );
        let build_index_sk = match &index.sk {
            Some(template) => {
                let build = build_key(container, template, &TemplatePlace::IndexSortKey(position));
                quote!(::core::option::Option::Some(#build))
            }
            None => quote!(::core::option::Option::None),
        };
        let doc = format!(
            "Builds the key of a `{ident}` in index `{}`: `{}` = `{}`{}.\n\n\
             # Errors\n\n\
             `stamp::Error::EmptyKeyValue` when a field encodes to the empty string; \
             `stamp::Error::KeyEncode` when a field has no key encoding.",
            index.name,
            index.pk_attribute.value,
            index_pk.literal.value(),
            index
                .sk
                .as_ref()
                .map(|template| format!(
                    ", `{}` = `{}`",
                    index.sk_attribute.value,
                    template.literal.value()
                ))
                .unwrap_or_default(),
        );
        index_functions.push(quote! {
            #[doc = #doc]
            pub fn #function(#(#parameters),*) -> ::core::result::Result<#krate::IndexKey<Self>, #krate::Error> {
                let __schema = <Self as #krate::Entity>::SCHEMA;
                let __partition_key = #build_index_pk;
                let __sort_key = #build_index_sk;
                ::core::result::Result::Ok(#krate::IndexKey::from_parts(&__schema.indexes[#position], __partition_key, __sort_key))
            }
        });
        let pk_name = &index.pk_attribute.value;
        let sk_name = &index.sk_attribute.value;
        let optional: Vec<&&Field> = fields
            .iter()
            .filter(|field| field.option_inner.is_some())
            .collect();
        let arguments = fields.iter().map(|field| {
            let ident = field.ident;
            if field.option_inner.is_some() {
                let local = format_ident!("__value_{}", field.name);
                quote!(#local)
            } else if field.created_at.is_some() || field.updated_at.is_some() {
                let local = format_ident!("__stamp_{}", field.name);
                quote!(&#local)
            } else {
                quote!(&self.#ident)
            }
        });
        let insert = quote! {
            let (__partition_key, __sort_key) = Self::#function(#(#arguments),*)?.into_parts();
            #krate::__private::insert_string(&mut __item, #pk_name, __partition_key);
            if let ::core::option::Option::Some(__sort_key) = __sort_key {
                #krate::__private::insert_string(&mut __item, #sk_name, __sort_key);
            }
        };
        if optional.is_empty() {
            index_attributes.push(quote!({ #insert }));
        } else {
            let locals = optional
                .iter()
                .map(|field| format_ident!("__value_{}", field.name));
            let idents = optional.iter().map(|field| field.ident);
            index_attributes.push(quote! {
                // A sparse index: its attributes are written only when every field is `Some`.
                if let (#(::core::option::Option::Some(#locals),)*) = (#(&self.#idents,)*) {
                    #insert
                }
            });
        }
    }

    // Queries: one per key (table and GSIs), scoped to the entity, with
    // typed sort-key prefixes.
    let mut query_functions = Vec::new();
    let mut prefix_impls = sort_key_prefixes(container, sk, &TemplatePlace::SortKey, 0);
    let pk_fields = template_fields(container, &[pk]);
    let pk_parameters = pk_fields.iter().map(|field| {
        let ident = field.ident;
        let ty = parameter_type(field);
        quote!(#ident: #ty)
    });
    let query_doc = format!(
        "A query of `{ident}` items on the table: `{pk_attribute} = {}` and the sort key `{sk_attribute}` within `{}`.\n\n\
         Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of \
         the sort-key fields; nothing is sent until `send`, `stream` or `count`.",
        pk.literal.value(),
        sk.literal.value(),
    );
    query_functions.push(quote! {
        #[doc = #query_doc]
        pub fn query(#(#pk_parameters),*) -> #krate::Query<Self, 0> {
            let __schema = <Self as #krate::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<::std::string::String, #krate::Error> {
                ::core::result::Result::Ok(#build_pk)
            })();
            #krate::Query::new(__partition_key)
        }
    });
    for (position, index) in indexes.iter().enumerate() {
        let number = index.number as u8;
        let index_pk = index.pk.as_ref().expect("checked");
        let fields = template_fields(container, &[index_pk]);
        let parameters = fields.iter().map(|field| {
            let ident = field.ident;
            let ty = parameter_type(field);
            quote!(#ident: #ty)
        });
        let build = build_key(
            container,
            index_pk,
            &TemplatePlace::IndexPartitionKey(position),
        );
        let function = format_ident!("query_gsi{}", index.number);
        let doc = format!(
            "A query of `{ident}` items on index `{}`: `{} = {}`{}.\n\n\
             Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, …; \
             nothing is sent until `send`, `stream` or `count`.",
            index.name,
            index.pk_attribute.value,
            index_pk.literal.value(),
            index
                .sk
                .as_ref()
                .map(|template| format!(
                    " and the sort key `{}` within `{}`",
                    index.sk_attribute.value,
                    template.literal.value()
                ))
                .unwrap_or_default(),
        );
        query_functions.push(quote! {
            #[doc = #doc]
            pub fn #function(#(#parameters),*) -> #krate::Query<Self, #number> {
                let __schema = <Self as #krate::Entity>::SCHEMA;
                let __partition_key = (|| -> ::core::result::Result<::std::string::String, #krate::Error> {
                    ::core::result::Result::Ok(#build)
                })();
                #krate::Query::new(__partition_key)
            }
        });
        if let Some(template) = &index.sk {
            prefix_impls.extend(sort_key_prefixes(
                container,
                template,
                &TemplatePlace::IndexSortKey(position),
                number,
            ));
        }
    }

    let scan_doc = format!(
        "A scan of the table for `{ident}` items (type attribute `{type_attribute}` = `{type_name}`): reads \
         every item of the table. Nothing is sent until `stream`."
    );
    query_functions.push(quote! {
        #[doc = #scan_doc]
        pub fn scan() -> #krate::Scan<Self> {
            #krate::Scan::new()
        }
    });

    // Typed attributes for conditions and filters.
    let primary_key_fields: Vec<&str> = pk.fields().chain(sk.fields()).collect();
    let attributes = container.fields.iter().filter_map(|field| {
        let serialized = field.serialized.as_deref()?;
        let constant = format_ident!("{}", field.name.to_uppercase());
        let ty = field.key_type();
        let (kind, what) = if primary_key_fields.contains(&field.name.as_str()) {
            (quote!(#krate::PrimaryKeyField), "a primary-key field: conditions only, no update")
        } else if field.option_inner.is_some() {
            (quote!(#krate::Optional), "optional: an update may set or remove it")
        } else {
            (quote!(#krate::Required), "an update may set it")
        };
        let doc = format!("The `{serialized}` attribute of `{ident}`, for conditions, filters and updates ({what}).");
        let encoder = encoder_name(field);
        Some(quote! {
            #[doc = #doc]
            pub const #constant: #krate::Attribute<Self, #ty, #kind> = #krate::Attribute::with_encoder(#serialized, #encoder);
        })
    });

    // Index attributes from stored values, for updates.
    let mut from_values_arms = Vec::new();
    for (position, index) in indexes.iter().enumerate() {
        let attributes = [
            (
                index.pk.as_ref(),
                &index.pk_attribute.value,
                TemplatePlace::IndexPartitionKey(position),
            ),
            (
                index.sk.as_ref(),
                &index.sk_attribute.value,
                TemplatePlace::IndexSortKey(position),
            ),
        ];
        for (template, attribute, place) in attributes {
            let Some(template) = template else { continue };
            let fields = template_fields(container, &[template]);
            if let Some(unstored) = fields.iter().find(|field| field.serialized.is_none()) {
                let reason = format!(
                    "`{attribute}` is built from `{}`, which serde does not store, so an update cannot rebuild it",
                    unstored.name
                );
                from_values_arms.push(quote! {
                    #attribute => ::core::result::Result::Err(#krate::Error::InvalidUpdate {
                        entity: __schema.type_name,
                        reason: ::std::string::String::from(#reason),
                    }),
                });
                continue;
            }
            let bindings = fields.iter().map(|field| {
                let ident = field.ident;
                let ty = field.key_type();
                let stored = field.serialized.clone().unwrap_or_else(|| field.name.clone());
                let decoder = decoder_name(field);
                let decoded = quote! {
                    #decoder(__values.get(#stored)).map_err(|__source| #krate::Error::Deserialize {
                        entity: __schema.type_name,
                        source: __source,
                    })?
                };
                if field.option_inner.is_some() {
                    quote! {
                        let #ident: #ty = match #decoded {
                            ::core::option::Option::Some(__value) => __value,
                            ::core::option::Option::None => return ::core::result::Result::Ok(::core::option::Option::None),
                        };
                        let #ident = &#ident;
                    }
                } else {
                    quote! {
                        let #ident: #ty = #decoded;
                        let #ident = &#ident;
                    }
                }
            });
            let build = build_key(container, template, &place);
            from_values_arms.push(quote! {
                #attribute => {
                    #(#bindings)*
                    ::core::result::Result::Ok(::core::option::Option::Some(#build))
                }
            });
        }
    }
    let update_parameters = key_fields.iter().map(|field| {
        let ident = field.ident;
        let ty = parameter_type(field);
        quote!(#ident: #ty)
    });
    let update_arguments = key_fields.iter().map(|field| field.ident);
    // The primary-key fields the update is given are values it knows, for
    // rebuilding index attributes that use them.
    let known_key_values = key_fields.iter().filter_map(|field| {
        let attribute = field.serialized.as_deref()?;
        let ident = field.ident;
        let encoder = encoder_name(field);
        let value = if field.is_string() {
            quote!(&::std::string::String::from(#ident))
        } else {
            quote!(#ident)
        };
        Some(quote! {
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = #encoder(#value) {
                __known.insert(::std::string::String::from(#attribute), __value);
            }
        })
    });
    let update_doc = format!(
        "An update of the `{ident}` item with this primary key. Set fields through the attribute \
         constants (`{ident}::FIELD`); index attributes and `updated_at` are rewritten in the same request. \
         Nothing is sent until `send`."
    );
    query_functions.push(quote! {
        #[doc = #update_doc]
        pub fn update(#(#update_parameters),*) -> #krate::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = #krate::Item::new();
            #(#known_key_values)*
            #krate::Update::new(Self::key(#(#update_arguments),*)).with_known_values(__known)
        }
    });

    // Key parsers.
    let mut parse_functions = vec![
        parse_function(
            container,
            pk,
            &TemplatePlace::PartitionKey,
            &format_ident!("parse_partition_key"),
            pk_attribute,
        ),
        parse_function(
            container,
            sk,
            &TemplatePlace::SortKey,
            &format_ident!("parse_sort_key"),
            sk_attribute,
        ),
    ];
    for (position, index) in indexes.iter().enumerate() {
        parse_functions.push(parse_function(
            container,
            index.pk.as_ref().expect("checked"),
            &TemplatePlace::IndexPartitionKey(position),
            &format_ident!("parse_gsi{}_partition_key", index.number),
            &index.pk_attribute.value,
        ));
        if let Some(template) = &index.sk {
            parse_functions.push(parse_function(
                container,
                template,
                &TemplatePlace::IndexSortKey(position),
                &format_ident!("parse_gsi{}_sort_key", index.number),
                &index.sk_attribute.value,
            ));
        }
    }

    let (previous_key_schema, previous_functions, previous_primary_key_function) =
        previous_format(container);

    // One encoder per stored field, one decoder per field of a GSI template.
    let mut codecs: Vec<TokenStream> = container
        .fields
        .iter()
        .filter(|field| field.serialized.is_some())
        .map(|field| field_encoder(container, field))
        .collect();
    let index_templates: Vec<&Template> = indexes
        .iter()
        .flat_map(|index| index.pk.iter().chain(&index.sk))
        .collect();
    codecs.extend(
        template_fields(container, &index_templates)
            .into_iter()
            .filter(|field| field.serialized.is_some())
            .map(|field| field_decoder(container, field)),
    );
    let time_stamp_arms = [created_at_field, updated_at_field]
        .into_iter()
        .flatten()
        .map(|field| {
            let attribute = field.serialized.as_deref().expect("filtered");
            let encoder = encoder_name(field);
            quote! {
                #attribute => #encoder(&__now).map_err(|__source| #krate::Error::Serialize {
                    entity: <Self as #krate::Entity>::SCHEMA.type_name,
                    source: __source,
                }),
            }
        })
        .collect::<Vec<_>>();
    let time_stamp_function = (!time_stamp_arms.is_empty()).then(|| {
        quote! {
            fn time_stamp_value(
                __attribute: &str,
                __now: #krate::__private::chrono::DateTime<#krate::__private::chrono::Utc>,
            ) -> ::core::result::Result<::core::option::Option<#krate::__private::AttributeValue>, #krate::Error> {
                match __attribute {
                    #(#time_stamp_arms)*
                    _ => ::core::result::Result::Ok(::core::option::Option::None),
                }
            }
        }
    });

    let span = Span::call_site();
    quote_spanned! {span=>
        const _: () = {
            #(#codecs)*

            #[automatically_derived]
            impl #krate::Entity for #ident {
                const SCHEMA: &'static #krate::EntitySchema = &#krate::EntitySchema {
                    type_name: #type_name,
                    type_attribute: #type_attribute,
                    partition_key: #krate::KeyAttribute { name: #pk_attribute, template: #pk_template },
                    sort_key: #krate::KeyAttribute { name: #sk_attribute, template: #sk_template },
                    indexes: &[#(#index_schemas),*],
                    fields: &[#(#serialized),*],
                    ttl_attribute: #ttl_attribute,
                    field_attributes: &[#(#field_attributes),*],
                    version_attribute: #version_attribute,
                    created_at_attribute: #created_at_attribute,
                    updated_at_attribute: #updated_at_attribute,
                    previous_key: #previous_key_schema,
                    key_example: #key_example,
                };

                fn primary_key(&self) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
                    Self::key(#(#key_arguments),*)
                }

                fn to_item_at(
                    &self,
                    __time: ::core::option::Option<#krate::WriteTime>,
                ) -> ::core::result::Result<#krate::Item, #krate::Error> {
                    let __schema = <Self as #krate::Entity>::SCHEMA;
                    let (__partition_key, __sort_key) = <Self as #krate::Entity>::primary_key(self)?.into_parts();
                    let mut __item = #krate::__private::serialize_fields(__schema, self)?;
                    let _ = &__time;
                    #(#stamps)*
                    #krate::__private::insert_string(&mut __item, #pk_attribute, __partition_key);
                    #krate::__private::insert_string(&mut __item, #sk_attribute, __sort_key);
                    #(#index_attributes)*
                    #ttl_to_item
                    #krate::__private::insert_string(&mut __item, #type_attribute, ::std::string::String::from(#type_name));
                    ::core::result::Result::Ok(__item)
                }

                fn from_item(#[allow(unused_mut)] mut item: #krate::Item) -> ::core::result::Result<Self, #krate::Error> {
                    #ttl_from_item
                    #krate::__private::deserialize_fields(<Self as #krate::Entity>::SCHEMA, item)
                }

                #version_function

                #previous_primary_key_function

                #time_stamp_function

                fn key_attribute_from_values(
                    __attribute: &str,
                    __values: &#krate::Item,
                ) -> ::core::result::Result<::core::option::Option<::std::string::String>, #krate::Error> {
                    let __schema = <Self as #krate::Entity>::SCHEMA;
                    let _ = (&__schema, &__values);
                    match __attribute {
                        #(#from_values_arms)*
                        _ => ::core::result::Result::Ok(::core::option::Option::None),
                    }
                }
            }

            #[automatically_derived]
            impl #ident {
                #[doc = #key_doc]
                pub fn key(#(#key_parameters),*) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
                    let __schema = <Self as #krate::Entity>::SCHEMA;
                    let __partition_key = #build_pk;
                    let __sort_key = #build_sk;
                    ::core::result::Result::Ok(#krate::PrimaryKey::from_parts(__partition_key, __sort_key))
                }

                #(#index_functions)*

                #(#query_functions)*

                #(#parse_functions)*

                #previous_functions

                #(#attributes)*
            }

            #(#prefix_impls)*
        };
    }
}

/// For `#[stamp(previous(…))]`: the `previous_key` of the schema, the
/// inherent `previous_key(…)` and `parse_previous_…` functions, and
/// `Entity::previous_primary_key`.
fn previous_format(container: &Container) -> (TokenStream, TokenStream, TokenStream) {
    let krate = &container.krate;
    let ident = container.ident;
    let Some(previous) = &container.previous else {
        return (quote!(::core::option::Option::None), quote!(), quote!());
    };
    let pk = previous
        .pk
        .as_ref()
        .or(container.pk.as_ref())
        .expect("checked");
    let sk = previous
        .sk
        .as_ref()
        .or(container.sk.as_ref())
        .expect("checked");
    let pk_template = key_template_tokens(krate, pk);
    let sk_template = key_template_tokens(krate, sk);
    let schema = quote! {
        ::core::option::Option::Some(#krate::PreviousKeyFormat {
            partition_key: #pk_template,
            sort_key: #sk_template,
        })
    };
    let fields = template_fields(container, &[pk, sk]);
    let parameters = fields.iter().map(|field| {
        let ident = field.ident;
        let ty = parameter_type(field);
        quote!(#ident: #ty)
    });
    let arguments = fields.iter().map(|field| {
        let ident = field.ident;
        quote!(&self.#ident)
    });
    let build_pk = build_key(container, pk, &TemplatePlace::PreviousPartitionKey);
    let build_sk = build_key(container, sk, &TemplatePlace::PreviousSortKey);
    let pk_attribute = &container.pk_attribute.value;
    let sk_attribute = &container.sk_attribute.value;
    let doc = format!(
        "Builds the primary key a `{ident}` had in its previous key format \
         (`#[stamp(previous(…))]`): `{pk_attribute}` = `{}`, `{sk_attribute}` = `{}`. \
         Read an item that the key migration has not moved yet with it.\n\n\
         # Errors\n\n\
         `stamp::Error::EmptyKeyValue` when a field encodes to the empty string; \
         `stamp::Error::KeyEncode` when a field has no key encoding.",
        pk.literal.value(),
        sk.literal.value(),
    );
    let parse_pk = parse_function(
        container,
        pk,
        &TemplatePlace::PreviousPartitionKey,
        &format_ident!("parse_previous_partition_key"),
        pk_attribute,
    );
    let parse_sk = parse_function(
        container,
        sk,
        &TemplatePlace::PreviousSortKey,
        &format_ident!("parse_previous_sort_key"),
        sk_attribute,
    );
    let functions = quote! {
        #[doc = #doc]
        pub fn previous_key(#(#parameters),*) -> ::core::result::Result<#krate::PrimaryKey<Self>, #krate::Error> {
            let __schema = <Self as #krate::Entity>::SCHEMA;
            let __partition_key = #build_pk;
            let __sort_key = #build_sk;
            ::core::result::Result::Ok(#krate::PrimaryKey::from_parts(__partition_key, __sort_key))
        }

        #parse_pk

        #parse_sk
    };
    let trait_function = quote! {
        fn previous_primary_key(&self) -> ::core::result::Result<::core::option::Option<#krate::PrimaryKey<Self>>, #krate::Error> {
            Self::previous_key(#(#arguments),*).map(::core::option::Option::Some)
        }
    };
    (schema, functions, trait_function)
}

/// The name of the generated encoder of `field`.
fn encoder_name(field: &Field) -> Ident {
    format_ident!("__stamp_encode_{}", field.name)
}

/// The name of the generated decoder of `field`.
fn decoder_name(field: &Field) -> Ident {
    format_ident!("__stamp_decode_{}", field.name)
}

/// `#[serde(crate = "…")]` for the wrapper structs of the codecs.
fn serde_crate(krate: &syn::Path) -> String {
    format!("{}::__private::serde", quote!(#krate))
}

/// The encoder of one serialized field: a value of its key type (`T` for
/// `Option<T>`) to the attribute value `to_item` stores for it, through the
/// field's own serde attributes (a one-field wrapper struct serialized the
/// way `to_item` serializes the entity), `None` when `to_item` stores no
/// attribute (an empty set, a skipped value). A TTL is epoch seconds.
fn field_encoder(container: &Container, field: &Field) -> TokenStream {
    let krate = &container.krate;
    let name = encoder_name(field);
    let key_ty = field.key_type();
    let ty = field.ty;
    if field.ttl.is_some() {
        return quote_spanned! {ty.span()=>
            #[allow(non_snake_case)]
            fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<#krate::__private::AttributeValue>, #krate::__private::serde_dynamo::Error> {
                ::core::result::Result::Ok(::core::option::Option::Some(#krate::__private::AttributeValue::N(
                    ::std::string::ToString::to_string(&<#key_ty as #krate::TimeToLive>::epoch_seconds(__value)),
                )))
            }
        };
    }
    let serde_path = serde_crate(krate);
    let serde = &field.serde;
    if !serde.custom_serialize() {
        return quote! {
            #[allow(non_snake_case)]
            fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<#krate::__private::AttributeValue>, #krate::__private::serde_dynamo::Error> {
                #[derive(#krate::__private::serde::Serialize)]
                #[serde(crate = #serde_path)]
                struct __Wrapper<'__stamp> {
                    #[serde(rename = "v")]
                    v: &'__stamp #key_ty,
                }
                #krate::__private::encode_field(&__Wrapper { v: __value })
            }
        };
    }
    let serialize = match (&serde.with, &serde.serialize_with) {
        (Some(with), _) => {
            let path: syn::Path = with.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
            Some(quote!(#path::serialize))
        }
        (None, Some(path)) => {
            let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
            Some(quote!(#path))
        }
        (None, None) => None,
    };
    let serialize_helper = serialize.map(|path| {
        quote! {
            fn __serialize<__S: #krate::__private::serde::Serializer>(__value: &&#ty, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                #path(*__value, __serializer)
            }
        }
    });
    let skip_helper = serde.skip_serializing_if.as_ref().map(|path| {
        let path: syn::Path = path.parse().unwrap_or_else(|_| syn::parse_quote!(invalid));
        quote! {
            fn __skip(__value: &&#ty) -> bool {
                #path(*__value)
            }
        }
    });
    let serialize_attribute = serialize_helper
        .as_ref()
        .map(|_| quote!(#[serde(serialize_with = "__serialize")]));
    let skip_attribute = skip_helper
        .as_ref()
        .map(|_| quote!(#[serde(skip_serializing_if = "__skip")]));
    // The wrapper holds the field's own type, so an `Option` field's value is
    // rebuilt as `Some` (a clone) for its serializer.
    let value = if field.option_inner.is_some() {
        quote_spanned! {key_ty.span()=>
            &::core::option::Option::Some(::core::clone::Clone::clone(__value))
        }
    } else {
        quote!(__value)
    };
    quote! {
        #[allow(non_snake_case)]
        fn #name(__value: &#key_ty) -> ::core::result::Result<::core::option::Option<#krate::__private::AttributeValue>, #krate::__private::serde_dynamo::Error> {
            #serialize_helper
            #skip_helper
            #[derive(#krate::__private::serde::Serialize)]
            #[serde(crate = #serde_path)]
            struct __Wrapper<'__stamp> {
                #[serde(rename = "v")]
                #serialize_attribute
                #skip_attribute
                v: &'__stamp #ty,
            }
            #krate::__private::encode_field(&__Wrapper { v: #value })
        }
    }
}

/// The decoder of one field used in a GSI template: its stored attribute
/// value (absent or `NULL` for none) back to the field's type, through the
/// field's own serde attributes; a TTL from epoch seconds.
fn field_decoder(container: &Container, field: &Field) -> TokenStream {
    let krate = &container.krate;
    let name = decoder_name(field);
    let ty = field.ty;
    if field.ttl.is_some() {
        let key_ty = field.key_type();
        let wrap = if field.option_inner.is_some() {
            quote!(::core::option::Option::Some(__value))
        } else {
            quote!(__value)
        };
        return quote_spanned! {ty.span()=>
            #[allow(non_snake_case)]
            fn #name(__stored: ::core::option::Option<&#krate::__private::AttributeValue>) -> ::core::result::Result<#ty, #krate::__private::serde_dynamo::Error> {
                let __value: #key_ty = #krate::__private::decode_time_to_live(__stored, <#key_ty as #krate::TimeToLive>::from_epoch_seconds)?;
                ::core::result::Result::Ok(#wrap)
            }
        };
    }
    let serde_path = serde_crate(krate);
    let serde = &field.serde;
    let with = serde
        .with
        .as_ref()
        .map(|with| quote!(#[serde(with = #with)]));
    let deserialize_with = serde
        .deserialize_with
        .as_ref()
        .filter(|_| serde.with.is_none())
        .map(|path| quote!(#[serde(deserialize_with = #path)]));
    let default = field
        .option_inner
        .is_some()
        .then(|| quote!(#[serde(default)]));
    quote! {
        #[allow(non_snake_case)]
        fn #name(__stored: ::core::option::Option<&#krate::__private::AttributeValue>) -> ::core::result::Result<#ty, #krate::__private::serde_dynamo::Error> {
            #[derive(#krate::__private::serde::Deserialize)]
            #[serde(crate = #serde_path)]
            struct __Wrapper {
                #[serde(rename = "v")]
                #with
                #deserialize_with
                #default
                v: #ty,
            }
            #krate::__private::decode_field(__stored).map(|__wrapper: __Wrapper| __wrapper.v)
        }
    }
}
