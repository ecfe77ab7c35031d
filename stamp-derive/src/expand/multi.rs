//! Multi-attribute GSIs, `#[gsiN(pk(a, b), sk(c, d))]`: their
//! `IndexSchema`s in `SCHEMA`, `query_gsiN(…)` over every
//! partition-key field, and `impl SortAttributes` for each leading run of
//! the sort-key fields (`()`, `(&c,)`, `(&c, &d)`), whose `Next` is the type
//! of the field after the run. The key attributes are the fields
//! themselves, stored by `to_item` as any field, so nothing is added to the
//! item.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::check::{Model, MultiIndexKeys, Stored};
use crate::expand::IndexRef;
use crate::expand::codecs::encode_call;
use crate::expand::keys::{KeyInputs, input_name, key_inputs};
use crate::names;

/// The `IndexSchema`s of the multi-attribute GSIs, which `SCHEMA.indexes`
/// lists after the template GSIs. Each field's type is
/// named in `<T as IndexKeyAttribute>::TYPE`, spanned at the type, so a type
/// that is not S, N or B gets the trait's message at the field.
pub fn schema_tokens(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    let indexes = model.multi_indexes.iter().map(|index| {
        let number = index.number;
        let name = &index.index.name;
        let fields = |fields: &[Stored]| {
            let fields = fields.iter().map(|Stored { field, attribute }| {
                let field_name = &field.name;
                let optional = field.option_inner.is_some();
                let ty = field.key_type();
                let attribute_type =
                    quote_spanned!(ty.span()=> <#ty as #krate::IndexKeyAttribute>::TYPE);
                quote! {
                    #krate::IndexKeyField {
                        field: #field_name,
                        attribute: #attribute,
                        attribute_type: #attribute_type,
                        optional: #optional,
                    }
                }
            });
            quote!(&[#(#fields),*])
        };
        let partition_key = fields(&index.pk);
        let sort_key = fields(&index.sk);
        let partition_source = format!(
            "({})",
            index
                .pk
                .iter()
                .map(|stored| stored.field.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let read_method = names::query_gsi(number);
        quote! {
            #krate::IndexSchema {
                number: #number,
                name: #name,
                kind: #krate::IndexKind::Global { shards: ::core::option::Option::None },
                read_method: #read_method,
                key: #krate::IndexKeySchema::Attributes {
                    partition_key: #partition_key,
                    sort_key: #sort_key,
                    partition_source: #partition_source,
                },
            }
        }
    });
    indexes.collect()
}

/// The fields of a list of key attributes.
fn fields<'a>(stored: &[Stored<'a>]) -> Vec<&'a Field<'a>> {
    stored.iter().map(|stored| stored.field).collect()
}

/// The expression of one key attribute value, from the binding named after
/// the field (`&str` for a `String`, else `&T`), as `to_item` stores it:
/// a `Result` of the attribute value.
fn encoded_value(model: &Model, stored: &Stored, binding: TokenStream) -> TokenStream {
    let krate = model.krate;
    let Stored { field, attribute } = stored;
    let ty = field.key_type();
    let value = if field.is_string() {
        quote!(&::std::string::String::from(#binding))
    } else {
        binding
    };
    let encode = encode_call(model, field, value);
    quote_spanned! {ty.span()=>
        __stamp::index_key_value(
            __schema,
            #attribute,
            <#ty as #krate::IndexKeyAttribute>::TYPE,
            #encode,
        )
    }
}

/// The name of a multi-attribute index's query-input struct.
fn partition_input(model: &Model, index: &MultiIndexKeys) -> syn::Ident {
    input_name(model, &names::gsi_partition_input(index.number))
}

/// The attribute names of some key fields, for documentation.
fn attribute_list(stored: &[Stored]) -> String {
    stored
        .iter()
        .map(|stored| format!("`{}`", stored.attribute))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `query_gsiN(…)` of every multi-attribute index, and the input structs of
/// those that take their fields by name.
pub fn query_functions(model: &Model) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let krate = model.krate;
    let ident = model.ident;
    let mut functions = Vec::new();
    let mut definitions = Vec::new();
    for index in &model.multi_indexes {
        let number = index.number;
        let function = names::ident(&names::query_gsi(number));
        let KeyInputs {
            parameters,
            unpack,
            definition,
            ..
        } = key_inputs(
            model.container,
            &fields(&index.pk),
            partition_input(model, index),
            &format!("the partition key of index `{}`", index.index.name),
        );
        definitions.extend(definition);
        let values = index.pk.iter().map(|stored| {
            let binding = stored.field.ident;
            let value = encoded_value(model, stored, quote!(#binding));
            quote!(#value?)
        });
        let sort = if index.sk.is_empty() {
            "The index has no sort key.".to_owned()
        } else {
            format!(
                "Sort-key attributes {}: add `sort_eq((&a,))` for `=` on a leading run of them, or `sort_lt`, \
                 `sort_le`, `sort_gt`, `sort_ge`, `sort_between` or `sort_begins_with` with the run (`()` for none) \
                 and a value of the attribute after it. A run that skips an attribute, or a range before the last \
                 attribute, does not compile, and neither does a second condition: each returns the `Query`.",
                attribute_list(&index.sk)
            )
        };
        let doc = format!(
            "A query of `{ident}` items on the multi-attribute index `{}`: every partition-key attribute, {}, \
             with `=`.\n\n{sort} Values are sent with their native types (integers as Numbers); nothing is sent \
             until `send`, `stream` or `count`.\n\n\
             See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.MultiAttributeKeys>.",
            index.index.name,
            attribute_list(&index.pk),
        );
        let marker = IndexRef::Gsi(index.number).marker(krate);
        functions.push(quote! {
            #[doc = #doc]
            #[inline]
            pub fn #function(#(#parameters),*) -> #krate::MultiAttributeQuery<Self, #marker> {
                #unpack
                let __schema = <Self as #krate::Entity>::SCHEMA;
                let __values = (|| -> ::core::result::Result<
                    ::std::vec::Vec<__stamp::AttributeValue>,
                    #krate::Error,
                > {
                    ::core::result::Result::Ok(::std::vec![#(#values),*])
                })();
                #krate::MultiAttributeQuery::new(__values)
            }
        });
    }
    (functions, definitions)
}

/// The parameter type of a sort-key field in a run: `&'__a str` or
/// `&'__a T`.
fn run_type(field: &Field) -> TokenStream {
    if field.is_string() {
        quote!(&'__a str)
    } else {
        let ty = field.key_type();
        quote!(&'__a #ty)
    }
}

/// `impl SortAttributes<E, Gsi<N>>` for every leading run of every
/// multi-attribute index's sort-key fields, the empty run included.
pub fn sort_impls(model: &Model) -> Vec<TokenStream> {
    let krate = model.krate;
    let ident = model.ident;
    let mut impls = Vec::new();
    for index in &model.multi_indexes {
        let marker = IndexRef::Gsi(index.number).marker(krate);
        if index.sk.is_empty() {
            continue;
        }
        for count in 0..=index.sk.len() {
            let run = &index.sk[..count];
            let types: Vec<TokenStream> = run.iter().map(|stored| run_type(stored.field)).collect();
            let idents: Vec<&syn::Ident> = run.iter().map(|stored| stored.field.ident).collect();
            let values = run.iter().map(|stored| {
                let binding = stored.field.ident;
                let value = encoded_value(model, stored, quote!(#binding));
                quote!(#value?)
            });
            let (generics, self_type, body) = if count == 0 {
                (
                    quote!(),
                    quote!(()),
                    quote!(::core::result::Result::Ok(::std::vec::Vec::new())),
                )
            } else {
                (
                    quote!(<'__a>),
                    quote!((#(#types,)*)),
                    quote! {
                        let __schema = <#ident as #krate::Entity>::SCHEMA;
                        let (#(#idents,)*) = *self;
                        ::core::result::Result::Ok(::std::vec![#(#values),*])
                    },
                )
            };
            let (next, next_value) = match index.sk.get(count) {
                Some(stored) => {
                    let next = if stored.field.is_string() {
                        quote!(str)
                    } else {
                        let ty = stored.field.key_type();
                        quote!(#ty)
                    };
                    let value = encoded_value(model, stored, quote!(__next));
                    (
                        next,
                        quote! {
                            let __schema = <#ident as #krate::Entity>::SCHEMA;
                            #value
                        },
                    )
                }
                None => (
                    quote!(#krate::NoSortAttributeLeft),
                    quote!(match *__next {}),
                ),
            };
            impls.push(quote! {
                #[automatically_derived]
                impl #generics #krate::SortAttributes<#ident, #marker> for #self_type {
                    type Next = #next;

                    #[inline]
                    fn values(&self) -> ::core::result::Result<::std::vec::Vec<__stamp::AttributeValue>, #krate::Error> {
                        #body
                    }

                    #[inline]
                    fn next_value(__next: &Self::Next) -> ::core::result::Result<__stamp::AttributeValue, #krate::Error> {
                        #next_value
                    }
                }
            });
        }
    }
    impls
}

/// The query functions of multi-attribute indexes that take a named input
/// struct, and its name, for `SCHEMA.named_inputs`.
pub fn named_inputs(model: &Model) -> Vec<(String, syn::Ident)> {
    model
        .multi_indexes
        .iter()
        .filter(|index| crate::expand::keys::ambiguous(&fields(&index.pk)))
        .map(|index| {
            (
                names::query_gsi(index.number),
                partition_input(model, index),
            )
        })
        .collect()
}
