//! [`AttributeCodec`] for `Option`, lists, sets and maps of the types in
//! the parent module, as serde_dynamo stores them.

use super::*;

/// `NULL` for `None` (serde_dynamo's `serialize_none`), which a stored item
/// leaves out at the top level; an absent attribute reads as `None`.
impl<T: AttributeCodec> AttributeCodec for Option<T> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn to_attribute(&self) -> AttributeValue {
        match self {
            Some(value) => value.to_attribute(),
            None => AttributeValue::Null(true),
        }
    }

    #[inline]
    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        match self {
            Some(value) => value.try_to_attribute(),
            None => Ok(AttributeValue::Null(true)),
        }
    }

    #[inline]
    fn checked_size(&self, stored: &AttributeValue) -> Option<usize> {
        match self {
            Some(value) => value.checked_size(stored),
            None => Some(1),
        }
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        match value {
            AttributeValue::Null(true) => Ok(None),
            other => T::from_attribute(other).map(Some),
        }
    }

    fn from_missing(_field: &'static str) -> Result<Self, serde_dynamo::Error> {
        Ok(None)
    }
}

/// A list `L` of `elements`, each refused as its type refuses it; for a
/// type that refuses nothing, `all` (the infallible form).
fn try_list<'a, T: AttributeCodec + 'a>(
    elements: impl Iterator<Item = &'a T>,
    all: impl FnOnce() -> AttributeValue,
) -> Result<AttributeValue, serde_dynamo::Error> {
    if !T::OWN_FORM {
        return Ok(all());
    }
    elements
        .map(T::try_to_attribute)
        .collect::<Result<_, _>>()
        .map(AttributeValue::L)
}

/// The elements of a sequence as serde_dynamo's `deserialize_seq` gives
/// them: a list, or the elements of a string, number or binary set.
fn elements<T: AttributeCodec, C: FromIterator<T>>(
    value: AttributeValue,
) -> Result<C, serde_dynamo::Error> {
    match value {
        AttributeValue::L(list) => list.into_iter().map(T::from_attribute).collect(),
        AttributeValue::Ss(set) => set.into_iter().map(T::from_set_string).collect(),
        AttributeValue::Ns(set) => set.into_iter().map(T::from_set_number).collect(),
        AttributeValue::Bs(set) => set
            .into_iter()
            .map(|blob: Blob| T::from_set_binary(blob.into_inner()))
            .collect(),
        other => Err(unexpected("seq", &other)),
    }
}

/// A list `L` (serde writes every sequence as one; the set types of
/// DynamoDB take `#[serde(with = "serde_dynamo::string_set")]`).
impl<T: AttributeCodec> AttributeCodec for Vec<T> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::L(self.iter().map(T::to_attribute).collect())
    }

    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        try_list::<T>(self.iter(), || self.to_attribute())
    }

    // A list's size (3 bytes, and each element's size and 1), each
    // element by its own type.
    fn checked_size(&self, stored: &AttributeValue) -> Option<usize> {
        let AttributeValue::L(values) = stored else {
            return crate::item::check::checked_size(stored);
        };
        // Nested lists and maps go through the one check that counts
        // their nesting levels (an element's own codec sees it as an
        // attribute's value, one level too high).
        if values
            .iter()
            .any(|value| matches!(value, AttributeValue::L(_) | AttributeValue::M(_)))
        {
            return crate::item::check::checked_size(stored);
        }
        let mut total = 3;
        for (element, value) in self.iter().zip(values) {
            total += element.checked_size(value)? + 1;
        }
        Some(total)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        elements(value)
    }
}

impl<T: AttributeCodec + Eq + Hash, S: BuildHasher + Default> AttributeCodec for HashSet<T, S> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::L(self.iter().map(T::to_attribute).collect())
    }

    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        try_list::<T>(self.iter(), || self.to_attribute())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        elements(value)
    }
}

impl<T: AttributeCodec + Ord> AttributeCodec for BTreeSet<T> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::L(self.iter().map(T::to_attribute).collect())
    }

    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        try_list::<T>(self.iter(), || self.to_attribute())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        elements(value)
    }
}

/// The entries of a map `M` (serde_dynamo's `deserialize_map`).
fn entries<T: AttributeCodec, C: FromIterator<(String, T)>>(
    value: AttributeValue,
) -> Result<C, serde_dynamo::Error> {
    match value {
        AttributeValue::M(map) => map
            .into_iter()
            .map(|(key, value)| Ok((key, T::from_attribute(value)?)))
            .collect(),
        other => Err(unexpected("map", &other)),
    }
}

impl<T: AttributeCodec, S: BuildHasher + Default> AttributeCodec for HashMap<String, T, S> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        if !T::OWN_FORM {
            return Ok(self.to_attribute());
        }
        self.iter()
            .map(|(key, value)| Ok((key.clone(), value.try_to_attribute()?)))
            .collect::<Result<_, _>>()
            .map(AttributeValue::M)
    }

    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::M(
            self.iter()
                .map(|(key, value)| (key.clone(), value.to_attribute()))
                .collect(),
        )
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        entries(value)
    }
}

impl<T: AttributeCodec> AttributeCodec for BTreeMap<String, T> {
    const OWN_FORM: bool = T::OWN_FORM;

    fn try_to_attribute(&self) -> Result<AttributeValue, serde_dynamo::Error> {
        if !T::OWN_FORM {
            return Ok(self.to_attribute());
        }
        self.iter()
            .map(|(key, value)| Ok((key.clone(), value.try_to_attribute()?)))
            .collect::<Result<_, _>>()
            .map(AttributeValue::M)
    }

    fn to_attribute(&self) -> AttributeValue {
        AttributeValue::M(
            self.iter()
                .map(|(key, value)| (key.clone(), value.to_attribute()))
                .collect(),
        )
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, serde_dynamo::Error> {
        entries(value)
    }
}
