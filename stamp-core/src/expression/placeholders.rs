//! [`Placeholders`]: the `#nN` names and `:vN` values of one request.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::condition::Value;
use crate::error::Error;
use crate::error::Refusal;

/// The `#name` and `:value` placeholders of one request, shared by its
/// key condition, filter, condition, update and projection expressions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Placeholders {
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
}

impl Placeholders {
    /// The placeholder of attribute `name` (the same one each time).
    pub fn name(&mut self, name: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, known)| *known == name) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    /// A new placeholder for `value`.
    ///
    /// # Errors
    ///
    /// [`Refusal::InvalidExpressionValue`] when the value could not be
    /// serialized.
    pub(super) fn value(&mut self, value: &Value) -> Result<String, Error> {
        let value = value
            .clone()
            .map_err(|detail| Error::Refused(Refusal::InvalidExpressionValue { detail }))?;
        // A Number DynamoDB cannot hold (NaN, 39 digits) is refused here,
        // before sending, as in an item.
        crate::item::check::check_value("expression", "value", &value).map_err(|error| {
            Error::Refused(Refusal::InvalidExpressionValue {
                detail: error.to_string(),
            })
        })?;
        Ok(self.add_value(value))
    }

    /// A new placeholder for an attribute value.
    pub fn add_value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The optimistic-locking condition `attribute = version` on a
    /// `#[stamp(version)]` attribute (a Number), such as `#n0 = :v0`: the
    /// one rendering of a version check, for puts, updates, deletes and
    /// re-keys.
    pub(crate) fn version_is(&mut self, attribute: &str, version: u64) -> String {
        let name = self.name(attribute);
        let value = self.add_value(AttributeValue::N(version.to_string()));
        format!("{name} = {value}")
    }

    /// The `ExpressionAttributeNames` map, `None` when empty.
    pub fn names(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// The `ExpressionAttributeValues` map, `None` when empty.
    pub fn values(&self) -> Option<HashMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }
}
