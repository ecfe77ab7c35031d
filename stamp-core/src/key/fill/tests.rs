use super::*;
use crate::key::part::KeyPart;
use crate::key::template::Segment::{Field, Literal};
use crate::model::entity::PreviousKeyFormat;
use crate::model::statics::{key_attribute, template};

static SCHEMA: EntitySchema = EntitySchema {
    type_name: "Order",
    type_attribute: "Type",
    partition_key: key_attribute(
        "PK",
        "CUST#<customer>",
        &[Literal("CUST#"), Field("customer")],
    ),
    sort_key: key_attribute(
        "SK",
        "ORDER#<number>#<code>",
        &[
            Literal("ORDER#"),
            Field("number"),
            Literal("#"),
            Field("code"),
        ],
    ),
    indexes: &[],
    fields: &[],
    ttl_attribute: None,
    field_attributes: &[],
    version_attribute: None,
    created_at_attribute: None,
    updated_at_attribute: None,
    write_once_attributes: &[],
    unique_values: &[],
    previous_key: Some(PreviousKeyFormat {
        partition_key: template("C#<customer>", &[Literal("C#"), Field("customer")]),
        sort_key: template("O#<number>", &[Literal("O#"), Field("number")]),
    }),
    key_fields: &[],
    named_inputs: &[],
};

#[test]
fn a_key_is_its_template_filled_in_order_with_each_value_escaped() {
    let number = 7_u32;
    let key = build_key(
        &SCHEMA,
        At::Sk,
        &[number.__stamp_key_arg(), KeyArg::Str("a b")],
    );
    assert_eq!(key.unwrap(), "ORDER#0000000007#a%20b");
    let key = build_key(&SCHEMA, At::PreviousPk, &[KeyArg::Str("c-1")]);
    assert_eq!(key.unwrap(), "C#c-1");
}

#[test]
fn a_prefix_ends_after_the_literal_that_follows_its_last_field() {
    let number = 7_u32;
    let prefix = key_prefix(&SCHEMA, At::Sk, &[number.__stamp_key_arg()]).unwrap();
    assert_eq!(
        (prefix.text.as_str(), prefix.complete),
        ("ORDER#0000000007#", false)
    );
    let all = [number.__stamp_key_arg(), KeyArg::Str("x")];
    let prefix = key_prefix(&SCHEMA, At::Sk, &all).unwrap();
    assert_eq!(
        (prefix.text.as_str(), prefix.complete),
        ("ORDER#0000000007#x", true)
    );
}

#[test]
fn an_empty_value_is_refused_with_its_field() {
    let error = build_key(&SCHEMA, At::Pk, &[KeyArg::Str("")]).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Key(KeyError::EmptyKeyValue {
                entity: "Order",
                field: "customer"
            })
        ),
        "{error:?}"
    );
}

#[test]
fn a_split_key_gives_each_field_back_by_type() {
    let key = split_key(&SCHEMA, At::Sk, "ORDER#0000000007#a%20b").unwrap();
    assert_eq!(u32::__stamp_parse(&key, 0).unwrap(), 7);
    assert_eq!(String::__stamp_parse(&key, 1).unwrap(), "a b");
}
