//! The actions of an update and the values they take: [`Number`]s for
//! `ADD`, [`Set`]s for `ADD` and `DELETE`, each value encoded as `to_item`
//! encodes its field.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::expression::{Attribute, Path};

pub(super) type Value = Result<AttributeValue, String>;

/// One action on a document path (a top-level attribute, or a path below
/// one).
#[derive(Debug, Clone)]
pub(super) enum Action {
    Set(Path, Value),
    SetIfNotExists(Path, Value),
    Remove(Path),
    Add(Path, Value),
    Subtract(Path, Value),
    Append(Path, Value),
    /// `list_append(values, if_not_exists(path, []))`: values first.
    Prepend(Path, Value),
    Delete(Path, Value),
}

impl Action {
    pub(super) fn value(&self) -> Option<&Value> {
        match self {
            Action::Remove(_) => None,
            Action::Set(_, value)
            | Action::SetIfNotExists(_, value)
            | Action::Add(_, value)
            | Action::Subtract(_, value)
            | Action::Append(_, value)
            | Action::Prepend(_, value)
            | Action::Delete(_, value) => Some(value),
        }
    }

    /// Whether the attribute exists after the action whether or not it
    /// existed before (`ADD` and a subtraction start from 0, an append from
    /// the empty list): what an upsert that creates the item needs of each
    /// field that is not an `Option`. Never for a path below the
    /// attribute, which needs its parent to exist.
    pub(super) fn creates_attribute(&self) -> bool {
        !self.path().is_nested()
            && matches!(
                self,
                Action::Set(..)
                    | Action::SetIfNotExists(..)
                    | Action::Add(..)
                    | Action::Subtract(..)
                    | Action::Append(..)
                    | Action::Prepend(..)
            )
    }

    /// The document path the action changes.
    pub(super) fn path(&self) -> &Path {
        match self {
            Action::Set(path, _)
            | Action::SetIfNotExists(path, _)
            | Action::Remove(path)
            | Action::Add(path, _)
            | Action::Subtract(path, _)
            | Action::Append(path, _)
            | Action::Prepend(path, _)
            | Action::Delete(path, _) => path,
        }
    }

    /// The top-level attribute the action changes (all of it, or a path
    /// below it).
    pub(super) fn attribute(&self) -> &'static str {
        self.path().top_name()
    }
}

/// Numbers, which `ADD` increments (or decrements, with a negative value).
pub trait Number: Serialize {}

macro_rules! numbers {
    ($($ty:ty),*) => {$(impl Number for $ty {})*};
}

numbers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

/// Sets of strings or numbers, stored as DynamoDB `SS` / `NS`, which `ADD`
/// and `DELETE` change element by element.
pub trait Set {
    /// The set as an `SS` or `NS` value; `None` when it is empty (DynamoDB
    /// refuses empty sets).
    fn to_set_value(&self) -> Option<AttributeValue>;
}

macro_rules! string_sets {
    ($($set:ident),*) => {$(
        impl Set for std::collections::$set<String> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ss(self.iter().cloned().collect()))
            }
        }
    )*};
}

macro_rules! number_sets {
    ($($ty:ty),*) => {$(
        impl Set for std::collections::HashSet<$ty> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ns(self.iter().map(ToString::to_string).collect()))
            }
        }
        impl Set for std::collections::BTreeSet<$ty> {
            fn to_set_value(&self) -> Option<AttributeValue> {
                (!self.is_empty()).then(|| AttributeValue::Ns(self.iter().map(ToString::to_string).collect()))
            }
        }
    )*};
}

string_sets!(HashSet, BTreeSet);
number_sets!(u8, u16, u32, u64, i8, i16, i32, i64);

/// The encoded value of `value` for an action that needs an attribute
/// value of one of `kinds` (`what` names them in the error).
pub(super) fn typed_value<E, T: Serialize, K>(
    attribute: &Attribute<E, T, K>,
    value: &T,
    what: &str,
    fits: fn(&AttributeValue) -> bool,
) -> Value {
    match attribute.encode(value)? {
        Some(encoded) if fits(&encoded) => Ok(encoded),
        Some(other) => Err(format!(
            "`{}` is stored as {}, so it takes no {what}",
            attribute.path(),
            describe_type(&other)
        )),
        None => Err(format!(
            "{what} for `{}` is empty (DynamoDB refuses empty sets and has nothing to add)",
            attribute.path()
        )),
    }
}

fn describe_type(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a String (S)",
        AttributeValue::N(_) => "a Number (N)",
        AttributeValue::B(_) => "a Binary (B)",
        AttributeValue::Bool(_) => "a Boolean (BOOL)",
        AttributeValue::L(_) => "a List (L)",
        AttributeValue::M(_) => "a Map (M)",
        AttributeValue::Ss(_) => "a String Set (SS)",
        AttributeValue::Ns(_) => "a Number Set (NS)",
        AttributeValue::Bs(_) => "a Binary Set (BS)",
        _ => "another type",
    }
}

pub(super) fn is_set(value: &AttributeValue) -> bool {
    matches!(
        value,
        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
    )
}
