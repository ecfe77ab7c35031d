//! `serde_json::Value` fields and serde_json's `arbitrary_precision`.
//!
//! With serde_json's `arbitrary_precision` feature on anywhere in the
//! dependency graph (cargo unifies features, so one crate is enough), a
//! `serde_json::Number` serializes as a one-field struct
//! `{"$serde_json::private::Number": "…"}`, which serde_dynamo stores as a
//! map (serde_dynamo issue #90): every number of a JSON field would be
//! stored as `M` and read back as an object. Stamp stores numbers as `N`
//! either way: [`to_attribute_value`] and [`to_item`], which every
//! serialization through serde_dynamo in Stamp goes through, turn such
//! maps back into Numbers (when the feature is on, which
//! [`arbitrary_precision`] finds out once), and `Value` fields are encoded
//! and decoded directly ([`AttributeCodec`]), numbers kept exactly as
//! their text (a 23-digit integer stays 23 digits with the feature, as
//! serde_json keeps it).

use std::sync::LazyLock;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;
use serde_json::{Map, Number, Value};

use super::AttributeCodec;
use crate::model::entity::AttributeMap;

/// The field and struct name serde_json gives a `Number` under
/// `arbitrary_precision`.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether serde_json's `arbitrary_precision` is on in this build: a
/// 23-digit integer keeps its digits only then.
pub fn arbitrary_precision() -> bool {
    static ON: LazyLock<bool> = LazyLock::new(|| {
        const DIGITS: &str = "12345678901234567890123";
        DIGITS
            .parse::<Number>()
            .is_ok_and(|number| number.to_string() == DIGITS)
    });
    *ON
}

/// `serde_dynamo::to_attribute_value`, with serde_json's numbers as `N`.
///
/// # Errors
///
/// serde_dynamo's.
pub fn to_attribute_value<T: Serialize + ?Sized>(
    value: &T,
) -> Result<AttributeValue, serde_dynamo::Error> {
    let mut value = serde_dynamo::to_attribute_value(value)?;
    if arbitrary_precision() {
        restore_numbers(&mut value);
    }
    Ok(value)
}

/// `serde_dynamo::to_item`, with serde_json's numbers as `N`.
///
/// # Errors
///
/// serde_dynamo's.
pub fn to_item<T: Serialize + ?Sized>(value: &T) -> Result<AttributeMap, serde_dynamo::Error> {
    let mut item: AttributeMap = serde_dynamo::to_item(value)?;
    if arbitrary_precision() {
        item.values_mut().for_each(restore_numbers);
    }
    Ok(item)
}

/// Turns every `{"$serde_json::private::Number": S(text)}` inside `value`
/// into `N(text)`.
pub fn restore_numbers(value: &mut AttributeValue) {
    match value {
        AttributeValue::M(map) => {
            if map.len() == 1
                && let Some(AttributeValue::S(text)) = map.get(NUMBER_TOKEN)
            {
                *value = AttributeValue::N(text.clone());
                return;
            }
            map.values_mut().for_each(restore_numbers);
        }
        AttributeValue::L(list) => list.iter_mut().for_each(restore_numbers),
        _ => {}
    }
}

/// A number's stored text: exactly serde_json's text under
/// `arbitrary_precision`, else what serde_dynamo writes for the `u64`,
/// `i64` or `f64` inside.
fn number_text(number: &Number) -> String {
    if arbitrary_precision() {
        return number.to_string();
    }
    if let Some(value) = number.as_u64() {
        value.to_string()
    } else if let Some(value) = number.as_i64() {
        value.to_string()
    } else {
        number.as_f64().unwrap_or(f64::NAN).to_string()
    }
}

/// A Number read back: exactly its text under `arbitrary_precision`, else
/// as serde_dynamo reads one into a `Value` (`i64`, then `u64`, then
/// `f64`; a NaN is `null`).
fn number_value(text: String) -> Result<Value, serde_dynamo::Error> {
    if arbitrary_precision() {
        return text
            .parse::<Number>()
            .map(Value::Number)
            .map_err(<serde_dynamo::Error as serde::de::Error>::custom);
    }
    if let Ok(value) = text.parse::<i64>() {
        Ok(Value::from(value))
    } else if let Ok(value) = text.parse::<u64>() {
        Ok(Value::from(value))
    } else {
        let value = text
            .parse::<f64>()
            .map_err(<serde_dynamo::Error as serde::de::Error>::custom)?;
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }
}

/// A JSON value as serde_dynamo stores it without `arbitrary_precision`:
/// `null` as `NULL`, booleans as `BOOL`, numbers as `N`, strings as `S`,
/// arrays as `L`, objects as `M`; with it too (numbers as `N`, their text
/// exact).
impl AttributeCodec for Value {
    fn to_attribute(&self) -> AttributeValue {
        match self {
            Value::Null => AttributeValue::Null(true),
            Value::Bool(value) => AttributeValue::Bool(*value),
            Value::Number(number) => AttributeValue::N(number_text(number)),
            Value::String(text) => AttributeValue::S(text.clone()),
            Value::Array(values) => {
                AttributeValue::L(values.iter().map(AttributeCodec::to_attribute).collect())
            }
            Value::Object(map) => AttributeValue::M(
                map.iter()
                    .map(|(key, value)| (key.clone(), value.to_attribute()))
                    .collect(),
            ),
        }
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::N(text) => number_value(text),
            AttributeValue::Ns(set) => set
                .into_iter()
                .map(number_value)
                .collect::<Result<_, _>>()
                .map(Value::Array),
            AttributeValue::L(list) => list
                .into_iter()
                .map(Value::from_attribute)
                .collect::<Result<_, _>>()
                .map(Value::Array),
            AttributeValue::M(map) => map
                .into_iter()
                .map(|(key, value)| Ok((key, Value::from_attribute(value)?)))
                .collect::<Result<Map<_, _>, _>>()
                .map(Value::Object),
            other => serde_dynamo::from_attribute_value(other),
        }
    }

    fn from_set_string(value: String) -> Result<Self, serde_dynamo::Error> {
        Ok(Value::String(value))
    }

    fn from_set_number(value: String) -> Result<Self, serde_dynamo::Error> {
        number_value(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json's `Number` serializes as under
    /// `arbitrary_precision`, which serde_dynamo stores as a map.
    #[test]
    fn a_private_number_map_becomes_a_number() {
        let mut value = AttributeValue::L(vec![AttributeValue::M(
            [(
                NUMBER_TOKEN.to_owned(),
                AttributeValue::S("12345678901234567890123".to_owned()),
            )]
            .into(),
        )]);
        restore_numbers(&mut value);
        assert_eq!(
            value,
            AttributeValue::L(vec![AttributeValue::N("12345678901234567890123".into())])
        );
    }
}
